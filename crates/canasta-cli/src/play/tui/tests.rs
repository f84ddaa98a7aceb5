//! The full-screen game's keys, drawn on ratatui's test backend.

use super::*;
use crate::play::render::tests::draw;
use crate::play::session::Seat;
use canasta_core::Rules;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn press(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// Deals and lets the bots play until the human is to act.
fn until_human(app: &mut App) {
    loop {
        app.advance().unwrap();
        match app.session.next() {
            Next::Bot(_) => {
                let p = app.session.play_bot().unwrap();
                app.after(p);
            }
            Next::Human(_) => break,
            other => panic!("{other:?}"),
        }
        if let Mode::Reading(_) = app.mode {
            press(app, KeyCode::Enter);
        }
    }
    app.sync_hand();
}

fn frame(app: &App) -> String {
    let view = app.view();
    let overlay = app.overlay();
    let flags = (app.grouped_flags(), app.fresh_flags());
    let log = app.log_lines();
    draw(
        &app.screen(view.as_ref(), overlay.as_ref(), &flags, &log),
        120,
        34,
    )
    .join("\n")
}

#[test]
fn keys_draw_discard_undo_and_explain_refusals() {
    let seats = vec![
        Seat::Human,
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
    ];
    let mut session = Session::new(Rules::classic(), seats, 21, 10).unwrap();
    let mut app = App::new(&mut session, Duration::ZERO, None);
    until_human(&mut app);
    // A discard before drawing: the engine's reason, in red, nothing played.
    press(&mut app, KeyCode::Char('x'));
    assert!(app.refused);
    assert!(
        app.message.contains("draw (or take the pile) first"),
        "{}",
        app.message
    );
    assert!(frame(&app).contains("not now: draw"));
    press(&mut app, KeyCode::Char('d'));
    assert!(!app.refused, "{}", app.message);
    app.sync_hand();
    let drawn = app.session.record_text();
    assert!(
        drawn.ends_with("{\"action\":\"draw\",\"seat\":0}\n"),
        "{drawn}"
    );
    // Select the card under the cursor and discard it.
    press(&mut app, KeyCode::Right);
    let card = app.cards[app.cursor];
    press(&mut app, KeyCode::Char(' '));
    assert!(frame(&app).contains(&format!("[{card}]")));
    press(&mut app, KeyCode::Char('x'));
    assert!(!app.refused, "{}", app.message);
    assert!(
        app.session
            .record_text()
            .contains(&format!("discard {card}\",\"seat\":0"))
    );
    // Undo takes back the discard (and any bot moves after it).
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.session.record_text(), drawn);
    // Melding nothing is explained, not sent.
    press(&mut app, KeyCode::Char('m'));
    assert!(
        app.refused && app.message.contains("select"),
        "{}",
        app.message
    );
    // Help and the pace keys.
    press(&mut app, KeyCode::Char('+'));
    assert_eq!(app.pace, Duration::from_millis(100));
    press(&mut app, KeyCode::Char('?'));
    assert!(frame(&app).contains("undo your last action"));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Play));
}

#[test]
fn typed_actions_and_groups_make_melds() {
    let seats = vec![
        Seat::Human,
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
    ];
    let mut session = Session::new(Rules::classic(), seats, 22, 10).unwrap();
    let mut app = App::new(&mut session, Duration::ZERO, None);
    until_human(&mut app);
    press(&mut app, KeyCode::Char(':'));
    for c in "draw".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert!(frame(&app).contains("draw"));
    press(&mut app, KeyCode::Enter);
    assert!(
        app.session
            .record_text()
            .ends_with("{\"action\":\"draw\",\"seat\":0}\n")
    );
    app.sync_hand();
    // Two marked groups of different ranks make one compound action.
    let ranks: Vec<usize> = (0..app.cards.len())
        .filter(|&i| !app.cards[i].is_wild())
        .collect();
    let first = ranks[0];
    let other = *ranks
        .iter()
        .find(|&&i| app.cards[i].rank() != app.cards[first].rank())
        .unwrap();
    app.selected[first] = true;
    press(&mut app, KeyCode::Char('g'));
    app.selected[other] = true;
    let groups = app.groups_from_selection().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].to_string(), app.cards[first].to_string());
}

