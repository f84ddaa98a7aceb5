//! The shortcuts of `ok_after` against the copy. Where `ok_after_simple` or
//! `ok_after_without_copy` answers, it must answer as applying the action
//! to a copy does (`ok_after_by_copy`), for every lay the judge finds valid
//! up to how the turn could end. (`ok_after_simple` once refused a Pennies
//! `add` that left only a seven, which the copy saw end the hand as
//! blocked.)

use crate::action::{Action, Groups};
use crate::card::Card;
use crate::error::IllegalReason;
use crate::meld::Group;
use crate::rng::Rng;
use crate::seat::Seat;
use crate::state::{GameState, Phase};

/// Lays to try: one or two cards from hand onto each of the side's melds,
/// and new groups of three or more naturals of a rank, alone or with one
/// wild card.
fn lays(g: &GameState) -> Vec<Action> {
    let seat = g.to_act();
    let hand = g.hand(seat);
    let faces: Vec<Card> = hand.faces().map(|(c, _)| c).collect();
    let mut out = Vec::new();
    let add = |meld: usize, cards: &[Card]| {
        Group::from_cards(cards).ok().map(|cards| Action::Add {
            meld: crate::meld::MeldId::new(meld),
            cards,
        })
    };
    for meld in 0..g.melds(g.side_of(seat)).len() {
        for (i, &a) in faces.iter().enumerate() {
            out.extend(add(meld, &[a]));
            for &b in &faces[i..] {
                if a != b || hand.count(a) >= 2 {
                    out.extend(add(meld, &[a, b]));
                }
            }
        }
    }
    let wild = faces.iter().copied().find(|c| c.is_wild());
    for &c in faces.iter().filter(|c| c.is_plain_natural()) {
        let naturals: Vec<Card> = faces
            .iter()
            .filter(|d| d.rank() == c.rank())
            .flat_map(|&d| std::iter::repeat_n(d, hand.count(d) as usize))
            .collect();
        for n in 2..=naturals.len() {
            let mut cards = naturals[..n].to_vec();
            if n >= 3 {
                out.extend(Group::from_cards(&cards).ok().map(meld));
            }
            if let Some(w) = wild {
                cards.push(w);
                out.extend(Group::from_cards(&cards).ok().map(meld));
            }
        }
    }
    out.sort_by_key(ToString::to_string);
    out.dedup();
    out
}

fn meld(g: Group) -> Action {
    Action::Meld(Groups::from_iter([g]))
}

/// The judge found the lay itself valid: accepted, or refused only for how
/// the turn could end after it (the checks after the action's own rules).
fn valid_up_to_the_ending(g: &GameState, a: &Action) -> bool {
    use IllegalReason as R;
    match g.judge(a) {
        Ok(()) => true,
        Err(r) => matches!(
            r,
            R::StrandedWith { .. }
                | R::StrandsLastCard
                | R::MustGoOut
                | R::NotEnoughCanastas { .. }
                | R::WildCanastaUncounted { .. }
                | R::MissingCanastas { .. }
                | R::MissingCanastaKinds { .. }
                | R::UnfinishedWildMeld
                | R::PartnerSaidNo
                | R::MustDiscardToGoOut
        ),
    }
}

#[test]
fn the_shortcuts_answer_as_the_copy_does() {
    let mut refused = 0;
    for rules in crate::rules::all_forms() {
        let mut checked = 0;
        // A tiny form (Micro, Mini: two cards a hand) has a few lays a
        // hand: more deals there.
        let tiny = rules.deal.hand_size <= 3;
        for seed in 0..if tiny { 200 } else { 8u64 } {
            let mut rng = Rng::new(seed ^ 0x5107_C075);
            let mut g = GameState::new(rules.clone());
            g.deal_random(
                &mut rng,
                Seat::new(seed as usize % rules.game.players as usize),
            );
            while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                let seat = g.to_act();
                if g.phase() == Phase::Play {
                    for a in lays(&g) {
                        if !valid_up_to_the_ending(&g, &a) {
                            continue;
                        }
                        let simple = g
                            .foot(seat)
                            .is_empty()
                            .then(|| {
                                crate::search::goout::GoingOut::of(&g).ok_after_simple(seat, a)
                            })
                            .flatten();
                        let without = crate::search::goout::GoingOut::of(&g)
                            .ok_after_without_copy(seat, a, None);
                        for shortcut in [simple, without].into_iter().flatten() {
                            let copy =
                                crate::search::goout::GoingOut::of(&g).ok_after_by_copy(seat, a);
                            assert_eq!(shortcut, copy, "{a}\n{}", g.describe());
                            checked += 1;
                            refused += usize::from(!copy);
                        }
                    }
                }
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
        }
        let form = format!("{} {}", &rules.game.variant, rules.game.players);
        if tiny {
            // A tiny form (Micro, Mini: two cards a hand): a side that
            // melds has almost always gone out, and the shortcuts answer
            // only for a side that has melded; what was asked agreed.
        } else if rules.pile.special_discard == crate::rules::SpecialDiscard::Free {
            assert!(checked >= 100, "{form}: {checked} answers checked");
        } else {
            // Where a lay may end the hand as blocked only the copy answers.
            assert_eq!(checked, 0, "{form}");
        }
    }
    // The shortcuts must also have been tried where the answer is no.
    assert!(refused >= 20, "{refused} refusals");
}
