//! Bot speed: IS-MCTS iterations per second, heuristic decisions per second.
//! `cargo bench -p canasta-ai`; figures go in the README with the machine.

use canasta_ai::heuristic::{View, best};
use canasta_ai::ismcts::{Config, IsMctsBot};
use canasta_ai::{Bot, Decision};
use canasta_core::{ActionList, GameState, Phase, Rng, Rules};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Positions of heuristic self-play where the seat to act has a real choice.
fn positions(rules: &Rules, count: usize) -> Vec<GameState> {
    let mut rng = Rng::new(5);
    let mut buf = ActionList::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, 0);
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            g.legal_actions_into(&mut buf);
            if buf.len() > 1 && rng.below(6) == 0 {
                out.push(g.clone());
            }
            let a = best(&View::of_state(&g), &buf);
            g.apply_unchecked(a);
        }
    }
    out.truncate(count);
    out
}

const ITERATIONS: u32 = 500;

fn ismcts(c: &mut Criterion) {
    for (variant, players) in [("classic", 4), ("canastone", 4)] {
        let rules = Rules::preset(variant, Some(players), None).unwrap();
        let states = positions(&rules, 16);
        let legals: Vec<ActionList> = states.iter().map(GameState::legal_actions).collect();
        let mut group = c.benchmark_group(format!("ismcts/{variant}{players}"));
        // One element is one iteration: the throughput is iterations per second.
        group.throughput(Throughput::Elements(
            u64::from(ITERATIONS) * states.len() as u64,
        ));
        group.sample_size(10);
        // Root parallelism: the same iterations shared by two threads; the
        // throughputs' ratio is the speed-up at a fixed time budget.
        for threads in [1, 2] {
            let name = if threads == 1 {
                "iterations".to_string()
            } else {
                format!("iterations, {threads} threads")
            };
            group.bench_function(name, |b| {
                let mut bot = IsMctsBot::with_config(
                    Config {
                        iterations: ITERATIONS,
                        threads,
                        ..canasta_ai::ismcts::DEFAULT_LEVEL.config()
                    },
                    1,
                );
                b.iter(|| {
                    for (g, legal) in states.iter().zip(&legals) {
                        black_box(bot.choose(&Decision::new(g, legal)));
                        assert_eq!(bot.last_iterations(), ITERATIONS);
                    }
                });
            });
        }
        group.finish();
    }
}

fn heuristic(c: &mut Criterion) {
    let rules = Rules::classic();
    let states = positions(&rules, 256);
    let legals: Vec<ActionList> = states.iter().map(GameState::legal_actions).collect();
    let mut group = c.benchmark_group("heuristic/classic4");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("decisions", |b| {
        b.iter(|| {
            for (g, legal) in states.iter().zip(&legals) {
                black_box(best(&View::of_state(g), legal));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, ismcts, heuristic);
criterion_main!(benches);
