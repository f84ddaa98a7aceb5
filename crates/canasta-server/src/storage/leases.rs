//! Which node owns which table, when several servers share one PostgreSQL
//! database (`canasta serve --node-id N`): each table has one owner at a
//! time, by a lease in the database (`table_owners`: the node, an epoch and
//! when the lease ends, in the database's clock). The owner renews its
//! leases every [`NodeSettings::renew_every`]; a lease not renewed for
//! [`NodeSettings::lease`] (its node died, stopped or was cut off) may be
//! taken by any node, which raises the epoch and rebuilds the table from its
//! record.
//!
//! The epoch is a fencing token: the storage's writer checks, in the
//! transaction of every write, that the table's lease still names this node
//! and the epoch it took (`PostgresStorage`), so that an old owner's write
//! is refused ([`StorageError::NotOwner`]) however late it comes. What this
//! node may write is [`Leases::holds`]: a table whose write was refused, or
//! whose renewal found it taken, is no longer held, and its task leaves.
//!
//! SQLite has none of this: one server owns the file by its lock.

use super::StorageError;
use super::rows::db;
use sqlx::postgres::PgPool;
use sqlx::{Postgres, Row, Transaction};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a node takes part: its number, its address, and its leases' times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSettings {
    /// The node's number, unique among the servers on one database
    /// (`--node-id`, default 0).
    pub node_id: u16,
    /// The address clients reach this node at (`--public-url`), stored with
    /// its node row for the others to send clients to.
    pub public_url: Option<String>,
    /// How long a lease runs without renewal: the longest a table waits for
    /// another node after its owner died. Default 5 s.
    pub lease: Duration,
    /// How often the owner renews its leases (and says it is alive);
    /// default 1.5 s, so that two renewals may fail before a lease ends.
    pub renew_every: Duration,
    /// How often a node looks for tables whose lease ended, to take them;
    /// default 1 s.
    pub scan_every: Duration,
}

impl Default for NodeSettings {
    fn default() -> NodeSettings {
        NodeSettings {
            node_id: 0,
            public_url: None,
            lease: Duration::from_secs(5),
            renew_every: Duration::from_millis(1500),
            scan_every: Duration::from_secs(1),
        }
    }
}

/// Who owns a table, as [`Leases::acquire`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// This node, at this epoch.
    Mine { epoch: i64 },
    /// Another node, whose lease runs: its number and address (if it told
    /// one).
    Elsewhere {
        node_id: u16,
        public_url: Option<String>,
    },
}

/// The epoch of every table this node holds, shared with the storage's
/// writer, which checks each write against it.
pub(super) type Held = Arc<Mutex<HashMap<String, i64>>>;

/// What the writer needs to fence its writes: this node's number and the
/// epochs it holds.
#[derive(Clone)]
pub(super) struct Fence {
    pub(super) node_id: i32,
    pub(super) held: Held,
    /// How long a new table's lease runs.
    pub(super) lease_ms: i64,
    /// The node's counts, for the leases its new tables take.
    counts: Arc<LeaseCounters>,
}

impl Fence {
    /// Locks the lease rows of `ids` for the transaction (`FOR SHARE`, in
    /// id order, as a renewal locks them, so that the two never deadlock):
    /// a takeover's update of one waits until the transaction ends. Each
    /// row's node and epoch.
    pub(super) async fn lock(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        ids: &[String],
    ) -> Result<HashMap<String, (i32, i64)>, StorageError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = sqlx::query(
            "SELECT table_id, node_id, epoch FROM table_owners
             WHERE table_id = ANY($1) ORDER BY table_id FOR SHARE",
        )
        .bind(ids)
        .fetch_all(&mut **tx)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get::<String, _>(0),
                    (r.get::<i32, _>(1), r.get::<i64, _>(2)),
                )
            })
            .collect())
    }

    /// Whether this node may write table `id`, given its locked lease row:
    /// the row names this node and the epoch it holds (that epoch). A
    /// refused table is no longer held (its task sees it and leaves).
    pub(super) fn check(&self, id: &str, row: Option<&(i32, i64)>) -> Result<i64, StorageError> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let mine = held.get(id).copied();
        let refused = |reason: String| StorageError::NotOwner {
            id: id.to_string(),
            reason,
        };
        let outcome = match (mine, row) {
            (Some(epoch), Some(&(node, stored))) if node == self.node_id && stored == epoch => {
                return Ok(epoch);
            }
            (None, _) => Err(refused("this node does not hold its lease".into())),
            (Some(_), None) => Err(refused("no node holds its lease".into())),
            (Some(epoch), Some(&(node, stored))) if node == self.node_id => Err(refused(format!(
                "this node took it again since (epoch {stored}, not {epoch})"
            ))),
            (Some(_), Some(&(node, stored))) => Err(refused(format!(
                "node {node} holds it now (epoch {stored})"
            ))),
        };
        held.remove(id);
        outcome
    }

    /// A table this node creates: held at epoch 1.
    pub(super) fn created(&self, id: &str) {
        self.held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string(), 1);
        self.counts.acquired.fetch_add(1, Ordering::Relaxed);
    }
}

