use super::*;
use crate::play::session::{Next, Seat, Session};
use crate::play::view::{Label, MeldView, ScoreView, SeatView, SideView, TableView};
use canasta_core::{CardCounts, Phase, Rng, Rules};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The frame's text, one string per row.
pub(crate) fn draw(screen: &Screen, width: u16, height: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| render(f, screen)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect())
        .collect()
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

fn label(long: &str, short: &str) -> Label {
    Label {
        long: long.into(),
        short: short.into(),
    }
}

fn seat(long: &str, n: usize) -> SeatView {
    let short = long.split(" (").next().unwrap();
    SeatView {
        label: label(long, if long.contains("you") { "you" } else { short }),
        team: 0,
        cards: n,
        foot: 0,
        red_threes: Vec::new(),
        hand: None,
    }
}

/// A table with a canasta of each kind, a frozen pile and red threes.
fn table() -> TableView {
    let hand = CardCounts::from_cards(cards("4H 4C 9S KS KD 2C JK"));
    let mut seats = vec![
        seat("seat 0 (you)", 7),
        seat("seat 1 (ismcts)", 9),
        seat("seat 2 (ismcts)", 4),
        seat("seat 3 (ismcts)", 11),
    ];
    seats[0].hand = Some(hand);
    seats[1].red_threes = cards("3H 3D");
    let meld = |index, text: &str, canasta: Option<&str>| MeldView {
        index,
        cards: text.into(),
        compact: text.into(),
        tiny: text.into(),
        len: text.split_whitespace().count(),
        canasta: canasta.map(str::to_string),
        sequence: false,
    };
    TableView {
        title: "Classic Canasta, 4 players in 2 teams, target 5000".into(),
        target: 5000,
        hands_played: 2,
        phase: Phase::Play,
        dealer: 2,
        current: 0,
        to_act: 0,
        viewer: Some(0),
        seats,
        sides: vec![
            SideView {
                side: 0,
                label: label("team 0 (seats 0, 2)", "team 0"),
                seats: vec![0, 2],
                melds: vec![
                    meld(0, "KS KS KH KH KD KC KC", Some("natural canasta")),
                    meld(1, "7H 7D 7C", None),
                ],
                opening_needed: None,
                own: true,
            },
            SideView {
                side: 1,
                label: label("team 1 (seats 1, 3)", "team 1"),
                seats: vec![1, 3],
                melds: vec![meld(0, "2S 9H 9H 9D 9C 9C JK", Some("mixed canasta"))],
                opening_needed: None,
                own: false,
            },
        ],
        scores: vec![
            ScoreView {
                label: label("team 0 (seats 0, 2)", "team 0"),
                score: 1234,
            },
            ScoreView {
                label: label("team 1 (seats 1, 3)", "team 1"),
                score: -85,
            },
        ],
        pile_top: Some("7C".parse().unwrap()),
        pile_size: 14,
        pile_hidden: 0,
        pile_note: Some(canasta_core::PileWords::Frozen {
            taker: canasta_core::pile_words::Taker::YourTeam,
            freeze: canasta_core::Freeze::ByCard,
            rank: canasta_core::Rank::Seven,
            need: 2,
            opening: None,
            hidden: 0,
        }),
        stock: 41,
        asked: false,
        answer: None,
        must_go_out: false,
        open_first: false,
    }
}

#[test]
fn the_table_shows_what_a_player_sees() {
    let view = table();
    let (groups, wilds) = crate::play::hand::hand_groups(view.seats[0].hand.as_ref().unwrap());
    let hand: Vec<Card> = groups.into_iter().flatten().chain(wilds).collect();
    let selected = [false, true, false, false, false, false, false];
    let log = vec!["seat 3: discard 7C".to_string()];
    let screen = Screen {
        view: Some(&view),
        cards: &hand,
        cursor: 2,
        selected: &selected,
        log: &log,
        message: "`discard 4H` is refused: 4H is not in your hand",
        refused: true,
        keys: "keys",
        ..Screen::default()
    };
    let text = draw(&screen, 120, 30).join("\n");
    for expected in [
        "natural canasta",
        "mixed canasta",
        "pile 14 cards, top 7C",
        "Frozen: only two natural sevens from hand take it",
        "stock 41",
        "team 0 (seats 0, 2) 1234",
        "team 1 (seats 1, 3) -85",
        "red threes: seat 1 3H 3D",
        "seat 3 (ismcts): 11 cards",
        "hand 3, dealer seat 2: seat 0 (you) to meld, add or discard",
        " 4H [4C]| 9S | KS  KD  wild: 2C  JK ",
        "4H is not in your hand",
        "seat 3: discard 7C",
        "your hand, seat 0 (7 cards)",
    ] {
        assert!(
            text.contains(expected),
            "`{expected}` missing from:\n{text}"
        );
    }
    // The cursor's mark sits under the third card (9S).
    let rows = draw(&screen, 120, 30);
    let hand_row = rows.iter().position(|r| r.contains("[4C]")).unwrap();
    let col = rows[hand_row].find("9S").unwrap();
    assert_eq!(&rows[hand_row + 1][col - 1..col + 3], " ^^ ");
}

