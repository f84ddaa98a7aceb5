//! The Canastone opening: before drawing, from hand, clean at the 50 level,
//! by the P-CNE table (research §2.1; S000 lost most of the table).

use super::*;
use canasta_core::{Action, IllegalReason, Phase};
use canasta_core::{Seat, Side};

/// P-CNE "Opening meld" (the table S000 lost): below 3000, 50; 3000-4995,
/// 90; 5000-6995, 120; 7000-9995, 160; 10000-11995, 180; 12000 or more,
/// 200. A negative score has no row of its own (house rule 2 is not
/// offered): 50.
#[test]
fn opening_minimum_by_cumulative_score() {
    let r = canastone(4);
    for (score, need) in [
        (-3000, 50),
        (-5, 50),
        (0, 50),
        (2995, 50),
        (3000, 90),
        (4995, 90),
        (5000, 120),
        (6995, 120),
        (7000, 160),
        (9995, 160),
        (10000, 180),
        (11995, 180),
        (12000, 200),
        (20000, 200),
    ] {
        assert_eq!(r.opening.minimum(score), need, "score {score}");
    }
    assert_eq!(canastone(6).opening.minimum(7000), 160);
}

/// P-CNE "Play", S000: a side that has not opened may open as the first
/// action of a turn, before drawing, from hand only, and then takes a
/// normal turn (here: draws two and discards).
#[test]
fn an_unopened_side_opens_before_drawing_then_takes_a_normal_turn() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH KD 4C")
        .upcards("8D")
        .stock("AC AH")
        .game();
    assert_eq!(g.opening_minimum(Seat::new(1)), 50);
    assert!(generated(&g, "meld KS KS KH KH KD"));
    play(&mut g, 1, "meld KS KS KH KH KD");
    assert_eq!((g.phase(), g.to_act()), (Phase::Draw, Seat::new(1)));
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD"]);
    assert!(
        !legal_texts(&g).iter().any(|t| t.starts_with("meld")),
        "one opening; further melds come after the draw"
    );
    play(&mut g, 1, "draw");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.hand(Seat::new(1)).total(), 15 - 5 + 2);
    play(&mut g, 1, "discard 4C");
    assert_eq!((g.phase(), g.to_act()), (Phase::Draw, Seat::new(2)));
    assert_eq!(g.observe(Seat::new(2)).opening_needed, vec![50, 0, 50, 0]);
}

/// P-CNE, S000: "a team's opening meld can only be put down as the first
/// action of a player's turn"; a player able to open only after drawing
/// must wait for the next turn.
#[test]
fn after_drawing_an_unopened_side_may_not_open() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH QS QS 4C 5C 6C 7C 8C 4H 5H 6H 7H")
        .upcards("8D")
        .stock("KD QH")
        .game();
    assert!(!generated(&g, "meld KS KS KH KH KD"));
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld KS KS KH KH KD"),
        IllegalReason::OpenBeforeDrawing
    );
    assert_eq!(
        refused(&g, 1, "meld KS KS KH KH KD / QS QS QH"),
        IllegalReason::OpenBeforeDrawing
    );
    assert!(!legal_texts(&g).iter().any(|t| t.starts_with("meld")));
    assert!(generated(&g, "discard KS"));
}

/// P-CNE "Opening meld": when the minimum is 50 the opening must be of
/// clean melds only. A wild meld is clean while it could still become a
/// clean wild canasta: twos alone, or jokers with at most one two (S000: a
/// wild meld with two or more twos and a joker is dirty).
#[test]
fn at_the_50_level_only_clean_melds_open() {
    let g = DealSpec::canastone(4, 0)
        .hand(1, "JK JK 2C 2H 2D AS AS KS KS KH")
        .upcards("8D")
        .game();
    assert_eq!(g.opening_minimum(Seat::new(1)), 50);
    for dirty in [
        "meld AS AS JK",
        "meld KS KS 2C / AS AS JK",
        "meld JK 2C 2H",
        "meld KS KS KH 2C",
    ] {
        assert_eq!(
            refused(&g, 1, dirty),
            IllegalReason::OpeningMustBeClean {
                need: 50,
                up_to: Some(50)
            },
            "{dirty}"
        );
    }
    assert_eq!(
        refused(&g, 1, "meld AS AS JK").to_string(),
        "your side needs 50 to open, and while the minimum is 50 or less the opening must be of clean melds (no wild card with naturals)"
    );
    assert!(legal(&g, "meld 2C 2H 2D"), "three twos: 60, clean");
    assert!(
        legal(&g, "meld JK JK 2C"),
        "two jokers and a two: 120, clean"
    );
    // Nothing dirty is generated.
    for a in g.legal_actions().iter() {
        if let Action::Meld(groups) = a {
            for gr in groups.iter() {
                let clean = match gr.rank() {
                    Some(_) => gr.wild_count() == 0,
                    None => gr.jokers == 0 || gr.two_count() <= 1,
                };
                assert!(clean, "generated a dirty opening: {a}");
            }
        }
    }
}

