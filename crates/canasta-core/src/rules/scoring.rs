//! Scoring: card values, bonuses, red threes and the side that never melded.

use serde::{Deserialize, Serialize};

use super::{CardValues, ManyCanastas, RedThreePenalty, RedThreeScoring};

/// Scoring a hand (P-CAN's "Scoring").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScoringRules {
    /// Point values of cards.
    pub card_values: CardValues,
    /// Natural (clean) canasta bonus (500).
    pub natural_canasta_bonus: i32,
    /// Mixed (dirty) canasta bonus (300).
    pub mixed_canasta_bonus: i32,
    /// Natural canasta bonus for aces (P-CNE: 1000; P-CAN as others).
    pub natural_ace_canasta_bonus: i32,
    /// Mixed canasta bonus for aces (P-CNE: 500; P-CAN as others).
    pub mixed_ace_canasta_bonus: i32,
    /// Wild canasta of seven twos (P-CNE).
    pub twos_canasta_bonus: i32,
    /// Wild canasta of six jokers and a two (P-CNE).
    pub jokers_canasta_bonus: i32,
    /// Any other wild canasta (P-CNE).
    pub wild_canasta_bonus: i32,
    /// Wild-canasta bonuses are scored only by a side that went out
    /// (HSW-ITA, S002); otherwise only their card values count.
    pub wild_bonus_only_if_out: bool,
    /// Bonus for a canasta of the special rank (P-PEN: sevens, 1500).
    pub special_canasta_bonus: i32,
    /// Bonus for a samba (P-SAM, BIC-SAM: 1500).
    pub samba_bonus: i32,
    /// Bonuses for many canastas; the best row met applies (P-CNE).
    pub many_canastas_bonuses: Vec<ManyCanastas>,
    /// Bonus for going out (P-CAN: 100).
    pub going_out_bonus: i32,
    /// Extra bonus for going out concealed (P-CAN: a further 100, 200 in all).
    pub concealed_bonus: i32,
    /// Viennese option: no concealed bonus when the pile was taken that turn.
    pub concealed_bonus_if_pile_taken: bool,
    /// Value of a team's red threes by how many it has (index = count).
    /// P-CAN: 100 each, all four 800; six players: 4 = 400, 5 = 1000, 6 = 1200.
    pub red_three_values: Vec<i32>,
    /// When red threes count minus (P-CAN: the team melded nothing).
    pub red_three_penalty: RedThreePenalty,
    /// How red threes score.
    pub red_three_scoring: RedThreeScoring,
    /// A side that never melded loses its hand cards this many times (P-CNE: 2).
    pub unopened_hand_multiplier: i32,
}

impl ScoringRules {
    /// The score of `count` red threes held by one team.
    pub fn red_three_value(&self, count: usize) -> i32 {
        let table = &self.red_three_values;
        match table.get(count) {
            Some(v) => *v,
            None => table.last().copied().unwrap_or(0) + 100 * (count + 1 - table.len()) as i32,
        }
    }
}