/// Two humans: the table is hidden while the keyboard passes, and the
/// next player's move list does not show the cards the other drew.
#[test]
fn hot_seat_hides_the_other_players_cards() {
    let seats = vec![
        Seat::Human,
        Seat::Human,
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
    ];
    let mut session = Session::new(Rules::classic(), seats, 23, 10).unwrap();
    let mut app = App::new(&mut session, Duration::ZERO, None);
    let mut passes = 0;
    let mut drawn_by = None;
    while passes < 2 {
        app.advance().unwrap();
        match (&app.mode, app.session.next()) {
            (Mode::PassKeyboard(seat), _) => {
                let seat = *seat;
                let hidden = frame(&app);
                assert!(hidden.contains(&format!("pass the keyboard to seat {seat}")));
                assert!(!hidden.contains("your hand"), "{hidden}");
                assert!(!hidden.contains("->"), "{hidden}");
                press(&mut app, KeyCode::Enter);
                assert_eq!(app.viewer, seat);
                app.sync_hand();
                let shown = frame(&app);
                assert!(shown.contains(&format!("your hand, seat {seat}")));
                if let Some(other) = drawn_by.filter(|&d| d != seat) {
                    assert!(
                        !shown.contains(&format!("seat {other}: draw ->")),
                        "{shown}"
                    );
                }
                passes += 1;
            }
            (Mode::Play, Next::Human(seat)) => {
                app.sync_hand();
                press(&mut app, KeyCode::Char('d'));
                if !app.refused {
                    drawn_by = Some(seat);
                    assert!(frame(&app).contains(&format!("seat {seat}: draw ->")));
                }
                app.sync_hand();
                press(&mut app, KeyCode::Char('x'));
                if app.refused {
                    // Some card is always a legal discard.
                    let legal = app.session.human_legal();
                    app.act(legal[legal.len() - 1]);
                }
            }
            (Mode::Play, Next::Bot(_)) => {
                let p = app.session.play_bot().unwrap();
                app.after(p);
            }
            (Mode::Reading(_), _) => press(&mut app, KeyCode::Enter),
            (_, other) => panic!("{other:?}"),
        }
    }
    assert!(app.session.undo().is_err(), "no undo with two humans");
}

/// The meld number after `a`: one digit plays at once while the side has
/// fewer than ten melds; Esc leaves the choice with nothing played.
#[test]
fn a_meld_number_plays_at_once_below_ten_melds() {
    let seats = vec![Seat::Human, Seat::Bot("heuristic".into())];
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let mut session = Session::new(rules, seats, 5, 10).unwrap();
    let mut app = App::new(&mut session, Duration::ZERO, None);
    until_human(&mut app);
    let group = Group::from_cards(&[app.cards[0]]).unwrap();
    let before = app.message.clone();
    app.mode = Mode::ChooseMeld(group, String::new());
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode, Mode::Play));
    assert_eq!(app.message, before);
    app.mode = Mode::ChooseMeld(group, String::new());
    press(&mut app, KeyCode::Char('3'));
    assert!(matches!(app.mode, Mode::Play));
    // Before the draw an add is refused, with the engine's reason.
    assert!(app.refused, "{}", app.message);
    assert!(app.message.contains("add 3"), "{}", app.message);
}

fn ctrl_c(app: &mut App) {
    app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
}

/// One human (seat 0, playing the heuristic's choice) against heuristic
/// bots.
fn one_human(rules: Rules, seed: u64, max_hands: u32) -> Session {
    let mut seats = vec![Seat::Bot("heuristic".into()); rules.game.players as usize];
    seats[0] = Seat::Human;
    Session::new(rules, seats, seed, max_hands).unwrap()
}

/// Plays until the hand that ends the game is over, its score box open;
/// no frame on the way shows the seed (from the clock it would tell the
/// deals).
fn play_last_hand(app: &mut App) {
    let seed = format!("seed {}", app.session.seed());
    loop {
        app.advance().unwrap();
        app.sync_hand();
        assert!(!frame(app).contains(&seed));
        match (&app.mode, app.session.next()) {
            (Mode::Reading(_), Next::GameOver | Next::Stopped) => return,
            (Mode::Reading(_), _) => press(app, KeyCode::Enter),
            (Mode::Play, Next::Human(seat)) => {
                let obs = app.session.observe(seat);
                let legal = app.session.human_legal();
                let view = canasta_ai::heuristic::View::from_observation(&obs, app.session.rules());
                app.act(canasta_ai::heuristic::best(&view, &legal));
                assert!(!app.refused, "{}", app.message);
            }
            (Mode::Play, Next::Bot(_)) => {
                let p = app.session.play_bot().unwrap();
                app.after(p);
            }
            (_, next) => panic!("{next:?}"),
        }
    }
}

