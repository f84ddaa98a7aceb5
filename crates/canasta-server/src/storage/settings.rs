//! How durable storage keeps itself small and heals: the settings a server
//! is started with (`canasta serve --wal-limit-mb`), and the retry delays
//! of a table whose write failed.

use std::time::Duration;

/// How the SQLite file is kept small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageSettings {
    /// The write-ahead log's size at most, in bytes. Every commit goes to
    /// the log first and is copied into the database later; under a
    /// steady stream of writes that copy never catches up by itself, so
    /// the writer empties the log (a TRUNCATE checkpoint) once it passes
    /// half of this, and a log emptied by a checkpoint is cut back to half
    /// of it on disk. Default 64 MiB: a few seconds of the heaviest load
    /// measured (300 busy tables wrote 7.5 MB/s), so truncations are rare
    /// and short, while the file stays far below any disk's size.
    pub wal_limit_bytes: u64,
    /// How often the log is copied into the database in the background
    /// (a PASSIVE checkpoint, which never blocks a commit). Default 2 s:
    /// the copy is then small each time, and the truncation above finds
    /// little left to copy.
    pub checkpoint_every: Duration,
}

impl Default for StorageSettings {
    fn default() -> StorageSettings {
        StorageSettings {
            wal_limit_bytes: 64 << 20,
            checkpoint_every: Duration::from_secs(2),
        }
    }
}

/// A table whose write failed tries again after this, at first.
pub const RETRY_FIRST: Duration = Duration::from_millis(100);
/// ... doubling each time up to this: a disk that recovers has its tables
/// playing again within this time, and a failing one costs a table one
/// attempt in this time.
pub const RETRY_MAX: Duration = Duration::from_secs(5);

/// The wait before attempt `failed + 1` of a write that failed `failed`
/// times (at least once).
pub fn retry_delay(failed: u32) -> Duration {
    let doubled = RETRY_FIRST.saturating_mul(1 << failed.saturating_sub(1).min(16));
    doubled.min(RETRY_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_to_a_ceiling() {
        assert_eq!(retry_delay(1), RETRY_FIRST);
        assert_eq!(retry_delay(2), RETRY_FIRST * 2);
        assert_eq!(retry_delay(3), RETRY_FIRST * 4);
        assert_eq!(retry_delay(40), RETRY_MAX);
        assert_eq!(retry_delay(u32::MAX), RETRY_MAX);
    }
}
