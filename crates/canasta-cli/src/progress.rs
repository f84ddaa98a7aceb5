//! The progress bar of `sim` and `tournament`, on stderr when it is a
//! terminal (nothing at all otherwise).
//!
//! It shows at once and moves during games: every worker thread counts the
//! hands it finishes in shared atomic counters, and the bar redraws four
//! times a second from them: games done of the total, hands played, the
//! time so far and, once a game has ended, an estimate of the time left
//! (from the hands a game has taken so far). Counting changes nothing in
//! the games, so results stay the same for any thread count.

use crate::game::Observer;
use canasta_core::{Action, Card, GameState, HandResult, Seat};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the workers have done so far.
#[derive(Debug, Default)]
struct Counts {
    games: AtomicU64,
    hands: AtomicU64,
    /// Hands of the games that have ended.
    hands_of_ended: AtomicU64,
}

/// A snapshot of the counts, for the status text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    pub total_games: u64,
    pub games: u64,
    pub hands: u64,
    pub hands_of_ended: u64,
    pub elapsed: Duration,
}

/// The shared progress of a run of games.
pub struct Progress {
    bar: ProgressBar,
    counts: Arc<Counts>,
}

impl Progress {
    /// A bar for `total` games, drawn on stderr if it is a terminal.
    pub fn new(total: u64) -> Progress {
        if std::io::stderr().is_terminal() {
            Progress::shown(total)
        } else {
            Progress::hidden(total)
        }
    }

    /// A bar that counts but draws nothing.
    pub fn hidden(total: u64) -> Progress {
        let bar = ProgressBar::hidden();
        bar.set_length(total);
        Progress {
            bar,
            counts: Arc::new(Counts::default()),
        }
    }

    fn shown(total: u64) -> Progress {
        let counts = Arc::new(Counts::default());
        let start = Instant::now();
        let seen = Arc::clone(&counts);
        let style = ProgressStyle::with_template("{bar:24} {pos}/{len} games  {status}")
            .expect("a valid template")
            .with_key(
                "status",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let snapshot = Snapshot {
                        total_games: state.len().unwrap_or(0),
                        games: seen.games.load(Ordering::Relaxed),
                        hands: seen.hands.load(Ordering::Relaxed),
                        hands_of_ended: seen.hands_of_ended.load(Ordering::Relaxed),
                        elapsed: start.elapsed(),
                    };
                    let _ = w.write_str(&status(&snapshot));
                },
            );
        let bar = ProgressBar::new(total).with_style(style);
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress { bar, counts }
    }

    /// A hand ended (any thread).
    pub fn hand_done(&self) {
        self.counts.hands.fetch_add(1, Ordering::Relaxed);
    }

    /// A game of `hands` hands ended (any thread).
    pub fn game_done(&self, hands: u32) {
        self.counts
            .hands_of_ended
            .fetch_add(u64::from(hands), Ordering::Relaxed);
        self.counts.games.fetch_add(1, Ordering::Relaxed);
        self.bar.inc(1);
    }

    /// `inner`, counting the hands it sees end.
    pub fn observer<'a, O: Observer + ?Sized>(&'a self, inner: &'a mut O) -> Counting<'a, O> {
        Counting {
            progress: self,
            inner,
        }
    }

    /// The run is over: the bar goes.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// The run failed: the bar stays as it was, and what follows is printed
    /// under it.
    pub fn abandon(&self) {
        self.bar.abandon();
    }

    /// The counts so far (for tests).
    #[cfg(test)]
    fn snapshot(&self) -> (u64, u64, u64) {
        (
            self.counts.games.load(Ordering::Relaxed),
            self.counts.hands.load(Ordering::Relaxed),
            self.counts.hands_of_ended.load(Ordering::Relaxed),
        )
    }
}

/// An observer that counts ended hands for a [`Progress`] and passes
/// everything on to the observer it wraps.
pub struct Counting<'a, O: ?Sized> {
    progress: &'a Progress,
    inner: &'a mut O,
}