/// The last hand's box says the totals come next; Enter closes it, and
/// the game-over box shows the totals, the winner and the seed, and the
/// game is saved to --save's file.
#[test]
fn the_game_over_box_follows_the_last_hand_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.jsonl");
    let rules = Rules::classic()
        .with_options(&serde_json::from_str(r#"{"target": 50}"#).unwrap())
        .unwrap();
    let mut session = one_human(rules, 31, 20);
    let mut app = App::new(&mut session, Duration::ZERO, Some(path.clone()));
    play_last_hand(&mut app);
    assert_eq!(app.session.next(), Next::GameOver);
    let last = frame(&app);
    assert!(last.contains("Enter: the final totals"), "{last}");
    assert!(!path.exists(), "saved only at the end");
    press(&mut app, KeyCode::Enter);
    app.advance().unwrap();
    assert!(matches!(app.mode, Mode::Ended(_)));
    let over = frame(&app);
    assert!(over.contains("game over"), "{over}");
    assert!(over.contains("totals"), "{over}");
    assert!(over.contains("winner"), "{over}");
    assert!(
        over.contains(&format!("seed {}", app.session.seed())),
        "{over}"
    );
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(saved, app.session.record_text());
    assert!(saved.contains("game_end"), "{saved}");
    // Enter stays on the totals; q leaves.
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Ended(_)) && !app.quit);
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

/// A game stopped by its hand limit shows so after the hand's box, with
/// the totals, and is saved.
#[test]
fn a_game_stopped_by_its_hand_limit_says_so_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stopped.jsonl");
    let mut session = one_human(Rules::classic(), 32, 1);
    let mut app = App::new(&mut session, Duration::ZERO, Some(path.clone()));
    play_last_hand(&mut app);
    assert_eq!(app.session.next(), Next::Stopped);
    assert!(frame(&app).contains("Enter: the end"));
    press(&mut app, KeyCode::Enter);
    app.advance().unwrap();
    let stopped = frame(&app);
    assert!(stopped.contains("stopped after 1 hands"), "{stopped}");
    assert!(stopped.contains("totals"), "{stopped}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        app.session.record_text()
    );
}

/// Ctrl-C asks first (any other key goes back to the game); a second one
/// leaves, saving to --save's file.
#[test]
fn ctrl_c_asks_and_a_second_one_leaves_saving() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quit.jsonl");
    let mut session = one_human(Rules::classic(), 33, 10);
    let mut app = App::new(&mut session, Duration::ZERO, Some(path.clone()));
    until_human(&mut app);
    ctrl_c(&mut app);
    assert!(!app.quit);
    assert!(frame(&app).contains("leave the game"));
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.mode, Mode::Play));
    press(&mut app, KeyCode::Char('d'));
    ctrl_c(&mut app);
    ctrl_c(&mut app);
    assert!(app.quit);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        app.session.record_text()
    );
}

/// `s` without --save remembers its file, so quitting saves the moves
/// made since; a save that fails on the way out does not quit.
#[test]
fn s_remembers_its_file_and_a_failed_save_does_not_quit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("canasta-save.jsonl");
    let mut session = one_human(Rules::classic(), 34, 10);
    let mut app = App::new(&mut session, Duration::ZERO, None);
    app.default_save = path.clone();
    until_human(&mut app);
    press(&mut app, KeyCode::Char('q'));
    let shown = frame(&app);
    assert!(shown.contains("It is not saved"), "{shown}");
    assert!(shown.contains("s saves it to"), "{shown}");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('s'));
    assert!(!app.refused, "{}", app.message);
    assert!(
        app.message.contains("canasta-save.jsonl"),
        "{}",
        app.message
    );
    assert_eq!(app.save.as_deref(), Some(path.as_path()));
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('q'));
    assert!(frame(&app).contains("it saves to"));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        app.session.record_text(),
        "the draw after `s` is saved too"
    );
    // A file that cannot be written: the game stays, with the reason.
    app.quit = false;
    app.save = Some(dir.path().join("no such dir").join("x.jsonl"));
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    assert!(!app.quit);
    assert!(
        app.refused && app.message.contains("cannot write"),
        "{}",
        app.message
    );
    let asked = frame(&app);
    assert!(asked.contains("leave without saving"), "{asked}");
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.mode, Mode::Play) && !app.quit);
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit, "a second y leaves without saving");
}

