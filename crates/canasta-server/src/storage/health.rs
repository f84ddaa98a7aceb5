//! Whether storage works, as the server tells it (`/healthz`, `/readyz`)
//! and acts on it (no new table while writes fail): learnt from the
//! tables' own writes, which a table whose write failed tries again until
//! one succeeds ([`crate::table`]).

use super::{Change, Layer, Quarantined, Storage, StorageError, StorageFuture};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The tables whose last write failed, and the stored tables left out at
/// start.
#[derive(Debug, Default)]
pub struct StorageHealth {
    failing: Mutex<HashMap<String, Failure>>,
    quarantined: Mutex<Vec<Quarantined>>,
}

#[derive(Clone, Debug)]
struct Failure {
    reason: String,
    since: Instant,
}

/// Storage failing: why (the latest error) and for how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failing {
    pub reason: String,
    /// Since the oldest failure still unresolved.
    pub for_time: Duration,
    /// Tables waiting on a write that failed.
    pub tables: usize,
}

impl StorageHealth {
    /// `Some` while a table's write has failed and not yet succeeded since.
    pub fn failing(&self) -> Option<Failing> {
        let failing = self.failing.lock().unwrap_or_else(|e| e.into_inner());
        let oldest = failing.values().map(|f| f.since).min()?;
        let latest = failing.values().max_by_key(|f| f.since)?;
        Some(Failing {
            reason: latest.reason.clone(),
            for_time: oldest.elapsed(),
            tables: failing.len(),
        })
    }

    /// The tables that were not resumed, with why.
    pub fn quarantined(&self) -> Vec<Quarantined> {
        self.quarantined
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(crate) fn set_quarantined(&self, tables: Vec<Quarantined>) {
        *self.quarantined.lock().unwrap_or_else(|e| e.into_inner()) = tables;
    }

    /// One more table left out (a node found it when taking it over).
    pub(crate) fn add_quarantined(&self, table: Quarantined) {
        let mut kept = self.quarantined.lock().unwrap_or_else(|e| e.into_inner());
        if !kept.iter().any(|q| q.id == table.id) {
            kept.push(table);
        }
    }

    /// What a write of table `id` came to. A database error marks the
    /// table failing (its first failure's time kept); any answer of the
    /// database's own (done, or a line refused as out of order) clears it.
    fn record<T>(&self, id: &str, outcome: &Result<T, StorageError>) {
        let mut failing = self.failing.lock().unwrap_or_else(|e| e.into_inner());
        match outcome {
            Err(e) if e.is_transient() => {
                let reason = e.to_string();
                failing
                    .entry(id.to_string())
                    .and_modify(|f| f.reason.clone_from(&reason))
                    .or_insert(Failure {
                        reason,
                        since: Instant::now(),
                    });
            }
            _ => {
                failing.remove(id);
            }
        }
    }
}

/// A storage whose tables' appends are watched by a [`StorageHealth`]:
/// the writes a table retries until they succeed, so a table is failing
/// exactly while it waits on storage. (A table creation or a seat's claim
/// that fails is refused to its asker, not retried, and not counted.)
pub struct Monitored {
    inner: Arc<dyn Storage>,
    health: Arc<StorageHealth>,
}

impl Monitored {
    pub fn new(inner: Arc<dyn Storage>, health: Arc<StorageHealth>) -> Monitored {
        Monitored { inner, health }
    }
}

impl Layer for Monitored {
    fn inner(&self) -> &dyn Storage {
        &*self.inner
    }

    fn write_through(&self, change: Change) -> StorageFuture<'_, ()> {
        let Change::Append { id, .. } = &change else {
            return self.inner.write(change);
        };
        let id = id.clone();
        let write = self.inner.write(change);
        Box::pin(async move {
            let outcome = write.await;
            self.health.record(&id, &outcome);
            outcome
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;

    #[tokio::test]
    async fn a_table_is_failing_from_its_failed_write_to_its_next_good_one() {
        let health = Arc::new(StorageHealth::default());
        let storage = Monitored::new(Arc::new(MemoryStorage::new()), health.clone());
        assert_eq!(health.failing(), None);
        let disk = || StorageError::Unavailable("disk I/O error".into());
        health.record::<()>("t1", &Err(disk()));
        health.record::<()>("t2", &Err(disk()));
        let failing = health.failing().unwrap();
        assert_eq!(failing.tables, 2);
        assert!(failing.reason.contains("disk I/O error"), "{failing:?}");
        // t1 written again: only t2 is failing.
        storage
            .create(&crate::storage::contract::table("t1"))
            .await
            .unwrap();
        storage.append("t1", 1, &["a".into()], None).await.unwrap();
        assert_eq!(health.failing().unwrap().tables, 1);
        // A refusal is the database answering: t2 is not failing.
        let refused = storage.append("t2", 5, &["a".into()], None).await;
        assert!(matches!(refused, Err(StorageError::NoSuchTable(_))));
        assert_eq!(health.failing(), None);
    }
}
