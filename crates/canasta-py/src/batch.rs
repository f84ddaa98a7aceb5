//! Many episodes stepped at once, for throughput: each step writes the
//! observation of the seat to act, the legal-step mask, the rewards and
//! the done and truncation flags of every episode into flat buffers the
//! caller owns (NumPy arrays, written in place), split over threads by
//! rayon. An episode that ends starts the next game by itself: in the same
//! step (`Autoreset::SameStep`, so the batch never waits) or on the next
//! step, which ignores its action (`Autoreset::NextStep`, gymnasium's
//! default, so the step that ends a game shows its last observation).
//!
//! Games are numbered so that the run is the same whatever the threads:
//! episode `i` plays games `i`, `i + n`, `i + 2n`, ... of the seed's
//! stream (the numbering of `canasta sim --seed`).

use crate::encoding::NUM_ACTIONS;
use crate::episode::{Config, Episode, EpisodeError, Mover};
use canasta_core::{Rng, Rules};
use rayon::prelude::*;

/// Episodes per rayon task: enough work to pay for the hand-off.
const CHUNK: usize = 32;

/// When an episode that ended starts its next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// In the step that ended it: the step returns the new game's first
    /// observation, and the last one of the old game is never written.
    SameStep,
    /// In the step after: the step that ended it writes the finished
    /// game's observation (of the seat that acted, with an empty mask and
    /// no seat to act), and the next step starts the new game whatever its
    /// action, with zero rewards and no done flag.
    NextStep,
}

pub struct Batch {
    episodes: Vec<Slot>,
    rules: Rules,
    config: Config,
    seed: u64,
    obs_size: usize,
    players: usize,
    parallel: bool,
    autoreset: Autoreset,
    writes: Writes,
}

/// Which views a step writes: a caller that reads no observations (or no
/// masks) is spared the cost of writing them, most of a step's memory
/// traffic (828 floats and 1,843 booleans a game in four-player Classic).
/// What is not written keeps whatever it held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Writes {
    pub observations: bool,
    pub masks: bool,
}

struct Slot {
    episode: Episode,
    /// Games this slot has started (its next game number is `i + n * games`).
    games: u64,
    /// For `sample_legal`.
    rng: Rng,
    /// The seat that took the last step: whose view a finished game shows.
    acted: usize,
}

/// The caller's buffers for one step of every episode, row `i` for episode
/// `i`: observations (`obs_size` each), masks (`NUM_ACTIONS`), rewards
/// (one per seat), done flags (set when a game ended, played out or cut
/// off), truncation flags (set when it was cut off by `max_hands`), and
/// the seat to act (-1 for a finished game awaiting its next step).
pub struct Buffers<'a> {
    pub obs: &'a mut [f32],
    pub masks: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub dones: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_play: &'a mut [i64],
}

/// A step refused: which episode, and why. No episode changed.
#[derive(Debug)]
pub struct BatchError {
    pub episode: usize,
    pub error: EpisodeError,
}

impl Batch {
    /// `n` episodes of `rules` (chance from the seeded stream; records off
    /// unless `config.record`).
    pub fn new(n: usize, rules: Rules, config: Config, seed: u64) -> Batch {
        let config = Config {
            explicit_chance: false,
            ..config
        };
        let episodes = (0..n)
            .map(|i| Slot {
                episode: Episode::new(rules.clone(), config, seed, i as u64),
                games: 1,
                rng: Rng::stream(seed ^ 0x5eed_5a3b_1e00_0000, i as u64),
                acted: 0,
            })
            .collect();
        Batch {
            obs_size: crate::tensor::Layout::of(&rules).size(),
            players: usize::from(rules.game.players),
            episodes,
            rules,
            config,
            seed,
            parallel: true,
            autoreset: Autoreset::SameStep,
            writes: Writes {
                observations: true,
                masks: true,
            },
        }
    }

    /// Which views the steps write (both by default).
    pub fn set_writes(&mut self, writes: Writes) {
        self.writes = writes;
    }

