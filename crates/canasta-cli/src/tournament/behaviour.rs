//! What the bots did, not only whether they won: the habits players notice
//! and complain about, counted over a tournament's games for each bot.
//!
//! - *Going out behind*: a player who ends the hand while the side scores
//!   less in it than an opponent gives the hand away (the complaint about
//!   Canasta apps that go out as soon as they can).
//! - *Feeding the pile*: a discard the next player, an opponent, takes the
//!   pile with. Blocking the pile when the opponents are about to take it
//!   shows as fewer and smaller gifts.
//! - *Taking the pile*: holding the pairs that take it shows as more and
//!   bigger takes.
//!
//! Beside the habits, how long each bot thought ([`Thinking`]): a level
//! is only worth its strength if it answers in time.

use crate::game::Observer;
use canasta_core::Seat;
use canasta_core::Team;
use canasta_core::state::MAX_SEATS;
use canasta_core::{Action, GameState, HandResult, Rules};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Counts for one bot (summed over its seats).
#[derive(Clone, Copy, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Behaviour {
    pub hands: u64,
    /// Hands a seat of the bot ended by going out.
    pub went_out: u64,
    /// Of those, hands its side scored less in than an opposing side.
    pub went_out_behind: u64,
    pub discards: u64,
    /// Discards the next player took the pile with, when an opponent.
    pub fed: u64,
    /// Cards those opponents took (the whole pile each time).
    pub fed_cards: u64,
    pub pickups: u64,
    pub pickup_cards: u64,
    pub thinking: Thinking,
}

/// Time a bot took over its decisions with a choice (more than one legal
/// action; a forced one takes no thought). Wall-clock time, so it depends
/// on the machine and on how many games run at once.
#[derive(Clone, Copy, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thinking {
    pub decisions: u64,
    pub nanos: u64,
    pub slowest_nanos: u64,
}

impl Thinking {
    pub fn add(&mut self, took: Duration) {
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.decisions += 1;
        self.nanos = self.nanos.saturating_add(nanos);
        self.slowest_nanos = self.slowest_nanos.max(nanos);
    }

    pub fn merge(&mut self, o: &Thinking) {
        self.decisions += o.decisions;
        self.nanos = self.nanos.saturating_add(o.nanos);
        self.slowest_nanos = self.slowest_nanos.max(o.slowest_nanos);
    }

    /// Mean milliseconds a decision.
    pub fn mean_ms(&self) -> f64 {
        1e-6 * ratio(self.nanos, self.decisions)
    }

    pub fn slowest_ms(&self) -> f64 {
        1e-6 * self.slowest_nanos as f64
    }

    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "decisions": self.decisions,
            "mean_ms": self.mean_ms(),
            "slowest_ms": self.slowest_ms(),
        })
    }
}

impl Behaviour {
    pub fn merge(&mut self, o: &Behaviour) {
        self.hands += o.hands;
        self.went_out += o.went_out;
        self.went_out_behind += o.went_out_behind;
        self.discards += o.discards;
        self.fed += o.fed;
        self.fed_cards += o.fed_cards;
        self.pickups += o.pickups;
        self.pickup_cards += o.pickup_cards;
        self.thinking.merge(&o.thinking);
    }

    /// Share of its going out that gave the hand away.
    pub fn out_behind_rate(&self) -> f64 {
        ratio(self.went_out_behind, self.went_out)
    }

    /// Pile takes per hand, and cards per take.
    pub fn pickups_per_hand(&self) -> f64 {
        ratio(self.pickups, self.hands)
    }

    pub fn cards_per_pickup(&self) -> f64 {
        ratio(self.pickup_cards, self.pickups)
    }

    /// Discards an opponent took the pile with, per hundred, and cards given
    /// each time.
    pub fn fed_per_100_discards(&self) -> f64 {
        100.0 * ratio(self.fed, self.discards)
    }

    pub fn cards_per_feed(&self) -> f64 {
        ratio(self.fed_cards, self.fed)
    }

    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "hands": self.hands,
            "went_out": self.went_out,
            "went_out_behind": self.went_out_behind,
            "discards": self.discards,
            "fed": self.fed,
            "fed_cards": self.fed_cards,
            "pickups": self.pickups,
            "pickup_cards": self.pickup_cards,
            "out_behind_rate": self.out_behind_rate(),
            "pickups_per_hand": self.pickups_per_hand(),
            "cards_per_pickup": self.cards_per_pickup(),
            "fed_per_100_discards": self.fed_per_100_discards(),
            "cards_per_feed": self.cards_per_feed(),
        })
    }
}

