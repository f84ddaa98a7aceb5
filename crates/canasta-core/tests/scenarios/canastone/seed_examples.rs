//! The worked examples of the seed S000 (a damaged text copy of P-CNE),
//! each quoted in paraphrase. The red-three examples (+300 / -600 for
//! three, +800 / -1600 for four) are in `scoring`.

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{CanastaKind, GameState, IllegalReason, Phase};

/// Dealer 0. Seat 1 opens with QS QS QH QH QD before drawing and draws
/// `drawn`; `rest` completes its hand.
fn opened_with_queens(rest: &str, drawn: &str) -> GameState {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, &format!("QS QS QH QH QD {rest}"))
        .upcards("8D")
        .stock(drawn)
        .game();
    play_all(&mut g, 1, &["meld QS QS QH QH QD", "draw"]);
    g
}

/// S000: "a 3-card or 4-card natural meld can include one wild card (for
/// example 7-7-2) and a natural meld of 5 or more cards can include one or
/// two wild cards (for example K-K-K-2-Joker)".
#[test]
fn s000_seven_seven_two_and_king_king_king_two_joker() {
    let mut g = opened_with_queens("7S 7H 2C KS KH KD 2D JK 4C 5C", "6C 8C");
    assert!(generated(&g, "meld 7S 7H 2C"));
    play_all(&mut g, 1, &["meld 7S 7H 2C", "meld KS KH KD 2D JK"]);
    assert_eq!(
        meld_texts(&g, 1),
        vec!["QS QS QH QH QD", "7S 7H 2C", "KS KH KD 2D JK"]
    );
}

/// S000: "a team that has a dirty meld of 9-9-2 cannot subsequently begin a
/// separate clean meld of Nines ... the two Nines melds would be combined
/// into a single dirty meld". Completed, it is a dirty canasta.
#[test]
fn s000_a_dirty_meld_of_nines_cannot_be_restarted_clean() {
    let mut g = opened_with_queens("9S 9H 2C 9S 9H 9D 9C 4C 5C 6C", "7C 8C");
    play(&mut g, 1, "meld 9S 9H 2C");
    assert!(
        !legal_texts(&g).iter().any(|t| t.starts_with("meld 9")),
        "no second meld of nines is offered"
    );
    play(&mut g, 1, "meld 9S 9H 9D");
    assert_eq!(
        meld_texts(&g, 1),
        vec!["QS QS QH QH QD", "9S 9S 9H 9H 9D 2C"]
    );
    play(&mut g, 1, "add 1 9C");
    assert_eq!(
        g.melds(Side::new(1))[1].canasta(g.rules()),
        Some(CanastaKind::Mixed)
    );
}

/// S000: "When the minimum is 50 there is an additional requirement that
/// opening meld must consist only of pure melds - for example Q-Q-Q, 5-5-5-5
/// gives a value of 50 points." Laid before drawing.
#[test]
fn s000_queens_and_fives_open_clean_for_50() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "QS QS QH 5S 5S 5H 5D 2C")
        .upcards("8D")
        .game();
    assert_eq!(g.opening_minimum(Seat::new(1)), 50);
    assert!(generated(&g, "meld QS QS QH / 5S 5S 5H 5D"));
    play(&mut g, 1, "meld QS QS QH / 5S 5S 5H 5D");
    assert_eq!(meld_texts(&g, 1), vec!["QS QS QH", "5S 5S 5H 5D"]);
    assert_eq!(g.phase(), Phase::Draw);
}

/// S000: "When the requirement is 90 or higher, dirty melds can be
/// included, for example A-A-Joker for an opening meld of 90." Team 1 reaches 4315
/// in a first hand (the twos); in the second its opening needs 90: the
/// clean 50 of queens and fives no longer opens, A-A-Joker does. Team 0,
/// with a negative score, still needs 50 (P-CNE has no lower row).
#[test]
fn s000_ace_ace_joker_opens_at_the_90_level() {
    let mut g = GameState::new(canastone(4));
    twos_hand(&mut g, false);
    assert_eq!(g.scores()[1], 4315);
    assert!(g.scores()[0] < 0);
    DealSpec::canastone(4, 1)
        .hand(3, "AS AH JK QS QS QH 5S 5S 5H 5D 4C 6C 7C 8C TC")
        .stock("4S 4H")
        .deal_into(&mut g);
    assert_eq!(g.opening_minimum(Seat::new(2)), 50);
    assert_eq!(g.opening_minimum(Seat::new(3)), 90);
    draw_discard(&mut g, 2, "4S");
    assert_eq!(
        refused(&g, 3, "meld QS QS QH / 5S 5S 5H 5D"),
        IllegalReason::OpeningTooLow { need: 90, have: 50 }
    );
    assert!(generated(&g, "meld AS AH JK"));
    play(&mut g, 3, "meld AS AH JK");
    assert_eq!(meld_texts(&g, 1), vec!["AS AH JK"]);
    assert_eq!(g.phase(), Phase::Draw);
}