/// P-CNE "Play": only a side that has opened may take the pile, so an
/// unopened side cannot open by taking it (house rule 4, counting the pile
/// toward the opening, is not offered). Once opened before drawing, the
/// player may take it in the same turn.
#[test]
fn an_unopened_side_may_not_take_the_pile() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "9S 9H 9C KS KS KH KH KD")
        .upcards("9D")
        .game();
    assert!(!legal_texts(&g).iter().any(|t| t.starts_with("pickup")));
    assert_eq!(refused(&g, 1, "pickup 9S 9H"), IllegalReason::PileNeedsMeld);
    assert_eq!(
        refused(&g, 1, "pickup 9S 9H / KS KS KH KH KD"),
        IllegalReason::PileNeedsMeld
    );
    play(&mut g, 1, "meld KS KS KH KH KD");
    assert!(generated(&g, "pickup 9S 9H"));
    play(&mut g, 1, "pickup 9S 9H 9C");
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD", "9S 9H 9D 9C"]);
    assert_eq!(g.phase(), Phase::Play);
}

/// P-CNE "Opening meld": only the card values count toward the minimum;
/// neither a canasta's bonus nor red threes laid out do. Seven fours make
/// a canasta but only 35.
#[test]
fn canasta_bonuses_and_red_threes_do_not_count_toward_the_opening() {
    let g = DealSpec::canastone(4, 0)
        .hand(1, "3H 3D 4S 4S 4H 4H 4D 4D 4C")
        .upcards("8D")
        .stock("9C 9D")
        .game();
    assert_eq!(g.red_threes(Seat::new(1)), 2);
    assert_eq!(
        refused(&g, 1, "meld 4S 4S 4H 4H 4D 4D 4C"),
        IllegalReason::OpeningTooLow { need: 50, have: 35 }
    );
}

/// P-CNE "Opening meld": the opening is one or more melds whose values
/// reach the minimum; nothing caps it. Seventy points of clean melds open
/// at the 50 level (record spec: a larger opening is one action).
#[test]

fn an_opening_larger_than_the_minimum_may_be_laid_before_drawing() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH QS QS QH")
        .upcards("8D")
        .game();
    assert!(legal(&g, "meld KS KS KH KH / QS QS QH"));
    play(&mut g, 1, "meld KS KS KH KH / QS QS QH");
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH", "QS QS QH"]);
    assert_eq!(g.phase(), Phase::Draw);
}

/// P-CNE "Wild melds", "Opening meld": seven twos are a clean wild canasta
/// (140 points, clean, so an opening at the 50 level).
#[test]

fn seven_twos_may_open_as_a_wild_canasta() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "2S 2S 2H 2H 2D 2D 2C")
        .upcards("8D")
        .game();
    play(&mut g, 1, "meld 2S 2S 2H 2H 2D 2D 2C");
    assert_eq!(g.melds(Side::new(1)).len(), 1);
    assert_eq!(
        g.melds(Side::new(1))[0].canasta(g.rules()),
        Some(canasta_core::CanastaKind::Natural)
    );
}

/// P-CNE "Opening composition": at the 50 level the opening must be of
/// clean melds only. The opening is one action, judged over all its
/// groups, whatever their order or size (issue 10: these were accepted
/// when a larger opening was replayed as a clean core plus adds).
#[test]
fn a_dirty_group_anywhere_in_a_50_opening_is_refused() {
    let g = DealSpec::canastone(4, 0)
        .hand(1, "AS AH AD AS KS KH KD KC KS QS QH 7S 7H JK 2C")
        .upcards("8D")
        .stock("4C 4D")
        .game();
    assert_eq!(g.opening_minimum(Seat::new(1)), 50);
    for text in [
        "meld AS AH AD 2C",
        "meld AS AH AD / 7S 7H JK",
        "meld QS QH 2C / AS AH AD",
        "meld KS KH KD KC KS 2C",
        "meld 2C AS AH AD",
        "meld JK 7S 7H / KS KH KD",
    ] {
        assert_eq!(
            refused(&g, 1, text),
            IllegalReason::OpeningMustBeClean {
                need: 50,
                up_to: Some(50)
            },
            "{text}"
        );
        assert!(!g.is_legal(&act(text)), "{text}");
    }
    // Clean openings of any size and order are accepted.
    for text in ["meld AS AH AD", "meld KS KH KD KC KS / AS AH AD AS"] {
        let a = act(text);
        assert!(g.is_legal(&a), "{text}: {:?}", g.explain(&a));
    }
}