/// A hand wider than the screen wraps, the cursor mark under its card.
#[test]
fn a_long_hand_wraps() {
    let mut view = table();
    let long = cards("4H 4C 5S 5D 6S 6H 7C 7D 8S 8H 9C 9D TS TH JC JD QS QH KC KD AS AH 2C JK");
    view.seats[0].hand = Some(CardCounts::from_cards(long.iter().copied()));
    let (groups, wilds) = crate::play::hand::hand_groups(view.seats[0].hand.as_ref().unwrap());
    let hand: Vec<Card> = groups.into_iter().flatten().chain(wilds).collect();
    let screen = Screen {
        view: Some(&view),
        cards: &hand,
        cursor: 23,
        ..Screen::default()
    };
    let rows = draw(&screen, 60, 40);
    let text = rows.join("\n");
    assert!(text.contains("your hand, seat 0 (24 cards)"), "{text}");
    assert!(text.contains(" 4H  4C | 5S"), "{text}");
    assert!(text.contains("JK"), "the last card is on screen: {text}");
    let last = rows.iter().rposition(|r| r.contains(" JK ")).unwrap();
    let title = rows.iter().position(|r| r.contains("your hand")).unwrap();
    assert_eq!(last, title + 3, "JK on the hand's second row of cards");
    let col = rows[last].find(" JK ").unwrap();
    assert_eq!(&rows[last + 1][col..col + 4], " ^^ ");
}

#[test]
fn an_unopened_side_shows_its_opening_minimum() {
    let mut view = table();
    view.sides[1].melds.clear();
    view.sides[1].opening_needed = Some(90);
    view.pile_note = None;
    view.asked = true;
    view.answer = Some(true);
    let screen = Screen {
        view: Some(&view),
        ..Screen::default()
    };
    let text = draw(&screen, 120, 30).join("\n");
    assert!(text.contains("opening needs 90"), "{text}");
    assert!(text.contains("partner said yes: you must go out"), "{text}");
    assert!(text.contains("no melds"));
    assert!(!text.contains("FROZEN") && !text.contains("Frozen"));
}

/// The screen of seat 0 is the same whatever the cards it cannot see:
/// every other hand and the stock re-dealt at random change nothing.
#[test]
fn the_screen_never_shows_a_hidden_card() {
    let rules = Rules::classic();
    let seats = vec![
        Seat::Human,
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
    ];
    let mut session = Session::new(rules.clone(), seats, 11, 10).unwrap();
    let names: Vec<String> = session.seats().iter().map(|s| s.name().into()).collect();
    let mut checked = 0;
    let mut rng = Rng::new(5);
    while checked < 12 {
        match session.next() {
            Next::Deal => {
                session.deal().unwrap();
            }
            Next::Bot(_) => {
                session.play_bot().unwrap();
            }
            Next::Human(_) => {
                let real = TableView::new(&session.observe(0), &rules, &names);
                let sample = session
                    .state()
                    .determinize(canasta_core::Seat::new(0), &mut rng);
                assert_ne!(
                    sample.hand(canasta_core::Seat::new(1)),
                    session.state().hand(canasta_core::Seat::new(1)),
                    "a real re-deal"
                );
                let seen =
                    TableView::new(&sample.observe(canasta_core::Seat::new(0)), &rules, &names);
                let shot = |v: &TableView| {
                    draw(
                        &Screen {
                            view: Some(v),
                            ..Screen::default()
                        },
                        120,
                        30,
                    )
                };
                assert_eq!(shot(&real), shot(&seen));
                for other in 1..4 {
                    let hidden = crate::play::hand::hand_text(
                        session.state().hand(canasta_core::Seat::new(other)),
                    );
                    assert!(!shot(&real).join("\n").contains(&hidden));
                }
                let a = session.human_legal()[0];
                session.play_human(a).unwrap();
                checked += 1;
            }
            _ => break,
        }
    }
    assert_eq!(checked, 12);
}

