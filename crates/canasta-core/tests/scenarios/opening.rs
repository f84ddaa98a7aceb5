//! The opening minimum (P-CAN, S001, S002; research §1.1).

use crate::common::*;
use canasta_core::{GameState, HandEndReason, IllegalReason, Phase, Rules};
use canasta_core::{Seat, Side};

/// P-CAN, S001, S002: negative 15; 0-1495 50; 1500-2995 90; 3000+ 120.
#[test]
fn opening_minimum_table_by_cumulative_score() {
    let r = Rules::classic();
    for (score, need) in [
        (-2000, 15),
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (4995, 120),
    ] {
        assert_eq!(r.opening.minimum(score), need, "score {score}");
    }
}

/// Plays hand 1 of the game used by the score-driven tests: seat 1 goes out
/// concealed on the first turn (seven kings and four queens), and team 1
/// holds all four red threes. Returns the game after the hand.
pub fn hand_one() -> GameState {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "3H 3D KS KS KH KH KD KD KC QS QS")
        .hand(3, "3H 3D 4H 4H 5H 5H 6H 6H 7H 7H 4C")
        .stock("QH QD 5C 6C 4S")
        .game();
    assert_eq!(g.opening_minimum(Seat::new(1)), 50);
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC / QS QS QH QD",
            "discard 4S",
        ],
    );
    g
}

/// Hand 2 (dealer 1): team 0 opens with 15, team 1 (needing 90) goes out
/// concealed with 55 points. Returns the game after the hand.
fn hand_two(g: &mut GameState) {
    DealSpec::classic(4, 1)
        .hand(1, "3H 3H 3D 3D 6S 6S 6D 6D 7S 7S 7D")
        .hand(2, "5S 5S 5D 4C")
        .hand(3, "4S 4S 4H 4H 4D 4D 4C 5H 5H 5C 5C")
        .stock("7D 6C 6C 7C 8H 9S")
        .deal_into(g);
    assert_eq!(g.red_threes(Seat::new(1)), 4);
    assert_eq!(
        g.hand(Seat::new(1)),
        &counts("6S 6S 6D 6D 7S 7S 7D 7D 6C 6C 7C")
    );
    // Team 0 has a negative score: 15 is enough (P-CAN).
    assert_eq!(g.opening_minimum(Seat::new(2)), 15);
    play_all(g, 2, &["draw", "meld 5S 5S 5D", "discard 4C"]);
    // Team 1 has 1555: it needs 90 (P-CAN). Taking the pile to meld out is
    // held to the minimum: only the concealed going out after a *stock*
    // draw is exempt (P-CAN, S002). 4C top + 35 + 20 = 60.
    assert_eq!(g.opening_minimum(Seat::new(3)), 90);
    assert_eq!(
        refused(g, 3, "pickup 4S 4S 4H 4H 4D 4D 4C / 5H 5H 5C 5C"),
        IllegalReason::OpeningTooLow { need: 90, have: 60 }
    );
    play(g, 3, "draw");
    assert_eq!(
        refused(g, 3, "meld 4S 4S 4H 4H 4D 4D 4C"),
        IllegalReason::OpeningTooLow { need: 90, have: 35 }
    );
    // Not going out (two cards would remain): the exception does not apply.
    assert_eq!(
        refused(g, 3, "meld 4S 4S 4H 4H 4D 4D 4C / 5H 5H 5C"),
        IllegalReason::OpeningTooLow { need: 90, have: 50 }
    );
    // The whole hand but one card, with a canasta: 55 < 90 is allowed.
    play(g, 3, "meld 4S 4S 4H 4H 4D 4D 4C / 5H 5H 5C 5C");
    assert_eq!(g.phase(), Phase::Play);
    // The player is now bound to go out: the last card is the only discard.
    assert_eq!(legal_texts(g), vec!["discard 9S"]);
    play(g, 3, "discard 9S");
}

/// P-CAN, S001, S002: the opening minimum follows the team's cumulative
/// score, here set by playing earlier hands: after hand 1 team 0 is negative
/// (15) and team 1 has 1555 (90); after hand 2 team 1 has 3055 (120).
#[test]
fn opening_minimum_follows_the_cumulative_score_over_hands() {
    let mut g = hand_one();
    let h = g.last_hand().unwrap().clone();
    assert_eq!(h.reason, HandEndReason::Out);
    assert_eq!(h.seat, Some(Seat::new(1)));
    assert_eq!(items(&h, 1), (110, -55, 500, 800, 200, 1555));
    assert!(g.scores()[0] < 0);
    assert_eq!(g.scores()[1], 1555);
    assert_eq!(
        (
            g.opening_minimum(Seat::new(0)),
            g.opening_minimum(Seat::new(1))
        ),
        (15, 90),
        "team 0 negative, team 1 >= 1500"
    );

    hand_two(&mut g);
    let h = g.last_hand().unwrap().clone();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(3))));
    assert!(h.concealed);
    assert_eq!(items(&h, 1), (55, -55, 500, 800, 200, 1500));
    assert_eq!(g.scores()[1], 3055);
    assert!(g.scores()[0] < 0, "{:?}", g.scores());
    assert_eq!(g.phase(), Phase::HandOver);

    // Hand 3 (dealer 2, seat 3 first): team 1 needs 120, team 0 still 15.
    DealSpec::classic(4, 2)
        .hand(3, "AS AS AH AH KS KS KH QS QS QH 4D")
        .hand(0, "4S 4S 4H")
        .stock("9C 9D")
        .deal_into(&mut g);
    assert_eq!(g.opening_minimum(Seat::new(3)), 120);
    assert_eq!(g.opening_minimum(Seat::new(0)), 15);
    assert_eq!(
        g.observe(Seat::new(0)).opening_needed,
        vec![15, 120, 15, 120]
    );
    play(&mut g, 3, "draw");
    assert_eq!(
        refused(&g, 3, "meld AS AS AH / KS KS KH"),
        IllegalReason::OpeningTooLow {
            need: 120,
            have: 90
        }
    );
    play_all(
        &mut g,
        3,
        &["meld AS AS AH AH / KS KS KH / QS QS QH", "discard 4D"],
    );
    play_all(&mut g, 0, &["draw", "meld 4S 4S 4H", "discard 9D"]);
    assert_eq!(g.melds(Side::new(0)).len(), 1);
}

