//! The server's own measure of its speed: the time from an action's
//! arrival (read off its connection) to its broadcast (queued for every
//! connection of the table, after it was stored), in a histogram that
//! tables update without locks.

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

    /// The time below which a share `q` (0 to 1) of the recorded ones fall
    /// (the upper edge of its bucket); `None` before any.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let want = ((total as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            seen += b.load(Ordering::Relaxed);
            if seen >= want {
                return Some(Duration::from_micros((i as u64 + 1) * BUCKET_MICROS));
            }
        }
        Some(Duration::from_micros(BUCKETS as u64 * BUCKET_MICROS))
    }

    pub fn reset(&self) {
        for b in &self.buckets {
            b.store(0, Ordering::Relaxed);
        }
        self.count.store(0, Ordering::Relaxed);
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
}