/// A session of `rules` with seat 0 human, played by the heuristic for
/// every seat (the human's turns too) until `stop` holds at the human's
/// turn or `limit` actions have passed.
fn played(rules: Rules, seed: u64, limit: usize, stop: impl Fn(&Session) -> bool) -> Session {
    let mut seats = vec![Seat::Human];
    seats.extend((1..rules.game.players).map(|_| Seat::Bot("heuristic".into())));
    let mut session = Session::new(rules.clone(), seats, seed, 50).unwrap();
    let mut human = canasta_ai::bot_by_name("heuristic", seed).unwrap();
    let mut actions = 0;
    loop {
        match session.next() {
            Next::Deal => {
                session.deal().unwrap();
            }
            Next::Bot(_) => {
                session.play_bot().unwrap();
                actions += 1;
            }
            Next::Human(_) => {
                if actions >= limit || stop(&session) {
                    return session;
                }
                let legal = session.human_legal();
                let state = session.state();
                let a = human.choose(&canasta_ai::Decision::new(state, &legal));
                session.play_human(a).unwrap();
                actions += 1;
            }
            _ => return session,
        }
    }
}

fn screen_of(session: &Session) -> (TableView, Vec<Card>) {
    let names: Vec<String> = session.seats().iter().map(|s| s.name().into()).collect();
    let view = TableView::new(&session.observe(0), session.rules(), &names);
    let (groups, wilds) = crate::play::hand::hand_groups(&session.observe(0).hand);
    (view, groups.into_iter().flatten().chain(wilds).collect())
}

/// What must be on screen whole, at any size: every seat's card count
/// (and foot), every score, the stock and pile sizes, each side's box.
fn assert_nothing_cut(view: &TableView, text: &str, size: &str) {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for seat in &view.seats {
        let short = format!("{} {}", seat.label.short, seat.cards);
        let long = format!("{}: {}", seat.label.long, plural(seat.cards, "card"));
        assert!(
            flat.contains(&short) || flat.contains(&long),
            "{size}: `{short}` missing:\n{text}"
        );
        if seat.foot > 0 {
            assert!(
                flat.contains(&format!("{short}+{}", seat.foot))
                    || flat.contains(&format!("{long} + foot {}", seat.foot)),
                "{size}: the foot of {} missing:\n{text}",
                seat.label.long
            );
        }
    }
    for s in &view.scores {
        assert!(
            flat.contains(&format!("{} {}", s.label.short, s.score))
                || flat.contains(&format!("{} {}", s.label.long, s.score)),
            "{size}: score {} missing:\n{text}",
            s.score
        );
    }
    assert!(
        flat.contains(&format!("(target {})", view.target)),
        "{size}:\n{text}"
    );
    assert!(
        flat.contains(&format!("stock {}", view.stock)),
        "{size}:\n{text}"
    );
    assert!(flat.contains(&view.pile_words()), "{size}: pile:\n{text}");
    for side in &view.sides {
        assert!(
            text.contains(&side.label.short),
            "{size}: {}:\n{text}",
            side.label.short
        );
        if let Some(need) = side.opening_needed {
            assert!(
                flat.contains(&format!("needs {need}")),
                "{size}: opening of {}:\n{text}",
                side.label.long
            );
        }
    }
    // Every meld is on screen (in some form).
    assert!(!text.contains(" more"), "{size}: melds hidden:\n{text}");
    // The move list and the hand keep their rows.
    assert!(text.contains(" moves"), "{size}:\n{text}");
    assert!(text.contains("your hand, seat 0"), "{size}:\n{text}");
}

/// Every preset in the middle of a hand, at 80×24 and on a wide screen:
/// no number is cut, whatever the players and melds.
#[test]
fn every_variant_fits_80_by_24_and_a_wide_screen() {
    let forms: [(&str, u8, Option<u8>); 16] = [
        ("classic", 4, None),
        ("classic", 2, None),
        ("classic", 3, None),
        ("classic", 6, None),
        ("classic", 6, Some(2)),
        ("canastone", 4, None),
        ("canastone", 6, None),
        ("samba", 2, None),
        ("samba", 3, None),
        ("samba", 4, None),
        ("samba", 5, None),
        ("italian", 4, None),
        ("samba", 6, None),
        ("pennies", 6, None),
        ("pennies", 6, Some(3)),
        ("canastia", 3, None),
    ];
    for (variant, players, teams) in forms {
        let rules = Rules::preset(variant, Some(players), teams).unwrap();
        let option = teams;
        // Early (unopened sides, feet) and late (many melds) in a hand.
        for (seed, limit) in [(7, players as usize + 1), (7, 90), (1, 60), (2, 120)] {
            let session = played(rules.clone(), seed, limit, |_| false);
            let (view, hand) = screen_of(&session);
            let screen = Screen {
                view: Some(&view),
                cards: &hand,
                keys: crate::play::tui::KEYS,
                message: "`discard 4H` is refused: not now: draw (or take the pile) first",
                ..Screen::default()
            };
            for (w, h) in [(80, 24), (200, 60)] {
                let size = format!("{variant} {players} {option:?} after {limit}, {w}x{h}");
                let text = draw(&screen, w, h).join("\n");
                assert_nothing_cut(&view, &text, &size);
                if std::env::var("SHOW").is_ok() && w == 80 {
                    eprintln!("{size}\n{text}");
                }
            }
        }
    }
}

