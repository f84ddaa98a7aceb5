//! `canasta play --watch` (or `--humans none`): one game between bots,
//! printed as a readable transcript with every hand's deal in full (an
//! onlooker's view of a finished game, for users and tests that follow a
//! bot game).

use crate::check::{hand_lines, members};
use crate::game::{Observer, Setup, play_game};
use anyhow::anyhow;
use canasta_core::Seat;
use canasta_core::{Action, Card, CardCounts, GameState, HandResult};
use std::io::{BufWriter, Write};
use std::process::ExitCode;

/// Writes the transcript as the game goes.
struct Transcript<W: Write> {
    out: W,
    /// The actor's hand and red threes before the action.
    hand_before: CardCounts,
    reds_before: usize,
    pile_before: usize,
    /// Cards in the actor's foot before the action (Pennies).
    foot_before: usize,
}

impl<W: Write> Transcript<W> {
    fn say(&mut self, text: &str) {
        // A closed stdout (`| head`) ends the transcript quietly.
        if writeln!(self.out, "{text}").is_err() {
            std::process::exit(0);
        }
    }
}

/// `120, -35`: scores for people (not Debug's brackets).
fn numbers(list: &[i32]) -> String {
    list.iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn cards(list: &[Card]) -> String {
    list.iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl<W: Write> Observer for Transcript<W> {
    fn deal(&mut self, state: &GameState, _deck: &[Card], dealer: Seat) {
        let n = state.players();
        self.say("");
        self.say(&format!(
            "=== hand {}: dealer seat {dealer}; scores {}",
            state.hands_played() + 1,
            numbers(state.scores())
        ));
        for seat in Seat::all(n) {
            let reds = state.red_threes(seat);
            let reds = if reds > 0 {
                format!("  (red threes laid out: {reds})")
            } else {
                String::new()
            };
            self.say(&format!(
                "seat {seat} (team {}): {}{reds}",
                state.rules().game.team_of(seat),
                state.hand(seat)
            ));
        }
        let packet = state.pile_hidden();
        let up = &state.pile()[packet..];
        self.say(&format!(
            "{}: {}{}{}; stock: {} cards",
            if up.len() == 1 { "upcard" } else { "upcards" },
            cards(up),
            if packet > 0 {
                format!(" over a face-down packet of {packet}")
            } else {
                String::new()
            },
            if state.pile_frozen() {
                " (pile frozen)"
            } else {
                ""
            },
            state.stock_len()
        ));
    }

    fn before_action(&mut self, state: &GameState, seat: Seat, _action: &Action) {
        self.hand_before = *state.hand(seat);
        self.reds_before = state.red_threes(seat);
        self.pile_before = state.pile().len();
        self.foot_before = state.foot_size(seat);
    }

    fn action(&mut self, state: &GameState, seat: Seat, action: &Action) {
        let mut note = String::new();
        match action {
            Action::Draw => {
                let mut got = *state.hand(seat);
                got.remove_all(&self.hand_before);
                if !got.is_empty() {
                    note = format!("  -> {got}");
                }
            }
            Action::Pickup { .. } | Action::PickupOnto => {
                note = format!(
                    "  (takes the pile: {})",
                    // Dutch Samba takes the top card alone.
                    super::view::plural(
                        self.pile_before.saturating_sub(state.pile().len()),
                        "card"
                    )
                );
            }
            _ => {}
        }
        let reds = state.red_threes(seat).saturating_sub(self.reds_before);
        if reds > 0 {
            note.push_str(&format!("  (red threes laid out: {reds})"));
        }
        let foot = self.foot_before.saturating_sub(state.foot_size(seat));
        if foot > 0 {
            note.push_str(&format!(
                "  (picks up the foot: {})",
                super::view::plural(foot, "card")
            ));
        }
        self.say(&format!("seat {seat}: {action}{note}"));
    }

    fn hand_end(&mut self, state: &GameState, result: &HandResult) {
        self.say("");
        for line in hand_lines(state.rules(), state.hands_played(), result) {
            self.say(&line);
        }
    }

    fn game_end(&mut self, state: &GameState) {
        let totals: Vec<String> = state.scores().iter().map(i32::to_string).collect();
        self.say("");
        self.say(&format!(
            "=== game over after {} hands; totals {}",
            state.hands_played(),
            totals.join(", ")
        ));
        let text = match state.winner().flatten() {
            Some(t) => format!("winner: team {t} ({})", members(state.rules(), t)),
            None => "a tie".to_string(),
        };
        self.say(&text);
    }
}

/// Plays game 0 of `canasta sim` with the same seed and setup, printing it.
pub fn run(setup: &Setup, seed: u64) -> anyhow::Result<ExitCode> {
    let rules = &setup.rules;
    let mut t = Transcript {
        out: BufWriter::new(std::io::stdout().lock()),
        hand_before: CardCounts::new(),
        reds_before: 0,
        pile_before: 0,
        foot_before: 0,
    };
    t.say(&format!(
        "{}, {}, target {}; bots {}; seed {seed}",
        rules.variant_name(),
        super::view::players_words(rules),
        rules.game.target,
        setup.bots.join(",")
    ));
    let outcome = play_game(setup, seed, 0, &mut t).map_err(|e| anyhow!("the game failed: {e}"))?;
    if !outcome.finished {
        t.say(&format!(
            "\n=== stopped after {}, short of the target; totals {}",
            super::view::plural(outcome.hands as usize, "hand"),
            numbers(&outcome.totals)
        ));
    }
    t.out.flush().ok();
    Ok(ExitCode::SUCCESS)
}
