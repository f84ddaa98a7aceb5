//! Plays random hands of one preset and stops at the first position with
//! no legal action, printing it (a development aid for new presets).
use canasta_core::{GameState, Rules, rng::Rng, state::Phase};
fn main() {
    let variant = std::env::args().nth(1).unwrap_or_else(|| "samba".into());
    let rules_list: Vec<Rules> = canasta_core::rules::all_forms()
        .into_iter()
        .filter(|r| r.game.variant == variant)
        .collect();
    for rules in rules_list {
        let mut hands = 0;
        for seed in 0..300 {
            let mut rng = Rng::new(seed);
            let mut g = GameState::new(rules.clone());
            for h in 0..3 {
                g.deal_random(
                    &mut rng,
                    canasta_core::Seat::new(h % rules.game.players as usize),
                );
                let mut last = None;
                while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    let actions = g.legal_actions();
                    if actions.is_empty() {
                        match &last {
                            Some((before, a)) => println!("last {a}, played from\n{before}"),
                            None => println!("last: none"),
                        }
                        println!(
                            "{} {} seed {seed}: dead end\n{}",
                            &rules.game.variant,
                            rules.game.players,
                            g.describe()
                        );
                        return;
                    }
                    let a = actions[rng.below(actions.len())];
                    last = Some((g.describe(), a));
                    g.apply(a)
                        .unwrap_or_else(|e| panic!("{e}\n{}", g.describe()));
                }
                hands += 1;
                if g.is_over() {
                    break;
                }
            }
        }
        println!(
            "{} players {}: {hands} hands, no dead end",
            &rules.game.variant, rules.game.players
        );
    }
}
