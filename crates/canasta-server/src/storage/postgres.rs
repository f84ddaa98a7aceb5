//! PostgreSQL storage (`canasta serve --database postgres://...`): the
//! same tables and record lines as SQLite, written the same way. One
//! writer task commits every write waiting at that moment in one
//! transaction (group commit), and answers each write only once that
//! transaction has committed, which with PostgreSQL's default
//! `synchronous_commit = on` means it is in the server's flushed log.
//!
//! The database itself refuses a record line stored twice or after a gap
//! (`migrations/postgres/`: the primary key `(table_id, seq)` and the
//! foreign key from each line to the one before it), so that a second
//! writer's insert fails whatever that writer believed; the writer's own
//! check of the next line only spares the database the writes it would
//! refuse.
//!
//! Connections are plain TCP or a Unix socket: this build has no TLS to
//! the database, which is therefore on the same machine or a trusted
//! network.

use super::batch::{Job, MAX_BATCH, QUEUE, Write, submit};
use super::leases::{Fence, Leases, NodeSettings};
use super::rows::{db, decode_reason, meta_json, migration_error, parse_meta, status_text};
use super::{
    Change, ListedTable, Quarantined, Storage, StorageError, StorageFuture, StoredTable, TableMeta,
    out_of_order,
};
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions, PgRow};
use sqlx::{Connection, Postgres, Row, Transaction};
use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The schema's versions, oldest first (`migrations/postgres/`).
static MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// Connections at most: the writer's one, and reads (a resume at start,
/// the lobby's loads, exports).
const CONNECTIONS: u32 = 8;

/// How long a write or read waits for a connection before it fails (and
/// a table's write is tried again later).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// The advisory lock a serving node holds on its database, with its node
/// number as the second key ("cnst" in ASCII), so that a second server of
/// the same number is refused.
const NODE_LOCK: i32 = 0x636e_7374;

/// Tables in a PostgreSQL database.
pub struct PostgresStorage {
    options: PgConnectOptions,
    pool: PgPool,
    writes: mpsc::Sender<Job>,
    /// The connection holding [`NODE_LOCK`], once claimed.
    server_lock: tokio::sync::Mutex<Option<PgConnection>>,
    /// This node's leases, when it serves as a node (every write fenced).
    leases: Option<Arc<Leases>>,
}

impl PostgresStorage {
    /// Connects to the database at `url` and brings its schema up to date
    /// (the migrations take an advisory lock, so that servers started at
    /// once apply each migration once).
    ///
    /// # Errors
    /// The URL is not valid, the database cannot be reached, or its schema
    /// cannot be upgraded.
    pub async fn connect(url: &str) -> Result<PostgresStorage, StorageError> {
        PostgresStorage::open(url, None).await
    }

    /// Connects as the node `settings` names: every write of a table is
    /// then fenced by its lease ([`Leases`]), and a new table's lease is
    /// taken in the transaction that creates it.
    ///
    /// # Errors
    /// As [`PostgresStorage::connect`].
    pub async fn connect_node(
        url: &str,
        settings: NodeSettings,
    ) -> Result<PostgresStorage, StorageError> {
        PostgresStorage::open(url, Some(settings)).await
    }

    /// This node's leases (`None` unless connected as a node).
    pub fn leases(&self) -> Option<Arc<Leases>> {
        self.leases.clone()
    }

