//! Samba's melds: sequences of one suit, a samba at seven, groups with at
//! most two wild cards and naturals at least twice the wild cards, several
//! groups of one rank (P-SAM, BIC-SAM; research §4.1).

use super::*;
use canasta_core::MeldId;
use canasta_core::Side;
use canasta_core::{IllegalReason, MeldRef, Rank};

/// P-SAM, BIC-SAM: a sequence is three or more natural cards of one suit in
/// order, four low and ace high, no wild cards; it grows at either end.
#[test]
fn sequences_grow_at_either_end_and_take_no_wild_cards() {
    let mut g = opened_with_a_sequence();
    assert!(g.melds(Side::new(1))[0].cards.is_sequence());
    assert!(generated(&g, "add 0 5H"));
    assert!(generated(&g, "add 0 JH"));
    assert!(!generated(&g, "add 0 4H"), "not next to the sequence yet");
    assert_eq!(refused(&g, 1, "add 0 4H"), IllegalReason::BadSequence);
    assert_eq!(refused(&g, 1, "add 0 2C"), IllegalReason::BadSequence);
    assert_eq!(refused(&g, 1, "add 0 5C"), IllegalReason::BadSequence);
    play_all(&mut g, 1, &["add 0 5H", "add 0 4H"]);
    assert_eq!(
        g.melds(Side::new(1))[0].cards.to_string(),
        "4H 5H 6H 7H 8H 9H TH"
    );
}

/// P-SAM, BIC-SAM: at seven cards a sequence is a samba (1500), and a samba
/// is closed: nothing more goes on it.
#[test]
fn a_samba_is_closed_at_seven() {
    let mut g = opened_with_a_sequence();
    play_all(&mut g, 1, &["add 0 5H", "add 0 4H"]);
    let m = g.melds(Side::new(1))[0];
    assert!(m.is_canasta(g.rules()));
    assert_eq!(m.canasta_bonus(g.rules()), 1500);
    assert_eq!(
        refused(&g, 1, "add 0 JH"),
        IllegalReason::SambaClosed(MeldRef::new(MeldId::new(0), &m.cards))
    );
    assert!(!generated(&g, "add 0 JH"));
}

/// A record may lay a longer sequence in one action (it is checked as a
/// sequence of three and adds); threes, gaps, wild cards and mixed suits
/// are refused.
#[test]
fn a_sequence_is_consecutive_naturals_of_one_suit() {
    let g = DealSpec::new(samba(4), 0)
        .hand(1, "4S 5S 6S 7S 9S 3S 2S KS KS KH KD 8D AS AH AD")
        .upcards("QC")
        .stock("JH 8C")
        .game();
    let mut g2 = g.clone();
    play(&mut g2, 1, "draw");
    // Threes are no part of a sequence: the text is not even a group.
    assert!(
        "meld 3S 4S 5S / AS AH AD"
            .parse::<canasta_core::Action>()
            .is_err()
    );
    assert_eq!(
        refused(&g2, 1, "meld 6S 7S 9S / AS AH AD"),
        IllegalReason::BadSequence
    );
    play(&mut g2, 1, "meld 4S 5S 6S 7S / AS AH AD");
    assert_eq!(g2.melds(Side::new(1))[0].cards.to_string(), "4S 5S 6S 7S");
}

/// P-SAM: a group holds at most two wild cards, and its naturals must be at
/// least twice its wild cards: 3 + 1 is allowed, 3 + 2 is not, 4 + 2 is.
#[test]
fn groups_take_at_most_two_wild_cards_and_half_their_naturals() {
    let mut g = opened_with_a_sequence();
    assert!(generated(&g, "add 1 2C"));
    play(&mut g, 1, "add 1 2C");
    assert_eq!(
        refused(&g, 1, "add 1 2D"),
        IllegalReason::TooManyWilds {
            max: 1,
            naturals: 3,
            have: 2
        }
    );
    assert!(!generated(&g, "add 1 2D"));
}

/// P-SAM, BIC-SAM: several groups of one rank are allowed and kept apart;
/// a new group of a melded rank is a new meld.
#[test]
fn several_groups_of_a_rank_are_kept_apart() {
    let mut g = DealSpec::new(samba(4), 0)
        .hand(1, "AS AH AD KS KS KH KD KD KC 4C 5D 6S 8C 9D JS")
        .upcards("QC")
        .stock("JH 8D")
        .game();
    play_all(&mut g, 1, &["draw", "meld AS AH AD", "meld KS KS KH"]);
    assert!(generated(&g, "meld KD KD KC"));
    play(&mut g, 1, "meld KD KD KC");
    let kings: Vec<_> = g
        .melds(Side::new(1))
        .iter()
        .filter(|m| m.rank() == Some(Rank::King))
        .collect();
    assert_eq!(kings.len(), 2);
}