/// This node's leases: taking, renewing and letting go of tables.
pub struct Leases {
    pool: PgPool,
    settings: NodeSettings,
    held: Held,
    /// The address this node tells (`--public-url`, else the one it
    /// listens on, once it does).
    public_url: Mutex<Option<String>>,
    /// When the last renewal that succeeded was sent: until a lease's time
    /// after it, every lease held is surely still this node's.
    renewed: Mutex<Instant>,
    /// One acquisition at a time, so that two of one table (two sockets
    /// at once) do not raise its epoch past the one kept.
    acquiring: tokio::sync::Mutex<()>,
    /// What this node did with its leases since it started (`/metrics`).
    counts: Arc<LeaseCounters>,
}

/// Counts of what a node did with its leases since it started.
#[derive(Default)]
pub(super) struct LeaseCounters {
    renewals: AtomicU64,
    renewed: AtomicU64,
    acquired: AtomicU64,
    released: AtomicU64,
    lost: AtomicU64,
}

/// What a node did with its leases since it started, as `/metrics` tells it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeaseCounts {
    /// Renewals that succeeded (one statement for every lease held).
    pub renewals: u64,
    /// Leases those renewals extended, in all.
    pub renewed: u64,
    /// Leases taken: tables created here, and tables taken from storage
    /// (nobody's, ended, or this node's own from before).
    pub acquired: u64,
    /// Leases let go at once (a table's task ended, or the node stopped).
    pub released: u64,
    /// Leases found taken by another node, or given up because no renewal
    /// succeeded for a lease's time.
    pub lost: u64,
}

