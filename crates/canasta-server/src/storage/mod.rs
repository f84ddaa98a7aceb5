//! Where games are kept: every table's settings and its record, one line
//! per event, appended before the event is sent to anybody. Game code sees
//! only the [`Storage`] trait: SQLite in the data directory by default,
//! PostgreSQL when the server is given a database URL ([`Database`]), or
//! memory for tests.

mod batch;
mod database;
mod health;
mod leases;
mod memory;
mod postgres;
mod rows;
mod settings;
mod sqlite;

pub use database::{Database, SQLITE_FILE};
pub use health::{Failing, Monitored, StorageHealth};
pub use leases::{LeaseCounts, Leases, NodeSettings, Owner};
pub use memory::MemoryStorage;
pub use postgres::PostgresStorage;
pub use settings::{RETRY_FIRST, RETRY_MAX, StorageSettings, retry_delay};
pub use sqlite::{SqliteStorage, wal_size};

use crate::pace::Pace;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use thiserror::Error;

/// A storage failure; the change it was part of did not happen. Each
/// variant is a kind of failure a caller acts on differently; a database's
/// own error comes as its text, so that callers depend on no database
/// library.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StorageError {
    /// The database could not do the work: unreachable, stopped, out of
    /// disk, an I/O error, a lock held too long. Trying again may succeed.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// The database refused the write as against what it holds: a record
    /// line stored already or one that would leave a gap, a table created
    /// twice. Another writer came first, so trying again cannot succeed.
    #[error("database refused the write: {0}")]
    Conflict(String),
    /// The database's schema could not be brought to this version's (a
    /// migration failed, or the database was made by a newer version).
    #[error("database schema: {0}")]
    Schema(String),
    /// The database URL names no database this server can use.
    #[error("database URL: {0}")]
    Url(String),
    #[error("stored table {id}: {reason}")]
    Corrupt { id: String, reason: String },
    #[error("no table {0}")]
    NoSuchTable(String),
    /// The write was refused because this node no longer owns the table:
    /// its lease names another node, or a later epoch (several servers on
    /// one PostgreSQL database). Nothing was written; the table is this
    /// node's no more, and trying again cannot succeed.
    #[error("table {id} is not this server's any more: {reason}")]
    NotOwner { id: String, reason: String },
    #[error("table {id}: line {given} appended where line {expected} comes next")]
    OutOfOrder {
        id: String,
        given: usize,
        expected: usize,
    },
}

impl StorageError {
    /// Whether trying the same write again may succeed: the database
    /// failed (a full disk, an I/O error, a lock held too long), rather
    /// than refusing the write itself.
    pub fn is_transient(&self) -> bool {
        matches!(self, StorageError::Unavailable(_))
    }
}

/// Why a change was refused before it reached the database: an append
/// whose first line is not the next one, or a drop whose caller's length
/// is not what is stored.
fn out_of_order(id: &str, given: usize, expected: usize) -> StorageError {
    StorageError::OutOfOrder {
        id: id.to_string(),
        given,
        expected,
    }
}

/// A stored table that cannot be read or resumed: kept in storage as it
/// is (nothing rewrites or deletes it), and left out, so that the other
/// tables go on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("table {id} is quarantined: {reason}")]
pub struct Quarantined {
    pub id: String,
    pub reason: String,
}

/// How a table is set up and who sits where: everything about a table
/// that is not its record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableMeta {
    pub id: String,
    /// Seconds since the Unix epoch.
    pub created: u64,
    pub seats: Vec<SeatMeta>,
    pub timeout_secs: u64,
    pub status: TableStatus,
    /// How fast its bots play; tables stored before paces were normal.
    #[serde(default)]
    pub pace: Pace,
    /// A connected player's time for a turn, after which the bot plays
    /// that turn for them; `None`: no clock.
    #[serde(default)]
    pub turn_secs: Option<u64>,
    /// The table set for the same players' next game, once one asked.
    #[serde(default)]
    pub rematch: Option<String>,
    /// An invite-only table's invite secret, as its SHA-256 in hex (like
    /// a token): its seats are claimed only with the secret, and it is
    /// not listed in the lobby. `None`: an open table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite_hash: Option<String>,
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatMeta {
    Human {
        name: Option<String>,
        /// SHA-256 of the seat's token, hex; `None` while the seat is free.
        token_hash: Option<String>,
    },
    Bot {
        bot: String,
    },
}

/// Where a table's game stands, as the lobby lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    Waiting,
    Playing,
    Finished,
    /// Closed before its game ended: nobody came to a waiting table, or
    /// every player left a game for good (`TableLimits`). Kept, never
    /// resumed or listed.
    Closed,
}

impl TableStatus {
    /// Whether the table is still to be played (resumed at a start).
    pub fn is_open(self) -> bool {
        matches!(self, TableStatus::Waiting | TableStatus::Playing)
    }
}

