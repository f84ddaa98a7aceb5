//! A position in words, for people reading a failure: which hand, whose
//! turn, every hand and meld. Error messages of records and tests quote it.

use crate::seat::Side;
use crate::state::{GameState, Phase};

impl GameState {
    /// Which hand the game is in and what it waits for. Between hands the
    /// count of hands played already includes the one just over, so that
    /// hand is named as over, not the next one as under way.
    fn describe_point(&self) -> String {
        let played = self.hands_played();
        match self.phase() {
            Phase::Draw | Phase::Play | Phase::Answer => {
                let doing = self
                    .phase()
                    .status(&format!("seat {}", self.to_act()), self.current());
                format!(
                    "hand {} (dealer seat {}): {doing}",
                    played + 1,
                    self.dealer()
                )
            }
            Phase::Deal if played == 0 => "before the first deal".into(),
            Phase::Deal | Phase::HandOver => {
                format!("hand {played} is over; the next deal has not been made")
            }
            Phase::GameOver => format!(
                "the game is over after {played} hand{}",
                if played == 1 { "" } else { "s" }
            ),
        }
    }

    /// The position in words: whose turn, hands, melds, pile and stock.
    pub fn describe(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let n = self.players();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let _ = writeln!(s, "{}", self.describe_point());
        for seat in self.seats() {
            let hand = self.hand(seat);
            let held = match hand.total() {
                0 => "no cards".to_string(),
                t => format!("{t} card{}: {hand}", plural(t)),
            };
            let _ = writeln!(
                s,
                "seat {seat} (side {}): {held}; red threes: {}",
                self.side_of(seat),
                self.red_threes(seat)
            );
        }
        for side in Side::all(n) {
            let melds = self.melds(side);
            if melds.is_empty() {
                continue;
            }
            let list: Vec<String> = melds
                .iter()
                .enumerate()
                .map(|(i, m)| match m.canasta_name(self.rules()) {
                    Some("samba") => format!("{i}: {} (samba)", m.cards),
                    Some(name) => format!("{i}: {} ({name} canasta)", m.cards),
                    None => format!("{i}: {}", m.cards),
                })
                .collect();
            let _ = writeln!(s, "melds of side {side}: {}", list.join("; "));
        }
        let top = self
            .pile_top()
            .map_or("none".to_string(), |c| c.to_string());
        let _ = writeln!(
            s,
            "pile: {} card{}, top {top}{}; stock: {} card{}",
            self.pile().len(),
            plural(self.pile().len()),
            if self.pile_frozen() { ", frozen" } else { "" },
            self.stock_len(),
            plural(self.stock_len())
        );
        let scores: Vec<String> = self.scores().iter().map(i32::to_string).collect();
        let _ = write!(s, "scores: {}", scores.join(", "));
        s
    }
}
