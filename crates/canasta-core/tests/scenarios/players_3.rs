//! Classic Canasta for three (P-CAN §three, RG-3; research §1.3).

use crate::common::*;
use canasta_core::Seat;
use canasta_core::{GameState, HandEndReason, Rules};

/// P-CAN: 13 cards each, draw two, discard one; every player for themselves
/// until the pile is taken.
#[test]
fn three_players_are_dealt_13_and_draw_two() {
    let mut g = DealSpec::classic(3, 0).game();
    assert_eq!(g.rules().game.teams, 3);
    assert_eq!(g.rules().game.target, 7500);
    for s in Seat::all(3) {
        assert_eq!(g.hand(s).total(), 13);
        assert_eq!(g.side_of(s).index(), s.index());
    }
    assert_eq!(g.stock_len(), 108 - 39 - 1);
    play(&mut g, 1, "draw");
    assert_eq!(g.hand(Seat::new(1)).total(), 15);
    assert_eq!(g.lone_hand(), None);
}

/// Dealer 0. Seat 1 opens with aces and kings, seat 2 with queens and jacks
/// (seat 2 holds a red three), then seat 0 takes the pile.
fn partnership_formed() -> GameState {
    let mut g = DealSpec::classic(3, 0)
        .hand(1, "AS AS AH KS KS KH AH AD AD AC KD KD QD")
        .hand(2, "QS QS QH JS JS JH 3H 9S")
        .hand(0, "9H 9D 8S 8S 8H")
        .stock("5D QD 4C 4S 5S JD 7H")
        .game();
    assert_eq!(g.red_threes(Seat::new(2)), 1);
    play_all(
        &mut g,
        1,
        &["draw", "meld AS AS AH / KS KS KH", "discard 4C"],
    );
    play_all(
        &mut g,
        2,
        &["draw", "meld QS QS QH / JS JS JH", "discard 9S"],
    );
    assert_eq!(g.lone_hand(), None);
    // Seat 0 takes the pile (its opening: 30 + 30 = 60).
    play(&mut g, 0, "pickup 9H 9D / 8S 8S 8H");
    g
}

/// P-CAN, RG-3: the first player to take the discard pile plays alone; the
/// other two become partners for the hand and pool their melds.
#[test]
fn the_first_to_take_the_pile_plays_alone_and_the_others_pool_their_melds() {
    let g = partnership_formed();
    assert_eq!(g.lone_hand(), Some(Seat::new(0)));
    assert_eq!(g.side_of(Seat::new(1)), g.side_of(Seat::new(2)));
    assert_ne!(g.side_of(Seat::new(0)), g.side_of(Seat::new(1)));
    assert_eq!(
        meld_texts(&g, g.side_of(Seat::new(1))),
        vec!["AS AS AH", "KS KS KH", "QS QS QH", "JS JS JH"]
    );
    assert_eq!(meld_texts(&g, 0), vec!["9S 9H 9D", "8S 8S 8H"]);
}

/// P-CAN: partners' card and canasta scores are credited to both; each
/// scores their own red threes; scores are kept per player.
#[test]
fn three_players_score_individually_with_the_partnership_credited_to_both() {
    let mut g = partnership_formed();
    play(&mut g, 0, "discard 4C");
    // Seat 1 goes out on the pooled melds: aces become a natural canasta.
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "add 0 AH AD AD AC",
            "add 1 KD KD",
            "add 2 QD QD",
            "add 3 JD",
            "discard 7H",
        ],
    );
    let h = g.last_hand().unwrap().clone();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    assert_eq!(h.teams.len(), 3);
    // Pooled melds: aces 7 x 20, kings 5 x 10, queens 5 x 10, jacks 4 x 10.
    let in_hand_2 = -hand_value(g.hand(Seat::new(2)));
    assert_eq!(items(&h, 1), (280, in_hand_2, 500, 0, 100, 880 + in_hand_2));
    assert_eq!(
        items(&h, 2),
        (280, in_hand_2, 500, 100, 100, 980 + in_hand_2)
    );
    let in_hand_0 = -hand_value(g.hand(Seat::new(0)));
    assert_eq!(items(&h, 0), (60, in_hand_0, 0, 0, 0, 60 + in_hand_0));
    assert_eq!(g.scores().len(), 3);
    assert_eq!(h.totals, g.scores().to_vec());
    // Each player's own score sets their opening minimum (P-CAN).
    let r = Rules::preset("classic", Some(3), None).unwrap();
    for s in Seat::all(3) {
        assert_eq!(g.opening_minimum(s), r.opening.minimum(g.scores()[s]));
    }
}

/// P-CAN, RG-3: if someone goes out before anyone has taken the pile, the
/// player who goes out is the lone hand.
#[test]
fn going_out_before_anyone_took_the_pile_makes_the_lone_hand() {
    let mut g = DealSpec::classic(3, 0)
        .hand(1, "KS KS KH KH KD KD KC QS QS QH QH QD QD")
        .stock("QC 9S")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC / QS QS QH QH QD QD QC",
            "discard 9S",
        ],
    );
    assert_eq!(g.lone_hand(), Some(Seat::new(1)));
    let h = g.last_hand().unwrap();
    assert_eq!(h.teams[1].going_out, 200);
    // Seats 2 and 0 were partners: the same score (neither has a red three).
    assert_eq!(h.teams[0], h.teams[2]);
    let both = -(hand_value(g.hand(Seat::new(0))) + hand_value(g.hand(Seat::new(2))));
    assert_eq!(h.teams[0].in_hand, both);
}

/// P-CAN, RG-3: taking the pile by laying its top card on one's own meld is
/// taking the pile too: that player plays alone.
#[test]

fn taking_the_pile_onto_a_meld_also_makes_the_lone_hand() {
    let mut g = DealSpec::classic(3, 0)
        .hand(1, "KS KS KH AS AS AH")
        .hand(0, "KC")
        .game();
    play_all(&mut g, 1, &["draw", "meld KS KS KH / AS AS AH"]);
    let d = g.hand(Seat::new(1)).iter().next().unwrap();
    play(&mut g, 1, &format!("discard {d}"));
    draw_discard_drawn(&mut g, 2);
    draw_discard(&mut g, 0, "KC");
    play(&mut g, 1, "pickup");
    assert_eq!(meld_texts(&g, 1)[0], "KS KS KH KC");
    assert_eq!(
        g.lone_hand(),
        Some(Seat::new(1)),
        "seat 1 took the pile first"
    );
    assert_eq!(g.side_of(Seat::new(2)), g.side_of(Seat::new(0)));
}
