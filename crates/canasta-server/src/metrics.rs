//! The server's own measure of its speed: the time from an action's
//! arrival (read off its connection) to its broadcast (queued for every
//! connection of the table, after it was stored), in a histogram that
//! tables update without locks; the node's counters; and both in the
//! Prometheus text format (`GET /metrics`, [`exposition`]).

use crate::storage::LeaseCounts;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Bucket width, and how many: 50 µs up to 2 s (larger times land in the last).
const BUCKET_MICROS: u64 = 50;
const BUCKETS: usize = 40_000;

pub struct Latency {
    buckets: Vec<AtomicU64>,
    count: AtomicU64,
    /// Every time recorded, in microseconds, added up.
    sum_micros: AtomicU64,
}

impl Default for Latency {
    fn default() -> Latency {
        Latency {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
        }
    }
}

impl Latency {
    pub fn record(&self, d: Duration) {
        let micros = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        let i = (micros / BUCKET_MICROS).min(BUCKETS as u64 - 1) as usize;
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Every time recorded, added up.
    pub fn sum(&self) -> Duration {
        Duration::from_micros(self.sum_micros.load(Ordering::Relaxed))
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

/// A node's counters that are not its leases': its WebSockets and the
/// tables it took over. Each is one atomic, updated without locks.
#[derive(Default)]
pub struct Counters {
    sockets_open: AtomicI64,
    sockets: AtomicU64,
    takeovers: AtomicU64,
}

impl Counters {
    /// A WebSocket opened: counted until the guard is dropped.
    pub fn socket(self: &Arc<Counters>) -> SocketCount {
        self.sockets_open.fetch_add(1, Ordering::Relaxed);
        self.sockets.fetch_add(1, Ordering::Relaxed);
        SocketCount(self.clone())
    }

    /// `n` tables taken over from a node whose lease ended.
    pub fn took_over(&self, n: usize) {
        self.takeovers.fetch_add(n as u64, Ordering::Relaxed);
    }
}

/// One open WebSocket, for as long as it lives.
pub struct SocketCount(Arc<Counters>);

impl Drop for SocketCount {
    fn drop(&mut self) {
        self.0.sockets_open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What `/metrics` tells of a node at one moment.
pub struct Scrape<'a> {
    /// The node's number and address, with PostgreSQL; `None` with
    /// SQLite or memory (one server).
    pub node: Option<(u16, Option<String>)>,
    /// Tables with a task here, and of those the open ones (waiting or
    /// playing).
    pub tables_live: usize,
    pub tables_open: usize,
    /// Leases this node holds, and its counts (a node only).
    pub leases: Option<(usize, LeaseCounts)>,
    /// Whether every lease is surely still this node's (a node only).
    pub leases_renewed: Option<bool>,
    /// Whether a storage write is failing now.
    pub storage_failing: bool,
    pub counters: &'a Counters,
    pub latency: &'a Latency,
}

/// The upper bounds of the latency histogram's buckets, in seconds, as
/// `/metrics` gives them (multiples of [`BUCKET_MICROS`], so that each is
/// exact from the finer buckets kept).
/// The last kept bucket holds every time from 2 s up, so no finite bound
/// lies past it.
const LE_SECONDS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0,
];

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A node's metrics in the Prometheus text exposition format (0.0.4).
pub fn exposition(s: &Scrape<'_>) -> String {
    let mut out = String::with_capacity(4096);
    if let Some((node, url)) = &s.node {
        family(
            &mut out,
            "canasta_node_info",
            "gauge",
            "This node's number and the address it tells clients (always 1).",
        );
        let url = url
            .as_deref()
            .unwrap_or("")
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        let _ = writeln!(out, "canasta_node_info{{node=\"{node}\",url=\"{url}\"}} 1");
    }
    family(
        &mut out,
        "canasta_tables",
        "gauge",
        "Tables with a task on this node: live (any), open (waiting or playing).",
    );
    let _ = writeln!(out, "canasta_tables{{state=\"live\"}} {}", s.tables_live);
    let _ = writeln!(out, "canasta_tables{{state=\"open\"}} {}", s.tables_open);
    let c = s.counters;
    family(
        &mut out,
        "canasta_websocket_connections",
        "gauge",
        "WebSockets open on this node now.",
    );
    let _ = writeln!(
        out,
        "canasta_websocket_connections {}",
        c.sockets_open.load(Ordering::Relaxed).max(0)
    );
    family(
        &mut out,
        "canasta_websocket_connections_total",
        "counter",
        "WebSockets opened on this node since it started.",
    );
    let _ = writeln!(
        out,
        "canasta_websocket_connections_total {}",
        c.sockets.load(Ordering::Relaxed)
    );
    family(
        &mut out,
        "canasta_storage_failing",
        "gauge",
        "1 while a storage write fails (tables wait on it), else 0.",
    );
    let _ = writeln!(
        out,
        "canasta_storage_failing {}",
        u8::from(s.storage_failing)
    );
    if let Some((held, counts)) = s.leases {
        let lines: [(&str, &str, &str, u64); 7] = [
            (
                "canasta_leases_held",
                "gauge",
                "Table leases this node holds (the tables it owns).",
                held as u64,
            ),
            (
                "canasta_lease_renewals_total",
                "counter",
                "Renewals of this node's leases that succeeded (one statement for all its leases).",
                counts.renewals,
            ),
            (
                "canasta_leases_renewed_total",
                "counter",
                "Leases extended by those renewals, in all.",
                counts.renewed,
            ),
            (
                "canasta_leases_acquired_total",
                "counter",
                "Leases taken: tables created here, and tables taken from the database.",
                counts.acquired,
            ),
            (
                "canasta_takeovers_total",
                "counter",
                "Tables taken over from a node whose lease ended (failovers).",
                c.takeovers.load(Ordering::Relaxed),
            ),
            (
                "canasta_tables_released_total",
                "counter",
                "Leases let go at once: a table's task ended, or the node stopped.",
                counts.released,
            ),
            (
                "canasta_leases_lost_total",
                "counter",
                "Leases found taken by another node, or given up after no renewal for a lease's time.",
                counts.lost,
            ),
        ];
        for (name, kind, help, value) in lines {
            family(&mut out, name, kind, help);
            let _ = writeln!(out, "{name} {value}");
        }
        family(
            &mut out,
            "canasta_leases_renewed",
            "gauge",
            "1 while a renewal succeeded within a lease's time, else 0 (/readyz is 503).",
        );
        let _ = writeln!(
            out,
            "canasta_leases_renewed {}",
            u8::from(s.leases_renewed.unwrap_or(false))
        );
    }
    let snapshot = s.latency.snapshot();
    let count = snapshot.count();
    let sum = s.latency.sum().as_secs_f64();
    family(
        &mut out,
        "canasta_actions_total",
        "counter",
        "Actions applied on this node (stored, then broadcast) since it started.",
    );
    let _ = writeln!(out, "canasta_actions_total {count}");
    family(
        &mut out,
        "canasta_action_latency_seconds",
        "histogram",
        "Each action's time from its arrival to its broadcast, stored between.",
    );
    let mut buckets = snapshot.buckets.iter().peekable();
    let mut below = 0;
    for le in LE_SECONDS {
        // The kept bucket i holds times under (i + 1) * BUCKET_MICROS.
        let edge = (le * 1e6).round() as u64 / BUCKET_MICROS;
        while let Some(&&(i, n)) = buckets.peek() {
            if u64::from(i) + 1 > edge || i as usize == BUCKETS - 1 {
                break;
            }
            below += n;
            buckets.next();
        }
        let _ = writeln!(
            out,
            "canasta_action_latency_seconds_bucket{{le=\"{le}\"}} {below}"
        );
    }
    let _ = writeln!(
        out,
        "canasta_action_latency_seconds_bucket{{le=\"+Inf\"}} {count}"
    );
    let _ = writeln!(out, "canasta_action_latency_seconds_sum {sum}");
    let _ = writeln!(out, "canasta_action_latency_seconds_count {count}");
    family(
        &mut out,
        "canasta_action_latency_summary_seconds",
        "summary",
        "The same times' quantiles since the node started (50 microsecond buckets; NaN before any).",
    );
    for q in [0.5, 0.9, 0.99] {
        let v = snapshot
            .quantile(q)
            .map_or_else(|| "NaN".to_string(), |d| d.as_secs_f64().to_string());
        let _ = writeln!(
            out,
            "canasta_action_latency_summary_seconds{{quantile=\"{q}\"}} {v}"
        );
    }
    let _ = writeln!(out, "canasta_action_latency_summary_seconds_sum {sum}");
    let _ = writeln!(out, "canasta_action_latency_summary_seconds_count {count}");
    out
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

    #[test]
    fn the_exposition_counts_buckets_up_to_their_edges() {
        let l = Latency::default();
        for micros in [100, 400, 499, 500, 900, 20_000, 3_000_000] {
            l.record(Duration::from_micros(micros));
        }
        let counters = Arc::new(Counters::default());
        let open = counters.socket();
        let _closed = counters.socket();
        drop(open);
        counters.took_over(2);
        let text = exposition(&Scrape {
            node: Some((3, Some("http://a\"b".into()))),
            tables_live: 4,
            tables_open: 2,
            leases: Some((
                2,
                LeaseCounts {
                    renewals: 5,
                    ..LeaseCounts::default()
                },
            )),
            leases_renewed: Some(true),
            storage_failing: false,
            counters: &counters,
            latency: &l,
        });
        let has = |line: &str| text.lines().any(|l| l == line);
        // 100, 400, 499 µs fall in buckets ending at or before 0.5 ms; 500
        // in the one ending at 0.55 ms.
        assert!(
            has("canasta_action_latency_seconds_bucket{le=\"0.0005\"} 3"),
            "{text}"
        );
        assert!(has("canasta_action_latency_seconds_bucket{le=\"0.001\"} 5"));
        assert!(has("canasta_action_latency_seconds_bucket{le=\"0.025\"} 6"));
        assert!(has("canasta_action_latency_seconds_bucket{le=\"2\"} 6"));
        assert!(has("canasta_action_latency_seconds_bucket{le=\"+Inf\"} 7"));
        assert!(has("canasta_action_latency_seconds_count 7"));
        assert!(has("canasta_actions_total 7"));
        assert!(has("canasta_websocket_connections 1"));
        assert!(has("canasta_websocket_connections_total 2"));
        assert!(has("canasta_takeovers_total 2"));
        assert!(has("canasta_lease_renewals_total 5"));
        assert!(has("canasta_leases_held 2"));
        assert!(has("canasta_node_info{node=\"3\",url=\"http://a\\\"b\"} 1"));
        assert!(has(
            "canasta_action_latency_summary_seconds{quantile=\"0.5\"} 0.00055"
        ));
        // Every sample line is a name, optional labels and a number.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let value = line.rsplit(' ').next().unwrap();
            assert!(value == "NaN" || value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
