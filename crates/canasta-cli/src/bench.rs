//! `canasta bench`: in-process engine throughput on one thread, and the
//! search's iterations at a fixed time a decision on one and two threads.

use crate::text::thousands;
use anyhow::{anyhow, bail};
use canasta_ai::ismcts::{Config, DEFAULT_LEVEL, IsMctsBot};
use canasta_ai::{Bot, Decision, search_positions};
use canasta_core::Seat;
use canasta_core::rules::all_forms;
use canasta_core::{ActionList, GameState, Phase, Rng, Rules, shuffled_deck};
use clap::Args;
use serde_json::json;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Seconds for each measurement.
    ///
    /// There are three measurements for Classic 4 players, one for every
    /// other preset and player count, and two of the search (one thread,
    /// two threads, at 20 ms a decision).
    #[arg(long, short = 's', default_value_t = 1.0, value_name = "S")]
    pub seconds: f64,
    /// Seed of the random hands.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Random hands: each decision is a uniform choice from the full generated list.
struct Hands {
    hands: u64,
    decisions: u64,
    seconds: f64,
}

/// Plays one random hand from a fresh game, calling `visit` at every decision.
fn random_hand(
    rules: &Rules,
    rng: &mut Rng,
    dealer: Seat,
    buf: &mut ActionList,
    mut visit: impl FnMut(&GameState),
) -> anyhow::Result<u64> {
    let mut g = GameState::new(rules.clone());
    while g
        .deal(&shuffled_deck(rules, rng), dealer)
        .map_err(|e| anyhow!("deal: {e}"))?
        == canasta_core::DealOutcome::Annulled
    {}
    let mut decisions = 0u64;
    while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
        g.legal_actions_into(buf);
        if buf.is_empty() {
            bail!("no legal action in a random hand:\n{}", g.describe());
        }
        visit(&g);
        let a = buf[rng.below(buf.len())];
        g.apply_unchecked(a);
        decisions += 1;
        if decisions > 1_000_000 {
            bail!("a random hand did not end");
        }
    }
    black_box(g.last_hand());
    Ok(decisions)
}

