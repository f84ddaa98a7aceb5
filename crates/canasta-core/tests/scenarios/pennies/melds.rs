//! Melds in Pennies from Heaven: capped at seven, a new meld of a rank once
//! the last is full, pure sevens, wild melds (P-PEN; research §5.1).

use super::*;
use canasta_core::IllegalReason;
use canasta_core::Side;

/// Seat 1 opens with seven kings (70) and holds three more.
fn ten_kings() -> GameState {
    let mut g = DealSpec::new(pennies(), 0)
        .hand(1, "KS KS KH KH KD KD KC KC 5S 5S 5H 9S 4C")
        .upcards("9C")
        .stock("KC KS")
        .game();
    play_all(&mut g, 1, &["draw", "meld KS KS KH KH KD KD KC"]);
    g
}

/// P-PEN: "no meld may exceed seven cards"; once a canasta is complete the
/// team may start another meld of the same rank.
#[test]
fn a_full_meld_takes_nothing_more_and_a_new_one_of_the_rank_begins() {
    let mut g = ten_kings();
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 7);
    assert_eq!(
        refused(&g, 1, "add 0 KC"),
        IllegalReason::MeldFull { cap: 7 }
    );
    assert!(!legal(&g, "add 0 KS"));
    play(&mut g, 1, "meld KC KC KS");
    assert_eq!(g.melds(Side::new(1)).len(), 2);
    assert_eq!(g.melds(Side::new(1))[1].cards.to_string(), "KS KC KC");
    // The new meld is the open one: fives may start their own meld, and
    // a meld of eight in one go is refused.
    play(&mut g, 1, "meld 5S 5S 5H");
    assert_eq!(g.melds(Side::new(1))[2].cards.to_string(), "5S 5S 5H");
}

/// P-PEN: a meld of more than seven cards is refused, even as one action.
#[test]
fn a_meld_of_eight_is_refused() {
    let mut g = DealSpec::new(pennies(), 0)
        .hand(1, "KS KS KH KH KD KD KC KC 5S 5S 5H 9S 4C")
        .upcards("9C")
        .stock("8S 8H")
        .game();
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld KS KS KH KH KD KD KC KC"),
        IllegalReason::MeldFull { cap: 7 }
    );
}

/// P-PEN: a sevens canasta is seven sevens, no wild cards; "a mixed meld
/// ... not 3s or 7s". (BIC-PEN, RG-PEN and S002 allow a mixed one: the
/// option `pure_rank: null`.)
#[test]
fn sevens_take_no_wild_cards() {
    let mut g = DealSpec::new(pennies(), 0)
        .hand(1, "7S 7S 7H 2C KS KS KH KH KD 5S 9S 9H 4C")
        .upcards("9C")
        .stock("8S 8H")
        .game();
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld 7S 7S 7H 2C / KS KS KH KH KD"),
        IllegalReason::PureRank(canasta_core::Rank::Seven)
    );
    play(&mut g, 1, "meld 7S 7S 7H / KS KS KH KH KD 2C");
    assert!(!generated(&g, "add 0 2C"));
    let mixed = rules_with(pennies(), r#"{"pure_rank": null}"#);
    let mut g = DealSpec::new(mixed, 0)
        .hand(1, "7S 7S 7H 2C KS KS KH KH KD 5S 9S 9H 4C")
        .upcards("9C")
        .stock("8S 8H")
        .game();
    play_all(&mut g, 1, &["draw", "meld 7S 7S 7H 2C / KS KS KH KH KD"]);
}

/// P-PEN: a meld of wild cards only is allowed; seven make a wild canasta
/// (1000); then another may begin. It holds nothing back (unlike P-CNE).
#[test]
fn wild_melds_grow_to_seven_and_a_new_one_may_begin() {
    let mut g = DealSpec::new(pennies(), 0)
        .hand(1, "JK JK JK JK 2S 2S 2H 2H 2D 2D KS KS KH")
        .upcards("9C")
        .stock("KD 5S")
        .game();
    play(&mut g, 1, "draw");
    play(&mut g, 1, "meld JK JK JK JK 2S 2S 2H / KS KS KH KD");
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 7);
    assert_eq!(
        refused(&g, 1, "add 0 2H"),
        IllegalReason::MeldFull { cap: 7 }
    );
    assert!(
        generated(&g, "add 1 2H"),
        "wild cards are free for other melds"
    );
    play(&mut g, 1, "meld 2H 2D 2D");
    assert_eq!(g.melds(Side::new(1)).len(), 3);
}