    async fn open(url: &str, node: Option<NodeSettings>) -> Result<PostgresStorage, StorageError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(db)?
            .application_name("canasta");
        let pool = PgPoolOptions::new()
            .max_connections(CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.clone())
            .await
            .map_err(db)?;
        MIGRATIONS
            .run(&pool)
            .await
            .map_err(|e| migration_error(&e))?;
        let leases = node.map(|settings| Arc::new(Leases::new(pool.clone(), settings)));
        let (tx, rx) = mpsc::channel(QUEUE);
        let writer = Writer {
            pool: pool.clone(),
            next_line: HashMap::new(),
            fence: leases.as_ref().map(|l| l.fence()),
            learnt_at: HashMap::new(),
        };
        tokio::spawn(writer.run(rx));
        Ok(PostgresStorage {
            options,
            pool,
            writes: tx,
            server_lock: tokio::sync::Mutex::new(None),
            leases,
        })
    }

    /// Claims node number `node` of the database for one serving server,
    /// as the data directory's lock file does for SQLite: false if another
    /// server holds it. The claim lasts as long as this storage (a
    /// session's advisory lock on a connection of its own, which PostgreSQL
    /// releases when the process dies), so that a node's leases left by a
    /// process that died are surely its own to take back at start.
    /// Exporting and reading need no claim.
    ///
    /// # Errors
    /// The database cannot be reached.
    pub async fn claim_node(&self, node: u16) -> Result<bool, StorageError> {
        let mut held = self.server_lock.lock().await;
        if held.is_some() {
            return Ok(true);
        }
        let mut conn = PgConnection::connect_with(&self.options)
            .await
            .map_err(db)?;
        let claimed: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1, $2)")
            .bind(NODE_LOCK)
            .bind(i32::from(node))
            .fetch_one(&mut conn)
            .await
            .map_err(db)?;
        if claimed {
            *held = Some(conn);
        }
        Ok(claimed)
    }

    async fn lines_of(&self, id: &str) -> Result<Vec<String>, StorageError> {
        let rows =
            sqlx::query("SELECT seq, line FROM record_lines WHERE table_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool)
                .await
                .map_err(db)?;
        rows.iter()
            .map(|row| {
                row.try_get::<String, _>(1)
                    .map_err(|e| StorageError::Corrupt {
                        id: id.to_string(),
                        reason: format!(
                            "record line {}: {}",
                            row.get::<i32, _>(0) + 1,
                            decode_reason(&e)
                        ),
                    })
            })
            .collect()
    }

    /// A table's row (its id and settings) read as `load` reads it.
    async fn read_table(&self, id: &str, row: &PgRow) -> Result<StoredTable, StorageError> {
        let meta = row
            .try_get::<String, _>(1)
            .map_err(|e| StorageError::Corrupt {
                id: id.to_string(),
                reason: format!("settings: {}", decode_reason(&e)),
            })?;
        let meta = parse_meta(id, meta.as_bytes())?;
        let lines = self.lines_of(id).await?;
        Ok(StoredTable { meta, lines })
    }
}

/// A table's id as stored; one that does not decode cannot be read further.
fn stored_id(row: &PgRow) -> Result<String, Quarantined> {
    row.try_get::<String, _>(0).map_err(|e| Quarantined {
        id: "?".into(),
        reason: format!("its id does not decode: {}", decode_reason(&e)),
    })
}

/// A count or index as PostgreSQL's `integer` (a record line's number).
fn seq(n: usize) -> Result<i32, StorageError> {
    i32::try_from(n).map_err(|_| {
        StorageError::Conflict(format!(
            "record line {n} is beyond the largest a table holds"
        ))
    })
}

/// The writer task's memory: the next line of every table it has written
/// or looked up, so that an append is checked without a query. Forgotten
/// whenever a transaction fails (what it held may not be stored).
struct Writer {
    pool: PgPool,
    next_line: HashMap<String, usize>,
    /// A node's writes are fenced by its leases.
    fence: Option<Fence>,
    /// The epoch at which each table's next line was learnt: a table taken
    /// again (a later epoch) may have been written by another node since.
    learnt_at: HashMap<String, i64>,
}

/// One batch's statements, each one the writes of many tables: a table
/// appears at most once in a segment, so that the order of the statements
/// within it does not matter (a second write to a table in the same batch
/// starts a new segment, after this one's statements).
#[derive(Default)]
struct Segment {
    tables: HashSet<String>,
    /// Lines dropped: from `drop_keep` on, of each table.
    drop_ids: Vec<String>,
    drop_keep: Vec<i32>,
    /// Tables created.
    new_ids: Vec<String>,
    new_created: Vec<i64>,
    new_status: Vec<String>,
    new_meta: Vec<String>,
    /// Leases taken with their tables (a node's own new tables).
    lease_ids: Vec<String>,
    /// Record lines inserted.
    line_ids: Vec<String>,
    line_seqs: Vec<i32>,
    lines: Vec<String>,
    /// Settings replaced.
    meta_ids: Vec<String>,
    meta_status: Vec<String>,
    metas: Vec<String>,
}

impl Segment {
    fn touches(&self, id: &str) -> bool {
        self.tables.contains(id)
    }

    fn push_lines(&mut self, id: &str, first: usize, lines: &[String]) -> Result<(), StorageError> {
        for (i, line) in lines.iter().enumerate() {
            self.line_ids.push(id.to_string());
            self.line_seqs.push(seq(first + i)?);
            self.lines.push(line.clone());
        }
        Ok(())
    }

    fn push_meta(&mut self, meta: &TableMeta) {
        self.meta_ids.push(meta.id.clone());
        self.meta_status.push(status_text(meta.status).to_string());
        self.metas.push(meta_json(meta));
    }

