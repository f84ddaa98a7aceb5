//! Scoring a finished hand, itemised as in the record spec's `hand_end`.

use crate::rules::{RedThreePenalty, RedThreeScoring};
use crate::seat::{Seat, Team};
use crate::state::GameState;
use serde::{Deserialize, Serialize};

/// Why a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandEndReason {
    /// A player went out.
    Out,
    /// The stock ran out.
    Stock,
    /// P-PEN: the player to act held only sevens that may not be discarded
    /// and could meld no more.
    Blocked,
}

fn is_zero(x: &i32) -> bool {
    *x == 0
}

/// One team's score for a hand; the items add up to `total`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamScore {
    /// Point values of melded cards.
    pub melded: i32,
    /// Minus the values of cards left in the team's hands.
    pub in_hand: i32,
    /// Canasta bonuses.
    pub canastas: i32,
    /// Red threes (plus, or minus when the team is penalised).
    pub red_threes: i32,
    /// Going out (and concealed) bonus.
    pub going_out: i32,
    /// Anything else a variant scores.
    pub other: i32,
    /// Feet never picked up: minus their cards, and 100 for each red three
    /// in them (Pennies from Heaven).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub foot: i32,
    pub total: i32,
}

/// The score of a finished hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub reason: HandEndReason,
    /// Who went out, when someone did.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub seat: Option<Seat>,
    /// Whether the player went out concealed.
    #[serde(skip)]
    pub concealed: bool,
    pub teams: Vec<TeamScore>,
    /// Cumulative scores after this hand.
    pub totals: Vec<i32>,
}

/// Scores the hand that just ended in `state`.
pub(crate) fn score_hand(
    state: &GameState,
    reason: HandEndReason,
    out: Option<Seat>,
) -> HandResult {
    let concealed = out.is_some_and(|seat| went_out_concealed(state, seat));
    HandResult {
        reason,
        seat: out,
        concealed,
        teams: state
            .rules()
            .game
            .all_teams()
            .map(|team| score_team(state, team, out, concealed))
            .collect(),
        totals: Vec::new(),
    }
}

impl GameState {
    /// `team`'s score if the hand ended now with nobody out, as when the
    /// stock runs out: its melds, canasta bonuses, red threes (by the
    /// variant's table and penalty), bonuses for many canastas, less the
    /// cards in its hands and its feet. A search values an unfinished hand
    /// from it, so that it counts what the variant's scoring counts.
    /// Allocates nothing (search asks at every playout's end).
    pub fn score_now(&self, team: Team) -> TeamScore {
        score_team(self, team, None, false)
    }
}

/// One team's score in `state`, `out` the seat that went out (if any).
fn score_team(state: &GameState, team: Team, out: Option<Seat>, concealed: bool) -> TeamScore {
    let rules = state.rules();
    let values = &state.rs.values;
    let n = state.players();
    let members = Seat::all(n).filter(|&s| rules.game.team_of(s) == team);
    // The side whose melds this team is credited with (3 players: the
    // temporary partnership's pooled melds count for both partners).
    let side = state.side_of(members.clone().next().expect("a team has a seat"));
    let side_seats = || state.side_members(side);
    let mut s = TeamScore::default();
    let (mut clean, mut dirty, mut special) = (0u8, 0u8, 0u8);
    let went_out = out.is_some_and(|seat| state.side_of(seat) == side);
    for m in state.melds(side) {
        // Counted from the group's counts: search scores every playout's
        // end with this, and walking each card cost a fifth of this
        // function's instructions.
        s.melded += m.cards.points(rules);
        let Some(kind) = m.canasta(rules) else {
            continue;
        };
        if !m.cards.is_wild_only() || went_out || !rules.scoring.wild_bonus_only_if_out {
            s.canastas += m.bonus_as(rules, kind);
        }
        if m.going_out_kind_as(rules, kind) == crate::meld::GoOutKind::Special {
            special += 1;
        }
        match kind {
            crate::meld::CanastaKind::Natural => clean += 1,
            crate::meld::CanastaKind::Mixed => dirty += 1,
        }
    }
    let canastas = clean + dirty;
    s.other += rules
        .scoring
        .many_canastas_bonuses
        .iter()
        .filter(|b| canastas >= b.canastas && clean >= b.clean && dirty >= b.dirty)
        .map(|b| b.bonus)
        .max()
        .unwrap_or(0);
    let never_melded = state.melds(side).is_empty();
    let multiplier = if never_melded {
        rules.scoring.unopened_hand_multiplier
    } else {
        1
    };
    for seat in side_seats() {
        s.in_hand -= multiplier * state.hand(seat).dot(values);
    }
    let reds: usize = members.map(|seat| state.red_threes(seat)).sum();
    s.red_threes = match rules.scoring.red_three_scoring {
        RedThreeScoring::Table => {
            let penalised = match rules.scoring.red_three_penalty {
                RedThreePenalty::NoMeld => never_melded,
                RedThreePenalty::NoCanasta => canastas == 0,
                RedThreePenalty::BelowGoingOut => canastas < rules.going_out.canastas_to_go_out(),
            };
            let red_value = rules.scoring.red_three_value(reds);
            if penalised { -red_value } else { red_value }
        }
        // P-CNE: 100 each; plus with a clean and a dirty canasta, zero with
        // clean only, minus with dirty only, minus doubled with none; four
        // or more doubled again.
        RedThreeScoring::Canastone => {
            let base = 100 * reds as i32;
            let signed = match (clean > 0, dirty > 0) {
                (true, true) => base,
                (true, false) => 0,
                (false, true) => -base,
                (false, false) => -2 * base,
            };
            if reds >= 4 { 2 * signed } else { signed }
        }
        // P-PEN: plus with a sevens canasta, minus without one.
        RedThreeScoring::NeedsSpecialCanasta => {
            let value = rules.scoring.red_three_value(reds);
            if special > 0 { value } else { -value }
        }
    };
    if went_out {
        s.going_out = rules.scoring.going_out_bonus
            + if concealed {
                rules.scoring.concealed_bonus
            } else {
                0
            };
    }
    for seat in side_seats() {
        if state.feet[seat].is_empty() {
            continue;
        }
        let foot = state.feet[seat].unpack();
        s.foot -= foot.dot(values) + 100 * foot.red_threes() as i32;
    }
    s.total = s.melded + s.in_hand + s.canastas + s.red_threes + s.going_out + s.other + s.foot;
    s
}

/// Concealed: the player melded nothing before this turn, put every card
/// into melds begun this turn (no additions to older melds), one of which is
/// a canasta (P-CAN). The Viennese option also spoils it by taking the pile.
fn went_out_concealed(state: &GameState, seat: Seat) -> bool {
    let t = &state.turn;
    let rules = state.rules();
    if t.had_melded
        || t.added_to_old
        || (t.took_pile && !rules.scoring.concealed_bonus_if_pile_taken)
    {
        return false;
    }
    let side = state.side_of(seat);
    state.melds(side)[t.melds_at_start as usize..]
        .iter()
        .any(|m| m.is_canasta(rules))
}
