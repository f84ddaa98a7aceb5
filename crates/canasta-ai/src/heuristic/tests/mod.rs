//! Scores of single decisions, on views and legal lists made by hand.

use super::*;
use canasta_core::{CardCounts, Group, Meld, Rank, Rules, Seat};

mod deal;
mod strategy;

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// Discarding each of `cards`.
fn discards(cards: &[&str]) -> Vec<Action> {
    cards.iter().map(|c| Action::Discard(card(c))).collect()
}

fn view_with(rules: &Rules, hand: &str) -> View<'static> {
    let rules: &'static Rules = Box::leak(Box::new(rules.clone()));
    let mut v = View {
        rules,
        hand: hand.split_whitespace().map(card).collect(),
        own_melds: &[],
        pile: &[],
        pile_hidden: 0,
        pile_frozen: false,
        opp_min_hand: 11,
        side_opened: true,
        next_discarded: 0,
        partner_discarded: 0,
        partner_min_hand: 11,
        partner_cards: 11,
        next_opp: Some(NextOpponent {
            hand: 11,
            opened: true,
            known: CardCounts::new(),
        }),
        stock: 60,
        own_score: 0,
        foot_due: false,
        state: None,
        memo: Default::default(),
    };
    v.set_rival(Rival::default(), 0);
    *v.unseen_mut() = rules.deal.deck();
    v
}

/// The next player threw a nine: of two singletons the opponents could
/// take alike, the nine goes.
#[test]
fn reads_the_next_players_discards_as_safe() {
    let rules = Rules::classic();
    let mut v = view_with(&rules, "9S TC 7H 7D");
    let legal = discards(&["9S", "TC"]);
    v.next_discarded = 1 << Rank::Nine.index();
    assert_eq!(best(&v, &legal), Action::Discard(card("9S")));
    v.next_discarded = 1 << Rank::Ten.index();
    assert_eq!(best(&v, &legal), Action::Discard(card("TC")));
}

/// Partner threw sixes: nobody on our side builds them, so a lone six
/// goes before a lone five.
#[test]
fn follows_partners_discards() {
    let rules = Rules::classic();
    let mut v = view_with(&rules, "5S 6C KH KD");
    let legal = discards(&["5S", "6C"]);
    v.partner_discarded = 1 << Rank::Six.index();
    assert_eq!(best(&v, &legal), Action::Discard(card("6C")));
    v.partner_discarded = 1 << Rank::Five.index();
    assert_eq!(best(&v, &legal), Action::Discard(card("5S")));
}

/// Partner is down to one card: the ace is laid on our meld now rather
/// than kept for later, and a high card is discarded before a low one.
#[test]
fn unloads_when_partner_is_about_to_go_out() {
    let rules = Rules::classic();
    let melds: Vec<Meld> = vec![Meld {
        cards: Group::from_cards(&[card("AS"), card("AH"), card("AD")]).unwrap(),
        closed: false,
    }];
    let melds: &'static [Meld] = Box::leak(melds.into_boxed_slice());
    let mut v = view_with(&rules, "AC 4S KH 8C 9D");
    v.own_melds = melds;
    let add: Action = "add 0 AC".parse().unwrap();
    let calm = score(&v, &add);
    v.partner_min_hand = 1;
    assert!(score(&v, &add) > calm);
    let legal = discards(&["4S", "KH"]);
    assert_eq!(best(&v, &legal), Action::Discard(card("KH")));
}

/// Samba: a sequence is worth laying (it was once mistaken for a meld
/// of wild cards), and a card next to our sequence is kept.
#[test]
fn samba_sequences_are_laid_and_their_neighbours_kept() {
    let rules = Rules::preset("samba", None, None).unwrap();
    let v = view_with(&rules, "5H 6H 7H 9C KD 4S");
    let seq: Action = "meld 5H 6H 7H".parse().unwrap();
    assert!(score(&v, &seq) > score(&v, &Action::Discard(card("4S"))));
    let legal = discards(&["9C", "KD", "4S", "5H"]);
    assert_ne!(best(&v, &legal), Action::Discard(card("5H")));
}

/// Pennies: sevens build the 1500 canasta going out needs, so they are
/// laid before another rank and kept rather than thrown; two canastas
/// without a wild and a sevens canasta are not enough to ask partner.
#[test]
fn pennies_builds_the_sevens_canasta_and_counts_every_kind() {
    let rules = Rules::preset("pennies", None, None).unwrap();
    let v = view_with(&rules, "7S 7H 7D 9S 9H 9D KC");
    let sevens: Action = "meld 7S 7H 7D".parse().unwrap();
    let nines: Action = "meld 9S 9H 9D".parse().unwrap();
    assert!(score(&v, &sevens) > score(&v, &nines));
    let v = view_with(&rules, "7S 9C 8D 8H");
    let legal = discards(&["7S", "9C"]);
    assert_eq!(best(&v, &legal), Action::Discard(card("9C")));
    let melds: Vec<Meld> = ["5S 5H 5D 5C 5S 5H 5D", "KS KH KD KC 2S 2H JK"]
        .iter()
        .map(|m| Meld {
            cards: Group::from_cards(&m.split_whitespace().map(card).collect::<Vec<_>>()).unwrap(),
            closed: false,
        })
        .collect();
    let melds: &'static [Meld] = Box::leak(melds.into_boxed_slice());
    let mut v = view_with(&rules, "9S");
    v.own_melds = melds;
    assert!(!v.can_go_out());
    let classic = Rules::classic();
    let mut v = view_with(&classic, "9S");
    v.own_melds = melds;
    assert!(v.can_go_out());
}