/// The habits table of the text report, one row a bot.
pub fn table(names: &[String], order: &[usize], counts: &[Behaviour]) -> Vec<String> {
    let width = names.iter().map(String::len).max().unwrap_or(3).max(3);
    let mut lines = vec![format!(
        "{:<width$}  {:>17}  {:>10}  {:>10}  {:>11}  {:>10}",
        "habits", "went out behind", "takes/hand", "cards/take", "fed/100 disc", "cards/feed"
    )];
    for &i in order {
        let b = &counts[i];
        lines.push(format!(
            "{:<width$}  {:>9.1}% of {:>4}  {:>10.2}  {:>10.1}  {:>11.1}  {:>10.1}",
            names[i],
            100.0 * b.out_behind_rate(),
            b.went_out,
            b.pickups_per_hand(),
            b.cards_per_pickup(),
            b.fed_per_100_discards(),
            b.cards_per_feed(),
        ));
    }
    lines
}

/// The thinking table of the text report, one row a bot.
pub fn thinking_table(names: &[String], order: &[usize], counts: &[Behaviour]) -> Vec<String> {
    let width = names.iter().map(String::len).max().unwrap_or(3).max(3);
    let mut lines = vec![format!(
        "{:<width$}  {:>10}  {:>12}  {:>12}",
        "thinking", "decisions", "ms a choice", "slowest ms"
    )];
    for &i in order {
        let t = &counts[i].thinking;
        lines.push(format!(
            "{:<width$}  {:>10}  {:>12.3}  {:>12.1}",
            names[i],
            t.decisions,
            t.mean_ms(),
            t.slowest_ms(),
        ));
    }
    lines
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Watches one game and counts for the two bots of a pairing.
pub struct Watcher<'r> {
    rules: &'r Rules,
    /// The seats the pairing's second bot plays.
    second: [bool; MAX_SEATS],
    /// First bot's counts, second bot's counts.
    pub counts: [Behaviour; 2],
    /// The seat whose discard is on top of the pile (none once the pile
    /// is taken).
    last_discard: Option<Seat>,
}

impl<'r> Watcher<'r> {
    pub fn new(rules: &'r Rules, second: [bool; MAX_SEATS]) -> Watcher<'r> {
        Watcher {
            rules,
            second,
            counts: [Behaviour::default(); 2],
            last_discard: None,
        }
    }

    fn of(&mut self, seat: Seat) -> &mut Behaviour {
        &mut self.counts[usize::from(self.second[seat])]
    }
}

impl Observer for Watcher<'_> {
    fn times_decisions(&self) -> bool {
        true
    }

    fn decided(&mut self, seat: Seat, took: Duration) {
        self.of(seat).thinking.add(took);
    }

    fn deal(&mut self, _: &GameState, _: &[canasta_core::Card], _: Seat) {
        self.last_discard = None;
    }

    fn before_action(&mut self, state: &GameState, seat: Seat, action: &Action) {
        if !matches!(action, Action::Pickup { .. } | Action::PickupOnto) {
            return;
        }
        let taken = state.pile().len() as u64;
        let b = self.of(seat);
        b.pickups += 1;
        b.pickup_cards += taken;
        if let Some(giver) = self.last_discard
            && state.side_of(giver) != state.side_of(seat)
        {
            let b = self.of(giver);
            b.fed += 1;
            b.fed_cards += taken;
        }
    }

    fn action(&mut self, _: &GameState, seat: Seat, action: &Action) {
        match action {
            Action::Discard(_) => {
                self.of(seat).discards += 1;
                self.last_discard = Some(seat);
            }
            Action::Pickup { .. } | Action::PickupOnto => self.last_discard = None,
            _ => {}
        }
    }

    fn hand_end(&mut self, _: &GameState, result: &HandResult) {
        for b in &mut self.counts {
            b.hands += 1;
        }
        let Some(seat) = result.seat else { return };
        let team = self.rules.game.team_of(seat);
        let own = result.teams[team].total;
        let behind =
            Team::all(result.teams.len()).any(|t| t != team && result.teams[t].total > own);
        let b = self.of(seat);
        b.went_out += 1;
        b.went_out_behind += u64::from(behind);
    }
}