/// Turns of a game in the move list: each seat's moves on one line, as
/// the full-screen game writes them, `rounds` rounds of four seats.
fn turns(rounds: usize) -> Vec<String> {
    let mut log = vec!["--- hand 3 dealt by seat 2".to_string()];
    for r in 0..rounds {
        for s in 0..4 {
            log.push(format!(
                "seat {s}: draw; meld 8S 8S 8D / KS KD 2C; discard 4H (round {r})"
            ));
        }
    }
    log
}

/// A screen of `view` with the hand of `table()` and the log `log`.
fn screen_with<'a>(view: &'a TableView, cards: &'a [Card], log: &'a [String]) -> Screen<'a> {
    Screen {
        view: Some(view),
        cards,
        cursor: 0,
        log,
        keys: crate::play::tui::KEYS,
        ..Screen::default()
    }
}

/// The move list keeps the last full round at 80×24 (a bot's pickup does
/// not scroll away before the viewer's turn), however many melds, and
/// fills a tall screen's rows with older moves.
#[test]
fn the_move_list_keeps_a_round_and_uses_a_tall_screen() {
    let view = table();
    let hand = cards("4H 4C 9S KS KD 2C JK");
    let log = turns(12);
    let small = draw(&screen_with(&view, &hand, &log), 80, 24).join("\n");
    for s in 0..4 {
        let line = format!("seat {s}: draw; meld 8S 8S 8D / KS KD 2C; discard 4H (round 11)");
        assert!(small.contains(&line), "`{line}` missing at 80×24:\n{small}");
    }
    // The key bar keeps one row with the turn's keys and help.
    let last = small.lines().last().unwrap();
    for key in ["d draw", "x discard", "? help", "q quit"] {
        assert!(last.contains(key), "`{key}` not in the key row: {last}");
    }
    // Melds crowd the table: the round stays.
    let mut crowded = table();
    let meld = crowded.sides[1].melds[0].clone();
    crowded.sides[1].melds = (0..8)
        .map(|i| MeldView {
            index: i,
            compact: "9×5 2S JK".into(),
            tiny: "9×5+2S+JK".into(),
            ..meld.clone()
        })
        .collect();
    let text = draw(&screen_with(&crowded, &hand, &log), 80, 24).join("\n");
    assert!(
        text.contains("seat 0: draw; meld 8S 8S 8D / KS KD 2C; discard 4H (round 11)"),
        "{text}"
    );
    // At 200×60 the rows below the table hold older rounds.
    let tall = draw(&screen_with(&view, &hand, &log), 200, 60);
    let shown = tall
        .iter()
        .filter(|l| l.contains("seat ") && l.contains("(round"))
        .count();
    assert!(shown >= 35, "{shown} moves at 200×60:\n{}", tall.join("\n"));
    let empty = tall
        .iter()
        .filter(|l| l.trim_matches(['│', ' ']).is_empty())
        .count();
    assert!(empty <= 3, "{empty} empty rows:\n{}", tall.join("\n"));
}

