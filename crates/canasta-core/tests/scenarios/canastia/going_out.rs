//! Going out in Canastia (S004 "Going out"; research §6.1): two closed
//! canastas, one when going out on the opening turn; the final discard is
//! optional; a player who cannot go out keeps a card.

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{HandEndReason, IllegalReason, Phase};

/// S004: one canasta suffices on the opening turn ("going out concealed"),
/// and going out by melding every card needs no discard (S004: "Discarding
/// a single final card when going out is optional").
#[test]
fn one_canasta_goes_out_on_the_opening_turn_without_a_discard() {
    let mut g = GameState::new(canastia(2));
    concealed_out(&mut g, 0, 0, "KS KS KH KH KD");
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(0))));
}

/// S004: a meld of seven only becomes a canasta when closed, so melding
/// every card at once, the fives unclosed, is not going out (and is
/// refused: it would empty the hand).
#[test]
fn melding_out_needs_the_canastas_already_closed() {
    let spec = concealed_spec(2, 0, 0, "KS KS KH KH KD");
    let mut g = spec.game();
    play(&mut g, 0, "draw");
    assert!(matches!(
        refused(&g, 0, &format!("meld {FIVES} / KS KS KH KH KD")),
        IllegalReason::NotEnoughCanastas { have: 0, .. }
    ));
}

/// Seat 0 opens with the fives (closed) and keeps kings over four turns;
/// seat 1 draws and discards.
fn four_turns() -> GameState {
    let mut g = DealSpec::canastia(2, 0)
        .first(0)
        .hand(0, "5S 5S 5H 5H 5D 5D 5C KS KS 8S")
        .hand(1, "4S 4S 6S 6H 7S 7H QS QH AS 3S")
        .stock("KH 4D 8D 7D KH KD 8H 7C KD 4C 6C 7S KC 8C")
        .game();
    play_all(&mut g, 0, &["draw", &format!("meld {FIVES}"), "canasta 0"]);
    play(&mut g, 0, "discard 4D");
    assert_eq!(g.hand(Seat::new(0)), &counts("KS KS KH 8S"));
    draw_discard(&mut g, 1, "7D");
    play(&mut g, 0, "draw");
    g
}

/// S004: "If the player does not have the requirement of the amount of
/// canastas, the player must play in such a way to keep at least 1 card
/// after discarding": after the opening turn one canasta is not enough.
#[test]
fn a_player_who_cannot_go_out_keeps_a_card() {
    let mut g = four_turns();
    // Hand: KS KS KH KH KD 8S. Five kings would leave 8S, which cannot go.
    assert_eq!(
        refused(&g, 0, "meld KS KS KH KH KD"),
        stranded("8S", IllegalReason::NotEnoughCanastas { need: 2, have: 1 })
    );
    play_all(&mut g, 0, &["meld KS KS KH KH", "discard 8S"]);
    assert_eq!(g.hand(Seat::new(0)), &counts("KD"));
    assert_eq!(g.phase(), Phase::Draw);
}

/// S004: "A player may go out ... only if that player has made at least two
/// canastas": the kings reach seven, are closed, and the last card is
/// discarded; before closing, the discard is refused.
#[test]
fn two_closed_canastas_go_out_with_a_final_discard() {
    let mut g = four_turns();
    play_all(&mut g, 0, &["meld KS KS KH KH", "discard 8S"]);
    draw_discard(&mut g, 1, "7C");
    play_all(&mut g, 0, &["draw", "add 1 KD", "discard 4C"]);
    draw_discard(&mut g, 1, "7S");
    play(&mut g, 0, "draw");
    assert_eq!(g.hand(Seat::new(0)), &counts("KD KC 8C"));
    play(&mut g, 0, "add 1 KD KC");
    assert_eq!(g.melds(Side::new(0))[1].cards.len(), 7);
    assert!(matches!(
        refused(&g, 0, "discard 8C"),
        IllegalReason::MissingCanastas { .. } | IllegalReason::NotEnoughCanastas { .. }
    ));
    play_all(&mut g, 0, &["canasta 1", "discard 8C"]);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(0))));
    // Fives 7, kings 7 x 2; two canastas at 15 (provisional); no bonus.
    let t1 = -chand(g.hand(Seat::new(1)));
    assert_eq!(all_items(h, 0), (7 + 14, 0, 30, 0, 0, 0, 51));
    assert_eq!(all_items(h, 1), (0, t1, 0, 0, 0, 0, t1));
}
