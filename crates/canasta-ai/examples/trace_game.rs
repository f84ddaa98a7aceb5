//! Plays one game of a tournament or sim run again, printing each hand as it
//! ends: `cargo run --release -p canasta-ai --example trace_game -- SEED DEAL
//! BOT,BOT,... [variant [players]]` (one bot name a seat, as `canasta sim
//! --bots` takes them). The deck and bot seeds come from the stream (SEED,
//! DEAL) exactly as `canasta sim` and `canasta tournament` draw them: DEAL
//! is sim's game index or the tournament's deal, the bots seated as that
//! game's colouring seated them. Built-in bots and the preset's rules only
//! (no `--option`, no `cmd:` bots); it plays the game to its end, past a
//! run's `--one-hand` or `--max-hands`; and a bot with a time budget
//! (`ismcts-expert`'s cap, `@Nms`) need not choose as it did in the run.

use canasta_ai::{Decision, bot_by_name};
use canasta_core::Seat;
use canasta_core::{ActionList, GameState, Phase, Rng, Rules, shuffled_deck};
use std::time::Instant;

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let seed: u64 = arg(1).and_then(|a| a.parse().ok()).expect("SEED");
    let deal: u64 = arg(2).and_then(|a| a.parse().ok()).expect("DEAL");
    let names: Vec<String> = arg(3)
        .expect("BOT,...")
        .split(',')
        .map(String::from)
        .collect();
    let rules = match arg(4) {
        Some(v) => Rules::preset(&v, arg(5).and_then(|p| p.parse().ok()), None).expect("preset"),
        None => Rules::classic(),
    };
    let n = rules.game.players as usize;
    assert_eq!(names.len(), n, "one bot a seat");
    let mut rng = Rng::stream(seed, deal);
    let seeds: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    let mut bots: Vec<_> = names
        .iter()
        .zip(&seeds)
        .map(|(name, &s)| bot_by_name(name, s).expect("a bot name"))
        .collect();
    let mut dealer = Seat::new(rng.below(n));
    let mut state = GameState::new(rules.clone());
    let mut legal = ActionList::new();
    let start = Instant::now();
    while !state.is_over() {
        loop {
            let deck = shuffled_deck(&rules, &mut rng);
            let first = rules
                .deal
                .random_first_player
                .then(|| Seat::new(rng.below(n)));
            if state.deal_with_first(&deck, dealer, first).expect("deal")
                == canasta_core::DealOutcome::Dealt
            {
                break;
            }
        }
        let hand_start = Instant::now();
        let (mut actions, mut slow, mut slowest) = (0u32, 0u32, 0f64);
        while matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            state.legal_actions_into(&mut legal);
            let seat = state.to_act();
            let t = Instant::now();
            let action = bots[seat].choose(&Decision::new(&state, &legal));
            let took = t.elapsed().as_secs_f64();
            slowest = slowest.max(took);
            if took > 1.0 {
                slow += 1;
            }
            state.apply_unchecked(action);
            actions += 1;
        }
        let r = state.last_hand().expect("a result");
        println!(
            "hand {}: {actions} actions, {:.1} s (slowest decision {:.2} s, {slow} over 1 s), {:?} by {:?}, hand points {:?}, totals {:?}, elapsed {:.0} s",
            state.hands_played(),
            hand_start.elapsed().as_secs_f64(),
            slowest,
            r.reason,
            r.seat,
            r.teams.iter().map(|t| t.total).collect::<Vec<_>>(),
            state.scores(),
            start.elapsed().as_secs_f64()
        );
        dealer = dealer.after(1, n);
    }
}
