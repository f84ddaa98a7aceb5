//! The task that runs one table. It handles one command at a time: an
//! action is judged, its record lines are stored (awaited), and only then
//! is it made the game and told to the players, so that what anybody has
//! seen is always on disk. Bots think on the blocking pool and send their
//! choice back as a command, so a table never blocks the runtime; the
//! choice is played once the table's pace allows (see [`crate::pace`]).

mod messages;
#[cfg(test)]
mod tests;

pub use messages::summary_json;

use super::game::{By, Event, Refusal, Step, TableGame};
use super::{ClaimError, Command, Joined, Outgoing, Services, TableHandle};
use crate::limits::{PerMinute, TableLimits};
use crate::metrics::Latency;
use crate::pace::Pacing;
use crate::protocol::{ClientError, ClientMessage, ErrorCode};
use crate::search::{Searches, TableShare};
use crate::secrets;
use crate::storage::{SeatMeta, Storage, StorageError, TableMeta, TableStatus, retry_delay};
use crate::views::Viewer;
use canasta_ai::{Bot, Decision};
use canasta_core::{Action, GameState, Phase, Rng};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

/// Commands waiting for a table at most; senders wait beyond that.
const QUEUE: usize = 256;
/// Messages waiting for a connection at most; a client that reads slower
/// than that is disconnected rather than let the table's memory grow.
pub const CONN_QUEUE: usize = 512;

struct Conn {
    viewer: Viewer,
    out: mpsc::Sender<Outgoing>,
}

/// A bot's (or a stand-in's) choice for the state it was given.
struct Chosen {
    seat: usize,
    state_id: u64,
    action: Action,
    stand_in: bool,
}

/// A step whose lines could not be stored: nobody has seen it. It is
/// stored again, with the same first line (so it is never stored twice),
/// before anything else happens at the table.
struct Unsaved {
    step: Step,
    /// Attempts that failed so far, and the last one's error.
    failed: u32,
    error: String,
    retry_at: Instant,
}

impl Unsaved {
    /// The `storage` message while the step waits.
    fn message(&self) -> String {
        let retry = self.retry_at.saturating_duration_since(Instant::now());
        json!({
            "type": "storage",
            "ok": false,
            "message": format!("the game could not be saved ({}); the table waits and tries again, and plays on once it is saved", self.error),
            "retry_ms": retry.as_millis() as u64,
        })
        .to_string()
    }
}

/// The turn of the seat to act, for its clocks: a human seat's turn is
/// played by the bot (for this turn only) once its player has been away
/// `timeout_secs`, or has had the turn `turn_secs` while connected.
#[derive(Clone, Copy, Debug)]
struct Turn {
    seat: usize,
    /// When the turn began (or the table resumed, or the player came back).
    since: Instant,
    /// The bot plays the rest of this turn for the seat.
    stand_in: bool,
}

struct Table {
    meta: TableMeta,
    game: TableGame,
    storage: Arc<dyn Storage>,
    me: mpsc::Sender<Command>,
    conns: HashMap<u64, Conn>,
    next_conn: u64,
    /// Each bot seat's bot; `None` while it thinks.
    bots: Vec<Option<Box<dyn Bot>>>,
    /// The bot that plays a turn for an absent human, per seat.
    stand_ins: Vec<Option<Box<dyn Bot>>>,
    /// The turn under way, and the asker's while a partner answers.
    turn: Option<Turn>,
    asker_turn: Option<Turn>,
    /// The seat and state a bot is thinking about.
    thinking: Option<(usize, u64)>,
    /// A bot's choice waiting for the table's pace.
    chosen: Option<Chosen>,
    /// When the last change of the game went out: the next bot action
    /// waits the pace's delay after it.
    changed_at: Instant,
    pacing: Pacing,
    /// Since when each seat has had its connections as they are (none,
    /// or some): an absent player's clock starts when they left.
    presence_since: Vec<Instant>,
    ready: Vec<bool>,
    hand_over_since: Option<Instant>,
    rng: Rng,
    summary: watch::Sender<Arc<Value>>,
    meta_watch: watch::Sender<Arc<TableMeta>>,
    /// Set when storage refused a step (its lines do not follow the
    /// stored ones): the table stops taking actions.
    broken: Option<String>,
    /// A step whose write failed, waiting to be tried again: the table
    /// waits on storage meanwhile.
    unsaved: Option<Unsaved>,
    latency: Arc<Latency>,
    limits: Arc<TableLimits>,
    searches: Arc<Searches>,
    /// This table's share of the server's search slots.
    share: TableShare,
    /// Each seat's hint being worked out (one at a time a seat, however
    /// many connections hold its token), and its hints' rate.
    hinting: Vec<bool>,
    hint_rate: Vec<PerMinute>,
    /// When a waiting table with nobody connected expires: the
    /// [`TableLimits::idle_unstarted`] after the last connection, claim or
    /// message.
    idle_expiry: Instant,
    /// When a paused game is abandoned: [`TableLimits::abandoned`] after
    /// it paused.
    abandoned_expiry: Instant,
    /// This node's leases, on a database of several nodes.
    leases: Option<Arc<crate::storage::Leases>>,
}

