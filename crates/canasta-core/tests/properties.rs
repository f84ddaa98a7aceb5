//! Property tests (proptest): multiset laws of `CardCounts`, the card and
//! action notations, `Rules::with_options`, and records that replay.

use canasta_core::action::class_card;
use canasta_core::record::{check_record, write};
use canasta_core::{
    Action, Card, CardCounts, GameState, Group, Groups, HandResult, Phase, Rank, Rng, Rules, Suit,
};
use canasta_core::{MeldId, Seat};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn card() -> impl Strategy<Value = Card> {
    (0usize..53).prop_map(Card::from_index)
}

fn cards(max: usize) -> impl Strategy<Value = Vec<Card>> {
    prop::collection::vec(card(), 0..max)
}

fn occurrences(v: &[Card], c: Card) -> usize {
    v.iter().filter(|&&x| x == c).count()
}

// ---------------------------------------------------------------------
// CardCounts

proptest! {
    #[test]
    fn counts_count_what_was_added(v in cards(60)) {
        let x = CardCounts::from_cards(v.iter().copied());
        prop_assert_eq!(x.total(), v.len());
        prop_assert_eq!(x.is_empty(), v.is_empty());
        for c in Card::all() {
            prop_assert_eq!(x.count(c) as usize, occurrences(&v, c));
        }
        // Iteration lists every card, lowest face first, and rebuilds the set.
        let listed = x.to_vec();
        prop_assert!(listed.windows(2).all(|w| w[0] <= w[1]));
        let mut sorted = v.clone();
        sorted.sort();
        prop_assert_eq!(&listed, &sorted);
        prop_assert_eq!(x.iter().collect::<CardCounts>(), x);
        prop_assert_eq!(x.faces().map(|(_, n)| n as usize).sum::<usize>(), x.total());
        prop_assert!(x.faces().all(|(c, n)| n > 0 && x.count(c) == n));
        // Counts by class.
        for r in Rank::ALL {
            let by_suit = x.rank_suits(r);
            prop_assert_eq!(by_suit.iter().map(|&n| n as usize).sum::<usize>(), x.rank_count(r) as usize);
            for s in Suit::ALL {
                prop_assert_eq!(by_suit[s as usize], x.count(Card::new(r, s)));
            }
        }
        prop_assert_eq!(x.jokers() as usize, occurrences(&v, Card::JOKER));
        prop_assert_eq!(x.wilds() as usize, v.iter().filter(|c| c.is_wild()).count());
        prop_assert_eq!(x.twos() as usize, v.iter().filter(|c| c.is_two()).count());
        prop_assert_eq!(x.red_threes() as usize, v.iter().filter(|c| c.is_red_three()).count());
        prop_assert_eq!(x.black_threes() as usize, v.iter().filter(|c| c.is_black_three()).count());
    }

    #[test]
    fn add_and_remove_are_inverse(v in cards(40), c in card()) {
        let x = CardCounts::from_cards(v.iter().copied());
        let mut y = x;
        y.add(c);
        prop_assert_eq!(y.count(c), x.count(c) + 1);
        prop_assert_eq!(y.total(), x.total() + 1);
        prop_assert!(y.remove(c));
        prop_assert_eq!(y, x);
        // Removing what is not there fails and changes nothing.
        let mut z = x;
        while z.remove(c) {}
        let empty_of_c = z;
        prop_assert!(!z.remove(c));
        prop_assert_eq!(z, empty_of_c);
        prop_assert_eq!(z.total(), x.total() - x.count(c) as usize);
        // add_n and remove_up_to.
        let mut w = x;
        w.add_n(c, 3);
        prop_assert_eq!(w.remove_up_to(c, 2), 2);
        prop_assert_eq!(w.remove_up_to(c, 200), x.count(c) + 1);
        prop_assert_eq!(w, z);
    }

    #[test]
    fn union_difference_and_inclusion(a in cards(40), b in cards(40)) {
        let x = CardCounts::from_cards(a.iter().copied());
        let y = CardCounts::from_cards(b.iter().copied());
        let mut sum = x;
        sum.add_all(&y);
        prop_assert_eq!(sum, CardCounts::from_cards(a.iter().chain(&b).copied()));
        prop_assert_eq!(sum.total(), x.total() + y.total());
        prop_assert!(sum.contains_all(&x) && sum.contains_all(&y));
        let mut back = sum;
        back.remove_all(&y);
        prop_assert_eq!(back, x);
        // Inclusion is the count-wise order.
        let included = Card::all().all(|c| x.count(c) <= y.count(c));
        prop_assert_eq!(y.contains_all(&x), included);
        prop_assert!(x.contains_all(&x) && x.contains_all(&CardCounts::new()));
        if x.contains_all(&y) && y.contains_all(&x) {
            prop_assert_eq!(x, y);
        }
        // Every sub-list is included.
        let half = CardCounts::from_cards(a.iter().step_by(2).copied());
        prop_assert!(x.contains_all(&half));
        let mut rest = x;
        rest.remove_all(&half);
        prop_assert_eq!(rest.total(), x.total() - half.total());
        let mut cleared = x;
        cleared.clear();
        prop_assert_eq!(cleared, CardCounts::new());
    }
}