/// With two humans nobody's hand shows before the first of them to act
/// has the keyboard, whoever acts first; q on the hand-over screen asks
/// to quit, with the table still hidden.
#[test]
fn hot_seat_starts_hidden_for_the_first_human_to_act() {
    let mut firsts = Vec::new();
    for seed in 40..48 {
        let seats = vec![
            Seat::Human,
            Seat::Bot("heuristic".into()),
            Seat::Human,
            Seat::Bot("heuristic".into()),
        ];
        let mut session = Session::new(Rules::classic(), seats, seed, 10).unwrap();
        let mut app = App::new(&mut session, Duration::ZERO, None);
        let seat = loop {
            app.advance().unwrap();
            let shown = frame(&app);
            assert!(!shown.contains("your hand"), "{shown}");
            match (&app.mode, app.session.next()) {
                (Mode::PassKeyboard(seat), Next::Human(to_act)) => {
                    assert_eq!(*seat, to_act);
                    break to_act;
                }
                (Mode::Play, Next::Bot(_)) => {
                    let p = app.session.play_bot().unwrap();
                    app.after(p);
                }
                // Just dealt: the next round hands the keyboard over.
                (Mode::Play, Next::Human(_)) => {}
                (_, next) => panic!("{next:?}"),
            }
        };
        assert!(frame(&app).contains(&format!("pass the keyboard to seat {seat}")));
        press(&mut app, KeyCode::Char('q'));
        let asked = frame(&app);
        assert!(asked.contains("leave the game") && !asked.contains("your hand"));
        press(&mut app, KeyCode::Char('n'));
        assert!(matches!(app.mode, Mode::PassKeyboard(s) if s == seat));
        press(&mut app, KeyCode::Enter);
        app.sync_hand();
        assert!(frame(&app).contains(&format!("your hand, seat {seat}")));
        firsts.push(seat);
    }
    assert!(
        firsts.contains(&2),
        "some seed lets seat 2 act first: {firsts:?}"
    );
}

#[test]
fn the_deal_line_counts_annulled_deals_and_the_help_is_accurate() {
    let dealt = |annulled| {
        deal_line(&Dealt {
            hand: 3,
            dealer: 1,
            annulled,
        })
    };
    assert_eq!(dealt(0), "--- hand 3 dealt by seat 1");
    assert_eq!(
        dealt(1),
        "--- hand 3 dealt by seat 1 (after an annulled deal)"
    );
    assert_eq!(
        dealt(2),
        "--- hand 3 dealt by seat 1 (after 2 annulled deals)"
    );
    assert!(HELP.concat().contains("more than ten melds"));
}

/// Leaving a game that has no save file offers to save it (s), and the
/// terminal is then told where it is and how to go on; leaving unsaved
/// says so, with the seed that deals the same cards.
#[test]
fn quitting_says_where_the_game_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("canasta-save.jsonl");
    let mut session = one_human(Rules::classic(), 34, 10);
    let mut app = App::new(&mut session, Duration::ZERO, None);
    app.default_save = path.clone();
    until_human(&mut app);
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('s'));
    assert!(app.quit, "s on the quit box saves and leaves");
    assert!(path.exists());
    let bye = app.farewell().join("\n");
    assert!(bye.contains("the game is saved in"), "{bye}");
    assert!(bye.contains("canasta play --resume"), "{bye}");
    assert!(bye.contains("canasta-save.jsonl"), "{bye}");

    let mut session = one_human(Rules::classic(), 35, 10);
    let mut app = App::new(&mut session, Duration::ZERO, None);
    until_human(&mut app);
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
    let bye = app.farewell().join("\n");
    assert!(bye.contains("the game was not saved"), "{bye}");
    assert!(
        bye.contains("`canasta play -v classic -p 4 -s 35`"),
        "{bye}"
    );
}