/// P-CAN, S001: the cards laid down in one turn count together (several
/// melds may be combined); red threes never count toward the minimum.
#[test]
fn several_melds_combine_to_meet_the_minimum_and_red_threes_do_not_count() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "3H 3D KS KH 2C 5S 5H 5D QS QH 9C")
        .stock("8C 7C 4D")
        .game();
    assert_eq!(g.red_threes(Seat::new(1)), 2);
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld KS KH 2C"),
        IllegalReason::OpeningTooLow { need: 50, have: 40 }
    );
    assert_eq!(
        refused(&g, 1, "meld 5S 5H 5D"),
        IllegalReason::OpeningTooLow { need: 50, have: 15 }
    );
    assert!(!generated(&g, "meld KS KH 2C"));
    assert!(generated(&g, "meld KS KH 2C / 5S 5H 5D"));
    assert!(generated(&g, "meld QS QH 2C / 5S 5H 5D"));
    play(&mut g, 1, "meld KS KH 2C / 5S 5H 5D");
    assert_eq!(meld_texts(&g, 1), vec!["KS KH 2C", "5S 5H 5D"]);
    // Once opened, a single small meld is fine.
    play(&mut g, 1, "discard 9C");
}

/// P-CAN, S001: when the pile is taken for the opening, the top card counts
/// toward the minimum but no other card of the pile does.
#[test]
fn the_pile_top_counts_toward_the_opening_but_not_the_cards_under_it() {
    let g = DealSpec::classic(4, 0)
        .hand(1, "KH KD QS QH 2C 5S 5H 5D 5C 9C 8C")
        .upcards("JK KS")
        .game();
    assert!(g.pile_frozen());
    // 10 (KS) + 20 (KH KD); the joker under it would make 80 but does not count.
    assert_eq!(
        refused(&g, 1, "pickup KH KD"),
        IllegalReason::OpeningTooLow { need: 50, have: 30 }
    );
    // The top card makes the difference: 10 + 20 + 20 = 50.
    assert!(legal(&g, "pickup KH KD / 5S 5H 5D 5C"));
    assert!(legal(&g, "pickup KH KD / QS QH 2C"));
    assert_eq!(
        refused(&g, 1, "pickup KH KD / 5S 5H 5D"),
        IllegalReason::OpeningTooLow { need: 50, have: 45 }
    );
    let mut g = g;
    play(&mut g, 1, "pickup KH KD / 5S 5H 5D 5C");
    assert_eq!(meld_texts(&g, 1), vec!["KS KH KD", "5S 5H 5D 5C"]);
    assert_eq!(g.hand(Seat::new(1)), &counts("QS QH 2C 9C 8C JK"));
}

/// P-CAN, S002: below the minimum only a concealed going out is allowed.
/// A meld below it that leaves one card but makes no canasta is neither:
/// the refusal names the minimum and what stops the going out (a referee
/// found the old words, "you must go out this turn", named neither).
#[test]
fn below_the_minimum_without_a_canasta_is_refused_with_both_reasons() {
    let rules = rules_with(
        Rules::classic(),
        r#"{"opening_table": [{"from": null, "need": 120}]}"#,
    );
    let mut g = DealSpec::new(rules, 0)
        .hand(1, "AS AH AD KS KH KD 5S 5H 5D 5C 9C")
        .stock("5S")
        .game();
    play(&mut g, 1, "draw");
    let reason = refused(&g, 1, "meld AS AH AD / KS KH KD / 5S 5H 5D 5C 5S");
    assert!(
        matches!(
            reason,
            IllegalReason::OpeningTooLowToGoOut {
                need: 120,
                have: 115,
                ..
            }
        ),
        "{reason:?}"
    );
    assert_eq!(
        reason.to_string(),
        "the opening needs 120 points, these melds make 115; below it you may only go out \
         concealed, and this would leave you only 9C, which could not be your last discard: \
         your side needs 1 canasta to go out and has 0"
    );
}
