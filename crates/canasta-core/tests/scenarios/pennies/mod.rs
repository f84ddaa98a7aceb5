//! Pennies from Heaven (P-PEN, pagat; research §5, with BIC-PEN, RG-PEN and
//! S002 for the options). Each test names its rule and source tag;
//! positions come only from deals built by `common::DealSpec`.

mod going_out;
mod melds;
mod play;
mod records;

use crate::common::*;
use canasta_core::GameState;

/// Dealer 0, so seat 1 (team 1, with seats 3 and 5) plays first.
///
/// Seat 1 holds seven sevens, five kings and a red three (replaced by 4C);
/// it draws KD KC, melds a sevens canasta and a natural canasta of kings
/// (opening 35 + 70) and discards 4C, and its foot comes up after that
/// discard. Then seats 2, 3, 4, 5 and 0 draw two and discard a 2S, 2H, JK,
/// QD and QH, freezing the pile. Seat 1's foot is JK JK JK 2D 2D 2C 2C
/// QS QS 9S 9H; seat 2 holds a red three (replaced by 5C) and a seven.
pub fn sevens_and_kings() -> DealSpec {
    sevens_and_kings_with(pennies())
}

/// [`sevens_and_kings`] under other rules (options of the preset).
pub fn sevens_and_kings_with(rules: canasta_core::Rules) -> DealSpec {
    DealSpec::new(rules, 0)
        .hand(1, "7S 7S 7H 7H 7D 7D 7C KS KS KH KH KD 3H")
        .hand(2, "3D 7D")
        .foot(1, "JK JK JK 2D 2D 2C 2C QS QS 9S 9H")
        .upcards("9C")
        .stock("4C 5C KD KC 2S 5H 2H 5D JK 6H QD 6D QH 8H")
}

/// [`sevens_and_kings`] played through seat 1's first turn.
pub fn after_first_turn() -> GameState {
    after_first_turn_with(pennies())
}

pub fn after_first_turn_with(rules: canasta_core::Rules) -> GameState {
    let mut g = sevens_and_kings_with(rules).game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld 7S 7S 7H 7H 7D 7D 7C / KS KS KH KH KD KD KC",
            "discard 4C",
        ],
    );
    g
}

/// [`after_first_turn`], then seats 2 to 0 each draw two and discard one
/// (2S, 2H, JK, QD, QH): the pile is frozen, QH on top.
pub fn round_played() -> GameState {
    round_played_with(pennies())
}

pub fn round_played_with(rules: canasta_core::Rules) -> GameState {
    let mut g = after_first_turn_with(rules);
    for (seat, discard) in [(2, "2S"), (3, "2H"), (4, "JK"), (5, "QD"), (0, "QH")] {
        draw_discard(&mut g, seat, discard);
    }
    g
}
