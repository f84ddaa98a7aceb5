//! Canastia melds: threes as an ordinary rank, naturals outnumbering wild
//! cards (S004 "Melds and Canastas"; research §6.1).

use super::*;
use canasta_core::IllegalReason;
use canasta_core::Side;

/// Seat 0 opens with 3-3-3 and A-A-2 (S004's example) and keeps
/// KS KS 2C JK 3C 4H + two drawn cards.
fn opened() -> GameState {
    let mut g = DealSpec::canastia(2, 0)
        .first(0)
        .hand(0, "3S 3S 3C AS AC 2S KS KS 2C JK")
        .stock("3C 4H")
        .game();
    play_all(&mut g, 0, &["draw", "meld 3S 3S 3C / AS AC 2S"]);
    g
}

/// S004 "a meld must always contain more natural cards than wild cards.
/// Example: K-K-2 is valid but not K-K-2-2."
#[test]
fn naturals_must_outnumber_wild_cards() {
    let g = opened();
    assert_eq!(
        refused(&g, 0, "meld KS KS 2C JK"),
        IllegalReason::TooManyWilds {
            max: 1,
            naturals: 2,
            have: 2
        }
    );
    let mut g2 = g.clone();
    play(&mut g2, 0, "meld KS KS 2C");
    assert_eq!(
        refused(&g2, 0, "add 2 JK"),
        IllegalReason::TooManyWilds {
            max: 1,
            naturals: 2,
            have: 2
        }
    );
    // The opening is judged the same way: A-A-2-2 is not a meld.
    let g3 = DealSpec::canastia(2, 0)
        .first(0)
        .hand(0, "AS AS AC 2S 2C KS KH KD 4H 6H")
        .game();
    let mut g3 = g3;
    play(&mut g3, 0, "draw");
    assert!(!legal(&g3, "meld AS AS 2S 2C / KS KH KD"));
    assert!(legal(&g3, "meld AS AS AC 2S 2C / KS KH KD"));
}

/// Research §6.1 (S004's example opening melds 3-3-3): threes are an
/// ordinary rank: melded, added to, and given wild cards under the same
/// ratio as any rank.
#[test]
fn threes_meld_add_and_take_wild_cards_like_any_rank() {
    let mut g = opened();
    play(&mut g, 0, "add 0 3C");
    assert_eq!(meld_texts(&g, 0)[0], "3S 3S 3C 3C");
    play(&mut g, 0, "add 0 JK");
    assert_eq!(g.melds(Side::new(0))[0].cards.len(), 5);
    // Four naturals take a second wild card (2 < 4).
    play(&mut g, 0, "add 0 2C");
    assert_eq!(g.melds(Side::new(0))[0].cards.len(), 6);
}
