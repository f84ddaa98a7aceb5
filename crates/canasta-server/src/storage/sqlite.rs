//! SQLite storage: one file, write-ahead log, `synchronous = FULL`, so an
//! append that returned is on disk. Writes go through one writer task that
//! commits every append waiting at that moment in one transaction (group
//! commit): a thousand busy tables cost one disk flush per batch, not one
//! each, and each append still returns only after its batch is durable.
//!
//! The schema is made and upgraded by the migrations in
//! `migrations/sqlite/`, applied when the file is opened. A file made
//! before there were migrations (its tables made by `CREATE TABLE IF NOT
//! EXISTS` at every start) has exactly migration 1's tables, which that
//! migration keeps, and is upgraded from there.

use super::batch::{Job, MAX_BATCH, QUEUE, Write, submit};
use super::rows::{
    backend_error, db, decode_reason, meta_json, migration_error, parse_meta, status_text,
};
use super::{
    Change, Quarantined, Storage, StorageError, StorageFuture, StorageSettings, StoredTable,
    TableMeta, out_of_order,
};
use sqlx::migrate::Migrator;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Row};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The schema's versions, oldest first (`migrations/sqlite/`).
static MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");

/// Tables in an SQLite file.
pub struct SqliteStorage {
    reads: SqlitePool,
    writes: mpsc::Sender<Job>,
}

/// A table's id as stored; one that is not UTF-8 is shown with its bad
/// bytes replaced, and cannot be read further.
fn stored_id(row: &sqlx::sqlite::SqliteRow) -> Result<String, Quarantined> {
    let bytes: Vec<u8> = row.get(0);
    String::from_utf8(bytes).map_err(|e| Quarantined {
        id: String::from_utf8_lossy(e.as_bytes()).into_owned(),
        reason: format!("its id is not UTF-8 text ({})", e.utf8_error()),
    })
}

impl SqliteStorage {
    /// Opens (creating if needed) the database file at `path`, with the
    /// default [`StorageSettings`].
    ///
    /// # Errors
    /// The file cannot be opened, or its schema created or upgraded.
    pub async fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        SqliteStorage::open_with(path, StorageSettings::default()).await
    }

    /// Opens (creating if needed) the database file at `path`.
    ///
    /// # Errors
    /// The file cannot be opened, or its schema created or upgraded.
    pub async fn open_with(
        path: &Path,
        settings: StorageSettings,
    ) -> Result<SqliteStorage, StorageError> {
        let options = SqliteConnectOptions::from_str("sqlite://")
            .map_err(db)?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10));
        let mut writer = SqliteConnection::connect_with(&options).await.map_err(db)?;
        MIGRATIONS
            .run(&mut writer)
            .await
            .map_err(|e| migration_error(&e))?;
        // The writer does not checkpoint on every commit (SQLite's
        // automatic checkpoint would stall a commit, and every table
        // waiting on it, each thousand pages); a second connection copies
        // the log into the database in the background, without blocking
        // writes, and the writer truncates the log only once it passes
        // half the limit ([`Writer::keep_log_small`]).
        sqlx::query("PRAGMA wal_autocheckpoint = 0")
            .execute(&mut writer)
            .await
            .map_err(db)?;
        // A log reset after a checkpoint is cut back to this size, so
        // that one burst does not keep the file large for ever.
        sqlx::query(&format!(
            "PRAGMA journal_size_limit = {}",
            settings.wal_limit_bytes / 2
        ))
        .execute(&mut writer)
        .await
        .map_err(db)?;
        let checkpoints = Arc::new(tokio::sync::Mutex::new(()));
        let checkpointer = SqliteConnection::connect_with(&options).await.map_err(db)?;
        let reads = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await
            .map_err(db)?;
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(checkpoint_loop(
            checkpointer,
            tx.downgrade(),
            checkpoints.clone(),
            settings.checkpoint_every,
        ));
        let writer_state = Writer {
            next_line: HashMap::new(),
            wal: wal_path(path),
            truncate_at: settings.wal_limit_bytes / 2,
            checkpoints,
        };
        tokio::spawn(writer_loop(writer, writer_state, rx));
        Ok(SqliteStorage { reads, writes: tx })
    }

    async fn lines_of(&self, id: &str) -> Result<Vec<String>, StorageError> {
        let rows =
            sqlx::query("SELECT seq, line FROM record_lines WHERE table_id = ? ORDER BY seq")
                .bind(id)
                .fetch_all(&self.reads)
                .await
                .map_err(db)?;
        rows.iter()
            .map(|row| {
                row.try_get::<String, _>(1)
                    .map_err(|e| StorageError::Corrupt {
                        id: id.to_string(),
                        reason: format!(
                            "record line {}: {}",
                            row.get::<i64, _>(0) + 1,
                            decode_reason(&e)
                        ),
                    })
            })
            .collect()
    }

    /// A table's row read as `load` reads it.
    async fn read_table(&self, id: &str, meta: &[u8]) -> Result<StoredTable, StorageError> {
        let meta = parse_meta(id, meta)?;
        let lines = self.lines_of(id).await?;
        Ok(StoredTable { meta, lines })
    }
}