// ---------------------------------------------------------------------
// Card text

/// `text` with the letters' case chosen by the bits of `mask`.
fn recase(text: &str, mask: u8) -> String {
    text.chars()
        .enumerate()
        .map(|(i, ch)| {
            if mask >> (i % 8) & 1 == 1 {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            }
        })
        .collect()
}

proptest! {
    #[test]
    fn card_text_round_trips_in_any_case(c in card(), mask in any::<u8>()) {
        let text = c.to_string();
        prop_assert_eq!(text.len(), 2);
        prop_assert_eq!(&text, &text.to_ascii_uppercase());
        prop_assert_eq!(recase(&text, mask).parse::<Card>(), Ok(c));
    }

    /// Parsing is exactly the inverse of printing: whatever parses prints
    /// back as the same text, up to case.
    #[test]
    fn only_card_texts_parse(text in "[A-Za-z0-9 ]{0,3}") {
        match text.parse::<Card>() {
            Ok(c) => prop_assert!(c.to_string().eq_ignore_ascii_case(&text), "{text} -> {c}"),
            Err(e) => prop_assert!(e.to_string().contains(&text)),
        }
    }
}

// ---------------------------------------------------------------------
// Action text

/// A group as a player writes one: naturals of one rank (or none; threes
/// only black), plus wild cards, in any order; never empty.
fn group_strategy() -> impl Strategy<Value = Group> {
    let rank = prop_oneof![
        Just(None),
        (0usize..11).prop_map(|i| Some(Rank::MELDABLE[i])),
        Just(Some(Rank::Three)),
    ];
    (
        rank,
        prop::collection::vec(0usize..4, 0..6),
        prop::collection::vec(0usize..5, 0..4),
    )
        .prop_filter_map("a group is not empty", |(rank, naturals, wilds)| {
            let mut cards: Vec<Card> = Vec::new();
            if let Some(r) = rank {
                // Threes are grouped only when black.
                let suit = |s: usize| match (r, s % 2) {
                    (Rank::Three, 0) => Suit::Spades,
                    (Rank::Three, _) => Suit::Clubs,
                    _ => Suit::from_index(s),
                };
                cards.extend(naturals.iter().map(|&s| Card::new(r, suit(s))));
            }
            cards.extend(wilds.iter().map(|&w| {
                if w == 4 {
                    Card::JOKER
                } else {
                    Card::new(Rank::Two, Suit::from_index(w))
                }
            }));
            // Written in a scrambled order: the group sorts it.
            cards.reverse();
            Group::from_cards(&cards).ok()
        })
}

fn groups_strategy(min: usize) -> impl Strategy<Value = Groups> {
    prop::collection::vec(group_strategy(), min..=canasta_core::action::MAX_GROUPS)
        .prop_map(|v| v.into_iter().collect())
}

