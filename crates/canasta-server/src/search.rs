//! The server's search threads: every bot decision and every hint is a
//! search, and searches run only on one of a fixed number of slots
//! ([`TableLimits::search_threads`]). A table queues at most
//! [`TableLimits::searches_per_table`] searches at once and the queue is
//! first come, first served, so the slots go round the tables in turn: one
//! table's bots never starve another's. Every search stops at
//! [`TableLimits::max_think`], and at once when the server stops.

use crate::limits::TableLimits;
use canasta_ai::{Bot, BotSpec, Stop};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The search slots, the stop signal and the cap on thinking time.
pub struct Searches {
    slots: Arc<Semaphore>,
    threads: usize,
    per_table: usize,
    max_think: Duration,
    stop: Stop,
}

/// One table's share of the slots: its searches wait here first.
pub type TableShare = Arc<Semaphore>;

impl Searches {
    pub fn new(limits: &TableLimits) -> Searches {
        let threads = limits.search_threads.max(1);
        Searches {
            slots: Arc::new(Semaphore::new(threads)),
            threads,
            per_table: limits.searches_per_table.max(1),
            max_think: limits.max_think,
            stop: Stop::new(),
        }
    }

    /// A new table's share.
    pub fn table_share(&self) -> TableShare {
        Arc::new(Semaphore::new(self.per_table))
    }

    /// The bot `name` as this server runs it: its search stops at the
    /// longest think and when the server stops. `None` for a name that is
    /// no bot.
    pub fn bot(&self, name: &str, seed: u64) -> Option<Box<dyn Bot>> {
        let mut spec = BotSpec::parse(name)?;
        if let BotSpec::Search { config, .. } = &mut spec {
            config.time = Some(
                config
                    .time
                    .map_or(self.max_think, |t| t.min(self.max_think)),
            );
        }
        Some(spec.build_stoppable(seed, Some(self.stop.clone())))
    }

    /// A hint's thinking time: the hint's own, at most the longest think.
    pub fn hint_time(&self) -> Duration {
        canasta_ai::HINT_TIME.min(self.max_think)
    }

    /// The stop signal for a search run outside [`Searches::bot`] (a hint).
    pub fn stop_signal(&self) -> Stop {
        self.stop.clone()
    }

    /// Runs `work` on a blocking thread once the table's share and a slot
    /// are free; `None` if the server stopped first.
    pub async fn run<T: Send + 'static>(
        &self,
        share: &TableShare,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let turn = share.clone().acquire_owned().await.ok()?;
        let slot = self.slots.clone().acquire_owned().await.ok()?;
        if self.stop.is_set() {
            return None;
        }
        tokio::task::spawn_blocking(move || {
            let done = work();
            drop((slot, turn));
            done
        })
        .await
        .ok()
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.threads - self.slots.available_permits()
    }

    /// Ends every search: those running return after their iteration under
    /// way, those waiting never start.
    pub fn stop(&self) {
        self.stop.set();
        self.slots.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use tokio::sync::oneshot;

    fn limits(threads: usize) -> TableLimits {
        TableLimits {
            search_threads: threads,
            ..TableLimits::default()
        }
    }

    /// Table A queues five searches before table B asks for one, on a
    /// single slot: B's search runs second, not sixth.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_slots_go_round_the_tables_in_turn() {
        let searches = Arc::new(Searches::new(&limits(1)));
        let order = Arc::new(Mutex::new(Vec::new()));
        let (a, b) = (searches.table_share(), searches.table_share());
        let (release, hold) = oneshot::channel::<()>();
        let first = {
            let (searches, a, order) = (searches.clone(), a.clone(), order.clone());
            tokio::spawn(async move {
                searches
                    .run(&a, move || {
                        let _ = hold.blocking_recv();
                        order.lock().unwrap().push("a");
                    })
                    .await
            })
        };
        while searches.running() == 0 {
            tokio::task::yield_now().await;
        }
        let mut waiting = Vec::new();
        for _ in 0..4 {
            let (searches, a, order) = (searches.clone(), a.clone(), order.clone());
            waiting.push(tokio::spawn(async move {
                searches
                    .run(&a, move || order.lock().unwrap().push("a"))
                    .await
            }));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        let (s, o) = (searches.clone(), order.clone());
        waiting.push(tokio::spawn(async move {
            s.run(&b, move || o.lock().unwrap().push("b")).await
        }));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(searches.running(), 1, "one slot");
        release.send(()).unwrap();
        first.await.unwrap().unwrap();
        for w in waiting {
            w.await.unwrap().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["a", "b", "a", "a", "a", "a"]);
    }

    #[tokio::test]
    async fn a_stopped_pool_starts_nothing_and_its_bots_stop_thinking() {
        let searches = Searches::new(&TableLimits {
            max_think: Duration::from_secs(3600),
            ..limits(1)
        });
        let share = searches.table_share();
        assert_eq!(searches.run(&share, || 7).await, Some(7));
        let rules = canasta_core::Rules::classic();
        let state = canasta_ai::search_positions(&rules, 1, 5).remove(0);
        let mut bot = searches.bot("ismcts@3600000ms", 1).unwrap();
        searches.stop();
        assert_eq!(searches.run(&share, || 7).await, None);
        // Stopped, an hour's search returns at once.
        let legal = state.legal_actions();
        let started = std::time::Instant::now();
        let action = bot.choose(&canasta_ai::Decision::new(&state, &legal));
        assert!(legal.contains(&action));
        assert!(started.elapsed() < Duration::from_secs(60));
    }
}
