//! Episodes of every form, records in and out, returns.
use super::*;
use crate::encoding::NUM_ACTIONS;
use canasta_core::Seat;
use canasta_core::record;
use canasta_core::rules::all_forms;

fn random_step(ep: &mut Episode, rng: &mut Rng) {
    match ep.mover() {
        Mover::Chance => {
            let outcomes = ep.chance_outcomes();
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!((total - 1.0).abs() < 1e-9);
            let pick = outcomes[rng.below(outcomes.len())].0;
            ep.apply_chance(pick).unwrap();
        }
        Mover::Seat(_) => {
            let ids = ep.legal_ids();
            assert!(!ids.is_empty());
            ep.step(ids[rng.below(ids.len())] as usize).unwrap();
        }
        Mover::Terminal => unreachable!(),
    }
}

/// Every form, both kinds of chance: hands end, cards are conserved,
/// returns are zero-sum, and the record replays through the checker
/// to the same scores.
#[test]
fn random_episodes_of_every_form_end_and_their_records_check() {
    for (f, rules) in all_forms().into_iter().enumerate() {
        for explicit in [false, true] {
            let config = Config {
                length: Length::Hand,
                explicit_chance: explicit,
                ..Config::default()
            };
            let mut ep = Episode::new(rules.clone(), config, f as u64, 3);
            let mut rng = Rng::new(f as u64);
            let deck = rules.deal.deck().total();
            let mut steps = 0;
            while !ep.is_terminal() {
                random_step(&mut ep, &mut rng);
                if ep.mover() != Mover::Chance && !ep.is_terminal() {
                    assert_eq!(ep.state().all_cards().total(), deck);
                }
                steps += 1;
                assert!(steps < 200_000, "{} did not end", &rules.game.variant);
            }
            let sum: f64 = ep.returns().iter().sum();
            assert!(sum.abs() < 1e-9, "{:?}", ep.returns());
            let text = ep.record_lines().join("\n");
            let check = record::check_record(&text);
            assert!(
                check.error.is_none(),
                "{}: {:?}",
                &rules.game.variant,
                check.error
            );
            assert_eq!(check.games[0].hands.len(), 1);
            assert!(check.games[0].mismatches.is_empty());
            // Loaded as a one-hand episode, the finished hand is the end.
            let loaded = Episode::from_record(&text, config, None).unwrap();
            assert!(loaded.is_terminal());
            assert_eq!(loaded.returns(), ep.returns());
        }
    }
}

#[test]
fn the_seeded_stream_deals_as_canasta_sim_does() {
    // game.rs: a stream per game, one seed per seat, the dealer, decks.
    let rules = Rules::preset("classic", Some(4), None).unwrap();
    let ep = Episode::new(rules.clone(), Config::default(), 42, 5);
    let mut rng = Rng::stream(42, 5);
    for _ in 0..4 {
        rng.next_u64();
    }
    let dealer = rng.below(4);
    let deck = shuffled_deck(&rules, &mut rng);
    assert_eq!(ep.dealer(), dealer);
    assert_eq!(ep.record_lines()[1], write::deal(&deck, Seat::new(dealer)));
}

#[test]
fn a_refused_step_changes_nothing() {
    let rules = Rules::preset("samba", Some(2), None).unwrap();
    let mut ep = Episode::new(rules, Config::default(), 1, 0);
    let before = ep.legal_ids();
    let bad = (0..NUM_ACTIONS)
        .find(|&i| !before.contains(&(i as u16)))
        .unwrap();
    let e = ep.step(bad).unwrap_err();
    assert!(e.to_string().contains("is not legal here"), "{e}");
    assert!(
        ep.step(NUM_ACTIONS + 5)
            .unwrap_err()
            .to_string()
            .contains("not an action id")
    );
    assert_eq!(ep.legal_ids(), before);
    assert_eq!(ep.record_lines().len(), 2);
}

#[test]
fn a_record_loads_and_goes_on() {
    let rules = Rules::preset("canastone", Some(4), None).unwrap();
    let mut ep = Episode::new(rules, Config::default(), 9, 0);
    let mut rng = Rng::new(2);
    for _ in 0..150 {
        random_step(&mut ep, &mut rng);
    }
    let text = ep.record_lines().join("\n");
    let loaded = Episode::from_record(&text, Config::default(), None).unwrap();
    assert_eq!(loaded.state().state_id(), ep.state().state_id());
    assert_eq!(loaded.legal_actions(), ep.legal_actions());
    assert_eq!(loaded.record_lines(), ep.record_lines());
    // A determinization keeps no record: the record holds the deal.
    assert!(ep.resample(0, &mut Rng::new(1)).record_lines().is_empty());
    let broken = text.replace("discard", "dscard");
    let e = Episode::from_record(&broken, Config::default(), None)
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("line "), "{e}");
}

#[test]
fn win_returns_are_zero_sum() {
    assert_eq!(side_returns(&[10.0, 5.0], Reward::Win), vec![1.0, -1.0]);
    assert_eq!(side_returns(&[5.0, 5.0], Reward::Win), vec![0.0, 0.0]);
    assert_eq!(
        side_returns(&[1.0, 9.0, 3.0], Reward::Win),
        vec![-0.5, 1.0, -0.5]
    );
    assert_eq!(
        side_returns(&[1000.0, 3000.0], Reward::Points),
        vec![-1.0, 1.0]
    );
}