/// A stored table: its settings and its record's lines (the header first).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTable {
    pub meta: TableMeta,
    pub lines: Vec<String>,
}

/// An open public table as the lobby lists it from the database (several
/// servers on one database): its settings, its record's header line, and
/// where its game stands as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedTable {
    pub meta: TableMeta,
    /// The record's first line (variant, players, options).
    pub header: String,
    /// Hands dealt, and hands scored, so far.
    pub deals: usize,
    pub hands_ended: usize,
    /// The last scored hand's line, if any (its totals).
    pub last_hand_end: Option<String>,
}

/// What storage returns: a boxed future, so the trait can be used as
/// `dyn Storage`.
pub type StorageFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StorageError>> + Send + 'a>>;

/// One change to one table, made in one transaction ([`Storage::write`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Stores a new table with its record's first lines (the header).
    Create(StoredTable),
    /// Replaces a table's settings (a seat claimed, the status changed).
    Meta(TableMeta),
    /// Appends lines to a table's record; `first` is the index the first of
    /// them gets (the number of lines stored before), so that a line is
    /// never written twice or skipped. With `meta`, the settings change in
    /// the same transaction.
    Append {
        id: String,
        first: usize,
        lines: Vec<String>,
        meta: Option<TableMeta>,
    },
    /// Drops a table's lines from index `keep` on (an undo); `len` is the
    /// number of lines the caller knows stored, so that lines written
    /// meanwhile are never dropped unseen.
    Drop { id: String, keep: usize, len: usize },
}

impl Change {
    /// The table the change is to.
    pub fn table(&self) -> &str {
        match self {
            Change::Create(table) => &table.meta.id,
            Change::Meta(meta) => &meta.id,
            Change::Append { id, .. } | Change::Drop { id, .. } => id,
        }
    }
}

/// Durable tables. Each change is one transaction: when its future is
/// `Ok` the change is on disk (for a durable implementation). A backend
/// implements [`Storage::write`] and the reads; `create`, `append` and
/// the other changes by name are [`Storage::write`] of their [`Change`].
pub trait Storage: Send + Sync + 'static {
    /// Makes one change, in a transaction of its own.
    fn write(&self, change: Change) -> StorageFuture<'_, ()>;
    /// Every table still open (waiting or playing), with its record, to
    /// resume them (oldest first); a table whose row does not decode comes as
    /// [`Quarantined`], and the others still load.
    fn load_unfinished(&self) -> StorageFuture<'_, Vec<Result<StoredTable, Quarantined>>>;
    /// One table with its record; [`StorageError::Corrupt`] if its row
    /// does not decode.
    fn load(&self, id: &str) -> StorageFuture<'_, Option<StoredTable>>;
    /// Every table's id, oldest first (for `canasta export`); an id that
    /// does not decode comes as [`Quarantined`].
    fn ids(&self) -> StorageFuture<'_, Vec<Result<String, Quarantined>>>;
    /// The server is stopping: leave the storage as small as it can be
    /// (SQLite empties its write-ahead log). Writes still work after it.
    fn close(&self) -> StorageFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
    /// The newest open tables that are not invite-only, at most `limit`,
    /// newest first, read from the database: the lobby of a storage that
    /// several servers share (PostgreSQL), the same from every one. `None`:
    /// the storage has one server, which lists its own live tables.
    fn open_public_tables(&self, limit: usize) -> StorageFuture<'_, Option<Vec<ListedTable>>> {
        let _ = limit;
        Box::pin(async { Ok(None) })
    }

    /// [`Change::Create`].
    fn create(&self, table: &StoredTable) -> StorageFuture<'_, ()> {
        self.write(Change::Create(table.clone()))
    }
    /// [`Change::Meta`].
    fn update_meta(&self, meta: &TableMeta) -> StorageFuture<'_, ()> {
        self.write(Change::Meta(meta.clone()))
    }
    /// [`Change::Append`].
    fn append(
        &self,
        id: &str,
        first: usize,
        lines: &[String],
        meta: Option<&TableMeta>,
    ) -> StorageFuture<'_, ()> {
        self.write(Change::Append {
            id: id.to_string(),
            first,
            lines: lines.to_vec(),
            meta: meta.cloned(),
        })
    }
    /// [`Change::Drop`].
    fn drop_lines(&self, id: &str, keep: usize, len: usize) -> StorageFuture<'_, ()> {
        self.write(Change::Drop {
            id: id.to_string(),
            keep,
            len,
        })
    }
}