/// The log beside the database file: SQLite names it `FILE-wal`.
fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// The size of the write-ahead log of the database at `db` (0 when there
/// is none): what [`StorageSettings::wal_limit_bytes`] bounds.
pub fn wal_size(db: &Path) -> u64 {
    std::fs::metadata(wal_path(db)).map_or(0, |m| m.len())
}

/// Copies the log into the database every `every`, without blocking the
/// writer (PASSIVE: it copies what no reader needs and stops there),
/// until the storage is gone. Most of the log is copied by the time the
/// writer truncates it, so that truncation is short.
async fn checkpoint_loop(
    mut conn: SqliteConnection,
    writes: mpsc::WeakSender<Job>,
    checkpoints: Arc<tokio::sync::Mutex<()>>,
    every: Duration,
) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(alive) = writes.upgrade() else {
            return;
        };
        if alive.is_closed() {
            return;
        }
        drop(alive);
        let _one_at_a_time = checkpoints.lock().await;
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&mut conn)
            .await
        {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
}

/// The writer's memory: the next line number of every table it has
/// written or looked up, so that an append is checked without a query;
/// and how it keeps the log small.
struct Writer {
    next_line: HashMap<String, usize>,
    /// The log's file, measured after every batch.
    wal: PathBuf,
    /// The log's size from which the writer truncates it.
    truncate_at: u64,
    /// Held by whoever checkpoints: the background copy and a truncation
    /// never run at once (the second would find the first's lock and
    /// give up).
    checkpoints: Arc<tokio::sync::Mutex<()>>,
}

/// Commits the waiting jobs in batches until every sender is gone.
async fn writer_loop(mut conn: SqliteConnection, mut writer: Writer, mut rx: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let started = std::time::Instant::now();
        let mut outcomes = writer.commit_batch(&mut conn, &batch).await;
        tracing::debug!(
            jobs = batch.len(),
            micros = started.elapsed().as_micros() as u64,
            "committed"
        );
        let asked = batch.iter().any(|j| matches!(j.write, Write::Close));
        if asked || std::fs::metadata(&writer.wal).map_or(0, |m| m.len()) >= writer.truncate_at {
            let truncated = writer.truncate_log(&mut conn).await;
            for (job, outcome) in batch.iter().zip(&mut outcomes) {
                if matches!(job.write, Write::Close) {
                    *outcome = truncated.as_ref().map_err(backend_error).copied();
                }
            }
        }
        for (job, outcome) in batch.drain(..).zip(outcomes) {
            let _ = job.done.send(outcome);
        }
    }
}

/// A text as an SQL string literal (SQLite doubles a quote; nothing else
/// is special, and the texts stored here are JSON, without NUL bytes).
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

impl Writer {
    /// Copies the whole log into the database and empties the log file
    /// (TRUNCATE). It waits for readers of the log to finish (a
    /// reader's query is short) and holds up the next batch meanwhile: the
    /// price of a log that stays under its bound however fast tables write.
    async fn truncate_log(&mut self, conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
        let _one_at_a_time = self.checkpoints.lock().await;
        let started = std::time::Instant::now();
        let row = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(&mut *conn)
            .await
            .inspect_err(|e| tracing::warn!(error = %e, "truncating the write-ahead log failed"))?;
        // `busy`: a reader held the log; it is tried again after the next batch.
        let busy: i64 = row.try_get(0).unwrap_or(1);
        tracing::debug!(
            busy,
            micros = started.elapsed().as_micros() as u64,
            "write-ahead log truncated"
        );
        Ok(())
    }