    /// Runs the segment's statements (at most one of each kind, whatever
    /// the number of tables) and empties it.
    async fn flush(
        &mut self,
        tx: &mut Transaction<'_, Postgres>,
        fence: Option<&Fence>,
    ) -> Result<(), StorageError> {
        if !self.drop_ids.is_empty() {
            sqlx::query(
                "DELETE FROM record_lines r USING UNNEST($1::text[], $2::integer[]) AS d(table_id, keep)
                 WHERE r.table_id = d.table_id AND r.seq >= d.keep",
            )
            .bind(&self.drop_ids)
            .bind(&self.drop_keep)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        }
        if !self.new_ids.is_empty() {
            sqlx::query(
                "INSERT INTO tables (id, created, status, meta)
                 SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[])",
            )
            .bind(&self.new_ids)
            .bind(&self.new_created)
            .bind(&self.new_status)
            .bind(&self.new_meta)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        }
        if let Some(fence) = fence.filter(|_| !self.lease_ids.is_empty()) {
            sqlx::query(
                "INSERT INTO table_owners (table_id, node_id, epoch, expires_at)
                 SELECT id, $2, 1, now() + $3 * interval '1 millisecond' FROM UNNEST($1::text[]) AS n(id)",
            )
            .bind(&self.lease_ids)
            .bind(fence.node_id)
            .bind(fence.lease_ms)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        }
        if !self.line_ids.is_empty() {
            sqlx::query(
                "INSERT INTO record_lines (table_id, seq, line)
                 SELECT * FROM UNNEST($1::text[], $2::integer[], $3::text[])",
            )
            .bind(&self.line_ids)
            .bind(&self.line_seqs)
            .bind(&self.lines)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        }
        if !self.meta_ids.is_empty() {
            sqlx::query(
                "UPDATE tables t SET status = m.status, meta = m.meta
                 FROM UNNEST($1::text[], $2::text[], $3::text[]) AS m(id, status, meta)
                 WHERE t.id = m.id",
            )
            .bind(&self.meta_ids)
            .bind(&self.meta_status)
            .bind(&self.metas)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        }
        *self = Segment::default();
        Ok(())
    }
}

