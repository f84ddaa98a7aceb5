//! The notation round-trips every position random play reaches, writes
//! one text for a position, and refuses each kind of malformed input with
//! the error that names it.

use super::NotationError;
use crate::card::Card;
use crate::rng::Rng;
use crate::rules::{Rules, all_forms};
use crate::seat::Seat;
use crate::state::{GameState, Phase};

fn in_hand(g: &GameState) -> bool {
    matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer)
}

/// Every `every`-th position of uniform random play over two hands of a
/// game for each seed (the second hand starts from the first's scores).
fn positions(rules: &Rules, seeds: std::ops::Range<u64>, every: usize) -> Vec<GameState> {
    let mut out = Vec::new();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, Seat::new(0));
        let mut step = 0;
        for _hand in 0..2 {
            while in_hand(&g) {
                if step % every == 0 {
                    out.push(g.clone());
                }
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
                step += 1;
            }
            if g.phase() != Phase::HandOver {
                break;
            }
            let next = g.dealer().after(1, g.players());
            g.deal_random(&mut rng, next);
        }
    }
    out
}

/// The state as the notation sees it: without the count of actions
/// applied, the last hand's score and the rank of the last pickup, which
/// are history (docs/position-notation.md says why).
fn position_of(g: &GameState) -> String {
    let mut g = g.clone();
    g.state_id = 0;
    g.last_hand = None;
    g.last_pickup_rank = None;
    // A deal marks every slot's first turn, seats or not; only seats'
    // marks are the position's.
    let n = g.players();
    g.first_turn_pending[n..].fill(false);
    format!("{g:?}")
}