    /// One transaction for the batch, sent to SQLite as one script: the
    /// batch costs one round trip to the database thread and one flush,
    /// however many tables it serves. A job that cannot be applied (a line
    /// out of order, an unknown table) fails alone; if the transaction
    /// fails, each job is tried again in a transaction of its own, so that
    /// a job SQLite refuses fails only its own table.
    async fn commit_batch(
        &mut self,
        conn: &mut SqliteConnection,
        batch: &[Job],
    ) -> Vec<Result<(), StorageError>> {
        let writes: Vec<&Write> = batch.iter().map(|j| &j.write).collect();
        match self.commit(conn, &writes).await {
            Ok(results) => results,
            Err(_) if batch.len() > 1 => {
                let mut results = Vec::with_capacity(batch.len());
                for write in writes {
                    results.push(match self.commit(conn, &[write]).await {
                        Ok(mut one) => one.remove(0),
                        Err(e) => Err(e),
                    });
                }
                results
            }
            Err(e) => vec![Err(e)],
        }
    }

    /// The writes in one transaction: each one's result when it commits,
    /// or why the transaction failed (and nothing of it was stored).
    async fn commit(
        &mut self,
        conn: &mut SqliteConnection,
        writes: &[&Write],
    ) -> Result<Vec<Result<(), StorageError>>, StorageError> {
        let mut script = String::from("BEGIN IMMEDIATE;\n");
        let mut results = Vec::with_capacity(writes.len());
        let mut rows = 0usize;
        for write in writes {
            let result = self.plan(conn, write, &mut script, &mut rows).await;
            results.push(result);
        }
        if rows > 0 {
            script.push_str(";\n");
        }
        script.push_str("COMMIT;");
        if let Err(e) = sqlx::query(&script)
            .persistent(false)
            .execute(&mut *conn)
            .await
        {
            let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
            // What the writer remembered may not have been stored.
            self.next_line.clear();
            tracing::warn!(error = %e, writes = writes.len(), "a transaction failed");
            return Err(backend_error(&e));
        }
        Ok(results)
    }

    async fn next_line(
        &mut self,
        conn: &mut SqliteConnection,
        id: &str,
    ) -> Result<usize, StorageError> {
        if let Some(&n) = self.next_line.get(id) {
            return Ok(n);
        }
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM record_lines WHERE table_id = ?1) FROM tables WHERE id = ?1",
        )
        .bind(id)
        .fetch_optional(&mut *conn)
        .await
        .map_err(db)?
        .ok_or_else(|| StorageError::NoSuchTable(id.to_string()))?;
        let n = row.get::<i64, _>(0) as usize;
        self.next_line.insert(id.to_string(), n);
        Ok(n)
    }

    /// Adds a job's statements to the script, after checking what can be
    /// checked before it runs.
    async fn plan(
        &mut self,
        conn: &mut SqliteConnection,
        write: &Write,
        script: &mut String,
        rows: &mut usize,
    ) -> Result<(), StorageError> {
        let Write::Change(change) = write else {
            // Closing: done after the batch's commit, by the writer loop.
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
                push_statement(
                    script,
                    rows,
                    format!(
                        "INSERT INTO tables (id, created, status, meta) VALUES ({}, {}, {}, {})",
                        literal(&meta.id),
                        meta.created,
                        literal(status_text(meta.status)),
                        literal(&meta_json(meta))
                    ),
                );
                push_lines(script, rows, &meta.id, 0, &table.lines);
                self.next_line.insert(meta.id.clone(), table.lines.len());
            }
            Change::Meta(meta) => {
                self.next_line(conn, &meta.id).await?;
                push_statement(script, rows, update_meta(meta));
            }
            Change::Append {
                id,
                first,
                lines: new,
                meta,
            } => {
                let expected = self.next_line(conn, id).await?;
                if expected != *first {
                    return Err(out_of_order(id, *first, expected));
                }
                if let Some(meta) = meta {
                    push_statement(script, rows, update_meta(meta));
                }
                push_lines(script, rows, id, *first, new);
                self.next_line.insert(id.clone(), first + new.len());
            }
            Change::Drop { id, keep, len } => {
                let stored = self.next_line(conn, id).await?;
                if stored != *len || keep >= len {
                    return Err(out_of_order(id, *len, stored));
                }
                push_statement(
                    script,
                    rows,
                    format!(
                        "DELETE FROM record_lines WHERE table_id = {} AND seq >= {keep}",
                        literal(id)
                    ),
                );
                self.next_line.insert(id.clone(), *keep);
            }
        }
        Ok(())
    }
}

