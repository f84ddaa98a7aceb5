//! The writer: a state as its canonical notation.

use super::{PHASE_WORDS, TURN_FLAG_WORDS};
use crate::card::{Card, Rank, Suit};
use crate::state::GameState;
use std::fmt::{self, Write as _};

/// Cards one by one separated by spaces, or `-` for none.
pub(super) fn card_list(out: &mut String, cards: impl IntoIterator<Item = Card>) {
    let start = out.len();
    for c in cards {
        if out.len() > start {
            out.push(' ');
        }
        let _ = write!(out, "{c}");
    }
    if out.len() == start {
        out.push('-');
    }
}

impl GameState {
    /// The position in the notation of `docs/position-notation.md`: one
    /// `field value` line each, in a fixed order, optional lines only where
    /// they say something. Two states with the same position give the same
    /// text, and [`GameState::from_notation`] reads it back.
    pub fn to_notation(&self) -> String {
        let mut out = String::new();
        let _ = self.write_notation(&mut out);
        out
    }

    fn write_notation(&self, out: &mut String) -> fmt::Result {
        let rules = &self.rs.rules;
        let n = self.players();
        writeln!(out, "rules {} {}", rules.game.variant, rules.game.players)?;
        let options = rules.options_from_preset();
        if !options.is_empty() {
            writeln!(out, "options {}", serde_json::Value::Object(options))?;
        }
        let scores: Vec<String> = self.scores().iter().map(i32::to_string).collect();
        writeln!(out, "scores {}", scores.join(" "))?;
        writeln!(out, "hands-played {}", self.hands_played)?;
        writeln!(out, "dealer {}", self.dealer)?;
        let phase = PHASE_WORDS
            .iter()
            .find(|(p, _)| *p == self.phase)
            .map_or("?", |(_, w)| w);
        writeln!(out, "turn {} {phase}", self.current)?;
        let flags: Vec<&str> = TURN_FLAG_WORDS
            .iter()
            .filter(|(_, get, _)| get(&self.turn))
            .map(|(w, _, _)| *w)
            .collect();
        if !flags.is_empty() {
            writeln!(out, "turn-flags {}", flags.join(" "))?;
        }
        writeln!(out, "melds-at-start {}", self.turn.melds_at_start)?;
        if let Some(yes) = self.turn.answer {
            writeln!(out, "answer {}", if yes { "yes" } else { "no" })?;
        }
        if let Some(lone) = self.lone_hand {
            writeln!(out, "lone-hand {lone}")?;
        }
        for s in 0..n {
            out.push_str("hand ");
            let _ = write!(out, "{s} ");
            card_list(out, self.hands[s].iter());
            out.push('\n');
        }
        for s in 0..n {
            if !self.known[s].is_empty() {
                let _ = write!(out, "known {s} ");
                card_list(out, self.known[s].unpack().iter());
                out.push('\n');
            }
        }
        for s in 0..n {
            if !self.feet[s].is_empty() {
                let _ = write!(out, "foot {s} ");
                card_list(out, self.feet[s].unpack().iter());
                out.push('\n');
            }
        }
        for s in 0..n {
            let [hearts, diamonds] = self.red_threes[s];
            if hearts + diamonds > 0 {
                let _ = write!(out, "red-threes {s} ");
                let red = |suit, k| std::iter::repeat_n(Card::new(Rank::Three, suit), k);
                card_list(
                    out,
                    red(Suit::Hearts, hearts.into()).chain(red(Suit::Diamonds, diamonds.into())),
                );
                out.push('\n');
            }
        }
        seat_list(out, "melded", (0..n).filter(|&s| self.seat_melded[s]))?;
        seat_list(
            out,
            "first-turn",
            (0..n).filter(|&s| self.first_turn_pending[s]),
        )?;
        for s in 0..n {
            let bits = self.discarded_ranks[s];
            if bits != 0 {
                let ranks: Vec<String> = Rank::ALL
                    .iter()
                    .filter(|r| bits & (1 << r.index()) != 0)
                    .map(|r| r.letter().to_string())
                    .collect();
                writeln!(out, "discarded {s} {}", ranks.join(" "))?;
            }
        }
        out.push_str("stock ");
        card_list(out, self.stacks.stock().iter().copied());
        out.push_str("\npile ");
        card_list(out, self.stacks.pile().iter().copied());
        out.push('\n');
        if self.pile_hidden > 0 {
            writeln!(out, "packet {}", self.pile_hidden)?;
        }
        if self.pile_frozen {
            writeln!(out, "frozen")?;
        }
        for (side, melds) in self.melds.sides().enumerate() {
            for m in melds {
                write!(out, "meld {side} {}", m.cards)?;
                if m.closed {
                    out.push_str(" closed");
                }
                out.push('\n');
            }
        }
        Ok(())
    }
}

/// A line of seat numbers, left out where there are none.
fn seat_list(out: &mut String, key: &str, seats: impl Iterator<Item = usize>) -> fmt::Result {
    let seats: Vec<String> = seats.map(|s| s.to_string()).collect();
    if !seats.is_empty() {
        writeln!(out, "{key} {}", seats.join(" "))?;
    }
    Ok(())
}