/// Starts the task of a table, created or resumed; `game` is its record so far.
pub fn spawn(meta: TableMeta, game: TableGame, services: Services) -> TableHandle {
    let Services {
        storage,
        latency,
        pacing,
        limits,
        searches,
        leases,
    } = services;
    let (tx, rx) = mpsc::channel(QUEUE);
    let n = meta.seats.len();
    let now = Instant::now();
    let bots = meta
        .seats
        .iter()
        .map(|seat| match seat {
            SeatMeta::Bot { bot } => searches.bot(bot, secrets::random_seed()),
            SeatMeta::Human { .. } => None,
        })
        .collect();
    let idle_expiry = first_idle_expiry(&meta, &limits, now);
    let (summary, summary_rx) = watch::channel(Arc::new(Value::Null));
    let (meta_watch, meta_rx) = watch::channel(Arc::new(meta.clone()));
    let mut table = Table {
        meta,
        game,
        storage,
        me: tx.clone(),
        conns: HashMap::new(),
        next_conn: 1,
        bots,
        stand_ins: (0..n).map(|_| None).collect(),
        thinking: None,
        chosen: None,
        changed_at: now,
        pacing,
        turn: None,
        asker_turn: None,
        presence_since: vec![now; n],
        ready: vec![false; n],
        hand_over_since: None,
        rng: Rng::new(secrets::random_seed()),
        summary,
        meta_watch,
        broken: None,
        unsaved: None,
        latency,
        share: searches.table_share(),
        searches,
        hinting: vec![false; n],
        hint_rate: vec![PerMinute::full(limits.hints_per_minute); n],
        idle_expiry,
        abandoned_expiry: later(now, limits.abandoned),
        limits,
        leases,
    };
    if table.game.state().phase() == Phase::HandOver {
        table.hand_over_since = Some(now);
    }
    table.follow_turn(true);
    table.publish_summary();
    tokio::spawn(table.run(rx));
    TableHandle {
        tx,
        summary: summary_rx,
        meta: meta_rx,
    }
}