/// Adds rows to the script's running INSERT (starting one if needed).
fn push_lines(script: &mut String, rows: &mut usize, id: &str, first: usize, lines: &[String]) {
    for (i, line) in lines.iter().enumerate() {
        script.push_str(if *rows == 0 {
            "INSERT INTO record_lines (table_id, seq, line) VALUES\n"
        } else {
            ",\n"
        });
        script.push_str(&format!(
            "({}, {}, {})",
            literal(id),
            first + i,
            literal(line)
        ));
        *rows += 1;
    }
}

/// Adds a statement, ending a running INSERT first.
fn push_statement(script: &mut String, rows: &mut usize, sql: String) {
    if *rows > 0 {
        script.push_str(";\n");
        *rows = 0;
    }
    script.push_str(&sql);
    script.push_str(";\n");
}

fn update_meta(meta: &TableMeta) -> String {
    format!(
        "UPDATE tables SET status = {}, meta = {} WHERE id = {}",
        literal(status_text(meta.status)),
        literal(&meta_json(meta)),
        literal(&meta.id)
    )
}

impl Storage for SqliteStorage {
    fn write(&self, change: Change) -> StorageFuture<'_, ()> {
        Box::pin(submit(&self.writes, Write::Change(change)))
    }

    fn load_unfinished(&self) -> StorageFuture<'_, Vec<Result<StoredTable, Quarantined>>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, meta FROM tables WHERE status IN ('waiting', 'playing') ORDER BY created",
            )
            .fetch_all(&self.reads)
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
                tables.push(match self.read_table(&id, row.get(1)).await {
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
            let Some(row) = sqlx::query("SELECT meta FROM tables WHERE id = ?")
                .bind(&id)
                .fetch_optional(&self.reads)
                .await
                .map_err(db)?
            else {
                return Ok(None);
            };
            self.read_table(&id, row.get(0)).await.map(Some)
        })
    }

    fn ids(&self) -> StorageFuture<'_, Vec<Result<String, Quarantined>>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT id FROM tables ORDER BY created, id")
                .fetch_all(&self.reads)
                .await
                .map_err(db)?;
            Ok(rows.iter().map(stored_id).collect())
        })
    }

    fn close(&self) -> StorageFuture<'_, ()> {
        Box::pin(submit(&self.writes, Write::Close))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn sqlite_keeps_the_storage_contract() {
        let dir = tempfile::tempdir().unwrap();
        let storage = SqliteStorage::open(&dir.path().join("t.sqlite3"))
            .await
            .unwrap();
        super::super::contract::run(&storage).await;
    }

    /// What one connection committed, another (a restarted server) reads.
    #[tokio::test]
    async fn a_reopened_file_holds_every_committed_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let table = super::super::contract::table("t1");
        {
            let storage = SqliteStorage::open(&path).await.unwrap();
            storage.create(&table).await.unwrap();
            for i in 0..50 {
                let line = format!("line {i}");
                storage.append("t1", 1 + i, &[line], None).await.unwrap();
            }
        }
        let storage = SqliteStorage::open(&path).await.unwrap();
        let back = storage.load("t1").await.unwrap().unwrap();
        assert_eq!(back.lines.len(), 51);
        assert_eq!(back.lines[50], "line 49");
    }

    /// Settings with a small log bound, so that a test writes many times it.
    fn small_log() -> StorageSettings {
        StorageSettings {
            wal_limit_bytes: 1 << 20,
            ..StorageSettings::default()
        }
    }

    /// Many tables writing at once, round after round: the log stays under
    /// its bound though far more than the bound is written, and it is
    /// empty once the storage is closed.
    #[tokio::test]
    async fn the_log_stays_under_its_bound_and_is_empty_after_closing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let settings = small_log();
        let storage = SqliteStorage::open_with(&path, settings).await.unwrap();
        const TABLES: usize = 32;
        for t in 0..TABLES {
            let table = super::super::contract::table(&format!("t{t}"));
            storage.create(&table).await.unwrap();
        }
        let line = "x".repeat(400);
        let mut largest = 0;
        let storage = &storage;
        for round in 0..150 {
            let appends = (0..TABLES).map(|t| {
                let lines = [format!("{round} {line}"), format!("{round} {line}")];
                let id = format!("t{t}");
                async move { storage.append(&id, 1 + 2 * round, &lines, None).await }
            });
            for done in futures_util::future::join_all(appends).await {
                done.unwrap();
            }
            largest = largest.max(wal_size(&path));
        }
        assert!(
            largest <= settings.wal_limit_bytes,
            "the log reached {largest} bytes; its bound is {}",
            settings.wal_limit_bytes
        );
        storage.close().await.unwrap();
        assert_eq!(wal_size(&path), 0, "the log is empty after closing");
        // Far more than the bound went through the log.
        let written = std::fs::metadata(&path).unwrap().len();
        assert!(
            written > 2 * settings.wal_limit_bytes,
            "only {written} bytes were written"
        );
        let back = storage.load("t7").await.unwrap().unwrap();
        assert_eq!(back.lines.len(), 1 + 2 * 150);
    }

    /// A batch whose transaction fails (here: a table created twice, which
    /// a restarted writer cannot know before SQLite refuses it) fails only
    /// the job SQLite refuses; the other tables of the batch are stored.
    #[tokio::test]
    async fn one_refused_write_fails_only_its_own_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let contract = super::super::contract::table;
        {
            let storage = SqliteStorage::open(&path).await.unwrap();
            storage.create(&contract("t1")).await.unwrap();
            storage.create(&contract("t2")).await.unwrap();
        }
        let storage = SqliteStorage::open(&path).await.unwrap();
        // Sent together, so that they are one batch.
        let (twice, appended) = tokio::join!(
            storage.create(&contract("t1")),
            storage.append("t2", 1, &["a".to_string()], None)
        );
        assert!(matches!(twice, Err(StorageError::Conflict(_))), "{twice:?}");
        appended.unwrap();
        assert_eq!(storage.load("t2").await.unwrap().unwrap().lines.len(), 2);
    }

    /// The schema as every server made it before there were migrations:
    /// these statements ran at each start up to commit a6647af.
    const SCHEMA_BEFORE_MIGRATIONS: &[&str] = &[
        "CREATE TABLE IF NOT EXISTS tables (
            id TEXT PRIMARY KEY,
            created INTEGER NOT NULL,
            status TEXT NOT NULL,
            meta TEXT NOT NULL
        )",
        "CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, created)",
        "CREATE TABLE IF NOT EXISTS record_lines (
            table_id TEXT NOT NULL,
            n INTEGER NOT NULL,
            line TEXT NOT NULL,
            PRIMARY KEY (table_id, n)
        ) WITHOUT ROWID",
    ];

    /// A file written as a6647af wrote it (its schema, its rows) opens
    /// with every table and line, upgraded to the current schema, and
    /// plays on; opened again, no migration runs twice.
    #[tokio::test]
    async fn a_file_made_before_migrations_is_upgraded_without_loss() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let mut playing = super::super::contract::table("old");
        playing.meta.status = crate::storage::TableStatus::Playing;
        playing
            .lines
            .extend(["a".to_string(), "b'quoted'".to_string()]);
        let mut finished = super::super::contract::table("done");
        finished.meta.created -= 1;
        finished.meta.status = crate::storage::TableStatus::Finished;
        {
            let options = SqliteConnectOptions::new()
                .filename(&path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal);
            let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
            for statement in SCHEMA_BEFORE_MIGRATIONS {
                sqlx::query(statement).execute(&mut conn).await.unwrap();
            }
            for table in [&playing, &finished] {
                let meta = &table.meta;
                sqlx::query("INSERT INTO tables (id, created, status, meta) VALUES (?, ?, ?, ?)")
                    .bind(&meta.id)
                    .bind(meta.created as i64)
                    .bind(status_text(meta.status))
                    .bind(meta_json(meta))
                    .execute(&mut conn)
                    .await
                    .unwrap();
                for (n, line) in table.lines.iter().enumerate() {
                    sqlx::query("INSERT INTO record_lines (table_id, n, line) VALUES (?, ?, ?)")
                        .bind(&meta.id)
                        .bind(n as i64)
                        .bind(line)
                        .execute(&mut conn)
                        .await
                        .unwrap();
                }
            }
        }
        let storage = SqliteStorage::open(&path).await.unwrap();
        assert_eq!(storage.load("old").await.unwrap().as_ref(), Some(&playing));
        assert_eq!(
            storage.load("done").await.unwrap().as_ref(),
            Some(&finished)
        );
        let unfinished = storage.load_unfinished().await.unwrap();
        assert_eq!(unfinished, vec![Ok(playing.clone())]);
        assert_eq!(
            storage.ids().await.unwrap(),
            vec![Ok("done".to_string()), Ok("old".to_string())]
        );
        storage
            .append("old", 3, &["c".to_string()], None)
            .await
            .unwrap();
        playing.lines.push("c".to_string());
        drop(storage);

        let storage = SqliteStorage::open(&path).await.unwrap();
        assert_eq!(storage.load("old").await.unwrap().as_ref(), Some(&playing));
        let versions: Vec<i64> = sqlx::query_scalar(
            "SELECT version FROM _sqlx_migrations WHERE success ORDER BY version",
        )
        .fetch_all(&storage.reads)
        .await
        .unwrap();
        assert_eq!(versions, [1, 2]);
    }

    /// Whoever writes the file, a line stored twice, after a gap or for a
    /// table it does not hold is refused by SQLite itself; lines in order
    /// in one statement are stored.
    #[tokio::test]
    async fn the_file_itself_refuses_a_line_twice_or_after_a_gap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let storage = SqliteStorage::open(&path).await.unwrap();
        storage
            .create(&super::super::contract::table("t1"))
            .await
            .unwrap();
        let mut conn = SqliteConnection::connect(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        for sql in [
            "INSERT INTO record_lines VALUES ('t1', 0, 'twice')",
            "INSERT INTO record_lines VALUES ('t1', 2, 'after a gap')",
            "INSERT INTO record_lines VALUES ('t1', -1, 'before the first')",
            "INSERT INTO record_lines VALUES ('nope', 0, 'no such table')",
            "INSERT INTO record_lines VALUES ('t1', 1, 'b'), ('t1', 3, 'd')",
        ] {
            let err = sqlx::query(sql).execute(&mut conn).await.unwrap_err();
            let kind = backend_error(&err);
            assert!(matches!(kind, StorageError::Conflict(_)), "{sql}: {kind}");
        }
        sqlx::query("INSERT INTO record_lines VALUES ('t1', 1, 'b'), ('t1', 2, 'c')")
            .execute(&mut conn)
            .await
            .unwrap();
        drop(conn);
        let back = storage.load("t1").await.unwrap().unwrap();
        assert_eq!(back.lines[1..], ["b", "c"]);
    }

    /// Rows written by hand, as a damaged or hand-edited file holds them:
    /// each bad one is reported with why, and the good one loads.
    #[tokio::test]
    async fn bad_rows_are_quarantined_and_the_rest_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let storage = SqliteStorage::open(&path).await.unwrap();
        let contract = super::super::contract::table;
        for id in ["good", "bad-line", "bad-meta-bytes", "bad-meta-json"] {
            storage.create(&contract(id)).await.unwrap();
        }
        let mut conn = SqliteConnection::connect(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        for sql in [
            "INSERT INTO record_lines VALUES ('bad-line', 1, CAST(X'7B22FF' AS TEXT))",
            "UPDATE tables SET meta = CAST(X'7BFE7D' AS TEXT) WHERE id = 'bad-meta-bytes'",
            "UPDATE tables SET meta = '{\"id\": \"bad-meta-json\", \"seats\": 3}' WHERE id = 'bad-meta-json'",
            "INSERT INTO tables VALUES (CAST(X'41FF42' AS TEXT), 1795500001, 'playing', '{}')",
        ] {
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        }
        drop(conn);
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
        assert_eq!(reasons.len(), 4, "{reasons:?}");
        assert!(
            reasons["bad-line"].starts_with("record line 2: not UTF-8"),
            "{reasons:?}"
        );
        assert!(
            reasons["bad-meta-bytes"].starts_with("settings: not UTF-8"),
            "{reasons:?}"
        );
        assert!(
            reasons["bad-meta-json"].starts_with("settings: invalid type"),
            "{reasons:?}"
        );
        assert!(
            reasons["A\u{FFFD}B"].starts_with("its id is not UTF-8"),
            "{reasons:?}"
        );
        assert!(matches!(
            storage.load("bad-line").await,
            Err(StorageError::Corrupt { .. })
        ));
        let ids = storage.ids().await.unwrap();
        assert_eq!(ids.iter().filter(|id| id.is_ok()).count(), 4);
        assert_eq!(ids.iter().filter(|id| id.is_err()).count(), 1);
    }
}
