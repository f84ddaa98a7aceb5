//! The learning environment's costs, without Python: one random id step of
//! an episode (with and without its observation), and one `VecEnv` step of
//! 64 games on the calling thread (`sample_legal` + `step`, observations
//! and masks written). `python examples/python/bench.py` measures the same
//! through Python.

use _canasta::batch::{Batch, Buffers};
use _canasta::encoding::NUM_ACTIONS;
use _canasta::episode::{Config, Episode};
use canasta_core::{Rng, Rules};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn config() -> Config {
    Config {
        record: false,
        ..Config::default()
    }
}

fn episode_steps(c: &mut Criterion) {
    let rules = Rules::preset("classic", Some(4), None).unwrap();
    for observe in [false, true] {
        let name = if observe {
            "episode step + observation"
        } else {
            "episode step"
        };
        c.bench_function(name, |b| {
            let mut rng = Rng::new(1);
            let mut index = 0;
            let mut ep = Episode::new(rules.clone(), config(), 1, index);
            let mut obs = vec![0.0f32; ep.layout().size()];
            b.iter(|| {
                if ep.is_terminal() {
                    index += 1;
                    ep = Episode::new(rules.clone(), config(), 1, index);
                }
                let legal = ep.speller().legal();
                let id = legal[rng.below(legal.len())];
                ep.step(usize::from(id)).unwrap();
                if observe && let _canasta::episode::Mover::Seat(s) = ep.mover() {
                    ep.observe_into(s, &mut obs);
                }
                black_box(&obs);
            });
        });
    }
}

fn batch_step(c: &mut Criterion) {
    let rules = Rules::preset("classic", Some(4), None).unwrap();
    let n = 64;
    let mut batch = Batch::new(n, rules, config(), 1);
    batch.set_parallel(false);
    let mut obs = vec![0.0f32; n * batch.obs_size()];
    let mut masks = vec![false; n * NUM_ACTIONS];
    let mut rewards = vec![0.0f32; n * batch.players()];
    let mut dones = vec![false; n];
    let mut truncated = vec![false; n];
    let mut to_play = vec![0i64; n];
    let mut actions = vec![0i64; n];
    c.bench_function("VecEnv step of 64 games, one thread", |b| {
        b.iter(|| {
            batch.sample_legal(&mut actions);
            let bufs = Buffers {
                obs: &mut obs,
                masks: &mut masks,
                rewards: &mut rewards,
                dones: &mut dones,
                truncated: &mut truncated,
                to_play: &mut to_play,
            };
            batch.step(&actions, bufs).unwrap();
        });
    });
}

criterion_group!(benches, episode_steps, batch_step);
criterion_main!(benches);
