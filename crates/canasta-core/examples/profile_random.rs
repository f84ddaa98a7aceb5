//! Plays random Classic hands for profiling (`valgrind --tool=callgrind`,
//! `perf record`): `cargo run --release -p canasta-core --example profile_random -- 2000`.

use canasta_core::{ActionList, GameState, Phase, Rng, Rules};

fn main() {
    let hands: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let rules = Rules::classic();
    let mut rng = Rng::new(1);
    let mut buf = ActionList::new();
    let mut decisions = 0usize;
    let start = std::time::Instant::now();
    for h in 0..hands {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, h % 4);
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            g.legal_actions_into(&mut buf);
            let a = buf[rng.below(buf.len())];
            g.apply_unchecked(a);
            decisions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{hands} hands, {:.1} decisions a hand, {:.0} hands/s",
        decisions as f64 / hands as f64,
        hands as f64 / secs
    );
}
