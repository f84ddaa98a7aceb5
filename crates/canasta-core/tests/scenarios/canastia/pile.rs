//! Taking the Canastia discard pile (S004 "Picking up the discard pile";
//! research §6.1): the top card with two cards from hand, at most one of
//! them wild; never under a wild card or a three; wild cards do not freeze.

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{IllegalReason, Phase};

/// Seat 0 opens with aces and queens and discards `discard` (it holds
/// 2S, 5H and 4H besides 8S 2C JK); seat 1 draws and discards 8D.
fn opened_then_8d(rules: Rules, discard: &str) -> GameState {
    let mut g = DealSpec::new(rules, 0)
        .first(0)
        .hand(0, "AS AS AC QS QS QH 8S 2C JK 2S")
        .hand(1, "8D 4S 4S 6S 6S 7S 7S 3S KH KD")
        .stock("5H 4H 7D 7C")
        .game();
    play_all(
        &mut g,
        0,
        &[
            "draw",
            "meld AS AS AC / QS QS QH",
            &format!("discard {discard}"),
        ],
    );
    play_all(&mut g, 1, &["draw", "discard 8D"]);
    g
}

/// S004: "They may only pick up the discard pile if they can use the top
/// card by melding it along with at least two other cards from their hand
/// (one of them can be a wild card)."
#[test]
fn the_pile_takes_the_top_card_and_two_from_hand_at_most_one_wild() {
    let g = opened_then_8d(canastia(2), "4H");
    assert!(!legal(&g, "pickup 8S"), "one card from hand is not enough");
    // The refusal of the top card alone says what does take the pile.
    assert_eq!(
        refused(&g, 0, "pickup").to_string(),
        "taking the pile needs 2 natural cards of its top card's rank from your hand, \
         or one and a wild card"
    );
    assert!(!legal(&g, "pickup 2C JK"), "two wild cards");
    assert!(
        !legal(&g, "pickup 8S 2C JK"),
        "8-8-2-JK: as many wilds as naturals"
    );
    let mut ok = g.clone();
    play(&mut ok, 0, "pickup 8S 2C");
    assert_eq!(ok.phase(), Phase::Play);
    assert_eq!(ok.melds(Side::new(0))[2].cards.to_string(), "8S 8D 2C");
    assert!(ok.pile().is_empty());
}

/// S004 as above, for a player who has not opened: K-2 with the king on
/// top (5) and sevens and eights (6) open with 11.
#[test]

fn an_unopened_player_takes_the_pile_with_a_natural_and_a_wild() {
    let mut g = DealSpec::canastia(2, 0)
        .first(1)
        .hand(1, "KS 2S 2C 7S 7H 7D 8S 8H 8D 4C")
        .upcards("KH")
        .game();
    play(&mut g, 1, "pickup KS 2S / 7S 7H 7D / 8S 8H 8D");
    assert_eq!(g.melds(Side::new(1))[0].cards.to_string(), "KS KH 2S");
}

/// S004: "If a wild card (Jokers or 2s) or a three is on top of the
/// discard pile, it may not be picked up." Threes meld, yet still block.
#[test]
fn a_wild_card_or_a_three_on_top_blocks_the_pile() {
    for top in ["2S", "JK", "3S"] {
        let pair = if top == "3S" { "3C 3C" } else { "KS KS" };
        let mut g = DealSpec::canastia(2, 0)
            .first(0)
            .hand(0, &format!("{top} 4S 4S 6S 6S 7S 7S 8S 8S QD"))
            .hand(1, &format!("{pair} KH 4H 6H 7H QS QH QC AS"))
            .game();
        draw_discard(&mut g, 0, top);
        assert_eq!(g.pile_top(), Some(card(top)));
        let with = if top == "3S" { "3C 3C" } else { "KS KS" };
        assert_eq!(
            refused(&g, 1, &format!("pickup {with} / QS QH QC")),
            IllegalReason::PileBlocked(card(top)),
            "{top}"
        );
    }
}

/// Research §6.1 (S004 names no freezing): a wild card in the pile does not
/// freeze it; once covered by a natural the pile is taken with a natural
/// and a wild card. Option `wilds_freeze_pile: true` restores freezing.
#[test]
fn wild_cards_do_not_freeze_the_pile() {
    for (rules, frozen) in [
        (canastia(2), false),
        (canastia_with(2, r#"{"wilds_freeze_pile": true}"#), true),
    ] {
        let mut g = opened_then_8d(rules, "2S");
        assert_eq!(g.pile_frozen(), frozen);
        assert!(g.pile().contains(&card("2S")));
        if frozen {
            assert_eq!(
                refused(&g, 0, "pickup 8S 2C"),
                IllegalReason::PileFrozen {
                    top: card("8D"),
                    need: 2
                }
            );
        } else {
            play(&mut g, 0, "pickup 8S 2C");
            assert_eq!(
                g.hand(Seat::new(0)).count(card("2S")),
                1,
                "the wild card came too"
            );
        }
    }
}

/// Research §6.1: no side is frozen out before it has melded, but the taker
/// who has not opened must meet the opening with the top card (S004).
#[test]
fn an_unopened_player_takes_the_pile_only_with_an_opening() {
    let g = DealSpec::canastia(2, 0)
        .first(1)
        .hand(1, "KS KS 7S 7H 4C 6C 8C QS AS 3S")
        .upcards("KH")
        .game();
    assert_eq!(
        refused(&g, 1, "pickup KS KS"),
        IllegalReason::OpeningTooLow { need: 10, have: 6 }
    );
}