impl Writer {
    /// Commits the waiting writes in batches until every sender is gone.
    async fn run(mut self, mut rx: mpsc::Receiver<Job>) {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let started = Instant::now();
            let outcomes = self.commit_batch(&batch).await;
            tracing::debug!(
                jobs = batch.len(),
                micros = started.elapsed().as_micros() as u64,
                "committed"
            );
            for (job, outcome) in batch.drain(..).zip(outcomes) {
                let _ = job.done.send(outcome);
            }
        }
    }

    /// One transaction for the batch. A write that cannot be applied (a
    /// line out of order, an unknown table) fails alone. If the database
    /// refuses the transaction, each write is tried again in a transaction
    /// of its own, so that only the refused one fails; if the database is
    /// failing, every write of the batch gets its error (each table tries
    /// again later).
    async fn commit_batch(&mut self, batch: &[Job]) -> Vec<Result<(), StorageError>> {
        let writes: Vec<&Write> = batch.iter().map(|j| &j.write).collect();
        match self.commit(&writes).await {
            Ok(results) => results,
            Err(StorageError::Conflict(_)) if batch.len() > 1 => {
                let mut results = Vec::with_capacity(batch.len());
                for write in writes {
                    results.push(match self.commit(&[write]).await {
                        Ok(mut one) => one.remove(0),
                        Err(e) => Err(e),
                    });
                }
                results
            }
            Err(e) => vec![Err(e); batch.len()],
        }
    }

    /// The writes in one transaction: each one's result when it commits,
    /// or why the transaction failed (and nothing of it was stored).
    async fn commit(
        &mut self,
        writes: &[&Write],
    ) -> Result<Vec<Result<(), StorageError>>, StorageError> {
        let outcome = self.try_commit(writes).await;
        if let Err(e) = &outcome {
            // What the writer remembered may not have been stored.
            self.next_line.clear();
            tracing::warn!(error = %e, writes = writes.len(), "a transaction failed");
        }
        outcome
    }

    async fn try_commit(
        &mut self,
        writes: &[&Write],
    ) -> Result<Vec<Result<(), StorageError>>, StorageError> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        let fence = self.fence.clone();
        // A node's tables' leases, locked for the transaction, before
        // anything is written.
        let leases = match &fence {
            Some(fence) => {
                let mut ids: Vec<String> = writes
                    .iter()
                    .filter_map(|w| match w {
                        Write::Change(Change::Create(_)) | Write::Close => None,
                        Write::Change(change) => Some(change.table().to_string()),
                    })
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                fence.lock(&mut tx, &ids).await?
            }
            None => HashMap::new(),
        };
        let mut segment = Segment::default();
        let mut results = Vec::with_capacity(writes.len());
        for write in writes {
            if write.table().is_some_and(|id| segment.touches(id)) {
                segment.flush(&mut tx, fence.as_ref()).await?;
            }
            let fenced = match (&fence, write) {
                (Some(fence), Write::Change(change)) if !matches!(change, Change::Create(_)) => {
                    let id = change.table();
                    fence.check(id, leases.get(id)).map(|epoch| {
                        if self.learnt_at.get(id) != Some(&epoch) {
                            self.next_line.remove(id);
                            self.learnt_at.insert(id.to_string(), epoch);
                        }
                    })
                }
                _ => Ok(()),
            };
            let result = match fenced {
                Ok(()) => self.plan(&mut tx, write, &mut segment).await,
                Err(e) => Err(e),
            };
            results.push(result);
        }
        segment.flush(&mut tx, fence.as_ref()).await?;
        tx.commit().await.map_err(db)?;
        Ok(results)
    }

    async fn next_line(
        &mut self,
        tx: &mut Transaction<'_, Postgres>,
        id: &str,
    ) -> Result<usize, StorageError> {
        if let Some(&n) = self.next_line.get(id) {
            return Ok(n);
        }
        let row = sqlx::query(
            "SELECT COALESCE((SELECT MAX(seq) + 1 FROM record_lines WHERE table_id = $1), 0)
             FROM tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db)?
        .ok_or_else(|| StorageError::NoSuchTable(id.to_string()))?;
        let n = usize::try_from(row.get::<i32, _>(0)).unwrap_or(0);
        self.next_line.insert(id.to_string(), n);
        Ok(n)
    }

    /// Adds a write to the segment, after checking what can be checked
    /// before the database sees it.
    async fn plan(
        &mut self,
        tx: &mut Transaction<'_, Postgres>,
        write: &Write,
        segment: &mut Segment,
    ) -> Result<(), StorageError> {
        let Write::Change(change) = write else {
            // Never sent: this storage's `close` has nothing to do.
            return Ok(());
        };
        match change {
            Change::Create(table) => {
                let meta = &table.meta;
                if self.next_line.contains_key(&meta.id) {
                    return Err(StorageError::Conflict(format!(
                        "a table with id {} exists",
                        meta.id
                    )));
                }
                let created = i64::try_from(meta.created).map_err(|_| {
                    StorageError::Conflict(format!("table {}: created out of range", meta.id))
                })?;
                segment.push_lines(&meta.id, 0, &table.lines)?;
                segment.new_ids.push(meta.id.clone());
                segment.new_created.push(created);
                segment
                    .new_status
                    .push(status_text(meta.status).to_string());
                segment.new_meta.push(meta_json(meta));
                if let Some(fence) = &self.fence {
                    segment.lease_ids.push(meta.id.clone());
                    fence.created(&meta.id);
                    self.learnt_at.insert(meta.id.clone(), 1);
                }
                segment.tables.insert(meta.id.clone());
                self.next_line.insert(meta.id.clone(), table.lines.len());
            }
            Change::Meta(meta) => {
                self.next_line(tx, &meta.id).await?;
                segment.push_meta(meta);
                segment.tables.insert(meta.id.clone());
            }
            Change::Append {
                id,
                first,
                lines,
                meta,
            } => {
                let expected = self.next_line(tx, id).await?;
                if expected != *first {
                    return Err(out_of_order(id, *first, expected));
                }
                segment.push_lines(id, *first, lines)?;
                if let Some(meta) = meta {
                    segment.push_meta(meta);
                }
                segment.tables.insert(id.clone());
                self.next_line.insert(id.clone(), first + lines.len());
            }
            Change::Drop { id, keep, len } => {
                let stored = self.next_line(tx, id).await?;
                if stored != *len || keep >= len {
                    return Err(out_of_order(id, *len, stored));
                }
                segment.drop_ids.push(id.clone());
                segment.drop_keep.push(seq(*keep)?);
                segment.tables.insert(id.clone());
                self.next_line.insert(id.clone(), *keep);
            }
        }
        Ok(())
    }
}