/// A duration in whole milliseconds, as the SQL takes it.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Leases {
    pub(super) fn new(pool: PgPool, settings: NodeSettings) -> Leases {
        Leases {
            pool,
            public_url: Mutex::new(settings.public_url.clone()),
            settings,
            held: Held::default(),
            renewed: Mutex::new(Instant::now()),
            acquiring: tokio::sync::Mutex::new(()),
            counts: Arc::default(),
        }
    }

    /// What this node did with its leases since it started.
    pub fn counts(&self) -> LeaseCounts {
        let c = &self.counts;
        LeaseCounts {
            renewals: c.renewals.load(Ordering::Relaxed),
            renewed: c.renewed.load(Ordering::Relaxed),
            acquired: c.acquired.load(Ordering::Relaxed),
            released: c.released.load(Ordering::Relaxed),
            lost: c.lost.load(Ordering::Relaxed),
        }
    }

    pub(super) fn fence(&self) -> Fence {
        Fence {
            node_id: i32::from(self.settings.node_id),
            held: self.held.clone(),
            lease_ms: millis(self.settings.lease),
            counts: self.counts.clone(),
        }
    }

    pub fn settings(&self) -> &NodeSettings {
        &self.settings
    }

    fn node(&self) -> i32 {
        i32::from(self.settings.node_id)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether this node holds table `id` (may write it).
    pub fn holds(&self, id: &str) -> bool {
        self.held().contains_key(id)
    }

    /// How many tables this node holds.
    pub fn held_count(&self) -> usize {
        self.held().len()
    }

    /// The tables this node holds.
    pub fn held_ids(&self) -> Vec<String> {
        self.held().keys().cloned().collect()
    }

    /// The address this node tells, unless it was given one: where it
    /// listens (a node on loopback or one network).
    pub fn advertise(&self, url: String) {
        let mut told = self.public_url.lock().unwrap_or_else(|e| e.into_inner());
        if told.is_none() {
            *told = Some(url);
        }
    }

    /// The address this node tells clients of other nodes.
    pub fn public_url(&self) -> Option<String> {
        self.public_url
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Says this node is alive and where it is reached (its node row).
    ///
    /// # Errors
    /// The database cannot be reached.
    pub async fn heartbeat(&self) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO nodes (node_id, public_url, heartbeat_at) VALUES ($1, $2, now())
             ON CONFLICT (node_id) DO UPDATE SET public_url = EXCLUDED.public_url, heartbeat_at = now()",
        )
        .bind(self.node())
        .bind(self.public_url())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    /// Takes table `id` for this node if no other node's lease of it runs
    /// (there is none, it ended, or it is this node's own from before): its
    /// epoch is raised, and the table is then read from storage. A table
    /// this node holds already stays at its epoch.
    ///
    /// # Errors
    /// [`StorageError::NoSuchTable`], or the database failed.
    pub async fn acquire(&self, id: &str) -> Result<Owner, StorageError> {
        let _one = self.acquiring.lock().await;
        if let Some(&epoch) = self.held().get(id) {
            return Ok(Owner::Mine { epoch });
        }
        let taken = sqlx::query(
            "INSERT INTO table_owners AS o (table_id, node_id, epoch, expires_at)
             VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
             ON CONFLICT (table_id) DO UPDATE
                 SET node_id = EXCLUDED.node_id, epoch = o.epoch + 1, expires_at = EXCLUDED.expires_at
                 WHERE o.expires_at <= now() OR o.node_id = EXCLUDED.node_id
             RETURNING epoch",
        )
        .bind(id)
        .bind(self.node())
        .bind(millis(self.settings.lease))
        .fetch_optional(&self.pool)
        .await;
        let taken = match taken {
            Err(sqlx::Error::Database(e))
                if matches!(e.kind(), sqlx::error::ErrorKind::ForeignKeyViolation) =>
            {
                return Err(StorageError::NoSuchTable(id.to_string()));
            }
            other => other.map_err(db)?,
        };
        if let Some(row) = taken {
            let epoch: i64 = row.get(0);
            self.held().insert(id.to_string(), epoch);
            self.counts.acquired.fetch_add(1, Ordering::Relaxed);
            tracing::info!(table = %id, epoch, node = self.settings.node_id, "took the table's lease");
            return Ok(Owner::Mine { epoch });
        }
        let row = sqlx::query(
            "SELECT o.node_id, n.public_url FROM table_owners o
             LEFT JOIN nodes n ON n.node_id = o.node_id WHERE o.table_id = $1",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        Ok(Owner::Elsewhere {
            node_id: u16::try_from(row.get::<i32, _>(0)).unwrap_or(u16::MAX),
            public_url: row.get(1),
        })
    }

    /// The node whose lease of table `id` runs, and its address; `None`
    /// when no lease of it runs.
    ///
    /// # Errors
    /// The database failed.
    pub async fn owner_of(&self, id: &str) -> Result<Option<Owner>, StorageError> {
        let row = sqlx::query(
            "SELECT o.node_id, o.epoch, n.public_url FROM table_owners o
             LEFT JOIN nodes n ON n.node_id = o.node_id
             WHERE o.table_id = $1 AND o.expires_at > now()",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|row| {
            let node: i32 = row.get(0);
            if node == self.node() {
                Owner::Mine { epoch: row.get(1) }
            } else {
                Owner::Elsewhere {
                    node_id: u16::try_from(node).unwrap_or(u16::MAX),
                    public_url: row.get(2),
                }
            }
        }))
    }

    /// Renews every lease this node holds, and its node row: the tables
    /// found taken by another node meanwhile (no longer held).
    ///
    /// # Errors
    /// The database failed: nothing is known of the leases (see
    /// [`Leases::sure`]).
    pub async fn renew(&self) -> Result<Vec<String>, StorageError> {
        let sent = Instant::now();
        let (ids, epochs): (Vec<String>, Vec<i64>) =
            self.held().iter().map(|(id, e)| (id.clone(), *e)).unzip();
        let renewed: HashSet<String> = if ids.is_empty() {
            HashSet::new()
        } else {
            let rows = sqlx::query(
                "WITH mine AS (
                     SELECT o.table_id FROM table_owners o
                     JOIN UNNEST($1::text[], $2::bigint[]) AS h(table_id, epoch)
                       ON o.table_id = h.table_id AND o.epoch = h.epoch
                     WHERE o.node_id = $3 ORDER BY o.table_id FOR NO KEY UPDATE OF o)
                 UPDATE table_owners o SET expires_at = now() + $4 * interval '1 millisecond'
                 FROM mine WHERE o.table_id = mine.table_id RETURNING o.table_id",
            )
            .bind(&ids)
            .bind(&epochs)
            .bind(self.node())
            .bind(millis(self.settings.lease))
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
            rows.iter().map(|r| r.get::<String, _>(0)).collect()
        };
        self.heartbeat().await?;
        *self.renewed.lock().unwrap_or_else(|e| e.into_inner()) = sent;
        self.counts.renewals.fetch_add(1, Ordering::Relaxed);
        self.counts
            .renewed
            .fetch_add(renewed.len() as u64, Ordering::Relaxed);
        let mut held = self.held();
        let mut lost = Vec::new();
        for (id, epoch) in ids.into_iter().zip(epochs) {
            // Taken again meanwhile at another epoch: not this renewal's.
            if !renewed.contains(&id) && held.get(&id) == Some(&epoch) {
                held.remove(&id);
                lost.push(id);
            }
        }
        self.counts
            .lost
            .fetch_add(lost.len() as u64, Ordering::Relaxed);
        Ok(lost)
    }

    /// Whether every lease held is surely still this node's: a renewal
    /// succeeded less than a lease's time ago (counted from when it was
    /// sent, so that this node gives up before the database lets another
    /// take over).
    pub fn sure(&self) -> bool {
        self.renewed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
            < self.settings.lease
    }

    /// Forgets every table held (the database could not be reached for a
    /// lease's time): their tasks leave.
    pub fn forget_all(&self) -> Vec<String> {
        let lost: Vec<String> = self.held().drain().map(|(id, _)| id).collect();
        self.counts
            .lost
            .fetch_add(lost.len() as u64, Ordering::Relaxed);
        lost
    }

    /// Unfinished tables whose lease ended or was never taken, oldest first
    /// (at most `limit`): a takeover's candidates. `own`: also those whose
    /// lease names this node (at start: a process of this node that died).
    ///
    /// # Errors
    /// The database failed.
    pub async fn orphans(&self, own: bool, limit: i64) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT t.id FROM tables t LEFT JOIN table_owners o ON o.table_id = t.id
             WHERE t.status IN ('waiting', 'playing')
               AND (o.table_id IS NULL OR o.expires_at <= now() OR ($1 AND o.node_id = $2))
             ORDER BY t.created, t.id LIMIT $3",
        )
        .bind(own)
        .bind(self.node())
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        let held = self.held();
        Ok(rows
            .iter()
            .map(|r| r.get::<String, _>(0))
            .filter(|id| !held.contains_key(id))
            .collect())
    }

    /// Lets table `id` go (its task ended): its lease ends now, for any
    /// node to take when it is needed.
    ///
    /// # Errors
    /// The database failed (the lease then ends by itself).
    pub async fn release(&self, id: &str) -> Result<(), StorageError> {
        let Some(epoch) = self.held().remove(id) else {
            return Ok(());
        };
        sqlx::query(
            "UPDATE table_owners SET expires_at = now()
             WHERE table_id = $1 AND node_id = $2 AND epoch = $3",
        )
        .bind(id)
        .bind(self.node())
        .bind(epoch)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        self.counts.released.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Lets every table go at once (the node is stopping, its tables have
    /// stopped writing): another node takes them at its next look, without
    /// waiting for the leases to end.
    ///
    /// # Errors
    /// The database failed (the leases then end by themselves).
    pub async fn release_all(&self) -> Result<usize, StorageError> {
        let (ids, epochs): (Vec<String>, Vec<i64>) = self.held().drain().unzip();
        let done = sqlx::query(
            "UPDATE table_owners o SET expires_at = now()
             FROM UNNEST($1::text[], $2::bigint[]) AS h(table_id, epoch)
             WHERE o.table_id = h.table_id AND o.epoch = h.epoch AND o.node_id = $3",
        )
        .bind(&ids)
        .bind(&epochs)
        .bind(self.node())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        self.counts
            .released
            .fetch_add(done.rows_affected(), Ordering::Relaxed);
        Ok(usize::try_from(done.rows_affected()).unwrap_or(usize::MAX))
    }
}
