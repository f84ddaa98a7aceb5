//! Bot speed: IS-MCTS iterations per second, heuristic decisions per second.
//! `cargo bench -p canasta-ai`; figures go in docs/performance.md with the
//! machine, the commit and the date.

use canasta_ai::heuristic::{View, best};
use canasta_ai::ismcts::{Config, IsMctsBot};
use canasta_ai::{Bot, Decision, search_positions};
use canasta_core::{ActionList, GameState, Rules};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

const ITERATIONS: u32 = 500;

fn ismcts(c: &mut Criterion) {
    for (variant, players) in [("classic", 4), ("canastone", 4)] {
        let rules = Rules::preset(variant, Some(players), None).unwrap();
        let states = search_positions(&rules, 16, 5);
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
    let states = search_positions(&rules, 256, 5);
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
