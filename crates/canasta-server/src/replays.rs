//! Finished games' replays for `GET /api/tables/{id}/replay/{step}`: each
//! game replayed once, every step's answer rendered in that one pass and
//! kept for the next requests (a finished record never changes), within
//! bounds on the tables and the bytes kept. Stepping through a game costs
//! one replay, not one a step.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Finished tables whose steps are kept at most.
pub const KEPT_TABLES: usize = 16;
/// Bytes of rendered steps kept at most, all tables together (a long
/// game's steps take a few megabytes).
pub const KEPT_BYTES: usize = 64 * 1024 * 1024;

/// One game's steps: the JSON answer for each, in order.
pub type Steps = Arc<Vec<String>>;

/// The steps of the tables replayed lately, the latest last.
#[derive(Debug, Default)]
pub struct ReplayCache {
    kept: Mutex<VecDeque<(String, Steps, usize)>>,
}

impl ReplayCache {
    /// Table `id`'s steps, if kept.
    pub fn get(&self, id: &str) -> Option<Steps> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let at = kept.iter().position(|(kept_id, _, _)| kept_id == id)?;
        let entry = kept.remove(at)?;
        let steps = entry.1.clone();
        kept.push_back(entry);
        Some(steps)
    }

    /// Keeps table `id`'s steps, forgetting the least recent tables beyond
    /// the bounds (a game larger than all of [`KEPT_BYTES`] is not kept).
    pub fn keep(&self, id: &str, steps: Steps) {
        let bytes: usize = steps.iter().map(String::len).sum();
        if bytes > KEPT_BYTES {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(kept_id, _, _)| kept_id != id);
        kept.push_back((id.to_string(), steps, bytes));
        let mut total: usize = kept.iter().map(|(_, _, b)| b).sum();
        while kept.len() > KEPT_TABLES || total > KEPT_BYTES {
            let Some((_, _, b)) = kept.pop_front() else {
                break;
            };
            total -= b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(n: usize, bytes: usize) -> Steps {
        Arc::new(vec!["x".repeat(bytes); n])
    }

    #[test]
    fn the_latest_tables_are_kept_within_the_bounds() {
        let cache = ReplayCache::default();
        for t in 0..KEPT_TABLES + 3 {
            cache.keep(&format!("t{t}"), steps(2, 10));
        }
        assert!(cache.get("t0").is_none());
        assert!(cache.get("t2").is_none());
        assert_eq!(cache.get("t3").unwrap().len(), 2);
        cache.keep("big", steps(1, KEPT_BYTES / 2 + 1));
        cache.keep("bigger", steps(1, KEPT_BYTES / 2 + 1));
        assert!(cache.get("big").is_none(), "the bytes bound holds");
        assert!(cache.get("bigger").is_some());
        cache.keep("huge", steps(1, KEPT_BYTES + 1));
        assert!(cache.get("huge").is_none());
        assert!(cache.get("bigger").is_some());
    }
}
