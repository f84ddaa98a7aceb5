//! Runs IS-MCTS on positions of heuristic self-play, for profiling
//! (`valgrind --tool=callgrind`, `perf record`): `cargo run --profile
//! profiling -p canasta-ai --example profile_search -- [positions
//! [iterations [variant [players]]]]` (default 16 positions, 500
//! iterations, Classic 4). The `profiling` profile is the release build
//! with line tables, so the profile names functions and lines.
//!
//! Prints iterations a second and a checksum of every choice and root
//! statistic: two builds that print the same checksum searched the same
//! trees, so a speed change that keeps it changed no decision.

use canasta_ai::ismcts::{Config, IsMctsBot};
use canasta_ai::{Bot, Decision, search_positions};
use canasta_core::Rules;

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let count: usize = arg(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let iterations: u32 = arg(2).and_then(|a| a.parse().ok()).unwrap_or(500);
    let rules = match arg(3) {
        Some(v) => {
            let players = arg(4).and_then(|p| p.parse().ok());
            Rules::preset(&v, players, None).expect("a preset id and player count")
        }
        None => Rules::classic(),
    };
    let states = search_positions(&rules, count, 5);
    let mut bot = IsMctsBot::with_config(
        Config {
            iterations,
            ..canasta_ai::ismcts::DEFAULT_LEVEL.config()
        },
        1,
    );
    let mut checksum = 0u64;
    let mut fold = |x: u64| checksum = checksum.wrapping_mul(0x100_0000_01b3) ^ x;
    let start = std::time::Instant::now();
    for g in &states {
        let legal = g.legal_actions();
        let choice = bot.choose(&Decision::new(g, &legal));
        fold(
            legal
                .iter()
                .position(|a| *a == choice)
                .unwrap_or(usize::MAX) as u64,
        );
        for stat in bot.root_stats() {
            fold(u64::from(stat.visits));
            fold(stat.mean_reward.to_bits());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{count} positions x {iterations} iterations: {:.0} iterations/s, checksum {checksum:016x}",
        f64::from(iterations) * count as f64 / secs
    );
}