impl<O: Observer + ?Sized> Observer for Counting<'_, O> {
    fn deal(&mut self, state: &GameState, deck: &[Card], dealer: Seat) {
        self.inner.deal(state, deck, dealer);
    }
    fn times_decisions(&self) -> bool {
        self.inner.times_decisions()
    }
    fn decided(&mut self, seat: Seat, took: Duration) {
        self.inner.decided(seat, took);
    }
    fn before_action(&mut self, state: &GameState, seat: Seat, action: &Action) {
        self.inner.before_action(state, seat, action);
    }
    fn action(&mut self, state: &GameState, seat: Seat, action: &Action) {
        self.inner.action(state, seat, action);
    }
    fn hand_end(&mut self, state: &GameState, result: &HandResult) {
        self.progress.hand_done();
        self.inner.hand_end(state, result);
    }
    fn game_end(&mut self, state: &GameState) {
        self.inner.game_end(state);
    }
}

/// The time left: the share done is the hands played against the hands the
/// whole run should take at the mean of the games that have ended (never
/// less than the share of games ended). `None` before any game has ended.
pub fn time_left(s: &Snapshot) -> Option<Duration> {
    if s.games == 0 || s.total_games == 0 {
        return None;
    }
    if s.games >= s.total_games {
        return Some(Duration::ZERO);
    }
    let per_game = s.hands_of_ended as f64 / s.games as f64;
    let by_games = s.games as f64 / s.total_games as f64;
    let by_hands = if per_game > 0.0 {
        s.hands as f64 / (per_game * s.total_games as f64)
    } else {
        0.0
    };
    // Games still running may already be longer than the mean: keep the
    // share below one until every game has ended.
    let done = by_games.max(by_hands).min(0.99);
    let secs = s.elapsed.as_secs_f64() * (1.0 - done) / done;
    Some(Duration::from_secs_f64(secs.min(1e9)))
}

/// `1h 02m`, `3m 20s`, `12s`.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// The text after the bar: `1,204 hands, 1m 05s, about 3m 20s left` (the
/// time left once a game has ended).
pub fn status(s: &Snapshot) -> String {
    let hands = format!(
        "{} hand{}",
        crate::text::thousands(s.hands),
        if s.hands == 1 { "" } else { "s" }
    );
    match time_left(s) {
        Some(d) => format!(
            "{hands}, {}, about {} left",
            duration_text(s.elapsed),
            duration_text(d)
        ),
        None => format!("{hands}, {}", duration_text(s.elapsed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(games: u64, hands: u64, hands_of_ended: u64, secs: u64) -> Snapshot {
        Snapshot {
            total_games: 40,
            games,
            hands,
            hands_of_ended,
            elapsed: Duration::from_secs(secs),
        }
    }

    #[test]
    fn no_estimate_before_the_first_game_ends() {
        assert_eq!(time_left(&snap(0, 5, 0, 10)), None);
        assert_eq!(status(&snap(0, 5, 0, 10)), "5 hands, 10s");
        assert_eq!(status(&snap(0, 1, 0, 0)), "1 hand, 0s");
    }

    #[test]
    fn the_estimate_follows_the_hands_played() {
        // 4 games of 10 hands ended, 100 hands played of the 400 expected,
        // in 60 s: a quarter done, three quarters (180 s) left.
        let left = time_left(&snap(4, 100, 40, 60)).unwrap();
        assert_eq!(left.as_secs(), 180);
        assert_eq!(
            status(&snap(4, 100, 40, 60)),
            "100 hands, 1m 00s, about 3m 00s left"
        );
        // Never more done than all but the last bit, never less than the
        // games that ended.
        assert!(time_left(&snap(39, 10_000, 390, 60)).unwrap() > Duration::ZERO);
        assert_eq!(time_left(&snap(20, 0, 0, 60)).unwrap().as_secs(), 60);
        assert_eq!(time_left(&snap(40, 400, 400, 60)), Some(Duration::ZERO));
    }

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration_text(Duration::from_secs(12)), "12s");
        assert_eq!(duration_text(Duration::from_secs(200)), "3m 20s");
        assert_eq!(duration_text(Duration::from_secs(3720)), "1h 02m");
    }

    #[test]
    fn counts_come_from_every_thread() {
        let p = Progress::hidden(8);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..2 {
                        for _ in 0..3 {
                            p.hand_done();
                        }
                        p.game_done(3);
                    }
                });
            }
        });
        assert_eq!(p.snapshot(), (8, 24, 24));
        p.finish();
    }
}
