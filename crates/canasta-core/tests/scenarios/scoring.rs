//! Scoring a hand: card values, canasta bonuses, red threes, going out
//! (P-CAN, S001, S003; research §1.1).

use crate::common::*;
use canasta_core::Seat;
use canasta_core::Team;
use canasta_core::{HandEndReason, Rules};

/// P-CAN, S001, S003: a team scores its melded cards, minus the cards left
/// in its hands (joker 50, black three 5, ...), plus canasta bonuses (mixed
/// 300), red threes (100 each: plus when the team has melded, minus when it
/// has melded nothing) and going out (100).
#[test]
fn hand_score_items_after_going_out() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "AS AS AH AH AD AD 2C KS KH KD 4D")
        .hand(2, "JK 3S 2S AC QH QD JH TH 9S 8S 7S")
        .hand(3, "3H 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C")
        .hand(0, "3D 4S 5S 6S 7S 8D 9C TC JC QC KC")
        .stock("5H 6H KC 7H 8H 9H 9D")
        .game();
    play_all(&mut g, 1, &["draw", "meld AS AS AH", "discard 4D"]);
    for seat in [2, 3, 0] {
        draw_discard_drawn(&mut g, seat);
    }
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "add 0 AH AD AD 2C",
            "meld KS KH KD KC",
            "discard 9D",
        ],
    );
    let h = g.last_hand().unwrap();
    assert_eq!(
        (h.reason, h.seat, h.concealed),
        (HandEndReason::Out, Some(Seat::new(1)), false)
    );
    // Team 1: aces 6 x 20 + 2C 20 + kings 4 x 10 = 180; seat 3 holds
    // 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 5H = 65; mixed canasta 300; one red three.
    assert_eq!(hand_value(g.hand(Seat::new(3))), 65);
    assert_eq!(items(h, 1), (180, -65, 300, 100, 100, 615));
    // Team 0: seat 2 holds JK 3S 2S AC QH QD JH TH 9S 8S 7S = 160, seat 0
    // 4S 5S 6S 7S 8D 9C TC JC QC KC 6H = 85; its red three counts minus.
    assert_eq!(hand_value(g.hand(Seat::new(2))), 160);
    assert_eq!(hand_value(g.hand(Seat::new(0))), 85);
    assert_eq!(items(h, 0), (0, -245, 0, -100, 0, -345));
    assert_eq!(h.totals, vec![-345, 615]);
    assert_eq!(g.scores(), &[-345, 615]);
}

/// P-CAN, S001: all four red threes count 800, and minus 800 for a team
/// that has melded nothing.
#[test]
fn four_red_threes_count_800_or_minus_800() {
    let r = Rules::classic();
    let values: Vec<i32> = (0..=4).map(|n| r.scoring.red_three_value(n)).collect();
    assert_eq!(values, vec![0, 100, 200, 300, 800]);

    let g = crate::opening::hand_one();
    assert_eq!(g.last_hand().unwrap().teams[1].red_threes, 800);

    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KS KH KH KD KD KC QS QS QH QD")
        .hand(0, "3H 3D")
        .hand(2, "3H 3D")
        .stock("4S 4S 4H 4H 4D")
        .game();
    assert_eq!(g.red_threes(Seat::new(0)) + g.red_threes(Seat::new(2)), 4);
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC / QS QS QH QD",
            "discard 4D",
        ],
    );
    let h = g.last_hand().unwrap();
    assert_eq!(h.teams[0].red_threes, -800);
    assert_eq!(h.teams[1].red_threes, 0);
}

/// P-CAN, S001 (register #3): red threes count minus only when the team has
/// melded nothing; a team with a meld but no canasta scores them plus (S003's
/// "no canasta" reading is the `red_three_penalty` option).
#[test]
fn red_threes_count_plus_for_a_team_that_melded_without_a_canasta() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "3H AS AS AH 4C 5C 6C 7C 8C 9C TC")
        .hand(2, "KS KS KH KH KD KD KC QS QS QH QD")
        .stock("JC 4D 5D")
        .game();
    assert_eq!(g.red_threes(Seat::new(1)), 1);
    play_all(&mut g, 1, &["draw", "meld AS AS AH", "discard 4D"]);
    play_all(
        &mut g,
        2,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC / QS QS QH QD",
            "discard 5D",
        ],
    );
    let h = g.last_hand().unwrap();
    assert_eq!(h.seat, Some(Seat::new(2)));
    assert_eq!(h.teams[1].red_threes, 100);
    assert_eq!(h.teams[1].canastas, 0);
    assert_eq!(h.teams[1].melded, 60);
}

/// P-CAN, S001, S003: a team reaching 5000 at the end of a hand ends the
/// game and wins. Team 1 scores 1555 a hand (the concealed going out of
/// hand 1, which stays legal at the 120 minimum of a score of 3000 or more).
#[test]
fn the_game_ends_when_a_team_reaches_5000() {
    let spec = DealSpec::classic(4, 0)
        .hand(1, "3H 3D KS KS KH KH KD KD KC QS QS")
        .hand(3, "3H 3D 4H 4H 5H 5H 6H 6H 7H 7H 4C")
        .stock("QH QD 5C 6C 4S");
    let mut g = canasta_core::GameState::new(spec.rules.clone());
    for hand in 1..=4 {
        spec.deal_into(&mut g);
        if hand == 4 {
            assert_eq!(g.opening_minimum(Seat::new(1)), 120);
        }
        play_all(
            &mut g,
            1,
            &[
                "draw",
                "meld KS KS KH KH KD KD KC / QS QS QH QD",
                "discard 4S",
            ],
        );
        assert_eq!(g.scores()[1], 1555 * hand);
        assert_eq!(g.is_over(), hand == 4, "after hand {hand}");
    }
    assert_eq!(g.phase(), canasta_core::Phase::GameOver);
    assert_eq!(g.winner(), Some(Some(Team::new(1))));
    assert!(
        g.deal(&spec.deck(), Seat::new(1)).is_err(),
        "no deal after the game ends"
    );
}
