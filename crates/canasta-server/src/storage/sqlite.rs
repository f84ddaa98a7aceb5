//! SQLite storage: one file, write-ahead log, `synchronous = FULL`, so an
//! append that returned is on disk. Writes go through one writer task that
//! commits every append waiting at that moment in one transaction (group
//! commit): a thousand busy tables cost one disk flush per batch, not one
//! each, and each append still returns only after its batch is durable.

use super::{Storage, StorageError, StorageFuture, StoredTable, TableMeta, TableStatus};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Row};
use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Appends committed in one transaction at most.
const MAX_BATCH: usize = 512;

const SCHEMA: &[&str] = &[
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

enum Write {
    Create(StoredTable),
    Meta(TableMeta),
    Append {
        id: String,
        first: usize,
        lines: Vec<String>,
        meta: Option<TableMeta>,
    },
    Drop {
        id: String,
        keep: usize,
        len: usize,
    },
}

struct Job {
    write: Write,
    done: oneshot::Sender<Result<(), StorageError>>,
}

/// Tables in an SQLite file.
pub struct SqliteStorage {
    reads: SqlitePool,
    writes: mpsc::Sender<Job>,
}

fn status_text(status: TableStatus) -> &'static str {
    match status {
        TableStatus::Waiting => "waiting",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
        TableStatus::Closed => "closed",
    }
}

fn meta_json(meta: &TableMeta) -> String {
    serde_json::to_string(meta).expect("table settings serialize")
}

fn parse_meta(id: &str, text: &str) -> Result<TableMeta, StorageError> {
    serde_json::from_str(text).map_err(|e| StorageError::Corrupt {
        id: id.to_string(),
        reason: format!("settings: {e}"),
    })
}

impl SqliteStorage {
    /// Opens (creating if needed) the database file at `path`.
    ///
    /// # Errors
    /// The file cannot be opened or its schema created.
    pub async fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        let options = SqliteConnectOptions::from_str("sqlite://")?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10));
        let mut writer = SqliteConnection::connect_with(&options).await?;
        for statement in SCHEMA {
            sqlx::query(statement).execute(&mut writer).await?;
        }
        // The writer never checkpoints (that would stall a commit, and
        // every table waiting on it); a second connection copies the log
        // into the database in the background, without blocking writes.
        sqlx::query("PRAGMA wal_autocheckpoint = 0")
            .execute(&mut writer)
            .await?;
        let checkpointer = SqliteConnection::connect_with(&options).await?;
        tokio::spawn(checkpoint_loop(checkpointer));
        let reads = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await?;
        let (tx, rx) = mpsc::channel(4096);
        tokio::spawn(writer_loop(writer, rx));
        Ok(SqliteStorage { reads, writes: tx })
    }

    async fn write(&self, write: Write) -> Result<(), StorageError> {
        let (done, wait) = oneshot::channel();
        let closed = || StorageError::Database(sqlx::Error::PoolClosed);
        self.writes
            .send(Job { write, done })
            .await
            .map_err(|_| closed())?;
        wait.await.map_err(|_| closed())?
    }

    async fn lines_of(&self, id: &str) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query("SELECT line FROM record_lines WHERE table_id = ? ORDER BY n")
            .bind(id)
            .fetch_all(&self.reads)
            .await?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }
}

/// How often the log is copied into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(2);