fn hands_per_second(rules: &Rules, seed: u64, budget: Duration) -> anyhow::Result<Hands> {
    let mut rng = Rng::new(seed);
    let mut buf = ActionList::new();
    let n = rules.game.players as usize;
    let start = Instant::now();
    let (mut hands, mut decisions) = (0u64, 0u64);
    while hands == 0 || start.elapsed() < budget {
        decisions += random_hand(
            rules,
            &mut rng,
            Seat::new(hands as usize % n),
            &mut buf,
            |_| {},
        )?;
        hands += 1;
    }
    Ok(Hands {
        hands,
        decisions,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// States met in random hands: a sample for generation and clone timings.
fn sample_states(rules: &Rules, seed: u64, want: usize) -> anyhow::Result<Vec<GameState>> {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut buf = ActionList::new();
    let mut states = Vec::new();
    let mut hand = 0;
    while states.len() < want {
        let mut i = 0u64;
        random_hand(
            rules,
            &mut rng,
            Seat::new(hand % rules.game.players as usize),
            &mut buf,
            |g| {
                // Every 7th decision, to spread the sample over the hand.
                if i.is_multiple_of(7) {
                    states.push(g.clone());
                }
                i += 1;
            },
        )?;
        hand += 1;
    }
    Ok(states)
}

/// Runs `f` over the sample until the budget is spent; returns (calls, seconds).
fn time_over(states: &[GameState], budget: Duration, mut f: impl FnMut(&GameState)) -> (u64, f64) {
    let start = Instant::now();
    let mut calls = 0u64;
    while calls == 0 || start.elapsed() < budget {
        for s in states {
            f(s);
        }
        calls += states.len() as u64;
    }
    (calls, start.elapsed().as_secs_f64())
}

/// Search iterations a second with `threads` threads, each decision given
/// `per_decision` (root parallelism: every thread searches that long).
fn search_rate(states: &[GameState], threads: usize, per_decision: Duration) -> f64 {
    let mut bot = IsMctsBot::with_config(
        Config {
            iterations: u32::MAX,
            time: Some(per_decision),
            threads,
            ..DEFAULT_LEVEL.config()
        },
        1,
    );
    let (mut iterations, mut seconds) = (0u64, 0.0);
    for g in states {
        let legal = g.legal_actions();
        let start = Instant::now();
        black_box(bot.choose(&Decision::new(g, &legal)));
        seconds += start.elapsed().as_secs_f64();
        iterations += u64::from(bot.last_iterations());
    }
    iterations as f64 / seconds
}

/// A rate as a whole number with thousands separators.
fn per_sec(x: f64) -> String {
    thousands(x.round().max(0.0) as u64)
}

pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        bail!("--seconds must be more than 0 and at most 3600");
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let classic = Rules::preset("classic", Some(4), None).map_err(|e| anyhow!("{e}"))?;

    let main = hands_per_second(&classic, args.seed, budget)?;
    let states = sample_states(&classic, args.seed, 2000)?;
    let mut buf = ActionList::new();
    let mut listed = 0u64;
    let (lists, list_secs) = time_over(&states, budget, |s| {
        s.legal_actions_into(&mut buf);
        listed += buf.len() as u64;
        black_box(&buf);
    });
    let (clones, clone_secs) = time_over(&states, budget / 2, |s| {
        black_box(black_box(s).clone());
    });

    let mut others = Vec::new();
    for rules in all_forms() {
        if rules.game.variant == "classic" && rules.game.players == 4 {
            continue;
        }
        let h = hands_per_second(&rules, args.seed, budget)?;
        others.push((rules, h));
    }

    // The search: 20 ms a decision, as many positions as fill the budget.
    let per_decision = Duration::from_millis(20);
    let positions = ((args.seconds / 0.02).round() as usize).max(1);
    let search_states = search_positions(&classic, positions, args.seed ^ 0x5ea7c4);
    let one_thread = search_rate(&search_states, 1, per_decision);
    let two_threads = search_rate(&search_states, 2, per_decision);

    let hps = main.hands as f64 / main.seconds;
    let per_hand = main.decisions as f64 / main.hands as f64;
    let lps = lists as f64 / list_secs;
    let mean_len = listed as f64 / lists as f64;
    let clone_ns = clone_secs * 1e9 / clones as f64;
    let size = std::mem::size_of::<GameState>();
    // How many times Classic 4's time a card of the deck costs: decks differ
    // in size (108 to 216 cards), so presets compare per card dealt.
    let classic_cards_per_second = hps * classic.deal.deck_size() as f64;
    let cost_per_card = |r: &Rules, h: &Hands| {
        classic_cards_per_second / (h.hands as f64 / h.seconds * r.deal.deck_size() as f64)
    };
    if args.json {
        let rows: Vec<_> = others
            .iter()
            .map(|(r, h)| {
                json!({
                    "variant": &r.game.variant, "players": r.game.players, "teams": r.game.teams,
                    "cards": r.deal.deck_size(),
                    "hands_per_second": h.hands as f64 / h.seconds,
                    "decisions_per_hand": h.decisions as f64 / h.hands as f64,
                    "cost_per_card_vs_classic_4": cost_per_card(r, h),
                })
            })
            .collect();
        let out = json!({
            "classic_4": {
                "hands_per_second": hps,
                "decisions_per_hand": per_hand,
                "decisions_per_second": main.decisions as f64 / main.seconds,
                "legal_lists_per_second": lps,
                "mean_legal_actions": mean_len,
                "clone_ns": clone_ns,
                "state_bytes": size,
                "sample_states": states.len(),
            },
            "others": rows,
            "search_classic_4": {
                "ms_per_decision": 20,
                "positions": search_states.len(),
                "iterations_per_second_1_thread": one_thread,
                "iterations_per_second_2_threads": two_threads,
                "speedup_2_threads": two_threads / one_thread,
            },
            "seconds_per_measurement": args.seconds,
            "debug_build": cfg!(debug_assertions),
        });
        outln!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    if cfg!(debug_assertions) {
        outln!("note: a debug build; use `cargo run --release -- bench` for real figures");
    }
    outln!("Classic, 4 players, one thread (random hands, uniform over the full list):");
    outln!("  complete hands per second     {:>12}", per_sec(hps));
    outln!("  decisions per hand            {per_hand:>12.1}");
    outln!(
        "  decisions per second          {:>12}",
        per_sec(main.decisions as f64 / main.seconds)
    );
    outln!(
        "  legal-action lists per second {:>12}  (mean {mean_len:.1} actions, {} sampled states)",
        per_sec(lps),
        thousands(states.len() as u64)
    );
    outln!("  GameState clone               {clone_ns:>12.1} ns");
    outln!("  GameState size                {size:>12} bytes");
    outln!();
    outln!(
        "  {:<10} {:>7} {:>5} {:>5} {:>10} {:>14} {:>9}",
        "variant",
        "players",
        "teams",
        "cards",
        "hands/s",
        "decisions/hand",
        "cost/card"
    );
    outln!(
        "  {:<10} {:>7} {:>5} {:>5} {:>10} {:>14.1} {:>9.2}",
        &classic.game.variant,
        classic.game.players,
        classic.game.teams,
        classic.deal.deck_size(),
        per_sec(hps),
        per_hand,
        1.0
    );
    for (r, h) in &others {
        outln!(
            "  {:<10} {:>7} {:>5} {:>5} {:>10} {:>14.1} {:>9.2}",
            &r.game.variant,
            r.game.players,
            r.game.teams,
            r.deal.deck_size(),
            per_sec(h.hands as f64 / h.seconds),
            h.decisions as f64 / h.hands as f64,
            cost_per_card(r, h)
        );
    }
    outln!("  cost/card: a card dealt costs this many times Classic 4's time");
    outln!();
    outln!(
        "Search ({}), Classic 4, 20 ms a decision, {} positions of heuristic play:",
        DEFAULT_LEVEL.name(),
        search_states.len()
    );
    outln!(
        "  iterations per second, 1 thread   {:>10}",
        per_sec(one_thread)
    );
    outln!(
        "  iterations per second, 2 threads  {:>10}  ({:.2}x)",
        per_sec(two_threads),
        two_threads / one_thread
    );
    Ok(ExitCode::SUCCESS)
}
