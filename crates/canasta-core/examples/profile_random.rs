//! Plays random hands for profiling (`valgrind --tool=callgrind`,
//! `perf record`): `cargo run --profile profiling -p canasta-core --example
//! profile_random -- 2000 [variant [players]]` (default Classic). The
//! `profiling` profile is the release build with line tables.

use canasta_core::Seat;
use canasta_core::{ActionList, GameState, Phase, Rng, Rules};

fn main() {
    let hands: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let rules = match std::env::args().nth(2) {
        Some(v) => {
            let players = std::env::args().nth(3).and_then(|p| p.parse().ok());
            Rules::preset(&v, players, None).expect("a preset id and player count")
        }
        None => Rules::classic(),
    };
    let players = rules.game.players as usize;
    let mut rng = Rng::new(1);
    let mut buf = ActionList::new();
    let mut decisions = 0usize;
    // Every list's length and choice, folded: two builds that print the
    // same checksum generated the same lists and played the same games.
    let mut checksum = 0u64;
    let start = std::time::Instant::now();
    for h in 0..hands {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, Seat::new(h % players));
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            g.legal_actions_into(&mut buf);
            let i = rng.below(buf.len());
            checksum = checksum.wrapping_mul(0x100_0000_01b3) ^ (buf.len() * 1000 + i) as u64;
            let a = buf[i];
            g.apply_unchecked(a);
            decisions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{hands} hands, {:.1} decisions a hand, {:.0} hands/s, checksum {checksum:016x}",
        decisions as f64 / hands as f64,
        hands as f64 / secs
    );
}
