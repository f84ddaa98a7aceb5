//! Closing a Canastia canasta by choice (S004 "Melds and Canastas": "A meld
//! of seven or more cards can be transformed to a canasta ... No more cards
//! can be added to a canasta. Transforming a meld to a canasta is not
//! automatic"; research §6.1).

use super::*;
use canasta_core::MeldId;
use canasta_core::Side;
use canasta_core::{CanastaKind, GroupKind, IllegalReason, MeldRef, Rank};

/// Meld 0, as refusals name it.
fn meld0(rank: Rank) -> MeldRef {
    MeldRef {
        index: MeldId::new(0),
        kind: GroupKind::Rank(rank),
    }
}

/// Seat 0 opens with six fives and a two (7 + 15) and holds 5C 5C JK KS
/// KS KH and two drawn cards (4H 6H).
fn seven_fives() -> GameState {
    let mut g = DealSpec::canastia(2, 0)
        .first(0)
        .hand(0, "5S 5S 5H 5H 5D 5D 2S 5C 5C JK")
        .stock("4H 6H")
        .game();
    play_all(&mut g, 0, &["draw", "meld 5S 5S 5H 5H 5D 5D 2S"]);
    g
}

/// S004: conversion is not automatic: a meld of seven is no canasta until
/// its owner closes it (`canasta M`); until then it takes more cards.
#[test]
fn a_meld_of_seven_is_no_canasta_until_closed() {
    let mut g = seven_fives();
    let m = g.melds(Side::new(0))[0];
    assert_eq!(m.cards.len(), 7);
    assert_eq!(m.canasta(g.rules()), None);
    assert!(generated(&g, "canasta 0"));
    play(&mut g, 0, "add 0 5C");
    assert_eq!(g.melds(Side::new(0))[0].cards.len(), 8);
    play(&mut g, 0, "canasta 0");
    assert!(g.melds(Side::new(0))[0].closed);
    assert_eq!(
        g.melds(Side::new(0))[0].canasta(g.rules()),
        Some(CanastaKind::Mixed)
    );
}

/// S004: "No more cards can be added to a canasta" — neither natural nor
/// wild; a second `canasta` on it is refused.
#[test]
fn nothing_is_added_to_a_closed_canasta() {
    let mut g = seven_fives();
    play(&mut g, 0, "canasta 0");
    assert_eq!(
        refused(&g, 0, "add 0 5C"),
        IllegalReason::CanastaClosed(meld0(Rank::Five))
    );
    assert_eq!(
        refused(&g, 0, "add 0 JK"),
        IllegalReason::CanastaClosed(meld0(Rank::Five))
    );
    assert_eq!(
        refused(&g, 0, "canasta 0"),
        IllegalReason::CanastaClosed(meld0(Rank::Five))
    );
}

/// S004: only a meld of seven or more may be closed.
#[test]
fn a_meld_shorter_than_seven_cannot_be_closed() {
    let mut g = DealSpec::canastia(2, 0)
        .first(0)
        .hand(0, "KS KS KH KH KD KD 4H 6H 7C 8C")
        .game();
    play_all(&mut g, 0, &["draw", "meld KS KS KH KH KD KD"]);
    assert_eq!(
        refused(&g, 0, "canasta 0"),
        IllegalReason::TooShortToClose(meld0(Rank::King), 7)
    );
}

/// Research §6.1 / docs Provisional: one meld per rank, and no new meld of
/// a rank whose canasta is closed (S004: nothing can be added to it, and a
/// second meld of the rank would be the same thing by another name).
#[test]
fn no_new_meld_of_a_rank_whose_canasta_is_closed() {
    let mut g = seven_fives();
    play(&mut g, 0, "canasta 0");
    assert!(!legal(&g, "meld 5C 5C JK"));
    assert!(
        !generated(&g, "meld 5C 5C JK"),
        "not generated either: {:?}",
        legal_texts(&g)
    );
    assert_eq!(g.melds(Side::new(0))[0].cards.len(), 7);
}

/// S004: closing belongs to the player's own turn, before the discard.
#[test]
fn closing_is_done_in_ones_own_turn() {
    let mut g = seven_fives();
    play(&mut g, 0, "discard 4H");
    assert!(matches!(
        refused(&g, 0, "canasta 0"),
        IllegalReason::NotYourTurn { .. }
    ));
    assert!(!legal(&g, "canasta 0"), "not in the draw phase either");
}

/// With the house rule `canasta_by_choice` off, a meld of seven is a
/// canasta at once and `canasta M` is refused by that rule (it once said
/// "the variant has no such action", of a variant that has it).
#[test]
fn closing_by_choice_off_refuses_canasta_by_that_rule() {
    let mut opts = serde_json::Map::new();
    opts.insert("canasta_by_choice".into(), false.into());
    let rules = canastia(2).with_options(&opts).unwrap();
    let mut g = DealSpec::new(rules, 0)
        .first(0)
        .hand(0, "5S 5S 5H 5H 5D 5D 2S 5C 5C JK")
        .stock("4H 6H")
        .game();
    play_all(&mut g, 0, &["draw", "meld 5S 5S 5H 5H 5D 5D 2S"]);
    assert_eq!(
        refused(&g, 0, "canasta 0"),
        IllegalReason::ClosingNotInRules
    );
    assert!(
        IllegalReason::ClosingNotInRules
            .to_string()
            .contains("not part of these rules")
    );
}
