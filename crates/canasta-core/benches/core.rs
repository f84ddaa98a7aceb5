//! Engine throughput: random-play hands, legal-action generation, clone.
//! `cargo bench -p canasta-core`; figures go in docs/performance.md with the
//! machine, the commit and the date.

use canasta_core::Seat;
use canasta_core::{ActionList, GameState, Phase, Rng, Rules};
use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Plays one hand with uniform choices from the full generated list.
fn random_hand(rules: &Rules, rng: &mut Rng, buf: &mut ActionList) -> usize {
    let mut g = GameState::new(rules.clone());
    g.deal_random(rng, Seat::new(0));
    let mut decisions = 0;
    while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
        g.legal_actions_into(buf);
        let a = buf[rng.below(buf.len())];
        g.apply_unchecked(a);
        decisions += 1;
    }
    decisions
}

/// Positions met in random play, to time generation and cloning on.
fn sample_positions(rules: &Rules, count: usize) -> Vec<GameState> {
    let mut rng = Rng::new(99);
    let mut buf = ActionList::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, Seat::new(0));
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            if rng.below(8) == 0 {
                out.push(g.clone());
            }
            g.legal_actions_into(&mut buf);
            let a = buf[rng.below(buf.len())];
            g.apply_unchecked(a);
        }
    }
    out.truncate(count);
    out
}

fn random_hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_hand");
    group.throughput(Throughput::Elements(1));
    for rules in canasta_core::rules::all_forms() {
        let id = format!(
            "{}/{}x{}",
            &rules.game.variant, rules.game.players, rules.game.teams
        );
        group.bench_with_input(BenchmarkId::from_parameter(id), &rules, |b, rules| {
            let mut rng = Rng::new(1);
            let mut buf = ActionList::new();
            b.iter(|| random_hand(rules, &mut rng, &mut buf));
        });
    }
    group.finish();
}

fn generation_and_clone(c: &mut Criterion) {
    let rules = Rules::classic();
    let positions = sample_positions(&rules, 512);
    let mut group = c.benchmark_group("classic4");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_actions_512_positions", |b| {
        let mut buf = ActionList::new();
        b.iter(|| {
            for p in &positions {
                p.legal_actions_into(&mut buf);
                black_box(buf.len());
            }
        });
    });
    group.bench_function("clone_512_positions", |b| {
        b.iter(|| {
            for p in &positions {
                let copy = p.clone();
                black_box(&copy);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, random_hands, generation_and_clone);
criterion_main!(benches);
