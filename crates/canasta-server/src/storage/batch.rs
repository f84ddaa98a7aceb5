//! The writes an SQL backend's writer task commits, many at a time (group
//! commit): each caller sends its write with a channel for the answer and
//! waits; the writer takes every write waiting at that moment into one
//! transaction, and answers each one only after that transaction is
//! durable (or failed).

use super::{Change, StorageError};
use tokio::sync::{mpsc, oneshot};

/// Writes committed in one transaction at most.
pub(super) const MAX_BATCH: usize = 512;

/// Writes waiting for the writer at most; a caller beyond waits to send.
pub(super) const QUEUE: usize = 4096;

/// What a caller hands the writer: a change, or the server stopping.
pub(super) enum Write {
    Change(Change),
    /// The server is stopping: leave the database small (SQLite empties
    /// its write-ahead log after the batch's commit).
    Close,
}

impl Write {
    /// The table the write changes (none for [`Write::Close`]).
    pub(super) fn table(&self) -> Option<&str> {
        match self {
            Write::Change(change) => Some(change.table()),
            Write::Close => None,
        }
    }
}

pub(super) struct Job {
    pub(super) write: Write,
    pub(super) done: oneshot::Sender<Result<(), StorageError>>,
}

/// Sends a write to the writer and waits for its answer.
pub(super) async fn submit(writes: &mpsc::Sender<Job>, write: Write) -> Result<(), StorageError> {
    let (done, wait) = oneshot::channel();
    let stopped = || StorageError::Unavailable("the storage's writer has stopped".into());
    writes
        .send(Job { write, done })
        .await
        .map_err(|_| stopped())?;
    wait.await.map_err(|_| stopped())?
}