impl Storage for PostgresStorage {
    fn write(&self, change: Change) -> StorageFuture<'_, ()> {
        Box::pin(submit(&self.writes, Write::Change(change)))
    }

    fn load_unfinished(&self) -> StorageFuture<'_, Vec<Result<StoredTable, Quarantined>>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, meta FROM tables WHERE status IN ('waiting', 'playing') ORDER BY created, id",
            )
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
            let mut tables = Vec::with_capacity(rows.len());
            for row in rows {
                let id = match stored_id(&row) {
                    Ok(id) => id,
                    Err(bad) => {
                        tables.push(Err(bad));
                        continue;
                    }
                };
                tables.push(match self.read_table(&id, &row).await {
                    Ok(table) => Ok(table),
                    Err(StorageError::Corrupt { id, reason }) => Err(Quarantined { id, reason }),
                    Err(e) => return Err(e),
                });
            }
            Ok(tables)
        })
    }

    fn load(&self, id: &str) -> StorageFuture<'_, Option<StoredTable>> {
        let id = id.to_string();
        Box::pin(async move {
            let Some(row) = sqlx::query("SELECT id, meta FROM tables WHERE id = $1")
                .bind(&id)
                .fetch_optional(&self.pool)
                .await
                .map_err(db)?
            else {
                return Ok(None);
            };
            self.read_table(&id, &row).await.map(Some)
        })
    }

    fn open_public_tables(&self, limit: usize) -> StorageFuture<'_, Option<Vec<ListedTable>>> {
        Box::pin(async move {
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            // Each table's lines are read by its key, the header and the
            // lines that start a hand or score one picked by their start.
            let rows = sqlx::query(
                r#"SELECT t.id, t.meta, h.line,
                     (SELECT count(*) FROM record_lines d WHERE d.table_id = t.id AND d.line LIKE '{"deal"%'),
                     (SELECT count(*) FROM record_lines e WHERE e.table_id = t.id AND e.line LIKE '{"hand_end"%'),
                     (SELECT e.line FROM record_lines e WHERE e.table_id = t.id AND e.line LIKE '{"hand_end"%'
                        ORDER BY e.seq DESC LIMIT 1)
                   FROM tables t JOIN record_lines h ON h.table_id = t.id AND h.seq = 0
                   WHERE t.status IN ('waiting', 'playing') AND (t.meta::jsonb -> 'invite_hash') IS NULL
                   ORDER BY t.created DESC, t.id DESC LIMIT $1"#,
            )
            .bind(limit)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
            let mut listed = Vec::with_capacity(rows.len());
            for row in rows {
                // A table that does not decode is left out of the lobby.
                let Ok(id) = stored_id(&row) else { continue };
                let Ok(meta) = row.try_get::<String, _>(1) else {
                    continue;
                };
                let Ok(meta) = parse_meta(&id, meta.as_bytes()) else {
                    continue;
                };
                let count = |i| usize::try_from(row.get::<i64, _>(i)).unwrap_or(0);
                listed.push(ListedTable {
                    meta,
                    header: row.get(2),
                    deals: count(3),
                    hands_ended: count(4),
                    last_hand_end: row.get(5),
                });
            }
            Ok(Some(listed))
        })
    }

    fn ids(&self) -> StorageFuture<'_, Vec<Result<String, Quarantined>>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT id FROM tables ORDER BY created, id")
                .fetch_all(&self.pool)
                .await
                .map_err(db)?;
            Ok(rows.iter().map(stored_id).collect())
        })
    }
}

#[cfg(test)]
#[path = "../../tests/support/pg.rs"]
mod pg_cluster;

#[cfg(test)]
mod tests {
    use super::pg_cluster::PgCluster;
    use super::*;
    use crate::storage::contract;

