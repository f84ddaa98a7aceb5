//! Tables: each one a task that owns its game and is the only writer of
//! its record, fed by commands from connections, bots and timers. A
//! table's work never waits for another table.

mod actor;
pub mod game;

pub use actor::{CONN_QUEUE, spawn, summary_json};

use crate::protocol::{ClientError, ClientMessage};
use crate::storage::TableMeta;
use canasta_ai::Bot;
use canasta_core::Action;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};

/// The bot at a seat no one named (and at the free seats of a table
/// started early): the terminal's default, IS-MCTS at its default level,
/// by the level's name as the lobby offers bots (`ismcts-medium`).
pub fn default_bot() -> String {
    format!("ismcts-{}", canasta_ai::ismcts::DEFAULT_LEVEL.name())
}

/// A message for one connection, already serialised (a text shared by
/// every connection that gets the same one), or the end of it.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(Arc<str>),
    Close(&'static str),
    /// The end of it because this server no longer holds the table (another
    /// node took it): the client is to reconnect (close 1012).
    Moved,
}

/// What a connection is after its `hello`.
#[derive(Clone, Copy, Debug)]
pub struct Joined {
    pub conn: u64,
    pub seat: Option<usize>,
}

/// Why a seat could not be claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimError {
    NoSuchSeat,
    Taken,
    GameOver,
    Storage(String),
}

/// A finished table as its rematch copies it: the asker's seat, the
/// settings and the rules.
pub struct RematchOf {
    pub seat: usize,
    pub meta: TableMeta,
    pub rules: canasta_core::Rules,
}

/// Why a rematch was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RematchError {
    BadToken,
    NotOver,
}

/// What a table is asked to do.
pub enum Command {
    Connect {
        token: Option<String>,
        out: mpsc::Sender<Outgoing>,
        reply: oneshot::Sender<Result<Joined, ClientError>>,
    },
    Message {
        conn: u64,
        msg: ClientMessage,
        /// When the connection read it (for the latency measure).
        received: std::time::Instant,
    },
    Disconnect {
        conn: u64,
    },
    /// A message the connection refused itself (malformed, too many).
    Refuse {
        conn: u64,
        error: ClientError,
    },
    Claim {
        seat: usize,
        name: Option<String>,
        /// A new token for a claimed seat (its player asking again).
        replace: bool,
        reply: oneshot::Sender<Result<String, ClaimError>>,
    },
    /// What a rematch of this finished table needs, for a seat's token.
    RematchOf {
        token: String,
        reply: oneshot::Sender<Result<RematchOf, RematchError>>,
    },
    /// The rematch was set up: keep its id and tell the connections.
    Rematched {
        id: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// A bot (or the stand-in for an absent player) chose, on the blocking
    /// pool, for the state it was given.
    BotChose {
        seat: usize,
        state_id: u64,
        action: Action,
        bot: Box<dyn Bot>,
        stand_in: bool,
    },
    Hint {
        conn: u64,
        /// The seat that asked (its next hint may be asked now).
        seat: usize,
        state_id: u64,
        /// `None`: nothing to play (the hint was asked where no seat acts).
        hint: Option<canasta_ai::Hint>,
    },
    /// The server is stopping: finish, tell the clients, end.
    Shutdown {
        done: oneshot::Sender<()>,
    },
    /// This node no longer holds the table's lease: send the clients to
    /// reconnect, and end without writing anything.
    Lost,
}

/// What a table uses of its server's: storage, the latency counts, the
/// pace's scale, the limits and the search slots.
#[derive(Clone)]
pub struct Services {
    pub storage: Arc<dyn crate::storage::Storage>,
    pub latency: Arc<crate::metrics::Latency>,
    pub pacing: crate::pace::Pacing,
    pub limits: Arc<crate::limits::TableLimits>,
    pub searches: Arc<crate::search::Searches>,
    /// This node's leases, when it is one of several on a database: a
    /// table leaves once its lease is not held any more.
    pub leases: Option<Arc<crate::storage::Leases>>,
}

impl Command {
    /// Whether the command comes from people (a connection, a claim, a
    /// message): what keeps a waiting table from expiring.
    pub fn is_activity(&self) -> bool {
        matches!(
            self,
            Command::Connect { .. }
                | Command::Message { .. }
                | Command::Disconnect { .. }
                | Command::Claim { .. }
        )
    }
}

/// How the rest of the server reaches a table.
#[derive(Clone)]
pub struct TableHandle {
    pub tx: mpsc::Sender<Command>,
    /// The table's summary for the lobby, updated on every change.
    pub summary: watch::Receiver<Arc<Value>>,
    pub meta: watch::Receiver<Arc<TableMeta>>,
}

impl TableHandle {
    /// Sends a command; false when the table has ended.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(command).await.is_ok()
    }

    /// Whether the table's task runs and its game is still to be played
    /// (waiting or playing): what the caps on tables count.
    pub fn is_open(&self) -> bool {
        !self.tx.is_closed() && self.meta.borrow().status.is_open()
    }
}
