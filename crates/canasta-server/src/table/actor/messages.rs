//! What a table tells its connections: each viewer's `state` (built from
//! that viewer's observation only), broadcasts, and the lobby's summary.

use super::{Table, send};
use crate::storage::{SeatMeta, TableMeta, TableStatus};
use crate::table::Outgoing;
use crate::table::game::TableGame;
use crate::views::{Viewer, annotations, view_json};
use canasta_core::Seat;
use canasta_core::record::Header;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

impl Table {
    pub(super) fn status_text(&self) -> &'static str {
        match self.meta.status {
            TableStatus::Waiting => "waiting",
            TableStatus::Finished => "finished",
            TableStatus::Closed => "closed",
            TableStatus::Playing if self.game.started() && self.game.needs_deal() => "hand_over",
            TableStatus::Playing => "playing",
        }
    }

    /// The `state` message for one viewer, built from its observation only.
    pub(super) fn state_message(&self, viewer: Viewer, last: Option<&Value>) -> String {
        let state = self.game.state();
        let rules = self.game.rules();
        let (view, notes, legal) = if self.game.started() {
            let mut obs = match viewer {
                Viewer::Seat(s) => state.observe(Seat::new(s)),
                Viewer::Spectator => state.observe_public(),
            };
            obs.state_id = self.game.state_id();
            let legal: Vec<String> = match viewer {
                Viewer::Seat(s)
                    if self.game.in_hand()
                        && state.to_act().index() == s
                        && self.meta.status == TableStatus::Playing
                        && !self.stood_in(s) =>
                {
                    state
                        .legal_actions()
                        .iter()
                        .map(ToString::to_string)
                        .collect()
                }
                _ => Vec::new(),
            };
            (
                view_json(&obs, viewer),
                annotations(&obs, rules, viewer),
                legal,
            )
        } else {
            (Value::Null, Value::Null, Vec::new())
        };
        json!({
            "type": "state",
            "state_id": self.game.state_id(),
            "status": self.status_text(),
            "hand": self.game.hand_number(),
            "view": view,
            "annotations": notes,
            "legal": legal,
            "last": last,
            "seats": self.seats_json(),
            "ready": self.ready,
            "can_undo": match viewer {
                Viewer::Seat(s) => self.undo_allowed(s) && self.game.can_undo(),
                Viewer::Spectator => false,
            },
            "deadline_ms": self.deadline_ms(),
        })
        .to_string()
    }

    /// Milliseconds until the bot plays the turn under way for its player.
    fn deadline_ms(&self) -> Option<u64> {
        self.stand_in_due().map(|due| {
            due.saturating_duration_since(tokio::time::Instant::now())
                .as_millis() as u64
        })
    }

    pub(super) fn broadcast_states(&mut self, last: Option<Value>) {
        let mut cache: HashMap<Option<usize>, Arc<str>> = HashMap::new();
        let mut gone = Vec::new();
        for (&id, conn) in &self.conns {
            let key = match conn.viewer {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator => None,
            };
            let text = cache
                .entry(key)
                .or_insert_with(|| self.state_message(conn.viewer, last.as_ref()).into())
                .clone();
            if !send(&conn.out, Outgoing::Text(text)) {
                gone.push(id);
            }
        }
        for id in gone {
            self.disconnect(id);
        }
    }

    /// A seat's player came or went: the seats (who is connected) and the
    /// turn's clock, which is all that changed, to every connection but
    /// `joiner` (sent the state itself); the state is not sent again.
    pub(super) fn broadcast_presence(&mut self, joiner: Option<u64>) {
        let text: Arc<str> = json!({
            "type": "presence",
            "seats": self.seats_json(),
            "deadline_ms": self.deadline_ms(),
        })
        .to_string()
        .into();
        let gone: Vec<u64> = self
            .conns
            .iter()
            .filter(|(id, _)| Some(**id) != joiner)
            .filter(|(_, c)| !send(&c.out, Outgoing::Text(text.clone())))
            .map(|(&id, _)| id)
            .collect();
        for id in gone {
            self.disconnect(id);
        }
    }

    pub(super) fn broadcast_raw(&mut self, text: &str) {
        let text: Arc<str> = text.into();
        let gone: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| !send(&c.out, Outgoing::Text(text.clone())))
            .map(|(&id, _)| id)
            .collect();
        for id in gone {
            self.disconnect(id);
        }
    }

    pub(super) fn seats_json(&self) -> Vec<Value> {
        self.meta
            .seats
            .iter()
            .enumerate()
            .map(|(seat, s)| match s {
                SeatMeta::Human { name, token_hash } => json!({
                    "seat": seat, "kind": "human", "name": name,
                    "claimed": token_hash.is_some(), "connected": self.connected(seat),
                    "stand_in": self.stood_in(seat),
                    "stand_in_turns": self.game.stand_ins().turns(seat),
                }),
                SeatMeta::Bot { bot } => json!({"seat": seat, "kind": "bot", "bot": bot}),
            })
            .collect()
    }

    pub(super) fn summary_json(&self) -> Value {
        let mut summary = summary_json(
            &self.meta,
            &self.game,
            self.seats_json(),
            self.status_text(),
        );
        summary["paused"] = json!(self.paused());
        summary
    }

    pub(super) fn publish_summary(&self) {
        self.summary.send_replace(Arc::new(self.summary_json()));
    }
}

/// A table's summary for the lobby.
pub fn summary_json(meta: &TableMeta, game: &TableGame, seats: Vec<Value>, status: &str) -> Value {
    let header = Header::for_rules(game.rules(), None);
    json!({
        "id": meta.id,
        "variant": header.variant,
        "players": game.rules().game.players,
        "options": header.options,
        "status": status,
        "hand": game.hand_number(),
        "scores": game.state().scores(),
        "created": meta.created,
        "timeout_secs": meta.timeout_secs,
        "turn_secs": meta.turn_secs,
        "rematch": meta.rematch,
        "invite_only": meta.invite_hash.is_some(),
        "paused": false,
        "pace": meta.pace,
        "seats": seats,
    })
}