#[test]
fn every_position_of_random_play_reads_back_as_itself() {
    let mut checked = 0;
    for rules in all_forms() {
        for g in positions(&rules, 0..5, 5) {
            let text = g.to_notation();
            let back = GameState::from_notation(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.to_notation(), text, "the writer is canonical");
            assert_eq!(position_of(&back), position_of(&g), "{text}");
            assert_eq!(back.legal_actions(), g.legal_actions(), "{text}");
            // Lines in another order are the same position (melds keep
            // theirs: it numbers them).
            let (melds, others): (Vec<&str>, Vec<&str>) =
                text.lines().partition(|l| l.starts_with("meld "));
            let reordered: Vec<&str> = melds.into_iter().chain(others.into_iter().rev()).collect();
            let again = GameState::from_notation(&reordered.join("\n")).unwrap();
            assert_eq!(again.to_notation(), text);
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} positions");
}

/// Every field the format has appears in some position random play
/// reaches, so the round trip above tried it.
#[test]
fn random_play_writes_every_field() {
    let mut seen = std::collections::BTreeSet::new();
    for rules in all_forms() {
        for g in positions(&rules, 0..5, 3) {
            for line in g.to_notation().lines() {
                seen.insert(line.split(' ').next().unwrap().to_string());
            }
        }
    }
    let fields = [
        "rules",
        "options",
        "scores",
        "hands-played",
        "dealer",
        "turn",
        "turn-flags",
        "melds-at-start",
        "answer",
        "lone-hand",
        "hand",
        "known",
        "foot",
        "red-threes",
        "melded",
        "first-turn",
        "discarded",
        "stock",
        "pile",
        "packet",
        "frozen",
        "meld",
    ];
    let missing: Vec<&str> = fields
        .iter()
        .copied()
        .filter(|f| !seen.contains(*f))
        // No preset lays red threes at a first turn or has house rules:
        // `options_name_house_rules_as_a_record_does` writes those.
        .filter(|f| !["options", "first-turn"].contains(f))
        .collect();
    assert!(missing.is_empty(), "never written: {missing:?}");
}

#[test]
fn options_name_house_rules_as_a_record_does() {
    let mut spec = Rules::preset("classic", Some(4), None).unwrap().into_spec();
    spec.melds.canasta_by_choice = true;
    spec.game.target = 3000;
    spec.deal.red_three_timing = crate::rules::RedThreeTiming::FirstTurn;
    let rules = Rules::new(spec).unwrap();
    let mut g = GameState::new(rules);
    g.deal_random(&mut Rng::new(3), Seat::new(0));
    let text = g.to_notation();
    let options =
        r#"options {"canasta_by_choice":true,"red_three_timing":"first_turn","target":3000}"#;
    assert!(text.lines().any(|l| l == options), "{text}");
    assert!(text.lines().any(|l| l == "first-turn 0 2 3"), "{text}");
    let back = GameState::from_notation(&text).unwrap();
    assert_eq!(back.rules(), g.rules());
    assert_eq!(back.to_notation(), text);
    assert_eq!(position_of(&back), position_of(&g));
}

/// A first position of a preset, as text.
fn start(variant: &str, players: u8) -> String {
    let mut g = GameState::new(Rules::preset(variant, Some(players), None).unwrap());
    g.deal_random(&mut Rng::new(7), Seat::new(0));
    g.to_notation()
}

/// The text with the line of `key` (its first such line) replaced by
/// `line`, or removed where `line` is empty.
fn with_line(text: &str, key: &str, line: &str) -> String {
    let mut done = false;
    let mut out = Vec::new();
    for l in text.lines() {
        if !done && (l == key || l.starts_with(&format!("{key} "))) {
            done = true;
            if !line.is_empty() {
                out.push(line.to_string());
            }
        } else {
            out.push(l.to_string());
        }
    }
    assert!(done, "no `{key}` line in\n{text}");
    out.join("\n")
}

fn stock_of(text: &str) -> Vec<String> {
    let line = text.lines().find(|l| l.starts_with("stock ")).unwrap();
    line.split(' ').skip(1).map(String::from).collect()
}

/// Takes the first `k` stock cards that `want` accepts out of the stock.
fn take_from_stock(text: &str, k: usize, want: impl Fn(Card) -> bool) -> (String, Vec<String>) {
    let mut stock = stock_of(text);
    let mut taken = Vec::new();
    while taken.len() < k {
        let i = stock
            .iter()
            .position(|c| want(c.parse().unwrap()))
            .expect("the stock holds such cards");
        taken.push(stock.remove(i));
    }
    let text = with_line(text, "stock", &format!("stock {}", stock.join(" ")));
    (text, taken)
}

/// The text with a meld of `k` stock cards that `want` accepts on `side`.
fn with_meld(text: &str, side: usize, k: usize, want: impl Fn(Card) -> bool) -> String {
    let (text, cards) = take_from_stock(text, k, want);
    format!("{text}\nmeld {side} {}", cards.join(" "))
}

fn refused(text: &str) -> NotationError {
    match GameState::from_notation(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

fn rank_is(rank: crate::card::Rank) -> impl Fn(Card) -> bool {
    move |c| c.rank() == Some(rank)
}

/// What a malformed text's error must be.
type Expected = fn(&NotationError) -> bool;

#[test]
fn a_malformed_line_is_refused_naming_its_field() {
    use NotationError as E;
    let t = start("classic", 4);
    assert!(GameState::from_notation(&t).is_ok());
    let cases: Vec<(String, Expected)> = vec![
        (
            format!("{t}\nweather fine"),
            |e| matches!(e, E::UnknownField(f) if f == "weather"),
        ),
        (
            format!("{t}\ndealer 0"),
            |e| matches!(e, E::Repeated(f) if f == "dealer"),
        ),
        (format!("{t}\nhand 2 -"), |e| {
            matches!(
                e,
                E::RepeatedSeat {
                    field: "hand",
                    seat: 2
                }
            )
        }),
        (
            format!("{t}\nfrozen\nfrozen"),
            |e| matches!(e, E::Repeated(f) if f == "frozen"),
        ),
        (format!("{t}\nfrozen solid"), |e| {
            matches!(
                e,
                E::BadValue {
                    field: "frozen",
                    ..
                }
            )
        }),
        (with_line(&t, "stock", ""), |e| {
            matches!(e, E::Missing("stock"))
        }),
        (with_line(&t, "hand 3", ""), |e| {
            matches!(e, E::MissingHand(3))
        }),
        (with_line(&t, "dealer", "dealer one"), |e| {
            matches!(
                e,
                E::BadValue {
                    field: "dealer",
                    ..
                }
            )
        }),
        (with_line(&t, "dealer", "dealer 4"), |e| {
            matches!(
                e,
                E::NoSuchSeat {
                    field: "dealer",
                    seat: 4,
                    players: 4
                }
            )
        }),
        (format!("{t}\nknown 9 KS"), |e| {
            matches!(
                e,
                E::NoSuchSeat {
                    field: "known",
                    seat: 9,
                    ..
                }
            )
        }),
        (with_line(&t, "rules", "rules bridge 4"), |e| {
            matches!(e, E::Rules(_))
        }),
        (with_line(&t, "rules", "rules classic 5"), |e| {
            matches!(e, E::Rules(_))
        }),
        (format!("{t}\noptions [1]"), |e| {
            matches!(
                e,
                E::BadValue {
                    field: "options",
                    ..
                }
            )
        }),
        (format!("{t}\noptions {{\"no_such_rule\":1}}"), |e| {
            matches!(e, E::Rules(_))
        }),
        (with_line(&t, "scores", "scores 0 0 0"), |e| {
            matches!(e, E::ScoreCount { have: 3, need: 2 })
        }),
        (with_line(&t, "turn", "turn 1 hand-over"), |e| {
            matches!(e, E::NotInHand("hand-over"))
        }),
        (with_line(&t, "turn", "turn 1 dance"), |e| {
            matches!(e, E::BadValue { field: "turn", .. })
        }),
        (
            format!("{t}\nturn-flags asked sleepy"),
            |e| matches!(e, E::BadValue { field: "turn-flags", text, .. } if text == "sleepy"),
        ),
        (with_line(&t, "hand 0", "hand 0 KS ZZ"), |e| {
            matches!(e, E::BadCard { field: "hand", .. })
        }),
        (format!("{t}\ndiscarded 0 K 1"), |e| {
            matches!(
                e,
                E::BadValue {
                    field: "discarded",
                    ..
                }
            )
        }),
        (format!("{t}\nlone-hand 0"), |e| {
            matches!(e, E::NoPartnership)
        }),
        (format!("{t}\npacket 1"), |e| matches!(e, E::NoPacket)),
        (with_line(&t, "melds-at-start", "melds-at-start 3"), |e| {
            matches!(
                e,
                E::MeldsAtStart {
                    have: 3,
                    now: 0,
                    ..
                }
            )
        }),
        (format!("{t}\nanswer yes"), |e| {
            matches!(e, E::AnswerWithoutQuestion)
        }),
        (with_line(&t, "turn", "turn 1 answer"), |e| {
            matches!(e, E::AnswerUnasked)
        }),
        (
            format!(
                "{}\nturn-flags asked\nanswer no",
                with_line(&t, "turn", "turn 1 answer")
            ),
            |e| matches!(e, E::AnsweredTooSoon),
        ),
        (format!("{t}\nfoot 0 -"), |e| matches!(e, E::NoFeet)),
    ];
    for (text, expected) in cases {
        let e = refused(&text);
        assert!(expected(&e), "{e}\n{text}");
        let message = e.to_string();
        assert!(
            message.contains('`') || message.contains("field"),
            "{message}"
        );
    }
}

#[test]
fn cards_must_be_the_rules_deck() {
    let t = start("classic", 4);
    let stock = stock_of(&t);
    let first = &stock[0];
    // One card too few: the first stock card is gone.
    let short = with_line(&t, "stock", &format!("stock {}", stock[1..].join(" ")));
    let e = refused(&short);
    assert!(
        matches!(&e, NotationError::Cards { card, have, need } if card.to_string() == *first && *have + 1 == usize::from(*need)),
        "{e}"
    );
    // One too many: it is in the pile as well.
    let pile = t.lines().find(|l| l.starts_with("pile ")).unwrap();
    let long = with_line(&t, "pile", &format!("{pile} {first}"));
    assert!(matches!(refused(&long), NotationError::Cards { .. }));
    // A card said to be known must be in the hand.
    let hand0 = t.lines().find(|l| l.starts_with("hand 0 ")).unwrap();
    let absent = stock.iter().find(|c| !hand0.contains(c.as_str())).unwrap();
    let e = refused(&format!("{t}\nknown 0 {absent}"));
    assert!(
        matches!(e, NotationError::KnownNotHeld { seat: 0, .. }),
        "{e}"
    );
    // Red threes laid out are red threes.
    let (moved, taken) = take_from_stock(&t, 1, |c| c.rank() == Some(crate::card::Rank::King));
    let seat = (0..4)
        .find(|s| !t.contains(&format!("red-threes {s} ")))
        .unwrap();
    let e = refused(&format!("{moved}\nred-threes {seat} {}", taken[0]));
    assert!(matches!(e, NotationError::NotRedThree(_)), "{e}");
    // The packet lies under the pile (Canastone).
    let cne = start("canastone", 4);
    let e = refused(&with_line(&cne, "packet", "packet 99"));
    assert!(
        matches!(e, NotationError::PacketTooLarge { packet: 99, .. }),
        "{e}"
    );
}

#[test]
fn melds_must_be_what_the_rules_allow() {
    use crate::card::Rank::*;
    let t = start("classic", 4);
    // A meld of three kings on side 1 is fine.
    let ok = with_meld(&t, 1, 3, rank_is(King));
    GameState::from_notation(&ok).unwrap_or_else(|e| panic!("{e}\n{ok}"));
    // Side 2 is nobody's in a game of two partnerships.
    let e = refused(&with_meld(&t, 2, 3, rank_is(King)));
    assert!(matches!(e, NotationError::NoSuchSide(2)), "{e}");
    // Naturals of two ranks are no meld.
    let (two_ranks, kings) = take_from_stock(&t, 2, rank_is(King));
    let (two_ranks, queen) = take_from_stock(&two_ranks, 1, rank_is(Queen));
    let e = refused(&format!(
        "{two_ranks}\nmeld 0 {} {} {}",
        kings[0], kings[1], queen[0]
    ));
    assert!(
        matches!(
            e,
            NotationError::NotAMeld {
                side: 0,
                index: 0,
                ..
            }
        ),
        "{e}"
    );
    // Classic has no meld of wild cards only.
    let e = refused(&with_meld(&t, 0, 3, Card::is_wild));
    assert!(
        matches!(
            &e,
            NotationError::BadMeld {
                reason: crate::IllegalReason::WildMeld,
                ..
            }
        ),
        "{e}"
    );
    // Two naturals are too few.
    let e = refused(&with_meld(&t, 0, 2, rank_is(Queen)));
    assert!(matches!(e, NotationError::BadMeld { .. }), "{e}");
    // A canasta is closed by choice only where the rules say so.
    let e = refused(&format!("{ok} closed"));
    assert!(matches!(e, NotationError::BadClosed { .. }), "{e}");
    // A second meld of kings while the first can take more (Pennies,
    // where a full meld of seven lets a second begin).
    let pennies = with_meld(&start("pennies", 6), 1, 3, rank_is(King));
    GameState::from_notation(&pennies).unwrap_or_else(|e| panic!("{e}\n{pennies}"));
    let e = refused(&with_meld(&pennies, 1, 3, rank_is(King)));
    assert!(
        matches!(
            e,
            NotationError::SecondMeldOfRank {
                side: 1,
                index: 1,
                first: 0
            }
        ),
        "{e}"
    );
}

/// The notation's own example (docs/position-notation.md) reads, and is
/// what the writer writes for it.
#[test]
fn the_documented_example_is_canonical() {
    let doc = include_str!("../../../../../docs/position-notation.md");
    let start = doc.find("```text\n").expect("an example block") + "```text\n".len();
    let example = &doc[start..start + doc[start..].find("```").unwrap()];
    let g = GameState::from_notation(example).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.to_notation(), example);
    assert_eq!(g.rules().game.variant, "classic");
    assert_eq!(g.players(), 4);
}

#[test]
fn the_turn_and_the_table_must_be_possible() {
    use crate::card::Rank;
    // Classic for two: nobody has a partner to answer.
    let t = start("classic", 2);
    let e = refused(&format!(
        "{}\nturn-flags asked",
        with_line(&t, "turn", "turn 1 answer")
    ));
    assert!(
        matches!(e, NotationError::NoPartner(s) if s.index() == 1),
        "{e}"
    );
    // Canastia closes canastas by choice, but not a meld of three.
    let t = start("canastia", 2);
    let e = refused(&format!(
        "{} closed",
        with_meld(&t, 0, 3, rank_is(Rank::King))
    ));
    assert!(
        matches!(e, NotationError::BadClosed { why, .. } if why.contains("too short")),
        "{e}"
    );
    // Canastone: one wild meld a side.
    let t = with_meld(&start("canastone", 4), 0, 3, Card::is_wild);
    GameState::from_notation(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
    let e = refused(&with_meld(&t, 0, 3, Card::is_wild));
    assert!(
        matches!(e, NotationError::SecondWildMeld { side: 0, index: 1 }),
        "{e}"
    );
}

/// Samba with four packs (a house rule) has the cards for more melds than
/// a side may hold.
#[test]
fn a_side_holds_at_most_max_melds() {
    let mut spec = Rules::preset("samba", Some(2), None).unwrap().into_spec();
    spec.deal.decks = 4;
    spec.deal.jokers = 8;
    spec.scoring.red_three_values = (0..=8).map(|k| k * 100).collect();
    let rules = Rules::new(spec).unwrap();
    let mut g = GameState::new(rules);
    g.deal_random(&mut Rng::new(1), Seat::new(0));
    let mut text = g.to_notation();
    let mut melds = 0;
    for rank in crate::card::Rank::THREE_TO_ACE.into_iter().skip(1) {
        while melds <= crate::state::MAX_MELDS
            && stock_of(&text)
                .iter()
                .filter(|c| c.starts_with(rank.letter()))
                .count()
                >= 3
        {
            text = with_meld(&text, 0, 3, rank_is(rank));
            melds += 1;
        }
    }
    assert!(melds > crate::state::MAX_MELDS, "{melds} melds");
    let e = refused(&text);
    assert!(matches!(e, NotationError::TooManyMelds(0)), "{e}");
}