impl Table {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        loop {
            if self.lost() {
                self.leave();
                return;
            }
            if self.expiry_due().is_some_and(|due| Instant::now() >= due) && self.close().await {
                break;
            }
            self.drive().await;
            if self.lost() {
                self.leave();
                return;
            }
            let deadline = earliest(self.next_deadline(), self.expiry_due());
            let command = tokio::select! {
                c = rx.recv() => c,
                () = sleep_until(deadline) => continue,
            };
            match command {
                None => break,
                Some(Command::Shutdown { done }) => {
                    self.broadcast_raw(&json!({
                        "type": "shutdown",
                        "message": "the server is stopping; your game is saved, reconnect when it is back"
                    }).to_string());
                    for conn in self.conns.values() {
                        let _ = conn.out.try_send(Outgoing::Close("server stopping"));
                    }
                    let _ = done.send(());
                    // The stopping node lets all its leases go at once.
                    return;
                }
                Some(Command::Lost) => {
                    self.leave();
                    return;
                }
                Some(command) => {
                    if command.is_activity() {
                        self.idle_expiry = later(Instant::now(), self.limits.idle_unstarted);
                    }
                    self.handle(command).await;
                }
            }
            // A finished (or closed) game with nobody watching needs no
            // task (it is started again from storage when asked).
            if !self.meta.status.is_open() && self.conns.is_empty() && rx.is_empty() {
                break;
            }
        }
        // Done with: another node may take the table at once when asked.
        if let Some(leases) = &self.leases
            && let Err(e) = leases.release(&self.meta.id).await
        {
            tracing::warn!(table = %self.meta.id, error = %e, "releasing the table's lease failed; it ends by itself");
        }
    }

    /// Whether this node no longer holds the table's lease (another node
    /// took it, or a write was refused for it): nothing more may be
    /// written, nor told as the game.
    fn lost(&self) -> bool {
        self.leases
            .as_ref()
            .is_some_and(|leases| !leases.holds(&self.meta.id))
    }

    /// Leaves a table this node no longer holds: its connections are told
    /// and closed (1012), to reconnect to the table where it is now.
    fn leave(&mut self) {
        tracing::warn!(table = %self.meta.id, connections = self.conns.len(), "this server no longer holds the table: its connections are sent to reconnect");
        self.broadcast_raw(
            &json!({
                "type": "moved",
                "message": "the table moved to another server; reconnect to play on"
            })
            .to_string(),
        );
        for conn in self.conns.values() {
            let _ = conn.out.try_send(Outgoing::Moved);
        }
        self.conns.clear();
    }

    fn seats(&self) -> usize {
        self.meta.seats.len()
    }

    /// When the table expires if nothing changes: a waiting table with
    /// nobody connected, [`TableLimits::idle_unstarted`] after the last
    /// activity; a paused game, [`TableLimits::abandoned`] after it paused.
    pub(super) fn expiry_due(&self) -> Option<Instant> {
        match self.meta.status {
            TableStatus::Waiting if self.conns.is_empty() => Some(self.idle_expiry),
            TableStatus::Playing if self.paused() => Some(self.abandoned_expiry),
            _ => None,
        }
    }

    /// Closes an expired table: stored as closed (kept, never resumed nor
    /// listed), its watchers told. False when that could not be stored:
    /// the table stays open and tries again after another period.
    async fn close(&mut self) -> bool {
        let mut meta = self.meta.clone();
        meta.status = TableStatus::Closed;
        if let Err(e) = self.storage.update_meta(&meta).await {
            tracing::error!(table = %self.meta.id, error = %e, "closing an expired table failed");
            let now = Instant::now();
            self.idle_expiry = later(now, self.limits.idle_unstarted);
            self.abandoned_expiry = later(now, self.limits.abandoned);
            return false;
        }
        let why = if self.meta.status == TableStatus::Waiting {
            "nobody came to this table: it has closed"
        } else {
            "everybody left this game: it has closed"
        };
        tracing::info!(table = %self.meta.id, reason = why, "table expired");
        self.set_meta(meta);
        self.broadcast_raw(&json!({"type": "closed", "message": why}).to_string());
        for conn in self.conns.values() {
            let _ = conn.out.try_send(Outgoing::Close("the table has closed"));
        }
        true
    }

    fn is_human(&self, seat: usize) -> bool {
        matches!(self.meta.seats[seat], SeatMeta::Human { .. })
    }

    fn connected(&self, seat: usize) -> bool {
        self.conns.values().any(|c| c.viewer == Viewer::Seat(seat))
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.meta.timeout_secs)
    }

    /// Whether the table waits for its people: every human player has
    /// left (or, at a table of bots only, nobody watches). Nothing moves
    /// then: no bot, no stand-in, no deal.
    pub(super) fn paused(&self) -> bool {
        if self.meta.status != TableStatus::Playing {
            return false;
        }
        let mut humans = (0..self.seats()).filter(|&s| self.is_human(s)).peekable();
        if humans.peek().is_none() {
            return self.conns.is_empty();
        }
        !humans.any(|s| self.connected(s))
    }

    /// Whether the bot plays the current turn of `seat` for its player.
    pub(super) fn stood_in(&self, seat: usize) -> bool {
        self.turn.is_some_and(|t| t.seat == seat && t.stand_in)
    }

    /// When the bot takes over the turn under way for its player: the
    /// table's timeout after the player left (or the turn began, if later),
    /// or with a turn clock, its seconds after the turn began while they
    /// are connected. `None` when no clock runs.
    pub(super) fn stand_in_due(&self) -> Option<Instant> {
        if self.meta.status != TableStatus::Playing
            || self.broken.is_some()
            || self.unsaved.is_some()
            || self.paused()
        {
            return None;
        }
        let turn = self.turn?;
        if turn.stand_in || !self.is_human(turn.seat) || !self.game.in_hand() {
            return None;
        }
        let from = turn.since.max(self.presence_since[turn.seat]);
        if self.connected(turn.seat) {
            self.meta
                .turn_secs
                .map(|secs| from + Duration::from_secs(secs))
        } else {
            Some(from + self.timeout())
        }
    }

    /// Keeps [`Table::turn`] with the game: a new turn when another seat
    /// is to act or a hand was dealt; a partner's answer interrupts the
    /// asker's turn, which goes on (stand-in or not) after it.
    fn follow_turn(&mut self, dealt: bool) {
        if !self.game.in_hand() {
            self.turn = None;
            self.asker_turn = None;
            return;
        }
        let seat = self.game.state().to_act().index();
        let now = Instant::now();
        let fresh = Turn {
            seat,
            since: now,
            stand_in: false,
        };
        if dealt {
            self.turn = Some(fresh);
            self.asker_turn = None;
            return;
        }
        if self.turn.is_some_and(|t| t.seat == seat) {
            return;
        }
        if self.game.state().phase() == Phase::Answer {
            self.asker_turn = self.turn.take();
            self.turn = Some(fresh);
        } else {
            self.turn = match self.asker_turn.take() {
                Some(asker) if asker.seat == seat => Some(Turn {
                    since: now,
                    ..asker
                }),
                _ => Some(fresh),
            };
        }
    }

    /// Back from a pause: clocks start again from now, so that a returning
    /// player sees the table before anything moves.
    fn resume_play(&mut self) {
        let now = Instant::now();
        if let Some(t) = &mut self.turn {
            t.since = now;
        }
        if self.hand_over_since.is_some() {
            self.hand_over_since = Some(now);
        }
        self.changed_at = now;
    }

    /// Starts the abandoned table's clock when the table has just paused.
    fn note_pause(&mut self, was_paused: bool) {
        if !was_paused && self.paused() {
            self.abandoned_expiry = later(Instant::now(), self.limits.abandoned);
        }
    }

    /// When something is due without a command: a bot's choice to play at
    /// the table's pace, the bot to stand in for a player, or the next
    /// hand after the scores.
    fn next_deadline(&self) -> Option<Instant> {
        if let Some(unsaved) = &self.unsaved {
            return Some(unsaved.retry_at);
        }
        if self.meta.status != TableStatus::Playing || self.broken.is_some() || self.paused() {
            return None;
        }
        if self.game.needs_deal() && self.game.started() {
            return self.hand_over_since.map(|t| t + self.timeout());
        }
        if self.chosen.is_some() {
            return Some(self.pace_due());
        }
        if self.game.in_hand() && self.thinking.is_none() {
            return self.stand_in_due();
        }
        None
    }

    /// Does what is due now: deal, play a bot's choice, or set a bot
    /// thinking; nothing while the table is paused.
    async fn drive(&mut self) {
        loop {
            if self.unsaved.is_some() && !self.store_again().await {
                return;
            }
            if self.meta.status != TableStatus::Playing || self.broken.is_some() {
                return;
            }
            // Paused, only the first deal (it plays nothing: the table is
            // set for whoever comes).
            if self.paused() && self.game.started() {
                return;
            }
            if self.game.needs_deal() {
                if self.game.started() && !self.next_hand_due() {
                    return;
                }
                let step = self.game.deal(&mut self.rng);
                if self.store_and_commit(step).await.is_err() {
                    return;
                }
                continue;
            }
            if let Some(chosen) = self.chosen.take() {
                if Instant::now() < self.pace_due() {
                    self.chosen = Some(chosen);
                    return;
                }
                self.play_chosen(chosen).await;
                continue;
            }
            if self.game.in_hand() && self.thinking.is_none() {
                self.start_bot_if_due();
            }
            return;
        }
    }

    /// When a bot's action may be played: the pace's delay after the last
    /// change went out, so that every state is a step a viewer sees.
    fn pace_due(&self) -> Instant {
        self.changed_at + self.pacing.delay(self.meta.pace)
    }

    /// Plays a bot's choice, unless the game moved on while it thought (a
    /// player back in time played first).
    async fn play_chosen(&mut self, chosen: Chosen) {
        if chosen.state_id != self.game.state_id() {
            return;
        }
        let by = if chosen.stand_in {
            By::StandIn
        } else {
            By::Bot
        };
        match self.game.act(chosen.seat, chosen.action, by) {
            Ok(step) => {
                let _ = self.store_and_commit(step).await;
            }
            Err(refusal) => tracing::error!(
                table = %self.meta.id, seat = chosen.seat, action = %chosen.action,
                stand_in = chosen.stand_in, ?refusal,
                "a bot chose an action the game refuses"
            ),
        }
    }

    /// After a hand's scores: every connected human has said `next`, or
    /// the table's timeout has passed.
    fn next_hand_due(&self) -> bool {
        let waiting =
            (0..self.seats()).any(|s| self.is_human(s) && self.connected(s) && !self.ready[s]);
        !waiting
            || self
                .hand_over_since
                .is_some_and(|t| t.elapsed() >= self.timeout())
    }

    fn start_bot_if_due(&mut self) {
        let seat = self.game.state().to_act().index();
        let (bot, stand_in) = if let Some(bot) = self.bots[seat].take() {
            (bot, false)
        } else if self.is_human(seat) {
            if !self.stood_in(seat) {
                if self.stand_in_due().is_none_or(|due| Instant::now() < due) {
                    return;
                }
                // Out of time: the bot plays this turn, and this turn only.
                if let Some(t) = &mut self.turn {
                    t.stand_in = true;
                }
                self.broadcast_states(None);
                self.publish_summary();
            }
            let bot = self.stand_ins[seat].take().unwrap_or_else(|| {
                self.searches
                    .bot(&super::default_bot(), secrets::random_seed())
                    .expect("the default bot exists")
            });
            (bot, true)
        } else {
            return;
        };
        let state = self.game.state();
        let state: GameState = state.clone();
        let state_id = self.game.state_id();
        self.thinking = Some((seat, state_id));
        let me = self.me.clone();
        let (searches, share) = (self.searches.clone(), self.share.clone());
        tokio::spawn(async move {
            let thought = searches.run(&share, move || {
                let mut bot = bot;
                let legal = state.legal_actions();
                let action = bot.choose(&Decision::new(&state, &legal));
                (action, bot)
            });
            // `None`: the server is stopping.
            if let Some((action, bot)) = thought.await {
                let _ = me
                    .send(Command::BotChose {
                        seat,
                        state_id,
                        action,
                        bot,
                        stand_in,
                    })
                    .await;
            }
        });
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Connect { token, out, reply } => self.connect(token, out, reply),
            Command::Message {
                conn,
                msg,
                received,
            } => self.message(conn, msg, received).await,
            Command::Disconnect { conn } => self.disconnect(conn),
            Command::Refuse { conn, error } => self.reply_error(conn, error),
            Command::Claim {
                seat,
                name,
                replace,
                reply,
            } => {
                let _ = reply.send(self.claim(seat, name, replace).await);
            }
            Command::RematchOf { token, reply } => {
                let hash = secrets::token_hash(&token);
                let seat = self.meta.seats.iter().position(
                    |s| matches!(s, SeatMeta::Human { token_hash: Some(h), .. } if *h == hash),
                );
                let answer = match seat {
                    None => Err(super::RematchError::BadToken),
                    Some(_) if self.meta.status != TableStatus::Finished => {
                        Err(super::RematchError::NotOver)
                    }
                    Some(seat) => Ok(super::RematchOf {
                        seat,
                        meta: self.meta.clone(),
                        rules: self.game.rules().clone(),
                    }),
                };
                let _ = reply.send(answer);
            }
            Command::Rematched { id, reply } => {
                let mut meta = self.meta.clone();
                meta.rematch = Some(id.clone());
                let done = self.storage.update_meta(&meta).await;
                if done.is_ok() {
                    self.set_meta(meta);
                    self.broadcast_raw(&json!({"type": "rematch", "id": id}).to_string());
                }
                let _ = reply.send(done.map_err(|e| e.to_string()));
            }
            Command::BotChose {
                seat,
                state_id,
                action,
                bot,
                stand_in,
            } => {
                if stand_in {
                    self.stand_ins[seat] = Some(bot);
                } else {
                    self.bots[seat] = Some(bot);
                }
                self.thinking = None;
                // Played by `drive` when the pace allows.
                self.chosen = Some(Chosen {
                    seat,
                    state_id,
                    action,
                    stand_in,
                });
            }
            Command::Hint {
                conn,
                seat,
                state_id,
                hint,
            } => {
                self.hinting[seat] = false;
                if let Some(c) = self.conns.get(&conn) {
                    let text = match hint {
                        // `why` repeats the advice for clients of the old field.
                        Some(h) => json!({
                            "type": "hint",
                            "state_id": state_id,
                            "action": h.action.to_string(),
                            "advice": h.advice,
                            "figures": h.figures,
                            "why": h.advice,
                        })
                        .to_string(),
                        None => ClientError::new(ErrorCode::NotYourTurn, "nothing to play here")
                            .to_json(Some(state_id)),
                    };
                    send(&c.out, Outgoing::Text(text.into()));
                }
            }
            Command::Shutdown { .. } | Command::Lost => unreachable!("handled by run"),
        }
    }

    /// The `welcome` a connection gets: its seat, the table, the public log.
    fn welcome_text(&self, seat: Option<usize>) -> String {
        json!({
            "type": "welcome",
            "seat": seat,
            "table": self.summary_json(),
            "log": self.game.log().collect::<Vec<_>>(),
        })
        .to_string()
    }

    fn connect(
        &mut self,
        token: Option<String>,
        out: mpsc::Sender<Outgoing>,
        reply: oneshot::Sender<Result<Joined, ClientError>>,
    ) {
        let viewer = match token {
            None => Viewer::Spectator,
            Some(token) => {
                let hash = secrets::token_hash(&token);
                let seat = self.meta.seats.iter().position(
                    |s| matches!(s, SeatMeta::Human { token_hash: Some(h), .. } if *h == hash),
                );
                match seat {
                    Some(seat) => Viewer::Seat(seat),
                    None => {
                        let _ = reply.send(Err(ClientError::new(
                            ErrorCode::BadToken,
                            "this token holds no seat at this table",
                        )));
                        return;
                    }
                }
            }
        };
        let spectators = self
            .conns
            .values()
            .filter(|c| c.viewer == Viewer::Spectator)
            .count();
        if viewer == Viewer::Spectator
            && self.meta.status.is_open()
            && spectators >= self.limits.spectators_per_table
        {
            let _ = reply.send(Err(ClientError::new(
                ErrorCode::TooManySpectators,
                format!(
                    "this table has its {} spectators; watch another, or later",
                    self.limits.spectators_per_table
                ),
            )));
            return;
        }
        let conn = self.next_conn;
        self.next_conn += 1;
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        if reply.send(Ok(Joined { conn, seat })).is_err() {
            return;
        }
        if !self.meta.status.is_open() {
            // A finished (or closed) game: what it came to, then the
            // socket closes.
            send(&out, Outgoing::Text(self.welcome_text(seat).into()));
            let state = self.state_message(viewer, None);
            send(&out, Outgoing::Text(state.into()));
            if let Some(id) = &self.meta.rematch {
                let rematch = json!({"type": "rematch", "id": id});
                send(&out, Outgoing::Text(rematch.to_string().into()));
            }
            send(
                &out,
                Outgoing::Close(if self.meta.status == TableStatus::Closed {
                    "the table has closed"
                } else {
                    "the game is over"
                }),
            );
            return;
        }
        let was_paused = self.paused();
        let arrived = seat.filter(|&s| !self.connected(s));
        if let Some(s) = arrived {
            self.presence_since[s] = Instant::now();
        }
        self.conns.insert(
            conn,
            Conn {
                viewer,
                out: out.clone(),
            },
        );
        if was_paused && !self.paused() {
            self.resume_play();
        }
        send(&out, Outgoing::Text(self.welcome_text(seat).into()));
        // The state to this connection alone (`last` is not repeated); the
        // others hear of a seat's player arriving, and of nothing else.
        send(
            &out,
            Outgoing::Text(self.state_message(viewer, None).into()),
        );
        if arrived.is_some() {
            self.broadcast_presence(Some(conn));
        }
        if let Some(unsaved) = &self.unsaved {
            send(&out, Outgoing::Text(unsaved.message().into()));
        }
        self.publish_summary();
    }

    fn disconnect(&mut self, conn: u64) {
        let was_paused = self.paused();
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        self.note_pause(was_paused);
        if let Viewer::Seat(s) = c.viewer
            && !self.connected(s)
        {
            self.presence_since[s] = Instant::now();
            self.broadcast_presence(None);
        }
        self.publish_summary();
    }

    fn reply_error(&self, conn: u64, error: ClientError) {
        if let Some(c) = self.conns.get(&conn) {
            let id = self.game.started().then(|| self.game.state_id());
            send(&c.out, Outgoing::Text(error.to_json(id).into()));
        }
    }

    async fn message(&mut self, conn: u64, msg: ClientMessage, received: std::time::Instant) {
        let Some(viewer) = self.conns.get(&conn).map(|c| c.viewer) else {
            return;
        };
        let result = match msg {
            ClientMessage::Hello { .. } => Err(ClientError::new(
                ErrorCode::BadJson,
                "`hello` is the first message only",
            )),
            ClientMessage::Ping => {
                if let Some(c) = self.conns.get(&conn) {
                    send(&c.out, Outgoing::Text(Arc::from(r#"{"type":"pong"}"#)));
                }
                Ok(())
            }
            ClientMessage::Act { state_id, action } => {
                let done = self.act(viewer, state_id, &action).await;
                if done.is_ok() {
                    self.latency.record(received.elapsed());
                }
                done
            }
            ClientMessage::Start => self.start(viewer).await,
            ClientMessage::Undo { state_id } => self.undo(viewer, state_id).await,
            ClientMessage::Next => self.next(viewer),
            ClientMessage::Hint { state_id } => self.hint(conn, viewer, state_id),
        };
        if let Err(e) = result {
            self.reply_error(conn, e);
        }
    }

    fn seat_of(viewer: Viewer) -> Result<usize, ClientError> {
        match viewer {
            Viewer::Seat(s) => Ok(s),
            Viewer::Spectator => Err(ClientError::new(
                ErrorCode::Spectator,
                "spectators watch; claim a seat to play",
            )),
        }
    }

    async fn act(&mut self, viewer: Viewer, state_id: u64, text: &str) -> Result<(), ClientError> {
        let seat = Self::seat_of(viewer)?;
        if let Some(why) = &self.broken {
            return Err(ClientError::new(ErrorCode::Unavailable, why.clone()));
        }
        self.refuse_while_unsaved()?;
        if self.meta.status == TableStatus::Finished {
            return Err(ClientError::new(ErrorCode::GameOver, "the game is over"));
        }
        if !self.game.started() {
            return Err(ClientError::new(
                ErrorCode::NotStarted,
                "the game has not started",
            ));
        }
        let current = self.game.state_id();
        if state_id != current {
            return Err(ClientError::new(
                ErrorCode::StaleState,
                format!(
                    "the game has moved on (state {current}, not {state_id}); look again and choose"
                ),
            ));
        }
        if self.stood_in(seat) {
            return Err(ClientError::new(
                ErrorCode::NotYourTurn,
                "the bot is playing this turn for you (your time ran out); your next turn is yours",
            ));
        }
        let action: Action = text.parse().map_err(|e| {
            let shown: String = text.chars().take(60).collect();
            ClientError::new(ErrorCode::BadAction, format!("`{shown}`: {e}"))
        })?;
        let step = self
            .game
            .act(seat, action, By::Player)
            .map_err(|r| match r {
                Refusal::NotStarted => {
                    ClientError::new(ErrorCode::NotStarted, "no hand is being played")
                }
                Refusal::GameOver => ClientError::new(ErrorCode::GameOver, "the game is over"),
                Refusal::NotYourTurn { to_act } => ClientError::new(
                    ErrorCode::NotYourTurn,
                    format!("it is seat {to_act}'s turn"),
                ),
                Refusal::Illegal(reason) => {
                    // The reason alone, cards as drawn (`{:#}`, CardStyle).
                    ClientError::new(ErrorCode::IllegalAction, format!("{reason:#}"))
                }
            })?;
        self.store_and_commit(step)
            .await
            .map_err(|e| ClientError::new(ErrorCode::Unavailable, e))
    }

    /// Whether `seat` may undo at this table: its player plays alone
    /// against bots (the terminal's rule: no one else's game is taken back).
    pub(super) fn undo_allowed(&self, seat: usize) -> bool {
        self.meta.status == TableStatus::Playing
            && self.is_human(seat)
            && (0..self.seats()).all(|s| s == seat || !self.is_human(s))
    }

    /// Takes back the player's last action and all that followed: the
    /// record is cut in storage first (one transaction), then the game.
    async fn undo(&mut self, viewer: Viewer, state_id: u64) -> Result<(), ClientError> {
        let seat = Self::seat_of(viewer)?;
        if let Some(why) = &self.broken {
            return Err(ClientError::new(ErrorCode::Unavailable, why.clone()));
        }
        self.refuse_while_unsaved()?;
        let refuse = |why: String| ClientError::new(ErrorCode::CannotUndo, why);
        if !self.undo_allowed(seat) {
            return Err(refuse(
                "undo is for a player alone against bots, while the game is played".into(),
            ));
        }
        let current = self.game.state_id();
        if state_id != current {
            return Err(ClientError::new(
                ErrorCode::StaleState,
                format!("the game has moved on (state {current}, not {state_id}); look again"),
            ));
        }
        let keep = self.game.undo_keeps().map_err(|e| refuse(e.to_string()))?;
        let stored = self.game.lines().len();
        if let Err(e) = self.storage.drop_lines(&self.meta.id, keep, stored).await {
            tracing::error!(table = %self.meta.id, error = %e, "storing an undo failed");
            return Err(ClientError::new(
                ErrorCode::Unavailable,
                format!("the undo could not be saved ({e}); nothing changed"),
            ));
        }
        let removed = self.game.undo();
        self.chosen = None;
        self.changed_at = Instant::now();
        self.follow_turn(false);
        self.broadcast_raw(&json!({"type": "undone", "removed": removed}).to_string());
        self.broadcast_states(None);
        self.publish_summary();
        Ok(())
    }

    async fn start(&mut self, viewer: Viewer) -> Result<(), ClientError> {
        Self::seat_of(viewer)?;
        if self.meta.status != TableStatus::Waiting {
            return Err(ClientError::new(
                ErrorCode::GameOver,
                "the game has already started",
            ));
        }
        let mut meta = self.meta.clone();
        for seat in &mut meta.seats {
            if matches!(
                seat,
                SeatMeta::Human {
                    token_hash: None,
                    ..
                }
            ) {
                *seat = SeatMeta::Bot {
                    bot: super::default_bot(),
                };
            }
        }
        meta.status = TableStatus::Playing;
        self.storage
            .update_meta(&meta)
            .await
            .map_err(|e| ClientError::new(ErrorCode::Unavailable, e.to_string()))?;
        for (seat, s) in meta.seats.iter().enumerate() {
            if let SeatMeta::Bot { bot } = s
                && self.bots[seat].is_none()
                && self.thinking.is_none_or(|(t, _)| t != seat)
            {
                self.bots[seat] = self.searches.bot(bot, secrets::random_seed());
            }
        }
        self.set_meta(meta);
        self.broadcast_states(None);
        Ok(())
    }

    fn next(&mut self, viewer: Viewer) -> Result<(), ClientError> {
        let seat = Self::seat_of(viewer)?;
        if !self.game.started() || !self.game.needs_deal() {
            return Ok(());
        }
        self.ready[seat] = true;
        self.broadcast_states(None);
        Ok(())
    }

    fn hint(&mut self, conn: u64, viewer: Viewer, state_id: u64) -> Result<(), ClientError> {
        let seat = Self::seat_of(viewer)?;
        let state = self.game.state();
        if self.game.state_id() != state_id {
            return Err(ClientError::new(
                ErrorCode::StaleState,
                "the game has moved on",
            ));
        }
        if !self.game.in_hand() || state.to_act().index() != seat {
            return Err(ClientError::new(
                ErrorCode::NotYourTurn,
                "a hint is for your own turn",
            ));
        }
        if self.hinting[seat] {
            return Err(ClientError::new(
                ErrorCode::Busy,
                "a hint for this seat is being worked out",
            ));
        }
        let per_minute = self.limits.hints_per_minute;
        if let Err(wait) = self.hint_rate[seat].take(per_minute) {
            return Err(ClientError::new(
                ErrorCode::RateLimited,
                format!(
                    "a seat may ask {per_minute} hints a minute; the next in {} s",
                    wait.as_secs().saturating_add(1)
                ),
            ));
        }
        self.hinting[seat] = true;
        let state = state.clone();
        let me = self.me.clone();
        let seed = self.rng.next_u64();
        let (searches, share) = (self.searches.clone(), self.share.clone());
        let (time, stop) = (searches.hint_time(), searches.stop_signal());
        tokio::spawn(async move {
            // The terminal's hint: the expert search, about a second;
            // cards named as drawn.
            let thought = searches.run(&share, move || {
                canasta_ai::hint_until(
                    &state,
                    time,
                    seed,
                    canasta_core::CardStyle::Drawn,
                    Some(stop),
                )
            });
            if let Some(hint) = thought.await {
                let _ = me
                    .send(Command::Hint {
                        conn,
                        seat,
                        state_id,
                        hint,
                    })
                    .await;
            }
        });
        Ok(())
    }

    async fn claim(
        &mut self,
        seat: usize,
        name: Option<String>,
        replace: bool,
    ) -> Result<String, ClaimError> {
        if seat >= self.seats() {
            return Err(ClaimError::NoSuchSeat);
        }
        if self.meta.status == TableStatus::Finished {
            return Err(ClaimError::GameOver);
        }
        let claimable = match &self.meta.seats[seat] {
            SeatMeta::Human { token_hash, .. } => replace || token_hash.is_none(),
            SeatMeta::Bot { .. } => false,
        };
        if !claimable {
            return Err(ClaimError::Taken);
        }
        let token = secrets::new_token();
        let mut meta = self.meta.clone();
        meta.seats[seat] = SeatMeta::Human {
            name,
            token_hash: Some(secrets::token_hash(&token)),
        };
        let all_claimed = meta.seats.iter().all(|s| {
            !matches!(
                s,
                SeatMeta::Human {
                    token_hash: None,
                    ..
                }
            )
        });
        if all_claimed && meta.status == TableStatus::Waiting {
            meta.status = TableStatus::Playing;
        }
        self.storage
            .update_meta(&meta)
            .await
            .map_err(|e| ClaimError::Storage(e.to_string()))?;
        self.set_meta(meta);
        self.broadcast_states(None);
        Ok(token)
    }

    fn set_meta(&mut self, meta: TableMeta) {
        let was_paused = self.paused();
        self.meta = meta;
        self.note_pause(was_paused);
        self.meta_watch.send_replace(Arc::new(self.meta.clone()));
        self.publish_summary();
    }

    /// Stores a step's lines (and a status change with them), then makes
    /// it the game and tells everyone. A step that cannot be stored has
    /// not happened: if the database failed, it is kept and stored again
    /// later ([`Table::store_again`]), and the table waits on storage
    /// meanwhile (still `Ok`: the step will be played); if storage refused
    /// it, the table refuses further actions (`Err`).
    async fn store_and_commit(&mut self, step: Step) -> Result<(), String> {
        match self.store(&step, false).await {
            Ok(()) => {
                self.commit_stored(step);
                Ok(())
            }
            Err(e) if e.is_transient() => {
                self.wait_on_storage(step, 0, &e);
                Ok(())
            }
            Err(e) => Err(self.give_up(&e)),
        }
    }

    /// Whether this step ends the game (its lines then store the table's
    /// finished status with them).
    fn finishes(step: &Step) -> bool {
        step.events
            .iter()
            .any(|e| matches!(e, Event::GameEnd { .. }))
    }

    /// Appends the step's lines after the game's. `again`: an earlier
    /// attempt failed, and may have been stored after all (its answer
    /// lost): lines refused as out of order are then read back, and if
    /// they are this step's, it is stored.
    async fn store(&mut self, step: &Step, again: bool) -> Result<(), StorageError> {
        let meta = Self::finishes(step).then(|| TableMeta {
            status: TableStatus::Finished,
            ..self.meta.clone()
        });
        let first = self.game.lines().len();
        let stored = self
            .storage
            .append(&self.meta.id, first, &step.lines, meta.as_ref())
            .await;
        match stored {
            Err(StorageError::OutOfOrder { .. }) if again => {
                let back = self.storage.load(&self.meta.id).await?;
                let lines = back.as_ref().map_or(&[][..], |t| &t.lines[..]);
                if lines.get(first..) == Some(&step.lines[..]) {
                    Ok(())
                } else {
                    stored
                }
            }
            other => other,
        }
    }

    /// The step could not be stored (attempt `failed + 1`): keep it, tell
    /// everyone the table waits on storage, and try again after a delay
    /// that grows with each failure.
    fn wait_on_storage(&mut self, step: Step, failed: u32, e: &StorageError) {
        let failed = failed + 1;
        let delay = retry_delay(failed);
        tracing::warn!(
            table = %self.meta.id, error = %e, attempts = failed,
            retry_ms = delay.as_millis() as u64,
            "storing a step failed; the table waits and tries again"
        );
        let unsaved = Unsaved {
            step,
            failed,
            error: e.to_string(),
            retry_at: Instant::now() + delay,
        };
        self.broadcast_raw(&unsaved.message());
        self.unsaved = Some(unsaved);
        self.publish_summary();
    }

    /// Tries the unsaved step again once it is due: stored, it is played
    /// (true); failed again, it waits longer (false).
    async fn store_again(&mut self) -> bool {
        let Some(unsaved) = self.unsaved.take() else {
            return true;
        };
        if Instant::now() < unsaved.retry_at {
            self.unsaved = Some(unsaved);
            return false;
        }
        match self.store(&unsaved.step, true).await {
            Ok(()) => {
                tracing::info!(table = %self.meta.id, attempts = unsaved.failed + 1, "a step was stored after failing; the table plays on");
                self.broadcast_raw(
                    &json!({"type": "storage", "ok": true, "message": "the game is saved again"})
                        .to_string(),
                );
                self.commit_stored(unsaved.step);
                // The time spent waiting was nobody's turn.
                self.resume_play();
                true
            }
            Err(e) if e.is_transient() => {
                self.wait_on_storage(unsaved.step, unsaved.failed, &e);
                false
            }
            Err(e) => {
                self.give_up(&e);
                false
            }
        }
    }

    /// Storage refused a step: the table's record and its game differ, so
    /// the table takes no more actions. Why, as the players are told.
    fn give_up(&mut self, e: &StorageError) -> String {
        let why = format!("the game could not be saved ({e}); it is paused");
        tracing::error!(table = %self.meta.id, error = %e, "storing a step failed");
        self.broken = Some(why.clone());
        why
    }

    /// Refuses an action while a step waits to be stored: nothing after
    /// it can be played before it.
    fn refuse_while_unsaved(&self) -> Result<(), ClientError> {
        match &self.unsaved {
            Some(_) => Err(ClientError::new(
                ErrorCode::StorageFailing,
                "the table waits for the last move to be saved; it plays on once it is",
            )),
            None => Ok(()),
        }
    }

    /// Makes a stored step the game and tells everyone.
    fn commit_stored(&mut self, step: Step) {
        let meta = Self::finishes(&step).then(|| TableMeta {
            status: TableStatus::Finished,
            ..self.meta.clone()
        });
        let events = step.events.clone();
        let dealt = events.iter().any(|e| matches!(e, Event::Dealt { .. }));
        self.game.commit(step);
        self.changed_at = Instant::now();
        self.follow_turn(dealt);
        if let Some(m) = meta {
            self.set_meta(m);
        }
        if self.game.state().phase() == Phase::HandOver {
            self.hand_over_since = Some(Instant::now());
            self.ready = vec![false; self.seats()];
        } else {
            self.hand_over_since = None;
        }
        let last = events.iter().find_map(|e| match e {
            Event::Acted {
                seat,
                action,
                took,
                stand_in,
                ..
            } => {
                let mut last = json!({"seat": seat, "action": action.to_string()});
                if let Some(n) = took {
                    last["took"] = json!(n);
                }
                if *stand_in {
                    last["stand_in"] = json!(true);
                }
                Some(last)
            }
            _ => None,
        });
        self.broadcast_states(last);
        for event in &events {
            match event {
                Event::HandEnd {
                    hand,
                    result,
                    hands,
                    feet,
                    stand_ins,
                } => {
                    let msg = json!({"type": "hand_end", "hand": hand, "result": result, "hands": hands, "feet": feet, "stand_ins": stand_ins});
                    self.broadcast_raw(&msg.to_string());
                }
                Event::GameEnd {
                    totals,
                    winner,
                    stand_ins,
                } => {
                    let msg = json!({"type": "game_end", "totals": totals, "winner": winner, "stand_ins": stand_ins});
                    self.broadcast_raw(&msg.to_string());
                }
                _ => {}
            }
        }
        self.publish_summary();
    }
}

/// Queues a message for a connection; false if it is gone or too slow.
fn send(out: &mpsc::Sender<Outgoing>, msg: Outgoing) -> bool {
    match out.try_send(msg) {
        Ok(()) => true,
        Err(mpsc::error::TrySendError::Full(_)) => {
            let _ = out.try_send(Outgoing::Close("too slow"));
            false
        }
        Err(mpsc::error::TrySendError::Closed(_)) => false,
    }
}

/// The earlier of two deadlines, if any.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `wait` after `now` (a century for a wait past the clock's range).
fn later(now: Instant, wait: Duration) -> Instant {
    now.checked_add(wait)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 86_400))
}

/// When a new (or resumed) table first expires if idle: the
/// [`TableLimits::idle_unstarted`] from now, but for a resumed table
/// nobody ever joined, from its creation (so that a restart does not bring
/// back an invite that expired meanwhile).
fn first_idle_expiry(meta: &TableMeta, limits: &TableLimits, now: Instant) -> Instant {
    let never_joined = meta.seats.iter().all(|s| {
        !matches!(
            s,
            SeatMeta::Human {
                token_hash: Some(_),
                ..
            }
        )
    });
    if meta.status == TableStatus::Waiting && never_joined {
        let age = Duration::from_secs(crate::http::now_secs().saturating_sub(meta.created));
        later(now, limits.idle_unstarted.saturating_sub(age))
    } else {
        later(now, limits.idle_unstarted)
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
