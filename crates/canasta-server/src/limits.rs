//! What tables may ask of the server: how many tables there are and who
//! makes them, how long a table nobody plays stays open, how much its bots
//! and hints may search, and how many people may watch it. One place, so
//! that `canasta serve --help` and `docs/server-api.md` (`## Limits`) list
//! every bound with its default.

use canasta_ai::{BOT_NAMES, BotSpec};
use std::time::Duration;
use thiserror::Error;

/// The bounds on tables, their bots and their watchers.
#[derive(Clone, Debug, PartialEq)]
pub struct TableLimits {
    /// Tables open at once (waiting or playing) on the server: each costs
    /// a task and its state in memory (about 30 KB), and the lobby lists
    /// them. 1,000 is far above what the server's people fill, and keeps
    /// the lobby's listing and a restart's resume quick.
    pub max_tables: usize,
    /// Open tables created from one address (the client's IP address):
    /// enough for a family or a club behind one router, too few for one
    /// script to fill the server.
    pub max_tables_per_address: usize,
    /// Tables one address may create a minute (bursts of as many): a
    /// person sets up a table now and then; a script is slowed to this.
    pub creations_per_minute: u32,
    /// How long a table waiting for its players stays open with nobody
    /// connected and nothing done (a seat claimed, a connection): an
    /// invite nobody followed. 30 minutes leaves time to send a link.
    pub idle_unstarted: Duration,
    /// How long a game in progress stays open with none of its players
    /// connected (for a table of bots only: nobody watching). Its record
    /// is kept, but it is no longer listed or resumed. Six hours outlast a
    /// long break or a night's lost connection.
    pub abandoned: Duration,
    /// Searches (bots' decisions and hints) that run at once on the whole
    /// server, each on a thread of its own: one core fewer than the
    /// machine has (at least one), so that searches never take the core
    /// that answers people's actions.
    pub search_threads: usize,
    /// Searches one table may run at once: one, so that the server's
    /// search threads are shared table by table, in turn (the queue is
    /// first come, first served), and no table's bots starve another's.
    pub searches_per_table: usize,
    /// The longest a search may think: a bot's time budget beyond it is
    /// refused, and every search (any level, any iteration budget, a hint)
    /// stops there. Expert's own cap (900 ms), the most the levels take.
    pub max_think: Duration,
    /// The most iterations a bot's budget may name: expert's 12,000, the
    /// levels' ceiling.
    pub max_iterations: u32,
    /// Spectators one table may have connected at once. Each gets every
    /// state of the game; 50 watchers are a crowd for a card table.
    pub spectators_per_table: usize,
    /// Hints one seat may ask a minute (bursts of as many), besides one at
    /// a time: a hint is an expert search of up to `max_think`.
    pub hints_per_minute: u32,
}

impl Default for TableLimits {
    fn default() -> TableLimits {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        TableLimits {
            max_tables: 1_000,
            max_tables_per_address: 10,
            creations_per_minute: 10,
            idle_unstarted: Duration::from_secs(30 * 60),
            abandoned: Duration::from_secs(6 * 3600),
            search_threads: cores.saturating_sub(1).max(1),
            searches_per_table: 1,
            max_think: canasta_ai::ismcts::EXPERT_TIME_CAP,
            max_iterations: canasta_ai::Level::Expert.config().iterations,
            spectators_per_table: 50,
            hints_per_minute: 6,
        }
    }
}

impl TableLimits {
    /// For tests and load runs, whose clients make many tables from one
    /// address at machine speed: no caps on tables, watchers or hints and
    /// searches of up to a minute (the search threads as by default).
    pub fn unconstrained() -> TableLimits {
        TableLimits {
            max_tables: usize::MAX,
            max_tables_per_address: usize::MAX,
            creations_per_minute: u32::MAX,
            idle_unstarted: Duration::from_secs(30 * 24 * 3600),
            abandoned: Duration::from_secs(30 * 24 * 3600),
            max_think: Duration::from_secs(60),
            spectators_per_table: usize::MAX,
            hints_per_minute: u32::MAX,
            ..TableLimits::default()
        }
    }

