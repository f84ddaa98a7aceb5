//! Melds: wild-card limits, canastas, one meld per rank (P-CAN, S002;
//! research §1.1 and register #1).

use crate::common::*;
use canasta_core::Side;
use canasta_core::{CanastaKind, IllegalReason};

/// P-CAN (confirmed by its Viennese section): at least 2 naturals and at
/// most 3 wild cards in a meld, so Q-Q-2-2-2 is legal; fewer naturals, a
/// fourth wild card, or a meld of wild cards only are not.
#[test]
fn wild_card_limits_in_new_melds() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "QS QH 2S 2H 2D JK KS KH KD 5C 6C")
        .stock("7C")
        .game();
    play(&mut g, 1, "draw");
    assert!(legal(&g, "meld QS QH 2S 2H 2D"), "Q-Q-2-2-2 (80 points)");
    assert_eq!(
        refused(&g, 1, "meld QS 2S 2H"),
        IllegalReason::TooFewNaturals { need: 2, have: 1 }
    );
    assert_eq!(
        refused(&g, 1, "meld QS QH 2S 2H 2D JK"),
        IllegalReason::TooManyWilds {
            max: 3,
            naturals: 2,
            have: 4
        }
    );
    // Seven cards with three naturals: a canasta needs at least four.
    assert_eq!(
        refused(&g, 1, "meld KS KH KD 2S 2H 2D JK"),
        IllegalReason::TooManyWilds {
            max: 3,
            naturals: 3,
            have: 4
        }
    );
    assert_eq!(refused(&g, 1, "meld 2S 2H JK"), IllegalReason::WildMeld);
    assert_eq!(
        refused(&g, 1, "meld QS QH"),
        IllegalReason::MeldTooSmall { need: 3, have: 2 }
    );
    play(&mut g, 1, "meld QS QH 2S 2H 2D");
    // A fourth wild card cannot be added later either.
    assert_eq!(
        refused(&g, 1, "add 0 JK"),
        IllegalReason::TooManyWilds {
            max: 3,
            naturals: 2,
            have: 4
        }
    );
    assert!(!generated(&g, "add 0 JK"));
}

/// P-CAN: once a canasta holds three wild cards no more may be added, but
/// natural cards may be added without limit.
#[test]
fn no_fourth_wild_card_on_a_mixed_canasta_but_naturals_without_limit() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KH KD KC 2S 2H JK 2D QS QS QH")
        .stock("KS")
        .game();
    play(&mut g, 1, "draw");
    play(&mut g, 1, "meld KS KH KD KC 2S 2H JK");
    let rules = g.rules().clone();
    assert_eq!(
        g.melds(Side::new(1))[0].canasta(&rules),
        Some(CanastaKind::Mixed)
    );
    assert_eq!(
        refused(&g, 1, "add 0 2D"),
        IllegalReason::TooManyWilds {
            max: 3,
            naturals: 4,
            have: 4
        }
    );
    assert!(!generated(&g, "add 0 2D"));
    assert!(generated(&g, "add 0 KS"));
    play(&mut g, 1, "add 0 KS");
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 8);
    assert_eq!(
        g.melds(Side::new(1))[0].canasta(&rules),
        Some(CanastaKind::Mixed)
    );
}

/// P-CAN: seven naturals are a natural canasta (500); adding a wild card
/// makes it mixed (300).
#[test]
fn a_wild_card_added_to_a_natural_canasta_makes_it_mixed() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "QS QS QH QH QD QD QC 2D 5S 6S 7S")
        .stock("8S")
        .game();
    let rules = g.rules().clone();
    play_all(&mut g, 1, &["draw", "meld QS QS QH QH QD QD QC"]);
    assert_eq!(
        g.melds(Side::new(1))[0].canasta(&rules),
        Some(CanastaKind::Natural)
    );
    play(&mut g, 1, "add 0 2D");
    assert_eq!(
        g.melds(Side::new(1))[0].canasta(&rules),
        Some(CanastaKind::Mixed)
    );
}

/// P-CAN, S002: a team has one meld per rank; a group of a rank it has
/// already melded joins that meld. Both teams may meld the same rank.
#[test]
fn one_meld_per_rank_per_team_and_both_teams_may_meld_a_rank() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KH KD AS AS AH 4C 5C 6C 7C 8C")
        .hand(2, "KS KH KD QS QS QH 4D 5D 6D 7D 8D")
        .hand(3, "KC KC 2C 4H 5H 6H 7H 8H 9H TH JH")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld KS KH KD / AS AS AH", "discard 4C"],
    );
    play_all(
        &mut g,
        2,
        &["draw", "meld KS KH KD / QS QS QH", "discard 4D"],
    );
    assert_eq!(meld_texts(&g, 0), vec!["KS KH KD", "QS QS QH"]);
    play(&mut g, 3, "draw");
    // The generator offers kings only as additions to meld 0, never a new meld.
    assert!(generated(&g, "add 0 KC"));
    assert!(!generated(&g, "meld KC KC 2C"));
    assert!(!legal_texts(&g).iter().any(|t| t.starts_with("meld KC")));
    // Written as a meld, the group merges into the kings.
    play(&mut g, 3, "meld KC KC 2C");
    assert_eq!(meld_texts(&g, 1), vec!["KS KH KD KC KC 2C", "AS AS AH"]);
}

/// P-CAN: the wild-card limit holds when the pile is taken: a natural and a
/// wild card with the top card join the side's meld of that rank, so a meld
/// already holding three wild cards cannot take them (the top card alone may
/// still go onto it).
#[test]
fn the_wild_card_limit_applies_when_taking_the_pile_onto_a_meld() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "QS QH 2S 2H 2D QD JK 5C 6C 7C 8C")
        .hand(0, "QC")
        .stock("4C")
        .game();
    play_all(&mut g, 1, &["draw", "meld QS QH 2S 2H 2D", "discard 4C"]);
    draw_discard_drawn(&mut g, 2);
    draw_discard_drawn(&mut g, 3);
    draw_discard(&mut g, 0, "QC");
    assert!(!g.pile_frozen());
    assert_eq!(
        refused(&g, 1, "pickup QD JK"),
        IllegalReason::TooManyWilds {
            max: 3,
            naturals: 4,
            have: 4
        }
    );
    assert!(!generated(&g, "pickup QD JK"));
    assert!(generated(&g, "pickup"));
}