/// The heading keeps its status on one row: the short form where the long
/// one does not fit, the turn's note after it or on the next row.
#[test]
fn the_header_never_wraps_its_status() {
    let mut view = table();
    view.seats[0].label = label("seat 0 (a player with a long name)", "you");
    view.asked = true;
    view.answer = Some(true);
    let hand = cards("4H 4C 9S KS KD 2C JK");
    let text = draw(&screen_with(&view, &hand, &[]), 80, 24);
    assert!(
        text[0].contains("hand 3: you to meld, add or discard"),
        "{}",
        text[0]
    );
    assert!(
        text[..2]
            .iter()
            .any(|l| l.contains("partner said yes: you must go out")),
        "{}",
        text.join("\n")
    );
    // Narrower still, the note goes to the next row, whole.
    let text = draw(&screen_with(&view, &hand, &[]), 60, 24);
    assert!(
        text[0].contains("hand 3: you to meld, add or discard"),
        "{}",
        text[0]
    );
    assert!(
        text[1].contains("partner said yes: you must go out"),
        "{}",
        text[1]
    );
    // The long heading where it fits.
    let wide = draw(&screen_with(&view, &hand, &[]), 200, 40);
    assert!(wide[0].contains("hand 3, dealer seat 2: seat 0 (a player with a long name) to meld, add or discard | partner said yes"), "{}", wide[0]);
}

/// Partner's "yes" binds one turn of one hand: between hands it is gone.
#[test]
fn partners_answer_does_not_outlive_the_hand() {
    let mut view = table();
    view.asked = true;
    view.answer = Some(true);
    assert!(view.turn_note().is_some());
    view.phase = Phase::HandOver;
    let hand = cards("4H 4C 9S KS KD 2C JK");
    let text = draw(&screen_with(&view, &hand, &[]), 80, 24).join("\n");
    assert!(!text.contains("partner said"), "{text}");
    assert!(text.contains("hand 2 is over"), "{text}");
}

/// A canasta's mark stays on its meld's row: a box too narrow for the
/// whole meld and its mark takes the shorter form instead of wrapping.
#[test]
fn the_canasta_mark_stays_on_its_melds_line() {
    let mut view = table();
    let long = "2S 9H 9H 9D 9C 9C 9C 9S 9S JK JK";
    view.sides[1].melds[0].cards = long.into();
    view.sides[1].melds[0].compact = "9×8+2S+JK×2".into();
    let hand = cards("4H 4C 9S KS KD 2C JK");
    for (w, h) in [(80, 24), (100, 30)] {
        let text = draw(&screen_with(&view, &hand, &[]), w, h);
        let row = text
            .iter()
            .find(|l| l.contains("mixed"))
            .unwrap_or_else(|| panic!("no mark at {w}:\n{}", text.join("\n")));
        let right = row.rsplit("││").next().unwrap();
        assert!(
            right.contains("0: 9") || right.contains("0:9"),
            "{w}: {row}"
        );
    }
}

/// The cursor on a card just drawn shows both marks.
#[test]
fn the_cursor_and_the_drawn_mark_show_on_one_card() {
    let view = table();
    let hand = cards("4H 4C 9S KS KD 2C JK");
    let fresh = [false, true, false, false, false, false, false];
    let screen = Screen {
        cursor: 1,
        fresh: &fresh,
        ..screen_with(&view, &hand, &[])
    };
    let text = draw(&screen, 80, 24);
    let row = text.iter().position(|l| l.contains(" 4C ")).unwrap();
    let col = text[row].find(" 4C ").unwrap();
    assert_eq!(&text[row + 1][col..col + 4], " ^+ ", "{}", text.join("\n"));
    // Elsewhere each keeps its own.
    let screen = Screen {
        cursor: 0,
        fresh: &fresh,
        ..screen_with(&view, &hand, &[])
    };
    let text = draw(&screen, 80, 24);
    let col = text[row].find(" 4C ").unwrap();
    assert_eq!(&text[row + 1][col..col + 4], " ++ ");
}

/// Titles use the variants' proper names; Canastone's heading says a side
/// yet to meld may open before it draws (and only then, that turn).
#[test]
fn titles_name_the_variant_and_canastone_offers_opening_first() {
    let names = |n: usize| -> Vec<String> { (0..n).map(|_| "ismcts".to_string()).collect() };
    for (id, name) in [
        ("classic", "Classic Canasta, "),
        ("canastone", "Canastone, "),
        ("samba", "Samba, "),
        ("pennies", "Pennies from Heaven, "),
        ("italian", "Italian Canasta, "),
        ("canastia", "Canastia, "),
    ] {
        let rules = Rules::preset(id, None, None).unwrap();
        let mut g = canasta_core::GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(2), canasta_core::Seat::new(0));
        let view = TableView::new(
            &g.observe(g.to_act()),
            &rules,
            &names(rules.game.players as usize),
        );
        assert!(view.title.starts_with(name), "{id}: {}", view.title);
        let opens_first = id == "canastone" || id == "italian";
        assert_eq!(
            view.heading()
                .contains("to open from hand before drawing, or draw"),
            opens_first && rules.opening.open_before_draw,
            "{id}: {}",
            view.heading()
        );
    }
}
