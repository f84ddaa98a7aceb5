//! The server's own measure of its speed: the time from an action's
//! arrival (read off its connection) to its broadcast (queued for every
//! connection of the table, after it was stored), in a histogram that
//! tables update without locks.

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Bucket width, and how many: 50 µs up to 2 s (larger times land in the last).
const BUCKET_MICROS: u64 = 50;
const BUCKETS: usize = 40_000;

pub struct Latency {
    buckets: Vec<AtomicU64>,
    count: AtomicU64,
}

impl Default for Latency {
    fn default() -> Latency {
        Latency {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            count: AtomicU64::new(0),
        }
    }
}

impl Latency {
    pub fn record(&self, d: Duration) {
        let i = ((d.as_micros() as u64) / BUCKET_MICROS).min(BUCKETS as u64 - 1) as usize;
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The counts so far; two snapshots give the times of the window
    /// between them, whatever came before or after.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            buckets: self
                .buckets
                .iter()
                .enumerate()
                .filter_map(|(i, b)| {
                    let n = b.load(Ordering::Relaxed);
                    (n > 0).then_some((i as u32, n))
                })
                .collect(),
        }
    }

    /// The time below which a share `q` (0 to 1) of the recorded ones fall
    /// (the upper edge of its bucket); `None` before any.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        self.snapshot().quantile(q)
    }
}

/// A histogram's counts at one moment: its non-empty buckets by index,
/// in order. It is what `GET /api/stats` sends, so that a load test in
/// another process reads the server's own times.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    buckets: Vec<(u32, u64)>,
}

impl Snapshot {
    /// The width of a bucket, in microseconds.
    pub const BUCKET_MICROS: u64 = BUCKET_MICROS;

    pub fn count(&self) -> u64 {
        self.buckets.iter().map(|&(_, n)| n).sum()
    }

    /// What was recorded after `earlier` (a snapshot of the same histogram).
    #[must_use]
    pub fn since(&self, earlier: &Snapshot) -> Snapshot {
        let before: std::collections::HashMap<u32, u64> = earlier.buckets.iter().copied().collect();
        Snapshot {
            buckets: self
                .buckets
                .iter()
                .filter_map(|&(i, n)| {
                    let n = n.saturating_sub(before.get(&i).copied().unwrap_or(0));
                    (n > 0).then_some((i, n))
                })
                .collect(),
        }
    }

    /// As [`Latency::quantile`].
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let want = ((total as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for &(i, n) in &self.buckets {
            seen += n;
            if seen >= want {
                return Some(Duration::from_micros((u64::from(i) + 1) * BUCKET_MICROS));
            }
        }
        self.buckets
            .last()
            .map(|&(i, _)| Duration::from_micros((u64::from(i) + 1) * BUCKET_MICROS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_come_from_the_buckets() {
        let l = Latency::default();
        assert_eq!(l.quantile(0.5), None);
        for ms in 1..=100 {
            l.record(Duration::from_millis(ms));
        }
        assert_eq!(l.count(), 100);
        assert_eq!(l.quantile(0.5), Some(Duration::from_micros(50_050)));
        assert_eq!(l.quantile(0.99), Some(Duration::from_micros(99_050)));
        l.record(Duration::from_secs(9));
        assert_eq!(l.quantile(1.0), Some(Duration::from_secs(2)));
    }

    #[test]
    fn a_window_is_the_difference_of_two_snapshots() {
        let l = Latency::default();
        for _ in 0..10 {
            l.record(Duration::from_secs(1));
        }
        let start = l.snapshot();
        for ms in 1..=100 {
            l.record(Duration::from_millis(ms));
        }
        let window = l.snapshot().since(&start);
        assert_eq!(window.count(), 100);
        assert_eq!(window.quantile(0.99), Some(Duration::from_micros(99_050)));
        assert_eq!(
            l.snapshot().quantile(1.0),
            Some(Duration::from_micros(1_000_050))
        );
        let json = serde_json::to_string(&window).unwrap();
        assert_eq!(serde_json::from_str::<Snapshot>(&json).unwrap(), window);
        assert_eq!(Snapshot::default().quantile(0.5), None);
    }
}
