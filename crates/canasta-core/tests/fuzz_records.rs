//! The record reader under arbitrary input (a brief fuzz run in every
//! `cargo test`): random bytes and real records with one line mutated never
//! panic, and a refusal names its line.

use canasta_core::Seat;
use canasta_core::record::{check_record, write};
use canasta_core::{GameState, Phase, Rng, Rules};
use proptest::prelude::*;

/// A real record of one random hand of Classic.
fn real_record(seed: u64) -> Vec<String> {
    let rules = Rules::classic();
    let mut rng = Rng::new(seed);
    let mut g = GameState::new(rules.clone());
    let mut lines = vec![write::header(&rules, Some(seed))];
    let deck = canasta_core::shuffled_deck(&rules, &mut rng);
    g.deal(&deck, Seat::new(0)).unwrap();
    lines.push(write::deal(&deck, Seat::new(0)));
    while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
        let legal = g.legal_actions();
        let a = legal[rng.below(legal.len())];
        lines.push(write::action(g.to_act(), &a));
        g.apply(a).unwrap();
    }
    lines
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        let checked = check_record(&text);
        if let Some(e) = checked.error {
            prop_assert!(e.line >= 1);
        }
    }

    /// One line of a real record replaced by a mutation of itself: a
    /// changed character, a cut, or a duplicated line.
    #[test]
    fn mutated_records_never_panic(
        seed in 0u64..20,
        pick in any::<prop::sample::Index>(),
        how in 0usize..4,
        at in any::<prop::sample::Index>(),
        byte in 32u8..127,
    ) {
        let mut lines = real_record(seed);
        let i = pick.index(lines.len());
        let line = lines[i].clone();
        let chars: Vec<char> = line.chars().collect();
        let j = at.index(chars.len().max(1)).min(chars.len().saturating_sub(1));
        lines[i] = match how {
            0 => {
                let mut c = chars.clone();
                if !c.is_empty() {
                    c[j] = byte as char;
                }
                c.into_iter().collect()
            }
            1 => chars[..j].iter().collect(),
            2 => format!("{line}\n{line}"),
            _ => line.replace("\"seat\": ", "\"seat\": 1"),
        };
        let text = lines.join("\n");
        let checked = check_record(&text);
        if let Some(e) = checked.error {
            prop_assert!(e.line >= 1 && e.line <= text.lines().count() + 1, "{}", e);
        }
    }
}