/// A storage in front of another, which watches or alters the changes
/// made through it ([`Monitored`], a test's failing disk): reads and
/// `close` go to [`Layer::inner`] as they are, each change through
/// [`Layer::write_through`]. Every layer is a [`Storage`].
pub trait Layer: Send + Sync + 'static {
    /// The storage behind this one.
    fn inner(&self) -> &dyn Storage;
    /// Makes a change, mostly by passing it on to [`Layer::inner`].
    fn write_through(&self, change: Change) -> StorageFuture<'_, ()>;
}

impl<L: Layer> Storage for L {
    fn write(&self, change: Change) -> StorageFuture<'_, ()> {
        self.write_through(change)
    }

    fn load_unfinished(&self) -> StorageFuture<'_, Vec<Result<StoredTable, Quarantined>>> {
        self.inner().load_unfinished()
    }

    fn load(&self, id: &str) -> StorageFuture<'_, Option<StoredTable>> {
        self.inner().load(id)
    }

    fn ids(&self) -> StorageFuture<'_, Vec<Result<String, Quarantined>>> {
        self.inner().ids()
    }

    fn close(&self) -> StorageFuture<'_, ()> {
        self.inner().close()
    }

    fn open_public_tables(&self, limit: usize) -> StorageFuture<'_, Option<Vec<ListedTable>>> {
        self.inner().open_public_tables(limit)
    }
}

#[cfg(test)]
pub(crate) mod contract {
    //! The behaviour every [`Storage`] must show, run against each one.
    use super::*;

    pub fn table(id: &str) -> StoredTable {
        StoredTable {
            meta: TableMeta {
                id: id.to_string(),
                created: 1_795_500_000,
                seats: vec![
                    SeatMeta::Human {
                        name: Some("Ann".into()),
                        token_hash: Some("ab".repeat(32)),
                    },
                    SeatMeta::Bot {
                        bot: "heuristic".into(),
                    },
                ],
                timeout_secs: 60,
                invite_hash: None,
                status: TableStatus::Waiting,
                pace: Pace::Fast,
                turn_secs: Some(30),
                rematch: None,
            },
            lines: vec![r#"{"canasta_record":1}"#.to_string()],
        }
    }

    pub async fn run(storage: &dyn Storage) {
        let mut t = table("t1");
        storage.create(&t).await.unwrap();
        storage.create(&table("t2")).await.unwrap();
        assert_eq!(storage.load("t1").await.unwrap().as_ref(), Some(&t));
        assert_eq!(storage.load("nope").await.unwrap(), None);

        let lines = vec!["a".to_string(), "b".to_string()];
        t.meta.status = TableStatus::Playing;
        storage
            .append("t1", 1, &lines, Some(&t.meta))
            .await
            .unwrap();
        t.lines.extend(lines);
        assert_eq!(storage.load("t1").await.unwrap().as_ref(), Some(&t));

        // A line written twice or a gap is refused, and nothing changes.
        for first in [1, 2, 4] {
            let err = storage
                .append("t1", first, &["x".to_string()], None)
                .await
                .unwrap_err();
            assert!(matches!(err, StorageError::OutOfOrder { .. }), "{err}");
        }
        assert!(matches!(
            storage.append("zz", 0, &["x".to_string()], None).await,
            Err(StorageError::NoSuchTable(_))
        ));
        assert_eq!(storage.load("t1").await.unwrap().as_ref(), Some(&t));

        // Lines dropped from the end: only with the caller's length right.
        for (keep, len) in [(2, 2), (1, 4), (4, 3)] {
            let err = storage.drop_lines("t1", keep, len).await.unwrap_err();
            assert!(matches!(err, StorageError::OutOfOrder { .. }), "{err}");
        }
        storage.drop_lines("t1", 2, 3).await.unwrap();
        t.lines.truncate(2);
        assert_eq!(storage.load("t1").await.unwrap().as_ref(), Some(&t));
        storage
            .append("t1", 2, &["c".to_string()], None)
            .await
            .unwrap();
        t.lines.push("c".to_string());
        assert_eq!(storage.load("t1").await.unwrap().as_ref(), Some(&t));

        t.meta.status = TableStatus::Finished;
        storage.update_meta(&t.meta).await.unwrap();
        let unfinished = storage.load_unfinished().await.unwrap();
        assert_eq!(unfinished.len(), 1);
        assert_eq!(unfinished[0].as_ref().unwrap().meta.id, "t2");
        let ids = storage.ids().await.unwrap();
        assert_eq!(ids, vec![Ok("t1".to_string()), Ok("t2".to_string())]);
        // A closed table is kept, and never resumed.
        let mut closed = table("t2").meta;
        closed.status = TableStatus::Closed;
        storage.update_meta(&closed).await.unwrap();
        assert!(storage.load_unfinished().await.unwrap().is_empty());
        assert_eq!(storage.load("t2").await.unwrap().unwrap().meta, closed);
        storage.close().await.unwrap();
        storage
            .append("t2", 1, &["after closing".to_string()], None)
            .await
            .unwrap();
    }
}
