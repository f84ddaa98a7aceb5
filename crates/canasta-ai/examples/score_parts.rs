//! Where two bots' points come from: plays one hand of each of N deals
//! (the stream of seed 3, as `tournament --seed 3` deals them) on both
//! seatings (`A` on even teams, then on odd) and prints each bot's mean
//! `TeamScore` items and canastas by kind a side and hand, and how many
//! hands it ended: `cargo run --release -p canasta-ai --example score_parts
//! -- A B N [variant [players]]`.

use canasta_ai::{Decision, bot_by_name};
use canasta_core::Seat;
use canasta_core::{
    ActionList, GameState, KindCounts, Phase, Rng, Rules, TeamScore, shuffled_deck,
};

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let names = [arg(1).expect("A"), arg(2).expect("B")];
    let deals: u64 = arg(3).and_then(|a| a.parse().ok()).expect("N");
    let rules = match arg(4) {
        Some(v) => Rules::preset(&v, arg(5).and_then(|p| p.parse().ok()), None).expect("preset"),
        None => Rules::classic(),
    };
    let n = rules.game.players as usize;
    let mut sums = [[0i64; 8]; 2];
    let mut outs = [0u32; 2];
    let mut sides = [0u32; 2];
    let mut kinds = [[0u32; 4]; 2];
    let mut legal = ActionList::new();
    for deal in 0..deals {
        for swap in 0..2 {
            let bot_of = |seat: Seat| (rules.game.team_of(seat).index() + swap) % 2;
            let mut rng = Rng::stream(3, deal);
            let mut bots: Vec<_> = Seat::all(n)
                .map(|s| bot_by_name(&names[bot_of(s)], rng.next_u64()).expect("bot"))
                .collect();
            let mut state = GameState::new(rules.clone());
            let dealer = Seat::new(rng.below(n));
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
            while matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                state.legal_actions_into(&mut legal);
                let seat = state.to_act();
                let action = bots[seat].choose(&Decision::new(&state, &legal));
                state.apply_unchecked(action);
            }
            let r = state.last_hand().expect("a result");
            if let Some(s) = r.seat {
                outs[bot_of(s)] += 1;
            }
            for (team, t) in r.teams.iter().enumerate() {
                let b = (team + swap) % 2;
                let TeamScore {
                    melded,
                    in_hand,
                    canastas,
                    red_threes,
                    going_out,
                    other,
                    foot,
                    total,
                } = *t;
                for (i, x) in [
                    melded, in_hand, canastas, red_threes, going_out, other, foot, total,
                ]
                .into_iter()
                .enumerate()
                {
                    sums[b][i] += i64::from(x);
                }
                sides[b] += 1;
                let seat = Seat::all(n)
                    .find(|&s| rules.game.team_of(s).index() == team)
                    .expect("a seat");
                let mut k = KindCounts::default();
                for m in state.melds(state.side_of(seat)) {
                    if let Some(g) = m.going_out_kind(&rules) {
                        k.add(g);
                    }
                }
                for (i, x) in [k.clean, k.dirty, k.wild, k.special]
                    .into_iter()
                    .enumerate()
                {
                    kinds[b][i] += u32::from(x);
                }
            }
        }
    }
    println!(
        "a side and hand: melded in_hand canastas red_threes going_out other foot total | hands ended | canastas: clean dirty wild special"
    );
    for b in 0..2 {
        let k = f64::from(sides[b]);
        let row: Vec<String> = sums[b][..8]
            .iter()
            .map(|&x| format!("{:.0}", x as f64 / k))
            .collect();
        let kinds: Vec<String> = kinds[b]
            .iter()
            .map(|&x| format!("{:.2}", f64::from(x) / k))
            .collect();
        println!(
            "{:>14}: {} | {} | {}",
            names[b],
            row.join(" "),
            outs[b],
            kinds.join(" ")
        );
    }
}
