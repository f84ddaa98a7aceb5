//! Which database a server keeps its games in: SQLite in its data
//! directory unless it is given a PostgreSQL URL (`canasta serve
//! --database postgres://USER@HOST/DB`, or `CANASTA_DATABASE_URL`).

use super::{PostgresStorage, SqliteStorage, Storage, StorageError, StorageSettings};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where games are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file: embedded, nothing to install.
    Sqlite(PathBuf),
    /// A PostgreSQL database, by its URL.
    Postgres(String),
}

/// The SQLite file's name in a data directory.
pub const SQLITE_FILE: &str = "canasta.sqlite3";

impl std::fmt::Debug for Database {
    /// Without the URL's password, as everywhere it is shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

impl std::fmt::Display for Database {
    /// The file, or the URL without its password (for logs and messages).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl Database {
    /// The SQLite file in a data directory.
    pub fn in_data_dir(dir: &Path) -> Database {
        Database::Sqlite(dir.join(SQLITE_FILE))
    }

    /// The database a URL names: `postgres://` or `postgresql://` (the
    /// forms libpq takes, e.g. `postgres://canasta@127.0.0.1:5432/canasta`
    /// or `postgres://canasta@%2Frun%2Fpostgresql/canasta` for a socket).
    ///
    /// # Errors
    /// The URL is not a PostgreSQL one.
    pub fn from_url(url: &str) -> Result<Database, StorageError> {
        let scheme = url.split_once("://").map(|(s, _)| s);
        match scheme {
            Some("postgres" | "postgresql") => Ok(Database::Postgres(url.to_string())),
            _ => Err(StorageError::Url(format!(
                "`{}` is not a postgres:// URL (without one, games are kept in SQLite in the data directory)",
                without_password(url)
            ))),
        }
    }

    /// Opens the database, bringing its schema up to date.
    ///
    /// # Errors
    /// It cannot be reached or opened, or its schema cannot be upgraded.
    pub async fn open(&self, settings: StorageSettings) -> Result<Arc<dyn Storage>, StorageError> {
        Ok(match self {
            Database::Sqlite(path) => Arc::new(SqliteStorage::open_with(path, settings).await?),
            Database::Postgres(url) => Arc::new(PostgresStorage::connect(url).await?),
        })
    }
}

/// A URL with the password in its user part (`USER:PASSWORD@`) replaced by
/// `***`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split_once(':').map_or(user, |(name, _)| name);
            format!("{scheme}://{name}:***@{host}{path}")
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_shown_without_its_password() {
        let db = Database::from_url("postgres://ann:s3cret@db.example:5432/games?sslmode=disable")
            .unwrap();
        assert_eq!(
            db.to_string(),
            "postgres://ann:***@db.example:5432/games?sslmode=disable"
        );
        assert_eq!(format!("{db:?}"), db.to_string());
        let plain = Database::from_url("postgresql://ann@127.0.0.1/games").unwrap();
        assert_eq!(plain.to_string(), "postgresql://ann@127.0.0.1/games");
    }

    #[test]
    fn only_postgres_urls_name_a_database() {
        for url in ["mysql://a@b/c", "sqlite://x.db", "127.0.0.1:5432", ""] {
            let err = Database::from_url(url).unwrap_err();
            assert!(matches!(err, StorageError::Url(_)), "{url}: {err}");
        }
    }
}