/// The card just drawn is marked in the hand (++ under it), until the
/// turn ends; `o` sorts the hand by suit and back.
#[test]
fn the_card_just_drawn_is_marked_and_the_hand_sorts_by_suit() {
    let mut session = one_human(Rules::classic(), 21, 10);
    let mut app = App::new(&mut session, Duration::ZERO, None);
    until_human(&mut app);
    let before = app.session.observe(0).hand;
    press(&mut app, KeyCode::Char('d'));
    app.sync_hand();
    let mut drawn = app.session.observe(0).hand;
    for (c, n) in before.faces() {
        drawn.remove_up_to(c, n);
    }
    let card = drawn.iter().next().expect("a card was drawn");
    let marked: Vec<Card> = app
        .cards
        .iter()
        .zip(app.fresh_flags())
        .filter(|(_, f)| *f)
        .map(|(c, _)| *c)
        .collect();
    assert_eq!(marked, vec![card]);
    // Move the cursor away from it: its mark reads ++.
    app.cursor = app.cards.iter().position(|&c| c != card).unwrap();
    let shown = frame(&app);
    let rows: Vec<Vec<char>> = shown.lines().map(|l| l.chars().collect()).collect();
    let needle: Vec<char> = format!(" {card} ").chars().collect();
    let (row, col) = rows
        .iter()
        .enumerate()
        .find_map(|(r, l)| {
            l.windows(4)
                .position(|w| w == needle.as_slice())
                .map(|c| (r, c))
        })
        .unwrap();
    let marks: String = rows[row + 1][col..col + 4].iter().collect();
    assert_eq!(marks, " ++ ", "{shown}");
    press(&mut app, KeyCode::Char('o'));
    app.sync_hand();
    assert!(frame(&app).contains("by suit"));
    let suits: Vec<_> = app
        .cards
        .iter()
        .filter(|c| !c.is_wild())
        .map(|c| c.suit())
        .collect();
    assert!(
        suits.windows(2).all(|w| w[0] <= w[1]),
        "grouped by suit: {:?}",
        app.cards
    );
    // A discard ends the turn and the mark.
    press(&mut app, KeyCode::Char('x'));
    assert!(!app.refused, "{}", app.message);
    assert!(app.fresh_flags().iter().all(|f| !f));
}

/// The key bar offers asking only where someone has a partner to ask: two
/// players have none, so `k ask` and `y/n answer` are left out.
#[test]
fn the_key_bar_offers_asking_only_with_partners() {
    let bar = |rules: Rules| {
        let players = rules.game.players as usize;
        let mut seats = vec![Seat::Human];
        seats.resize(players, Seat::Bot("heuristic".into()));
        let mut session = Session::new(rules, seats, 21, 10).unwrap();
        let mut app = App::new(&mut session, Duration::ZERO, None);
        until_human(&mut app);
        frame(&app)
    };
    let four = bar(Rules::classic());
    assert!(
        four.contains("k ask") && four.contains("y/n answer"),
        "{four}"
    );
    let two = bar(Rules::preset("classic", Some(2), None).unwrap());
    assert!(
        !two.contains("k ask") && !two.contains("y/n answer"),
        "{two}"
    );
    assert!(two.contains("x discard  h hint"), "{two}");
    let three = bar(Rules::preset("classic", Some(3), None).unwrap());
    assert!(
        three.contains("k ask"),
        "partners form in the hand: {three}"
    );
}

/// A resumed game's move list starts with the moves before the save, one
/// line a turn as in the unbroken game.
#[test]
fn a_resumed_game_shows_its_recent_moves() {
    let mut session = one_human(Rules::classic(), 21, 10);
    let mut app = App::new(&mut session, Duration::ZERO, None);
    until_human(&mut app);
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('x'));
    until_human(&mut app);
    let before = app.log_lines();
    // One line a turn: each seat's moves in a row joined.
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("seat 1: draw") && l.contains("; discard ")),
        "{before:?}"
    );
    let text = app.session.record_text();
    let seats = app.session.seats().to_vec();
    let mut resumed = Session::resume(&text, seats, 10).unwrap();
    let app = App::new(&mut resumed, Duration::ZERO, None);
    let after = app.log_lines();
    assert_eq!(after.len(), before.len(), "{after:?}");
    assert_eq!(after[0], before[0], "the deal line");
    // The same turns; a draw's cards are not in the record's words.
    for (a, b) in after.iter().zip(&before).skip(1) {
        let seat = |l: &str| l.split(':').next().unwrap().to_string();
        assert_eq!(seat(a), seat(b));
    }
    assert_eq!(after.last(), before.last());
    let shown = frame(&app);
    assert!(shown.contains(before.last().unwrap().as_str()), "{shown}");
}