async fn checkpoint_loop(mut conn: SqliteConnection) {
    let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
    loop {
        tick.tick().await;
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&mut conn)
            .await
        {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
}

/// The writer's memory: the next line number of every table it has
/// written or looked up, so that an append is checked without a query.
#[derive(Default)]
struct Writer {
    next_line: HashMap<String, usize>,
}

/// Commits the waiting jobs in batches until every sender is gone.
async fn writer_loop(mut conn: SqliteConnection, mut rx: mpsc::Receiver<Job>) {
    let mut writer = Writer::default();
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let started = std::time::Instant::now();
        let outcomes = writer.commit_batch(&mut conn, &batch).await;
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

/// A text as an SQL string literal (SQLite doubles a quote; nothing else
/// is special, and the texts stored here are JSON, without NUL bytes).
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

impl Writer {
    /// One transaction for the batch, sent to SQLite as one script: the
    /// batch costs one round trip to the database thread and one flush,
    /// however many tables it serves. A job that cannot be applied (a line
    /// out of order, an unknown table) fails alone; if the transaction
    /// fails, every job fails.
    async fn commit_batch(
        &mut self,
        conn: &mut SqliteConnection,
        batch: &[Job],
    ) -> Vec<Result<(), StorageError>> {
        let mut script = String::from("BEGIN IMMEDIATE;\n");
        let mut results = Vec::with_capacity(batch.len());
        let mut rows = 0usize;
        for job in batch {
            let result = self.plan(conn, &job.write, &mut script, &mut rows).await;
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
            return batch.iter().map(|_| Err(copy_error(&e))).collect();
        }
        results
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
        .await?
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
        match write {
            Write::Create(table) => {
                let meta = &table.meta;
                if self.next_line.contains_key(&meta.id) {
                    return Err(StorageError::Corrupt {
                        id: meta.id.clone(),
                        reason: "a table with this id exists".into(),
                    });
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
            Write::Meta(meta) => {
                self.next_line(conn, &meta.id).await?;
                push_statement(script, rows, update_meta(meta));
            }
            Write::Append {
                id,
                first,
                lines: new,
                meta,
            } => {
                let expected = self.next_line(conn, id).await?;
                if expected != *first {
                    return Err(StorageError::OutOfOrder {
                        id: id.clone(),
                        given: *first,
                        expected,
                    });
                }
                if let Some(meta) = meta {
                    push_statement(script, rows, update_meta(meta));
                }
                push_lines(script, rows, id, *first, new);
                self.next_line.insert(id.clone(), first + new.len());
            }
            Write::Drop { id, keep, len } => {
                let stored = self.next_line(conn, id).await?;
                if stored != *len || keep >= len {
                    return Err(StorageError::OutOfOrder {
                        id: id.clone(),
                        given: *len,
                        expected: stored,
                    });
                }
                push_statement(
                    script,
                    rows,
                    format!(
                        "DELETE FROM record_lines WHERE table_id = {} AND n >= {keep}",
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
            "INSERT INTO record_lines (table_id, n, line) VALUES\n"
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

/// sqlx errors are not `Clone`: each job of a failed batch gets the text.
fn copy_error(e: &sqlx::Error) -> StorageError {
    StorageError::Database(sqlx::Error::Protocol(e.to_string()))
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
    fn create(&self, table: &StoredTable) -> StorageFuture<'_, ()> {
        let write = Write::Create(table.clone());
        Box::pin(self.write(write))
    }

    fn update_meta(&self, meta: &TableMeta) -> StorageFuture<'_, ()> {
        Box::pin(self.write(Write::Meta(meta.clone())))
    }

    fn append(
        &self,
        id: &str,
        first: usize,
        lines: &[String],
        meta: Option<&TableMeta>,
    ) -> StorageFuture<'_, ()> {
        let write = Write::Append {
            id: id.to_string(),
            first,
            lines: lines.to_vec(),
            meta: meta.cloned(),
        };
        Box::pin(self.write(write))
    }

    fn drop_lines(&self, id: &str, keep: usize, len: usize) -> StorageFuture<'_, ()> {
        let write = Write::Drop {
            id: id.to_string(),
            keep,
            len,
        };
        Box::pin(self.write(write))
    }

    fn load_unfinished(&self) -> StorageFuture<'_, Vec<StoredTable>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, meta FROM tables WHERE status IN ('waiting', 'playing') ORDER BY created",
            )
            .fetch_all(&self.reads)
            .await?;
            let mut tables = Vec::with_capacity(rows.len());
            for row in rows {
                let id: String = row.get(0);
                let meta = parse_meta(&id, row.get(1))?;
                let lines = self.lines_of(&id).await?;
                tables.push(StoredTable { meta, lines });
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
                .await?
            else {
                return Ok(None);
            };
            let meta = parse_meta(&id, row.get(0))?;
            let lines = self.lines_of(&id).await?;
            Ok(Some(StoredTable { meta, lines }))
        })
    }

    fn recent(&self, limit: usize) -> StorageFuture<'_, Vec<TableMeta>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT id, meta FROM tables ORDER BY created DESC, id LIMIT ?")
                .bind(limit as i64)
                .fetch_all(&self.reads)
                .await?;
            rows.iter()
                .map(|row| parse_meta(row.get(0), row.get(1)))
                .collect()
        })
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
}
