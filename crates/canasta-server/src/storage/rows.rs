//! How a table is kept in rows of an SQL database, for both SQL backends:
//! its settings as JSON text beside its status, its record as one row per
//! line keyed (table, sequence number); and what a database's error means
//! to the server ([`StorageError`]'s kinds), so that no caller sees the
//! database library's own error type.

use super::{StorageError, TableMeta, TableStatus};

/// The status column's text (what `load_unfinished` selects on).
pub(super) fn status_text(status: TableStatus) -> &'static str {
    match status {
        TableStatus::Waiting => "waiting",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
        TableStatus::Closed => "closed",
    }
}

pub(super) fn meta_json(meta: &TableMeta) -> String {
    serde_json::to_string(meta).expect("table settings serialize")
}

/// A table's settings as stored (read as bytes: a row that is not UTF-8
/// is a corrupt table, not a panic).
pub(super) fn parse_meta(id: &str, bytes: &[u8]) -> Result<TableMeta, StorageError> {
    let corrupt = |reason: String| StorageError::Corrupt {
        id: id.to_string(),
        reason: format!("settings: {reason}"),
    };
    let text = std::str::from_utf8(bytes).map_err(|e| corrupt(format!("not UTF-8 text ({e})")))?;
    let meta: TableMeta = serde_json::from_str(text).map_err(|e| corrupt(e.to_string()))?;
    if meta.id != id {
        return Err(corrupt(format!("they name table `{}`", meta.id)));
    }
    Ok(meta)
}

/// Why a stored text did not decode, without sqlx's wrapping.
pub(super) fn decode_reason(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::ColumnDecode { source, .. } => format!("not UTF-8 text ({source})"),
        other => other.to_string(),
    }
}

/// What a database error means to the server. A constraint the database
/// enforces (a primary key, the rule that a record line follows the one
/// before it, a foreign key) refused the write: [`StorageError::Conflict`].
/// Anything else is the database failing: [`StorageError::Unavailable`],
/// which a table tries again.
pub(super) fn backend_error(e: &sqlx::Error) -> StorageError {
    match e {
        sqlx::Error::Database(db) if is_constraint(db.as_ref()) => {
            StorageError::Conflict(db.message().to_string())
        }
        sqlx::Error::Migrate(m) => StorageError::Schema(m.to_string()),
        sqlx::Error::Configuration(c) => StorageError::Url(c.to_string()),
        other => StorageError::Unavailable(other.to_string()),
    }
}

/// [`backend_error`] for `map_err`.
pub(super) fn db(e: sqlx::Error) -> StorageError {
    backend_error(&e)
}

/// Whether the database refused a write by one of its constraints:
/// PostgreSQL's SQLSTATE class 23 (integrity constraint violation), or
/// SQLite's `SQLITE_CONSTRAINT` family (a trigger's `RAISE(ABORT, ...)`
/// among them, whose extended code sqlx does not classify).
fn is_constraint(db: &dyn sqlx::error::DatabaseError) -> bool {
    use sqlx::error::ErrorKind;
    if matches!(
        db.kind(),
        ErrorKind::UniqueViolation
            | ErrorKind::ForeignKeyViolation
            | ErrorKind::NotNullViolation
            | ErrorKind::CheckViolation
    ) {
        return true;
    }
    let Some(code) = db.code() else {
        return false;
    };
    if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        const SQLITE_CONSTRAINT: i64 = 19;
        code.parse::<i64>()
            .is_ok_and(|c| c & 0xff == SQLITE_CONSTRAINT)
    } else {
        code.starts_with("23")
    }
}

/// The migration error, as storage reports it.
pub(super) fn migration_error(e: &sqlx::migrate::MigrateError) -> StorageError {
    StorageError::Schema(e.to_string())
}
