//! Canastia scoring (S004: melded cards plus, cards in hand minus, 15 for
//! the canasta in its opening example; the rest of its scoring list is cut
//! off: research §6.2, Provisional in docs/rules/canastia.md) and the match
//! to 100.

use super::*;
use canasta_core::Seat;
use canasta_core::Team;
use canasta_core::{HandEndReason, Phase};

/// S004: melded cards count plus at their values (1; Q, K 2; A 3), cards
/// in hand minus; a closed canasta 15 (S004's opening example); no
/// going-out bonus (Provisional, research §6.2).
#[test]
fn melded_plus_hand_minus_fifteen_per_closed_canasta_no_going_out_bonus() {
    let mut g = GameState::new(canastia(2));
    concealed_out(&mut g, 0, 0, "KS KS KH KH KD");
    let h = g.last_hand().unwrap();
    // Fives 7, kings 10; one natural canasta; nothing in hand.
    assert_eq!(all_items(h, 0), (17, 0, 15, 0, 0, 0, 32));
    let t1 = -chand(g.hand(Seat::new(1)));
    assert!(t1 < 0);
    assert_eq!(all_items(h, 1), (0, t1, 0, 0, 0, 0, t1));
    assert_eq!(h.totals, vec![32, t1]);
}

/// Research §6.2 (Provisional): a meld of seven or more that was never
/// closed scores its cards only, no canasta bonus. Seat 0 opens with seven
/// fives and three kings and leaves the fives open; seat 1 goes out on its
/// opening turn with closed sevens and five queens.
#[test]
fn an_unclosed_meld_of_seven_scores_no_bonus() {
    let mut g = DealSpec::canastia(2, 0)
        .first(0)
        .hand(0, &format!("{FIVES} KS KS KH"))
        .hand(1, "7S 7S 7H 7H 7D 7D 7C QS QS QH")
        .stock("4H 6H QH QD")
        .game();
    play_all(
        &mut g,
        0,
        &["draw", &format!("meld {FIVES} / KS KS KH"), "discard 4H"],
    );
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld 7S 7S 7H 7H 7D 7D 7C",
            "canasta 0",
            "meld QS QS QH QH QD",
        ],
    );
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    let t0 = -chand(g.hand(Seat::new(0)));
    assert_eq!(t0, -1, "6H");
    assert_eq!(all_items(h, 0), (13, -1, 0, 0, 0, 0, 12));
    assert_eq!(all_items(h, 1), (17, 0, 15, 0, 0, 0, 32));
}

/// S004 "Game Objective": the match ends once a player has reached 100,
/// the most points winning (Provisional: ">= 100", research §6.1 [C]).
/// Seat 0 wins three hands: 7 + 13 + 15 (four aces and a two), 7 + 11 + 15
/// (three aces and two twos), 7 + 10 + 15: exactly 100.
#[test]
fn the_match_ends_when_a_player_reaches_100() {
    let mut g = GameState::new(canastia(2));
    let hands = [
        ("AS AS AC AC 2S", 35),
        ("AS AS AC 2S 2C", 68),
        ("KS KS KH KH KD", 100),
    ];
    for (i, (group, total)) in hands.into_iter().enumerate() {
        concealed_out(&mut g, i % 2, 0, group);
        assert_eq!(g.scores()[0], total, "hand {}", i + 1);
        if total < 100 {
            assert_eq!(g.phase(), Phase::HandOver);
            assert_eq!(g.opening_minimum(Seat::new(0)), 15, "the leader needs 15");
        }
    }
    assert_eq!(g.phase(), Phase::GameOver);
    assert_eq!(g.winner(), Some(Some(Team::new(0))));
    assert!(g.scores()[1] < 0);
}

/// S004: 2-3 players, each for themselves; research §6.1: each keeps their
/// own melds. Three players score apart: seat 2 goes out, seats 0 and 1
/// lose their own hands; seat 1's melds are its own.
#[test]
fn three_players_each_for_themselves() {
    let r = canastia(3);
    assert_eq!((r.game.players, r.game.teams), (3, 3));
    let mut g = GameState::new(r);
    concealed_spec(3, 1, 2, "KS KS KH KH KD")
        .first(1)
        .hand(1, "QS QS QH AS AS AC 4H 6H 7H 8H")
        .stock("4C 6C KH KD")
        .deal_into(&mut g);
    play_all(
        &mut g,
        1,
        &["draw", "meld QS QS QH / AS AS AC", "discard 4C"],
    );
    for a in concealed_actions("KS KS KH KH KD") {
        play(&mut g, 2, &a);
    }
    assert_eq!(
        (0..3)
            .map(|s| g.side_of(Seat::new(s)).index())
            .collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    let h = g.last_hand().unwrap();
    assert_eq!(h.teams.len(), 3);
    let t0 = -chand(g.hand(Seat::new(0)));
    assert_eq!(all_items(h, 0), (0, t0, 0, 0, 0, 0, t0));
    // Seat 1: queens 6, aces 9; 4H 6H 7H 8H 6C left.
    assert_eq!(all_items(h, 1), (15, -5, 0, 0, 0, 0, 10));
    assert_eq!(all_items(h, 2), (17, 0, 15, 0, 0, 0, 32));
    assert_eq!(h.totals, vec![t0, 10, 32]);
}