fn action_strategy() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::Draw),
        Just(Action::PickupOnto),
        Just(Action::Ask),
        any::<bool>().prop_map(Action::Answer),
        card().prop_map(Action::Discard),
        any::<u8>().prop_map(|m| Action::CloseCanasta(MeldId::new(m.into()))),
        (any::<u8>(), group_strategy()).prop_map(|(meld, cards)| Action::Add {
            meld: MeldId::new(meld.into()),
            cards,
        }),
        groups_strategy(1).prop_map(Action::Meld),
        (
            group_strategy(),
            prop::collection::vec(group_strategy(), 0..canasta_core::action::MAX_GROUPS)
        )
            .prop_map(|(with, also)| Action::Pickup {
                with,
                also: also.into_iter().collect(),
            }),
    ]
}

proptest! {
    #[test]
    fn action_text_round_trips(a in action_strategy(), mask in any::<u8>()) {
        let text = a.to_string();
        // More copies of a card than any deck holds is a parse error.
        let cards = a.cards_from_hand();
        let possible = cards.faces().all(|(c, n)| {
            n <= if c.is_joker() {
                canasta_core::action::MAX_JOKERS
            } else {
                canasta_core::action::MAX_COPIES_OF_A_FACE
            }
        });
        if !possible {
            let refused = matches!(
                text.parse::<Action>(),
                Err(canasta_core::ParseActionError::TooManyCopies { .. })
            );
            prop_assert!(refused, "{}", text);
            return Ok(());
        }
        prop_assert_eq!(text.parse::<Action>(), Ok(a), "{}", text);
        // Any case, any spacing.
        prop_assert_eq!(recase(&text, mask).parse::<Action>(), Ok(a), "{}", text);
        let spaced = format!("  {}\t", text.replace(' ', "   "));
        prop_assert_eq!(spaced.parse::<Action>(), Ok(a), "{}", text);
    }

    /// The class key forgets suits and the order of groups, and nothing else.
    #[test]
    fn class_keys_forget_suits_and_group_order(a in action_strategy(), shift in 0usize..4) {
        let key = a.class_key();
        prop_assert_eq!(key.class_key(), key);
        prop_assert_eq!(key.cards_from_hand().total(), a.cards_from_hand().total());
        // Every card of the key is its class's representative, and the key
        // holds as many cards of each class as the action.
        let classes = |c: &CardCounts| c.iter().map(class_card).collect::<CardCounts>();
        prop_assert_eq!(classes(&a.cards_from_hand()), key.cards_from_hand());
        let respelled = respell(&a, shift);
        prop_assert_eq!(respelled.class_key(), key, "{} vs {}", a, respelled);
        if let Action::Meld(groups) = a {
            let mut list: Vec<Group> = groups.iter().copied().collect();
            list.reverse();
            let reversed: Groups = list.into_iter().collect();
            prop_assert_eq!(Action::Meld(reversed).class_key(), key);
        }
    }
}

proptest! {
    /// Two `Groups` holding the same groups are equal (and hash alike),
    /// however they were built. They are not: `pop` leaves the popped group
    /// in the array, and the derived `PartialEq`/`Hash` compare the whole
    /// array. The generator's opening search builds its melds by push and
    /// pop, so generated openings can differ from the same text parsed (see
    /// movegen_consistency's `engine_bug_generated_opening_differs_from_its_text`).
    #[test]

    fn groups_are_equal_when_their_groups_are(v in prop::collection::vec(group_strategy(), 1..=canasta_core::action::MAX_GROUPS), keep in 0usize..6) {
        let keep = keep.min(v.len());
        let mut built: Groups = v.iter().copied().collect();
        while built.len() > keep {
            built.pop();
        }
        let fresh: Groups = v[..keep].iter().copied().collect();
        prop_assert_eq!(built.as_slice(), fresh.as_slice());
        prop_assert_eq!(built, fresh);
        use std::hash::BuildHasher;
        let hasher = std::hash::RandomState::new();
        prop_assert_eq!(hasher.hash_one(built), hasher.hash_one(fresh));
    }
}