/// Pennies: a meld of wild cards holds nothing back and a wild canasta
/// is needed to go out, so wild cards are laid together.
#[test]
fn pennies_lays_wild_melds() {
    let rules = Rules::preset("pennies", None, None).unwrap();
    let v = view_with(&rules, "JK JK 2S 9C KD 4S");
    let wild: Action = "meld JK JK 2S".parse().unwrap();
    assert!(score(&v, &wild) > 0);
    let canastone = Rules::preset("canastone", None, None).unwrap();
    let v = view_with(&canastone, "JK JK 2S 9C KD 4S");
    assert!(score(&v, &wild) < 0);
}

#[test]
fn discards_a_black_three_before_a_pair_or_a_wild() {
    let rules = Rules::classic();
    let v = view_with(&rules, "3S 7H 7D JK 2C 9S");
    let legal: Vec<Action> = v.hand.iter().map(Action::Discard).collect();
    assert_eq!(best(&v, &legal), Action::Discard(card("3S")));
}

#[test]
fn keeps_pairs_and_avoids_feeding_an_opponent_meld() {
    let rules = Rules::classic();
    let mut v = view_with(&rules, "7H 7D 9S KC");
    v.set_next_onto_ranks(1 << Rank::King.index());
    let legal: Vec<Action> = v.hand.iter().map(Action::Discard).collect();
    assert_eq!(best(&v, &legal), Action::Discard(card("9S")));
}

#[test]
fn takes_a_big_pile_rather_than_drawing() {
    let rules = Rules::classic();
    let pile: Vec<Card> = "4S 5H 6D 8C 9S TD KH"
        .split_whitespace()
        .map(card)
        .collect();
    let pile: &'static [Card] = Box::leak(pile.into_boxed_slice());
    let mut v = view_with(&rules, "KS KD 5C");
    v.pile = pile;
    assert!(score(&v, &Action::PickupOnto) > score(&v, &Action::Draw));
}

#[test]
fn asks_partner_only_with_a_hand_that_can_go_out() {
    let rules = Rules::classic();
    let melds: Vec<Meld> = ["5S 5H 5D 5C 5S 5H 5D", "KS KH KD"]
        .iter()
        .map(|m| Meld {
            cards: Group::from_cards(&m.split_whitespace().map(card).collect::<Vec<_>>()).unwrap(),
            closed: false,
        })
        .collect();
    let melds: &'static [Meld] = Box::leak(melds.into_boxed_slice());
    let mut v = view_with(&rules, "KC 9S");
    v.own_melds = melds;
    assert!(score(&v, &Action::Ask) > score(&v, &Action::Discard(card("9S"))));
    let mut v = view_with(&rules, "KC 9S 8D 7H JK 4C");
    v.own_melds = melds;
    assert!(score(&v, &Action::Ask) < score(&v, &Action::Discard(card("9S"))));
}

/// Every action scored, best first (equals in the list's order): what
/// [`best`] and [`rank_best`] must agree with although they skip discards.
fn full_ranking(v: &View<'_>, legal: &[Action]) -> Vec<(i32, usize)> {
    let mut all: Vec<(i32, usize)> = legal.iter().map(|a| score(v, a)).zip(0..).collect();
    all.sort_by_key(|x| std::cmp::Reverse(x.0));
    all
}

/// Skipping the discards once something outscores them all changes no
/// choice: random play in every preset, each decision's best action and
/// best few against the ranking of every action. The skip must also
/// have happened, or the test proves nothing; and no discard may reach
/// `keep`'s floor, which only bounds the discards and must not change one.
#[test]
fn skipped_discards_change_no_choice() {
    let mut skipped = 0;
    for rules in canasta_core::rules::all_forms() {
        let mut rng = canasta_core::Rng::new(21);
        let mut g = canasta_core::GameState::new(rules);
        g.deal_random(&mut rng, Seat::new(0));
        let mut ranked = Vec::new();
        for _ in 0..400 {
            if !matches!(
                g.phase(),
                canasta_core::Phase::Draw | canasta_core::Phase::Play
            ) {
                break;
            }
            let legal = g.legal_actions();
            let v = View::of_state(&g);
            let all = full_ranking(&v, &legal);
            assert_eq!(best(&v, &legal), legal[all[0].1]);
            for a in &legal {
                if let Action::Discard(c) = *a {
                    let k = discard::keep_unbounded(&v, c);
                    assert!(
                        k > discard::KEEP_FLOOR,
                        "keep of {c} is {k}: the floor binds"
                    );
                }
            }
            for top in [1, 2, 3, 5] {
                rank_best(&v, &legal, top, &mut ranked);
                let n = top.min(legal.len());
                assert_eq!(ranked[..n], all[..n], "best {top} of {legal:?}");
                skipped += usize::from(ranked.len() < legal.len());
            }
            g.apply_unchecked(legal[rng.below(legal.len())]);
        }
    }
    assert!(skipped > 100, "discards skipped {skipped} times");
}
