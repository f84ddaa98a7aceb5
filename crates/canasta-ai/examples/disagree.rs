//! Where a deep search disagrees with the heuristic: the heuristic's weak
//! spots, to improve first (the search's playouts follow the heuristic, so
//! a better heuristic lifts every level).
//!
//! Plays heuristic self-play hands and, at about one decision in five with
//! a choice, asks an IS-MCTS search too. Prints, by the kind of action the
//! heuristic played, what the search chose instead and its estimate of the
//! gain (mean reward of its choice less that of the heuristic's, where the
//! search tried the heuristic's choice at least 20 times; rewards are the
//! squashed score margin, 0.01 being about 16 points near an even hand).
//! The estimates are biased upward: the search picks the best of noisy
//! means. Check any change in the heuristic with a tournament.
//!
//! `cargo run --release -p canasta-ai --example disagree -- [VARIANT] [POSITIONS] [ITERATIONS] [--show]`
//! (defaults: classic 600 2000); `--show` prints some positions of disagreement.

use canasta_ai::heuristic::{View, best, score};
use canasta_ai::ismcts::{Config, IsMctsBot, Level};
use canasta_ai::{Bot, Decision};
use canasta_core::Seat;
use canasta_core::{Action, ActionList, DealOutcome, GameState, Phase, Rng, Rules, shuffled_deck};
use std::collections::BTreeMap;

fn kind(a: &Action) -> &'static str {
    match a {
        Action::Draw => "draw",
        Action::PickupOnto | Action::Pickup { .. } => "pickup",
        Action::Meld(_) => "meld",
        Action::Add { .. } => "add",
        Action::Discard(_) => "discard",
        Action::Ask => "ask",
        Action::Answer(_) => "answer",
        Action::CloseCanasta(_) => "close",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show = args.iter().any(|a| a == "--show");
    let mut plain = args.iter().filter(|a| !a.starts_with("--"));
    let variant = plain.next().map_or("classic", String::as_str);
    let positions: usize = plain.next().map_or(600, |s| s.parse().expect("POSITIONS"));
    let iterations: u32 = plain
        .next()
        .map_or(2000, |s| s.parse().expect("ITERATIONS"));
    let rules = Rules::preset(variant, None, None).unwrap_or_else(|e| panic!("{variant}: {e}"));
    let mut rng = Rng::new(99);
    let config = Config {
        iterations,
        ..Level::Hard.config()
    };
    let mut search = IsMctsBot::with_config(config, 7);
    let mut legal = ActionList::new();
    // (heuristic's kind, search's kind or "same") -> (count, summed gain, gains counted)
    let mut table: BTreeMap<(&str, &str), (u32, f64, u32)> = BTreeMap::new();
    let (mut asked, mut hands) = (0, 0);
    while asked < positions {
        let mut g = GameState::new(rules.clone());
        let dealer = Seat::new(hands % rules.game.players as usize);
        while g
            .deal(&shuffled_deck(&rules, &mut rng), dealer)
            .expect("a valid deck")
            == DealOutcome::Annulled
        {}
        hands += 1;
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) && asked < positions {
            g.legal_actions_into(&mut legal);
            let view = View::of_state(&g);
            let h = best(&view, &legal);
            if legal.len() > 1 && rng.below(5) == 0 {
                asked += 1;
                let s = search.choose(&Decision::new(&g, &legal));
                let stats = search.root_stats();
                let stat = |a: &Action| {
                    let key = a.key_under(&rules);
                    stats.iter().find(|r| r.key == key)
                };
                let gain = match (stat(&s), stat(&h)) {
                    (Some(a), Some(b)) if b.visits >= 20 => Some(a.mean_reward - b.mean_reward),
                    _ => None,
                };
                let entry = table
                    .entry((kind(&h), if s == h { "same" } else { kind(&s) }))
                    .or_default();
                entry.0 += 1;
                if let Some(gain) = gain {
                    entry.1 += gain;
                    entry.2 += 1;
                }
                if show && s != h && rng.below(8) == 0 {
                    println!(
                        "heuristic {h} (score {}), search {s} (score {})\n{}",
                        score(&view, &h),
                        score(&view, &s),
                        g.describe()
                    );
                }
            }
            g.apply_unchecked(h);
        }
    }
    println!("{variant}: {asked} positions, {iterations} iterations a search");
    println!(
        "{:>9}  {:>9}  {:>6}  {:>10}",
        "heuristic", "search", "count", "mean gain"
    );
    for ((h, s), (count, gain, counted)) in &table {
        let mean = if *counted > 0 {
            gain / f64::from(*counted)
        } else {
            0.0
        };
        println!("{h:>9}  {s:>9}  {count:>6}  {mean:>10.4}");
    }
}