/// The action with the suits of naturals and twos rotated by `shift`
/// (threes keep their colour).
fn respell(a: &Action, shift: usize) -> Action {
    let rotate = |c: Card| match (c.rank(), c.suit()) {
        (Some(Rank::Three), Some(s)) => {
            let same_colour = match s {
                Suit::Spades => Suit::Clubs,
                Suit::Clubs => Suit::Spades,
                Suit::Hearts => Suit::Diamonds,
                Suit::Diamonds => Suit::Hearts,
            };
            if shift % 2 == 1 {
                Card::new(Rank::Three, same_colour)
            } else {
                c
            }
        }
        (Some(r), Some(s)) => Card::new(r, Suit::from_index(s as usize + shift)),
        _ => c,
    };
    map_cards(a, rotate)
}

fn map_group(g: &Group, mut f: impl FnMut(Card) -> Card) -> Group {
    let cards: Vec<Card> = g.cards().map(&mut f).collect();
    Group::from_cards(&cards).unwrap()
}

fn map_cards(a: &Action, mut f: impl FnMut(Card) -> Card) -> Action {
    match *a {
        Action::Pickup { with, also } => Action::Pickup {
            with: map_group(&with, &mut f),
            also: also.iter().map(|g| map_group(g, &mut f)).collect(),
        },
        Action::Meld(groups) => Action::Meld(groups.iter().map(|g| map_group(g, &mut f)).collect()),
        Action::Add { meld, cards } => Action::Add {
            meld,
            cards: map_group(&cards, &mut f),
        },
        Action::Discard(c) => Action::Discard(f(c)),
        other => other,
    }
}

// ---------------------------------------------------------------------
// Rules options

fn forms() -> Vec<Rules> {
    vec![
        Rules::preset("classic", Some(2), None).unwrap(),
        Rules::preset("classic", Some(3), None).unwrap(),
        Rules::preset("classic", Some(4), None).unwrap(),
        Rules::preset("classic", Some(6), Some(3)).unwrap(),
        Rules::preset("classic", Some(6), Some(2)).unwrap(),
    ]
}