    /// When a game that ended starts the next (same step by default).
    pub fn set_autoreset(&mut self, autoreset: Autoreset) {
        self.autoreset = autoreset;
    }

    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }

    /// Whether to split the games over rayon's threads (the pool the
    /// caller installs); off, they are stepped one after another on the
    /// calling thread.
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    pub fn len(&self) -> usize {
        self.episodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.episodes.is_empty()
    }

    pub fn obs_size(&self) -> usize {
        self.obs_size
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn episode(&self, i: usize) -> &Episode {
        &self.episodes[i].episode
    }

    /// Restarts every episode from its first game.
    pub fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) {
        if let Some(s) = seed {
            self.seed = s;
        }
        let (rules, config, seed) = (&self.rules, self.config, self.seed);
        for (i, slot) in self.episodes.iter_mut().enumerate() {
            slot.episode = Episode::new(rules.clone(), config, seed, i as u64);
            slot.games = 1;
            slot.rng = Rng::stream(seed ^ 0x5eed_5a3b_1e00_0000, i as u64);
            slot.acted = 0;
        }
        out.rewards.fill(0.0);
        out.dones.fill(false);
        out.truncated.fill(false);
        self.write_views(out.obs, out.masks, out.to_play);
    }

    /// Writes each episode's observation (of the seat to act), mask and
    /// seat to act.
    pub fn write_views(&self, obs: &mut [f32], masks: &mut [bool], to_play: &mut [i64]) {
        let (o, m) = (self.obs_size, NUM_ACTIONS);
        let writes = self.writes;
        let one = |((slot, obs), mask): ((&Slot, &mut [f32]), &mut [bool]), who: &mut i64| {
            view(slot, writes, obs, mask, who)
        };
        if self.parallel {
            self.episodes
                .par_iter()
                .zip(obs.par_chunks_mut(o))
                .zip(masks.par_chunks_mut(m))
                .zip(to_play.par_iter_mut())
                .with_min_len(CHUNK)
                .for_each(|(x, who)| one(x, who));
        } else {
            self.episodes
                .iter()
                .zip(obs.chunks_mut(o))
                .zip(masks.chunks_mut(m))
                .zip(to_play.iter_mut())
                .for_each(|(x, who)| one(x, who));
        }
    }

    /// Every seat's observation of every episode, episode `i`'s seat `s` at
    /// row `i * players + s` (`obs_size` each): what a centralised critic
    /// learns from. Each row is only what that seat may know, but together
    /// they are the whole table, so a policy must not read them.
    pub fn write_all_observations(&self, out: &mut [f32]) {
        let (o, p) = (self.obs_size, self.players);
        let one = |(slot, rows): (&Slot, &mut [f32])| {
            for (seat, row) in rows.chunks_mut(o).enumerate() {
                slot.episode.observe_into(seat, row);
            }
        };
        if self.parallel {
            self.episodes
                .par_iter()
                .zip(out.par_chunks_mut(o * p))
                .with_min_len(CHUNK)
                .for_each(one);
        } else {
            self.episodes
                .iter()
                .zip(out.chunks_mut(o * p))
                .for_each(one);
        }
    }

    /// A uniform legal step for every episode, from each episode's own
    /// stream (0 for a finished game awaiting its next step, which ignores
    /// it).
    pub fn sample_legal(&mut self, out: &mut [i64]) {
        let one = |(slot, out): (&mut Slot, &mut i64)| {
            let legal = slot.episode.speller().legal();
            *out = if slot.episode.is_terminal() {
                0
            } else {
                i64::from(legal[slot.rng.below(legal.len())])
            };
        };
        if self.parallel {
            self.episodes
                .par_iter_mut()
                .zip(out.par_iter_mut())
                .with_min_len(CHUNK)
                .for_each(one);
        } else {
            self.episodes.iter_mut().zip(out.iter_mut()).for_each(one);
        }
    }

    /// Steps every episode with its action id, then writes the views. A
    /// finished game (`Autoreset::NextStep` only) ignores its id and starts
    /// the next.
    ///
    /// # Errors
    /// The first episode whose id is not legal; then no episode moved.
    pub fn step(&mut self, actions: &[i64], out: Buffers<'_>) -> Result<(), BatchError> {
        // Check first, so that a bad id anywhere leaves every game as it was.
        for (i, (slot, &a)) in self.episodes.iter().zip(actions).enumerate() {
            if slot.episode.is_terminal() {
                continue;
            }
            let legal = u16::try_from(a)
                .is_ok_and(|a| slot.episode.speller().legal().binary_search(&a).is_ok());
            if !legal {
                let mut probe = slot.episode.clone();
                let error = probe
                    .step(usize::try_from(a).unwrap_or(usize::MAX))
                    .expect_err("an id the mask refuses is refused");
                return Err(BatchError { episode: i, error });
            }
        }
        let (o, m, p) = (self.obs_size, NUM_ACTIONS, self.players);
        let (rules, config, seed, n) = (&self.rules, self.config, self.seed, self.len() as u64);
        let same_step = self.autoreset == Autoreset::SameStep;
        let writes = self.writes;
        let restart = |i: usize, slot: &mut Slot| {
            let index = i as u64 + n * slot.games;
            slot.episode = Episode::new(rules.clone(), config, seed, index);
            slot.games += 1;
        };
        let one = |(((((((i, slot), &a), obs), mask), reward), done), truncated): Row<'_>,
                   who: &mut i64| {
            reward.fill(0.0);
            *done = false;
            *truncated = false;
            if slot.episode.is_terminal() {
                restart(i, slot);
            } else {
                if let Mover::Seat(s) = slot.episode.mover() {
                    slot.acted = s;
                }
                slot.episode.step(a as usize).expect("checked legal above");
                if slot.episode.is_terminal() {
                    *done = true;
                    *truncated = slot.episode.is_truncated();
                    for (r, x) in reward.iter_mut().zip(slot.episode.returns()) {
                        *r = *x as f32;
                    }
                    if same_step {
                        restart(i, slot);
                    }
                }
            }
            view(slot, writes, obs, mask, who);
        };
        if self.parallel {
            self.episodes
                .par_iter_mut()
                .enumerate()
                .zip(actions.par_iter())
                .zip(out.obs.par_chunks_mut(o))
                .zip(out.masks.par_chunks_mut(m))
                .zip(out.rewards.par_chunks_mut(p))
                .zip(out.dones.par_iter_mut())
                .zip(out.truncated.par_iter_mut())
                .zip(out.to_play.par_iter_mut())
                .with_min_len(CHUNK)
                .for_each(|(row, who)| one(row, who));
        } else {
            self.episodes
                .iter_mut()
                .enumerate()
                .zip(actions.iter())
                .zip(out.obs.chunks_mut(o))
                .zip(out.masks.chunks_mut(m))
                .zip(out.rewards.chunks_mut(p))
                .zip(out.dones.iter_mut())
                .zip(out.truncated.iter_mut())
                .zip(out.to_play.iter_mut())
                .for_each(|(row, who)| one(row, who));
        }
        Ok(())
    }
}

