//! Going out and scoring in Pennies from Heaven (P-PEN; research §5.1).

use super::*;
use canasta_core::Seat;
use canasta_core::{HandEndReason, Phase};

/// The standard line: after [`round_played`], seat 1 takes the frozen pile
/// with QS QS (QH on top), completes a mixed canasta of queens, melds seven
/// wild cards and three nines, and discards 4C.
pub const GOING_OUT: [&str; 5] = [
    "pickup QS QS",
    "add 2 QD 2S 2H 2D",
    "meld JK JK JK JK 2D 2C 2C",
    "meld 9S 9H 9C",
    "discard 4C",
];

/// P-PEN: to go out the side needs a canasta of each of the four kinds:
/// natural, mixed, wild and sevens. Going out earns 100; red threes count
/// plus only for a side with a sevens canasta, minus for the others; feet
/// never picked up count against their side.
#[test]
fn going_out_with_one_canasta_of_each_kind() {
    let mut g = round_played();
    play_all(&mut g, 1, &GOING_OUT);
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    let t = &h.teams[1];
    // Sevens 7 x 5, kings 7 x 10, queens 4 x 10 + 3 x 20, wild 4 x 50 +
    // 3 x 20, nines 3 x 10.
    assert_eq!(t.melded, 35 + 70 + 100 + 260 + 30);
    // Sevens 1500, natural 500, mixed 300, wild 1000.
    assert_eq!(t.canastas, 1500 + 500 + 300 + 1000);
    assert_eq!(t.going_out, 100);
    assert_eq!(
        t.red_threes, 100,
        "seat 1's red three, with a sevens canasta"
    );
    let partners = hand_value(g.hand(Seat::new(3))) + hand_value(g.hand(Seat::new(5)));
    assert_eq!(t.in_hand, -partners);
    let feet = hand_value(&g.foot(Seat::new(3))) + hand_value(&g.foot(Seat::new(5)));
    assert_eq!(t.foot, -feet);
    items(h, 1);
    let o = &h.teams[0];
    assert_eq!(o.red_threes, -100, "seat 2's red three, no sevens canasta");
    assert_eq!(o.melded, 0);
    let feet0: i32 = [0, 2, 4]
        .iter()
        .map(|&s| hand_value(&g.foot(Seat::new(s))))
        .sum();
    assert_eq!(o.foot, -feet0);
    items(h, 0);
}

/// The same line where the rules ask for two wild canastas (an option of
/// the general `go_out_wild_canastas` field): melding the nines would leave
/// 4C, which could not go out, so it is refused.
#[test]
fn going_out_needs_every_kind_the_rules_ask_for() {
    let rules = rules_with(pennies(), r#"{"go_out_wild_canastas": 2}"#);
    let mut g = round_played_with(rules);
    play_all(&mut g, 1, &GOING_OUT[..3]);
    assert!(!legal(&g, "meld 9S 9H 9C"));
    assert!(!generated(&g, "meld 9S 9H 9C"));
}

/// P-PEN, BIC-PEN, RG-PEN: the game is to 20000, with the x10 opening
/// table (50; 90 from 5000; 120 from 10000; 150 from 15000; 15 below 0).
#[test]
fn opening_table_and_target() {
    let r = pennies();
    assert_eq!(r.game.target, 20000);
    assert!(r.game.tie_plays_on);
    for (score, need) in [
        (-10, 15),
        (0, 50),
        (4995, 50),
        (5000, 90),
        (9995, 90),
        (10000, 120),
        (15000, 150),
    ] {
        assert_eq!(r.opening.minimum(score), need, "at {score}");
    }
}
