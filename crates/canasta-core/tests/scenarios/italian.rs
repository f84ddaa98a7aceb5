//! Going out in the US Italian Canasta preset (`italian`; RG-ITA, S002,
//! HSW-ITA; research §2.2): two canastas, a wild canasta not among them, and
//! no wild meld left short of a canasta. The preset is Canastone's with the
//! US books' changes (`docs/rules/italian.md`).

use crate::common::*;
use canasta_core::{IllegalReason, Rules};

fn italian() -> Rules {
    Rules::preset("italian", None, None).unwrap()
}

/// RG-ITA, S002: two canastas to go out, and a wild canasta does not count.
/// Seat 1 opens with seven kings, makes a wild canasta of seven wild cards
/// and holds QS QS QH: melding them would empty the hand with one canasta
/// that counts.
#[test]
fn a_wild_canasta_does_not_count_toward_going_out() {
    let mut g = DealSpec::new(italian(), 0)
        .hand(1, "KS KS KH KH KD KD KC 2S 2S 2H 2H 2D JK QS QS")
        .upcards("5D")
        .stock("JK QH")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC",
            "meld 2S 2S 2H 2H 2D JK JK",
        ],
    );
    assert_eq!(g.hand(1), &counts("QS QS QH"));
    let reason = refused(&g, 1, "meld QS QS QH");
    assert_eq!(
        reason,
        IllegalReason::NotEnoughCanastas { need: 2, have: 1 }
    );
    assert_eq!(
        reason.to_string(),
        "your side needs 2 canasta(s) to go out and has 1"
    );
    assert!(legal(&g, "discard QH"));
}

/// The preset keeps Canastone's wild meld: while it is short of a canasta
/// the side may not go out, so a meld that would leave one card to discard
/// is refused with that reason.
#[test]
fn an_unfinished_wild_meld_forbids_going_out() {
    let mut g = DealSpec::new(italian(), 0)
        .hand(1, "KS KS KH KH KD KD KC 2S 2H JK QS QS QH 9S 9H")
        .upcards("5D")
        .stock("9D 4C")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC",
            "meld 2S 2H JK",
            "meld QS QS QH",
        ],
    );
    assert_eq!(g.hand(1), &counts("9S 9H 9D 4C"));
    assert_eq!(
        refused(&g, 1, "meld 9S 9H 9D"),
        stranded("4C", IllegalReason::UnfinishedWildMeld)
    );
    assert!(legal(&g, "discard 4C"));
}