    /// The bot `name` as a seat keeps it (lower case), if it is one of the
    /// built-in bots and its budget is within the ceiling: iterations up
    /// to [`TableLimits::max_iterations`], time up to
    /// [`TableLimits::max_think`], one thread (as every level searches).
    ///
    /// # Errors
    /// The name is no built-in bot, or asks for more than the ceiling.
    pub fn admit_bot(&self, name: &str) -> Result<String, BotRefused> {
        let shown = || name.chars().take(40).collect::<String>();
        let spec = BotSpec::parse(name).ok_or_else(|| BotRefused::Unknown { name: shown() })?;
        if let Some(config) = spec.search() {
            let over = |what: String| BotRefused::OverCeiling {
                name: shown(),
                what,
                iterations: self.max_iterations,
                think_ms: self.max_think.as_millis(),
            };
            if config.threads > 1 {
                return Err(over(format!("{} threads", config.threads)));
            }
            match config.time {
                Some(t) if t > self.max_think => {
                    return Err(over(format!("{} ms a decision", t.as_millis())));
                }
                Some(_) => {}
                None if config.iterations > self.max_iterations => {
                    return Err(over(format!("{} iterations", config.iterations)));
                }
                // A time budget runs as many iterations as its time allows.
                None => {}
            }
        }
        Ok(name.to_ascii_lowercase())
    }
}

/// Why a seat cannot have the bot it was given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BotRefused {
    #[error("unknown bot `{name}` (known: {})", BOT_NAMES.join(", "))]
    Unknown { name: String },
    #[error(
        "bot `{name}` asks for {what}; a bot on this server searches at most {iterations} iterations or {think_ms} ms a decision, on one thread (the levels: {})",
        BOT_NAMES.join(", ")
    )]
    OverCeiling {
        name: String,
        what: String,
        iterations: u32,
        think_ms: u128,
    },
}

/// A token bucket counted in whole requests: `per_minute` a minute, saved
/// up to as many.
#[derive(Clone, Copy, Debug)]
pub struct PerMinute {
    tokens: f64,
    at: tokio::time::Instant,
}

impl PerMinute {
    pub fn full(per_minute: u32) -> PerMinute {
        PerMinute {
            tokens: f64::from(per_minute),
            at: tokio::time::Instant::now(),
        }
    }

    /// Takes one request; `Err` with the wait until the next one is
    /// allowed.
    pub fn take(&mut self, per_minute: u32) -> Result<(), Duration> {
        let now = tokio::time::Instant::now();
        let rate = f64::from(per_minute) / 60.0;
        let cap = f64::from(per_minute);
        self.tokens = (self.tokens + (now - self.at).as_secs_f64() * rate).min(cap);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Ok(());
        }
        if rate <= 0.0 {
            return Err(Duration::MAX);
        }
        Err(Duration::from_secs_f64((1.0 - self.tokens) / rate))
    }

    /// Whether the bucket has filled up again (it may be forgotten).
    pub fn is_full(&self, per_minute: u32) -> bool {
        let rate = f64::from(per_minute) / 60.0;
        self.tokens + self.at.elapsed().as_secs_f64() * rate >= f64::from(per_minute)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_levels_and_budgets_within_the_ceiling_are_admitted() {
        let limits = TableLimits::default();
        for name in [
            "random",
            "heuristic",
            "ismcts",
            "ismcts-easy",
            "ismcts-medium",
            "ismcts-hard",
            "ISMCTS-Expert",
            "ismcts@250ms",
            "ismcts-expert@12000",
            "ismcts-hard@900ms/1",
        ] {
            let admitted = limits
                .admit_bot(name)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(admitted, name.to_ascii_lowercase());
        }
    }

    #[test]
    fn budgets_over_the_ceiling_are_refused_naming_it() {
        let limits = TableLimits::default();
        for (name, what) in [
            ("ismcts@3600000ms", "3600000 ms"),
            ("ismcts@250ms/64", "64 threads"),
            ("ismcts-expert@100000000", "100000000 iterations"),
            ("ismcts-hard@12001", "12001 iterations"),
            ("ismcts-expert/2", "2 threads"),
        ] {
            let err = limits.admit_bot(name).unwrap_err();
            assert!(matches!(err, BotRefused::OverCeiling { .. }), "{name}");
            let text = err.to_string();
            assert!(text.contains(what), "{text}");
            assert!(text.contains("12000 iterations or 900 ms"), "{text}");
        }
        for unknown in ["genius", "cmd:sh", "ismcts@", "random@5"] {
            assert!(matches!(
                limits.admit_bot(unknown),
                Err(BotRefused::Unknown { .. })
            ));
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_bucket_refuses_past_its_burst_and_refills_at_its_rate() {
        let mut bucket = PerMinute::full(3);
        for _ in 0..3 {
            bucket.take(3).unwrap();
        }
        let wait = bucket.take(3).unwrap_err();
        assert!(wait <= Duration::from_secs(20) && wait > Duration::from_secs(19));
        tokio::time::advance(Duration::from_secs(20)).await;
        bucket.take(3).unwrap();
        assert!(!bucket.is_full(3));
        tokio::time::advance(Duration::from_secs(60)).await;
        assert!(bucket.is_full(3));
        assert_eq!(PerMinute::full(0).take(0), Err(Duration::MAX));
    }
}