    /// Every check on one throwaway server (made once: `initdb` takes
    /// seconds), each on a database of its own.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres_storage() {
        let Some(cluster) = PgCluster::start() else {
            return;
        };
        keeps_the_storage_contract(&cluster).await;
        a_second_writers_line_is_refused_by_the_database(&cluster).await;
        one_refused_write_fails_only_its_own_table(&cluster).await;
        bad_rows_are_quarantined_and_the_rest_loads(&cluster).await;
        many_tables_commit_together_and_a_reconnection_reads_them(&cluster).await;
        an_old_owners_writes_are_refused_once_another_node_took_the_table(&cluster).await;
        a_takeover_waits_for_the_old_owners_write_in_flight(&cluster).await;
    }

    fn node(node_id: u16) -> NodeSettings {
        NodeSettings {
            node_id,
            public_url: Some(format!("http://node{node_id}.example")),
            ..NodeSettings::default()
        }
    }

    fn count_lines(cluster: &PgCluster, url: &str, id: &str) -> String {
        let db = url.rsplit('/').next().unwrap();
        cluster.psql_in(
            db,
            &format!("SELECT count(*) FROM record_lines WHERE table_id = '{id}'"),
        )
    }

    /// Node 1 creates a table (and its lease, epoch 1); while its lease
    /// runs, node 2 cannot take it. Once the lease has ended (node 1
    /// paused), node 2 takes it at epoch 2: node 1's next line, though it
    /// is the right next line, is refused as `NotOwner` and not written,
    /// and so is its change of the settings; node 2 writes on. Node 1's
    /// renewal finds a second table taken; node 2's release at stopping
    /// lets node 1 take the first back at epoch 3.
    async fn an_old_owners_writes_are_refused_once_another_node_took_the_table(
        cluster: &PgCluster,
    ) {
        use crate::storage::Owner;
        let url = cluster.new_database("fencing");
        let db = url.rsplit('/').next().unwrap().to_string();
        let one = PostgresStorage::connect_node(&url, node(1)).await.unwrap();
        let two = PostgresStorage::connect_node(&url, node(2)).await.unwrap();
        let (leases1, leases2) = (one.leases().unwrap(), two.leases().unwrap());
        leases1.heartbeat().await.unwrap();
        leases2.heartbeat().await.unwrap();
        let table = contract::table("t1");
        one.create(&table).await.unwrap();
        one.create(&contract::table("t2")).await.unwrap();
        assert!(leases1.holds("t1"));
        one.append("t1", 1, &["one's 1".to_string()], None)
            .await
            .unwrap();
        assert_eq!(
            leases2.acquire("t1").await.unwrap(),
            Owner::Elsewhere {
                node_id: 1,
                public_url: Some("http://node1.example".into())
            }
        );
        assert!(matches!(
            leases2.acquire("nope").await,
            Err(StorageError::NoSuchTable(_))
        ));
        assert!(leases2.orphans(false, 10).await.unwrap().is_empty());

        // Node 1 pauses past its leases; node 2 finds both and takes t1.
        cluster.psql_in(
            &db,
            "UPDATE table_owners SET expires_at = now() - interval '1 second'",
        );
        assert_eq!(leases2.orphans(false, 10).await.unwrap(), ["t1", "t2"]);
        assert_eq!(
            leases2.acquire("t1").await.unwrap(),
            Owner::Mine { epoch: 2 }
        );
        assert_eq!(
            leases2.acquire("t1").await.unwrap(),
            Owner::Mine { epoch: 2 }
        );
        let refused = one
            .append("t1", 2, &["one's stale 2".to_string()], None)
            .await
            .unwrap_err();
        assert!(
            matches!(&refused, StorageError::NotOwner { reason, .. } if reason.contains("node 2 holds it now (epoch 2)")),
            "{refused}"
        );
        assert!(!refused.is_transient());
        assert!(!leases1.holds("t1"), "a refused table is held no more");
        let mut stale = table.meta.clone();
        stale.status = crate::storage::TableStatus::Playing;
        assert!(matches!(
            one.update_meta(&stale).await,
            Err(StorageError::NotOwner { .. })
        ));
        assert_eq!(count_lines(cluster, &url, "t1"), "2");
        two.append("t1", 2, &["two's 2".to_string()], None)
            .await
            .unwrap();
        let stored = two.load("t1").await.unwrap().unwrap();
        assert_eq!(stored.lines[1..], ["one's 1", "two's 2"]);
        assert_eq!(
            stored.meta, table.meta,
            "the stale settings were not written"
        );

        // Node 2 takes t2 too; node 1's renewal finds it gone.
        assert_eq!(
            leases2.acquire("t2").await.unwrap(),
            Owner::Mine { epoch: 2 }
        );
        assert_eq!(leases1.renew().await.unwrap(), ["t2"]);
        assert!(leases1.held_ids().is_empty());
        assert!(leases1.sure());

        // Node 2 stops: its leases end at once, for node 1 to take.
        assert_eq!(leases2.release_all().await.unwrap(), 2);
        assert!(matches!(
            two.append("t1", 3, &["two's late 3".to_string()], None)
                .await,
            Err(StorageError::NotOwner { .. })
        ));
        assert_eq!(
            leases1.acquire("t1").await.unwrap(),
            Owner::Mine { epoch: 3 }
        );
        one.append("t1", 3, &["one's 3".to_string()], None)
            .await
            .unwrap();
        assert_eq!(count_lines(cluster, &url, "t1"), "4");
        assert_eq!(
            cluster.psql_in(&db, "SELECT string_agg(node_id || ':' || coalesce(public_url, ''), ',' ORDER BY node_id) FROM nodes"),
            "1:http://node1.example,2:http://node2.example"
        );
    }

    /// The lease row is locked by a write's transaction: a takeover that
    /// comes while the old owner's transaction is open waits for it, and
    /// then finds (and reads) its line. Played with the row locked by hand,
    /// as the writer locks it.
    async fn a_takeover_waits_for_the_old_owners_write_in_flight(cluster: &PgCluster) {
        use crate::storage::Owner;
        let url = cluster.new_database("in_flight");
        let db = url.rsplit('/').next().unwrap().to_string();
        let one = PostgresStorage::connect_node(&url, node(1)).await.unwrap();
        let two = PostgresStorage::connect_node(&url, node(2)).await.unwrap();
        one.create(&contract::table("t1")).await.unwrap();
        cluster.psql_in(
            &db,
            "UPDATE table_owners SET expires_at = now() - interval '1 second'",
        );
        let pool = PgPool::connect(&url).await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        sqlx::query("SELECT epoch FROM table_owners WHERE table_id = 't1' FOR SHARE")
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query("INSERT INTO record_lines (table_id, seq, line) VALUES ('t1', 1, 'in flight')")
            .execute(&mut *tx)
            .await
            .unwrap();
        let leases2 = two.leases().unwrap();
        let takeover = tokio::spawn(async move { leases2.acquire("t1").await });
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!takeover.is_finished(), "the takeover waits for the write");
        tx.commit().await.unwrap();
        assert_eq!(takeover.await.unwrap().unwrap(), Owner::Mine { epoch: 2 });
        let read = two.load("t1").await.unwrap().unwrap();
        assert_eq!(read.lines.last().unwrap(), "in flight");
    }

    async fn keeps_the_storage_contract(cluster: &PgCluster) {
        let url = cluster.new_database("contract");
        let storage = PostgresStorage::connect(&url).await.unwrap();
        contract::run(&storage).await;
        // Connecting again applies no migration twice.
        drop(storage);
        PostgresStorage::connect(&url).await.unwrap();
        let db = url.rsplit('/').next().unwrap();
        let versions = cluster.psql_in(db, "SELECT string_agg(version::text, ',' ORDER BY version) FROM _sqlx_migrations WHERE success");
        assert_eq!(versions, "1,2");
    }

    /// Two servers on one database, each sure of the next line: the second
    /// one's line is refused by the primary key, whatever it believed;
    /// a line after a gap is refused by the foreign key.
    async fn a_second_writers_line_is_refused_by_the_database(cluster: &PgCluster) {
        let url = cluster.new_database("second_writer");
        let first = PostgresStorage::connect(&url).await.unwrap();
        let second = PostgresStorage::connect(&url).await.unwrap();
        let mut table = contract::table("t1");
        first.create(&table).await.unwrap();
        // Each writer learns that line 1 comes next.
        first.update_meta(&table.meta).await.unwrap();
        second.update_meta(&table.meta).await.unwrap();
        first
            .append("t1", 1, &["first's".to_string()], None)
            .await
            .unwrap();
        let refused = second
            .append("t1", 1, &["second's".to_string()], None)
            .await
            .unwrap_err();
        assert!(matches!(refused, StorageError::Conflict(_)), "{refused}");
        assert!(!refused.is_transient());
        table.lines.push("first's".to_string());
        assert_eq!(second.load("t1").await.unwrap().unwrap(), table);
        // Having failed, the second writer looks again and knows.
        let again = second
            .append("t1", 1, &["second's".to_string()], None)
            .await
            .unwrap_err();
        assert!(
            matches!(again, StorageError::OutOfOrder { expected: 2, .. }),
            "{again}"
        );

        let db = url.rsplit('/').next().unwrap();
        for (sql, why) in [
            (
                "INSERT INTO record_lines (table_id, seq, line) VALUES ('t1', 3, 'x')",
                "record_lines_follow_on",
            ),
            (
                "INSERT INTO record_lines (table_id, seq, line) VALUES ('t1', 1, 'x')",
                "record_lines_pkey",
            ),
            (
                "INSERT INTO record_lines (table_id, seq, line) VALUES ('nope', 0, 'x')",
                "record_lines_table_id_fkey",
            ),
            (
                "DELETE FROM record_lines WHERE table_id = 't1' AND seq = 0",
                "record_lines_follow_on",
            ),
        ] {
            let pool = PgPool::connect(&url).await.unwrap();
            let err = sqlx::query(sql).execute(&pool).await.unwrap_err();
            let kind = crate::storage::rows::backend_error(&err);
            assert!(matches!(kind, StorageError::Conflict(_)), "{sql}: {kind}");
            assert!(err.to_string().contains(why), "{sql}: {err}");
        }
        assert_eq!(
            cluster.psql_in(db, "SELECT count(*) FROM record_lines"),
            "2"
        );
    }

    /// A batch whose transaction the database refuses (a table created
    /// twice, which a writer that did not make it cannot know) fails only
    /// that write; the other tables of the batch are stored.
    async fn one_refused_write_fails_only_its_own_table(cluster: &PgCluster) {
        let url = cluster.new_database("refused");
        {
            let storage = PostgresStorage::connect(&url).await.unwrap();
            storage.create(&contract::table("t1")).await.unwrap();
            storage.create(&contract::table("t2")).await.unwrap();
        }
        let storage = PostgresStorage::connect(&url).await.unwrap();
        let (twice, appended) = tokio::join!(
            storage.create(&contract::table("t1")),
            storage.append("t2", 1, &["a".to_string()], None)
        );
        assert!(matches!(twice, Err(StorageError::Conflict(_))), "{twice:?}");
        appended.unwrap();
        assert_eq!(storage.load("t2").await.unwrap().unwrap().lines.len(), 2);
    }

    /// Rows written by hand, as a hand-edited database holds them: each bad
    /// one is reported with why, and the good one loads. (PostgreSQL keeps
    /// no text that is not UTF-8, so bad bytes cannot be stored here.)
    async fn bad_rows_are_quarantined_and_the_rest_loads(cluster: &PgCluster) {
        let url = cluster.new_database("quarantine");
        let storage = PostgresStorage::connect(&url).await.unwrap();
        for id in ["good", "bad-meta-json", "bad-meta-id"] {
            storage.create(&contract::table(id)).await.unwrap();
        }
        let db = url.rsplit('/').next().unwrap();
        cluster.psql_in(db, "UPDATE tables SET meta = '{\"id\": \"bad-meta-json\", \"seats\": 3}' WHERE id = 'bad-meta-json'");
        cluster.psql_in(db, "UPDATE tables SET meta = replace(meta, '\"bad-meta-id\"', '\"other\"') WHERE id = 'bad-meta-id'");
        let loaded = storage.load_unfinished().await.unwrap();
        let good: Vec<&str> = loaded
            .iter()
            .filter_map(|t| t.as_ref().ok())
            .map(|t| t.meta.id.as_str())
            .collect();
        assert_eq!(good, ["good"]);
        let reasons: HashMap<String, String> = loaded
            .into_iter()
            .filter_map(Result::err)
            .map(|q| (q.id, q.reason))
            .collect();
        assert!(
            reasons["bad-meta-json"].starts_with("settings: invalid type"),
            "{reasons:?}"
        );
        assert!(
            reasons["bad-meta-id"].contains("they name table `other`"),
            "{reasons:?}"
        );
        assert!(matches!(
            storage.load("bad-meta-json").await,
            Err(StorageError::Corrupt { .. })
        ));
    }

    /// Many tables appending at once, round after round: each gets its
    /// lines in order, and another connection (a restarted server) reads
    /// every one.
    async fn many_tables_commit_together_and_a_reconnection_reads_them(cluster: &PgCluster) {
        let url = cluster.new_database("group_commit");
        let storage = PostgresStorage::connect(&url).await.unwrap();
        const TABLES: usize = 40;
        const ROUNDS: usize = 25;
        for t in 0..TABLES {
            storage
                .create(&contract::table(&format!("t{t}")))
                .await
                .unwrap();
        }
        let storage = &storage;
        for round in 0..ROUNDS {
            let appends = (0..TABLES).map(|t| {
                let id = format!("t{t}");
                let lines = [format!("{round}a"), format!("{round}b")];
                async move { storage.append(&id, 1 + 2 * round, &lines, None).await }
            });
            for done in futures_util::future::join_all(appends).await {
                done.unwrap();
            }
        }
        let reopened = PostgresStorage::connect(&url).await.unwrap();
        for t in 0..TABLES {
            let back = reopened.load(&format!("t{t}")).await.unwrap().unwrap();
            assert_eq!(back.lines.len(), 1 + 2 * ROUNDS);
            assert_eq!(back.lines[2 * ROUNDS], format!("{}b", ROUNDS - 1));
        }
    }
}