/// One game's part of a step: its number and slot, its action, and its rows
/// of the observations, masks, rewards, done and truncation flags.
type Row<'a> = (
    (
        (
            (
                (((usize, &'a mut Slot), &'a i64), &'a mut [f32]),
                &'a mut [bool],
            ),
            &'a mut [f32],
        ),
        &'a mut bool,
    ),
    &'a mut bool,
);

/// The slot's observation, mask and seat to act: those of the seat to act,
/// or for a finished game (kept until the next step with
/// `Autoreset::NextStep`) the view of the seat that ended it, an empty mask
/// and -1. The observation and the mask only where `writes` asks.
fn view(slot: &Slot, writes: Writes, obs: &mut [f32], mask: &mut [bool], who: &mut i64) {
    let ep = &slot.episode;
    let (seat, to_play) = match ep.mover() {
        Mover::Seat(s) => (s, s as i64),
        Mover::Terminal => (slot.acted, -1),
        // Episodes of a batch deal by themselves.
        Mover::Chance => unreachable!("a batch episode never waits for chance"),
    };
    if writes.observations {
        ep.observe_into(seat, obs);
    }
    if writes.masks {
        ep.write_mask(mask);
    }
    *who = to_play;
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Owned {
        obs: Vec<f32>,
        masks: Vec<bool>,
        rewards: Vec<f32>,
        dones: Vec<bool>,
        truncated: Vec<bool>,
        to_play: Vec<i64>,
    }

    impl Owned {
        fn new(b: &Batch) -> Owned {
            let n = b.len();
            Owned {
                obs: vec![0.0; n * b.obs_size()],
                masks: vec![false; n * NUM_ACTIONS],
                rewards: vec![0.0; n * b.players()],
                dones: vec![false; n],
                truncated: vec![false; n],
                to_play: vec![0; n],
            }
        }
        fn buffers(&mut self) -> Buffers<'_> {
            Buffers {
                obs: &mut self.obs,
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
                truncated: &mut self.truncated,
                to_play: &mut self.to_play,
            }
        }
    }

    #[test]
    fn a_batch_plays_games_to_the_end_and_restarts_them() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let config = Config {
            length: crate::episode::Length::Hand,
            record: false,
            ..Config::default()
        };
        let mut b = Batch::new(5, rules, config, 3);
        let mut o = Owned::new(&b);
        b.reset(None, o.buffers());
        let mut actions = vec![0i64; 5];
        let mut ended = 0;
        for _ in 0..3000 {
            b.sample_legal(&mut actions);
            for (i, &a) in actions.iter().enumerate() {
                assert!(o.masks[i * NUM_ACTIONS + a as usize]);
            }
            b.step(&actions, o.buffers()).unwrap();
            for i in 0..5 {
                if o.dones[i] {
                    ended += 1;
                    let r = &o.rewards[i * 2..i * 2 + 2];
                    assert!((r[0] + r[1]).abs() < 1e-6);
                }
            }
        }
        assert!(ended > 0);
        // A bad id moves nothing.
        let before = o.obs.clone();
        let mut bad = actions.clone();
        b.sample_legal(&mut bad);
        bad[2] = (0..NUM_ACTIONS as i64)
            .find(|&a| !o.masks[2 * NUM_ACTIONS + a as usize])
            .unwrap();
        let e = b.step(&bad, o.buffers()).err().unwrap();
        assert_eq!(e.episode, 2);
        b.write_views(&mut o.obs, &mut o.masks, &mut o.to_play);
        assert_eq!(o.obs, before);
    }

    #[test]
    fn threads_do_not_change_the_games() {
        let rules = Rules::preset("samba", Some(2), None).unwrap();
        let config = Config {
            length: crate::episode::Length::Hand,
            record: false,
            ..Config::default()
        };
        for autoreset in [Autoreset::SameStep, Autoreset::NextStep] {
            let mut runs = Vec::new();
            for parallel in [true, false] {
                let mut b = Batch::new(70, rules.clone(), config, 11);
                b.set_parallel(parallel);
                b.set_autoreset(autoreset);
                let mut o = Owned::new(&b);
                b.reset(None, o.buffers());
                let mut actions = vec![0i64; 70];
                let mut trace = Vec::new();
                for _ in 0..800 {
                    b.sample_legal(&mut actions);
                    b.step(&actions, o.buffers()).unwrap();
                    trace.extend_from_slice(&actions);
                    trace.extend(o.dones.iter().map(|&d| i64::from(d)));
                    trace.extend_from_slice(&o.to_play);
                }
                // Finished games wait for a step (to_play -1) only in next-step mode.
                let waited = trace.contains(&-1);
                assert_eq!(waited, autoreset == Autoreset::NextStep);
                runs.push((trace, o.obs.clone(), o.rewards.clone()));
            }
            assert_eq!(runs[0], runs[1], "{autoreset:?}");
        }
    }

    #[test]
    fn next_step_autoreset_shows_the_end_then_restarts_ignoring_the_action() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let config = Config {
            length: crate::episode::Length::Hand,
            record: false,
            ..Config::default()
        };
        let n = 4;
        let mut b = Batch::new(n, rules.clone(), config, 5);
        b.set_autoreset(Autoreset::NextStep);
        let mut o = Owned::new(&b);
        b.reset(None, o.buffers());
        let mut actions = vec![0i64; n];
        let mut ended = 0;
        for _ in 0..4000 {
            let was_over: Vec<bool> = o.to_play.iter().map(|&t| t == -1).collect();
            let acting = o.to_play.clone();
            b.sample_legal(&mut actions);
            // A finished game takes any id, even one no game could play.
            for i in 0..n {
                if was_over[i] {
                    actions[i] = -7;
                }
            }
            b.step(&actions, o.buffers()).unwrap();
            for i in 0..n {
                let mask = &o.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                if was_over[i] {
                    // The next game, from its first decision.
                    assert!(!o.dones[i] && o.to_play[i] >= 0);
                    assert!(o.rewards[i * 2..i * 2 + 2].iter().all(|&r| r == 0.0));
                    assert!(b.episode(i).decisions() == 0);
                } else if o.dones[i] {
                    ended += 1;
                    assert_eq!(o.to_play[i], -1);
                    assert!(mask.iter().all(|&m| !m));
                    assert!(b.episode(i).is_terminal());
                    // The finished game's view, of the seat that ended it.
                    let mut expect = vec![0.0; b.obs_size()];
                    b.episode(i).observe_into(acting[i] as usize, &mut expect);
                    assert_eq!(o.obs[i * b.obs_size()..(i + 1) * b.obs_size()], expect[..]);
                    assert!(!o.truncated[i], "a hand played out is not cut off");
                } else {
                    assert!(mask.iter().any(|&m| m));
                }
            }
        }
        assert!(ended > 0);
    }

    #[test]
    fn a_game_cut_off_by_max_hands_is_truncated() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let config = Config {
            length: crate::episode::Length::Game,
            max_hands: 1,
            record: false,
            ..Config::default()
        };
        let mut b = Batch::new(3, rules, config, 9);
        let mut o = Owned::new(&b);
        b.reset(None, o.buffers());
        let mut actions = vec![0i64; 3];
        let mut ended = 0;
        for _ in 0..3000 {
            b.sample_legal(&mut actions);
            b.step(&actions, o.buffers()).unwrap();
            for i in 0..3 {
                assert_eq!(o.truncated[i], o.dones[i], "one hand never reaches 5,000");
                ended += usize::from(o.dones[i]);
            }
        }
        assert!(ended > 0);
    }

    #[test]
    fn views_not_asked_for_are_not_written_and_the_games_are_the_same() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let config = Config {
            length: crate::episode::Length::Hand,
            record: false,
            ..Config::default()
        };
        let mut full = Batch::new(4, rules.clone(), config, 2);
        let mut lean = Batch::new(4, rules, config, 2);
        lean.set_writes(Writes {
            observations: false,
            masks: false,
        });
        let (mut f, mut l) = (Owned::new(&full), Owned::new(&lean));
        full.reset(None, f.buffers());
        lean.reset(None, l.buffers());
        let mut actions = vec![0i64; 4];
        for _ in 0..500 {
            full.sample_legal(&mut actions);
            full.step(&actions, f.buffers()).unwrap();
            lean.step(&actions, l.buffers()).unwrap();
            assert_eq!(
                (&f.rewards, &f.dones, &f.to_play),
                (&l.rewards, &l.dones, &l.to_play)
            );
        }
        assert!(f.obs.iter().any(|&x| x != 0.0) && f.masks.iter().any(|&m| m));
        assert!(l.obs.iter().all(|&x| x == 0.0) && l.masks.iter().all(|&m| !m));
    }

    #[test]
    fn all_observations_are_each_seats_own() {
        let rules = Rules::preset("samba", Some(4), None).unwrap();
        let config = Config {
            record: false,
            ..Config::default()
        };
        let mut b = Batch::new(3, rules, config, 4);
        let mut o = Owned::new(&b);
        b.reset(None, o.buffers());
        let mut actions = vec![0i64; 3];
        for _ in 0..50 {
            b.sample_legal(&mut actions);
            b.step(&actions, o.buffers()).unwrap();
        }
        let (size, p) = (b.obs_size(), b.players());
        let mut all = vec![0.0; 3 * p * size];
        b.write_all_observations(&mut all);
        let mut one = vec![0.0; size];
        for i in 0..3 {
            for seat in 0..p {
                b.episode(i).observe_into(seat, &mut one);
                let row = (i * p + seat) * size;
                assert_eq!(all[row..row + size], one[..]);
            }
            let to_play = o.to_play[i] as usize;
            let row = (i * p + to_play) * size;
            assert_eq!(all[row..row + size], o.obs[i * size..(i + 1) * size]);
        }
    }
}
