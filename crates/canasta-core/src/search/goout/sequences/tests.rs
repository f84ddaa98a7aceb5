//! Brute-force checks of the Samba going-out test.

use super::*;
use crate::meld::Group;
use crate::rng::Rng;
use crate::seat::Seat;

/// A meld in the brute-force search: a rank group (rank, naturals,
/// wild cards) or a sequence (suit, ranks).
#[derive(Clone, Debug)]
enum B {
    Rank(Rank, u8, u8),
    Seq(Suit, u16),
}

fn valid(rules: &Rules, m: &B) -> bool {
    match *m {
        B::Rank(r, n, w) => {
            n >= rules.melds.min_naturals
                && rules.melds.long_enough(n + w)
                && w <= rules.melds.wild_capacity_of(Some(r), n)
        }
        B::Seq(suit, run) => crate::lay::valid_sequence(rules, &Group::sequence(suit, run)),
    }
}

/// Places the naturals one at a time in every possible meld (existing or
/// new), then the wild cards on rank groups; checks every meld at the end
/// and counts canastas.
fn brute(rules: &Rules, cards: &[Card], wilds: u8, melds: &mut Vec<B>, need: u8) -> bool {
    let Some((&c, rest)) = cards.split_first() else {
        return place_wilds(rules, wilds, melds, need);
    };
    let (r, s) = (c.rank().unwrap(), c.suit().unwrap());
    for i in 0..melds.len() {
        let before = melds[i].clone();
        let fits = match &mut melds[i] {
            B::Rank(mr, n, _) if *mr == r => {
                *n += 1;
                true
            }
            B::Seq(ms, run) if *ms == s && *run & (1 << r.index()) == 0 => {
                *run |= 1 << r.index();
                true
            }
            _ => false,
        };
        if fits {
            if brute(rules, rest, wilds, melds, need) {
                return true;
            }
            melds[i] = before;
        }
    }
    for fresh in [B::Rank(r, 1, 0), B::Seq(s, 1 << r.index())] {
        melds.push(fresh);
        if brute(rules, rest, wilds, melds, need) {
            return true;
        }
        melds.pop();
    }
    false
}

fn place_wilds(rules: &Rules, wilds: u8, melds: &mut Vec<B>, need: u8) -> bool {
    if wilds == 0 {
        let canastas = melds
            .iter()
            .filter(|m| match m {
                B::Rank(_, n, w) => rules.melds.has_canasta_length(n + w),
                B::Seq(_, run) => rules.melds.has_canasta_length(run.count_ones() as u8),
            })
            .count();
        return melds.iter().all(|m| valid(rules, m)) && canastas >= need as usize;
    }
    for i in 0..melds.len() {
        if let B::Rank(_, _, w) = &mut melds[i] {
            *w += 1;
            let ok = place_wilds(rules, wilds - 1, melds, need);
            if let B::Rank(_, _, w) = &mut melds[i] {
                *w -= 1;
            }
            if ok {
                return true;
            }
        }
    }
    false
}

/// The suit and rank-group search agrees with brute force on random
/// small Samba positions: a few ranks in two suits, some wild cards, an
/// open sequence and rank groups on the table.
#[test]
fn sequence_placement_matches_brute_force() {
    let rules = Rules::preset("samba", None, None).unwrap();
    let mut rng = Rng::new(11);
    let ranks = [Rank::Five, Rank::Six, Rank::Seven, Rank::Eight, Rank::Nine];
    let suits = [Suit::Spades, Suit::Hearts];
    let (mut yes, mut no) = (0, 0);
    for _ in 0..1500 {
        let mut hand = CardCounts::new();
        for _ in 0..rng.below(8) {
            let c = Card::new(ranks[rng.below(5)], suits[rng.below(2)]);
            if hand.count(c) < 3 {
                hand.add(c);
            }
        }
        let wilds = rng.below(3) as u8;
        for _ in 0..wilds {
            hand.add(Card::JOKER);
        }
        let mut melds = Vec::new();
        let mut table = Vec::new();
        if rng.below(2) == 0 {
            // Hearts 6-7-8, perhaps longer.
            let run = if rng.below(2) == 0 { 0b111 } else { 0b1111 } << Rank::Six.index();
            melds.push(Meld {
                cards: Group::sequence(Suit::Hearts, run),
                closed: false,
            });
            table.push(B::Seq(Suit::Hearts, run));
        }
        // None to four groups of nines (several of a rank, Samba), some
        // with a wild card, some canastas.
        for _ in 0..rng.below(5) {
            let n = 3 + rng.below(5) as u8;
            let w = u8::from(n >= 4 && rng.below(2) == 0);
            let mut g = Group::of_rank(Rank::Nine);
            g.naturals = [n, 0, 0, 0];
            g.jokers = w;
            melds.push(Meld {
                cards: g,
                closed: false,
            });
            table.push(B::Rank(Rank::Nine, n, w));
        }
        let cards: Vec<Card> = hand.iter().filter(|c| !c.is_wild()).collect();
        for need in [0, 1, 2] {
            let fast = placeable_sequences(&rules, &hand, &melds, need);
            let slow = brute(&rules, &cards, wilds, &mut table.clone(), need);
            assert_eq!(fast, slow, "hand {hand:?} melds {melds:?} need {need}");
            assert_eq!(
                goes_out(&rules, &hand, &melds, need, true, |_| false, None),
                slow,
                "melding out, hand {hand:?} melds {melds:?} need {need}"
            );
            // Going out by a discard: some card left over.
            let by_discard = hand.faces().any(|(c, _)| {
                let mut h = hand;
                h.remove(c);
                let cards: Vec<Card> = h.iter().filter(|c| !c.is_wild()).collect();
                brute(&rules, &cards, h.wilds(), &mut table.clone(), need)
            });
            assert_eq!(
                goes_out(&rules, &hand, &melds, need, false, |_| true, None),
                by_discard,
                "by a discard, hand {hand:?} melds {melds:?} need {need}"
            );
            if fast {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(
        yes > 100 && no > 100,
        "both answers are exercised: {yes} {no}"
    );
}

/// The quick answers for a player's candidate actions, and the quick
/// refusal of melding black threes, change no list: over random Samba
/// hands of every form, each position's legal actions are the same with
/// them and without (where every candidate gets the full test).
#[test]
fn quick_answers_change_no_legal_list() {
    use crate::movegen::WITHOUT_QUICK;
    use crate::state::{GameState, Phase};
    let (mut compared, mut threes_refused) = (0, 0);
    for players in [2, 3, 4] {
        let rules = Rules::preset("samba", Some(players), None).unwrap();
        let mut rng = Rng::new(5);
        for h in 0..12 {
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(h % players as usize));
            while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                let quick = g.legal_actions();
                WITHOUT_QUICK.with(|w| w.set(true));
                let full = g.legal_actions();
                WITHOUT_QUICK.with(|w| w.set(false));
                assert_eq!(quick, full, "{}", g.describe());
                compared += 1;
                let seat = g.to_act();
                threes_refused += usize::from(
                    g.phase() == Phase::Play
                        && g.side_has_melded(g.side_of(seat))
                        && rules.melds.long_enough(g.hand(seat).black_threes())
                        && !crate::search::goout::GoingOut::of(&g)
                            .rest_may_go_out_after_threes(seat),
                );
                g.apply_unchecked(quick[rng.below(quick.len())]);
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    assert!(threes_refused > 20, "{threes_refused}");
}