fn fields(r: &Rules) -> Map<String, Value> {
    match serde_json::to_value(r).unwrap() {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

#[test]
fn every_option_set_to_its_own_value_changes_nothing() {
    for rules in forms() {
        let all = fields(&rules);
        assert!(all.len() > 30, "the rules serialize as their fields");
        for (k, v) in &all {
            let one: Map<String, Value> = [(k.clone(), v.clone())].into_iter().collect();
            let got = rules.with_options(&one);
            if k == "variant" || k == "players" {
                // These belong in the record header.
                let err = got.unwrap_err().to_string();
                assert!(err.contains(k.as_str()), "{err}");
            } else {
                assert_eq!(got, Ok(rules.clone()), "option {k} = {v}");
            }
        }
        let mut everything = all.clone();
        everything.remove("variant");
        everything.remove("players");
        assert_eq!(rules.with_options(&everything), Ok(rules.clone()));
        assert!(rules.options_against(&rules).is_empty());
    }
}

proptest! {
    #[test]
    fn unknown_option_names_are_refused_by_name(name in "[a-z_]{1,24}", form in 0usize..5, value in any::<i32>()) {
        let rules = &forms()[form];
        prop_assume!(!fields(rules).contains_key(&name));
        let opts: Map<String, Value> = [(name.clone(), Value::from(value))].into_iter().collect();
        let err = rules.with_options(&opts).unwrap_err();
        prop_assert!(err.to_string().contains(&format!("`{name}`")), "{}", err);
        prop_assert!(err.problems.iter().any(|p| p.to_string().contains("unknown option")), "{}", err);
    }

    /// Any subset of fields, each set to its own value, gives the same rules;
    /// an unknown name among them is still refused.
    #[test]
    fn subsets_of_own_values_change_nothing(form in 0usize..5, picks in prop::collection::vec(any::<bool>(), 40), bad in any::<bool>()) {
        let rules = &forms()[form];
        let mut opts: Map<String, Value> = fields(rules)
            .into_iter()
            .filter(|(k, _)| k != "variant" && k != "players")
            .zip(picks.iter().cycle())
            .filter(|(_, p)| **p)
            .map(|(kv, _)| kv)
            .collect();
        if bad {
            opts.insert("no_such_rule".into(), Value::Bool(true));
            prop_assert!(rules.with_options(&opts).is_err());
        } else {
            prop_assert_eq!(rules.with_options(&opts), Ok(rules.clone()));
        }
    }
}

// ---------------------------------------------------------------------
// Records

/// The action with its cards renamed to other cards of the same class still
/// in hand, highest suit first: records may name any suits.
fn respell_from_hand(a: &Action, hand: &CardCounts) -> Action {
    let mut pool = *hand;
    map_cards(a, |c| {
        let want = class_card(c);
        let pick = Card::all()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find(|&x| {
                pool.count(x) > 0 && class_card(x) == want && x.is_red_three() == c.is_red_three()
            })
            .expect("the generated action's cards are in hand");
        pool.remove(pick);
        pick
    })
}

/// Plays up to `hands` hands at random, writing the record as it goes;
/// returns the record and the engine's hand results.
fn random_record(
    rules: &Rules,
    seed: u64,
    hands: u32,
    respelled: bool,
) -> (String, Vec<HandResult>, GameState) {
    let mut rng = Rng::new(seed);
    let mut g = GameState::new(rules.clone());
    let mut lines = vec![write::header(rules, Some(seed))];
    let mut results = Vec::new();
    while !g.is_over() && g.hands_played() < hands {
        let dealer = g.hands_played() as usize % g.players();
        for deck in g.deal_random(&mut rng, Seat::new(dealer)) {
            lines.push(write::deal(&deck, Seat::new(dealer)));
        }
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            let actions = g.legal_actions();
            let mut a = actions[rng.below(actions.len())];
            if respelled {
                a = respell_from_hand(&a, g.hand(g.to_act()));
            }
            let seat = g.to_act();
            g.apply(a)
                .unwrap_or_else(|e| panic!("{a}: {e}\n{}", g.describe()));
            lines.push(write::action(seat, &a));
        }
        let result = g.last_hand().unwrap().clone();
        lines.push(write::hand_end(&result));
        results.push(result);
    }
    if let Some(end) = write::game_end(&g) {
        lines.push(end);
    }
    (lines.join("\n") + "\n", results, g)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// A record written while playing replays to the same hands and scores,
    /// with no mismatch against its own `hand_end` lines.
    #[test]
    fn written_records_replay(seed in any::<u64>(), form in 0usize..5, respelled in any::<bool>()) {
        let rules = &forms()[form];
        let (text, results, end) = random_record(rules, seed, 2, respelled);
        let check = check_record(&text);
        prop_assert!(check.error.is_none(), "{:?}", check.error);
        prop_assert_eq!(check.games.len(), 1);
        let report = &check.games[0];
        prop_assert_eq!(report.rules.as_ref(), Some(rules));
        prop_assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
        prop_assert_eq!(&report.hands, &results);
        prop_assert_eq!(report.winner, end.winner());
        if let Some(state) = &report.state {
            prop_assert_eq!(state.scores(), end.scores());
            prop_assert_eq!(state.describe(), end.describe());
        }
    }
}

/// Classic 3 players pool the partners' melds (P-CAN): a pooled meld of a
/// rank can hold more wild cards than its naturals allow (AS AH AD AC with
/// four wild cards, here), and a natural added to it is legal, as the
/// generator offers it. Found by `written_records_replay`.
#[test]
fn a_pooled_meld_over_the_wild_limit_takes_naturals() {
    for respelled in [false, true] {
        let rules = &forms()[1];
        let (text, results, _) = random_record(rules, 8_550_135_911_805_130_753, 2, respelled);
        let check = check_record(&text);
        assert!(check.error.is_none(), "{:?}", check.error);
        assert_eq!(&check.games[0].hands, &results);
    }
}
