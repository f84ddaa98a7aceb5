//! The strategy players notice (issue 14): holding back from going out
//! while far behind, holding the pile-taking pairs, and blocking the pile.

use super::deal::{play, stacked};
use super::{card, view_with};
use crate::heuristic::{Rival, View, best, score};
use crate::{Bot, Decision, HeuristicBot};
use canasta_core::{Action, Card, GameState, Group, Meld, Phase, Rank, Rules, Seat};

fn melds(texts: &[&str]) -> &'static [Meld] {
    let melds: Vec<Meld> = texts
        .iter()
        .map(|m| Meld {
            cards: Group::from_cards(&m.split_whitespace().map(card).collect::<Vec<_>>()).unwrap(),
            closed: false,
        })
        .collect();
    Box::leak(melds.into_boxed_slice())
}

fn pile(text: &str) -> &'static [Card] {
    let cards: Vec<Card> = text.split_whitespace().map(card).collect();
    Box::leak(cards.into_boxed_slice())
}

/// What the heuristic bot plays in `g`, asked as a seat is asked in a game.
fn choice(g: &GameState) -> Action {
    let legal = g.legal_actions();
    HeuristicBot::new().choose(&Decision::new(g, &legal))
}

/// Of the discards the generator offers in `g`, the one the bot throws.
fn discard_choice(g: &GameState) -> Action {
    let discards: Vec<Action> = g
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Discard(_)))
        .collect();
    best(&View::of_state(g), &discards)
}

/// A side that could go out with a canasta of fives and three nines,
/// against rivals with two canastas' worth on the table and fourteen cards
/// in hand, while partner still holds thirteen: a club rule of thumb (the
/// rules sources give no strategy here) says play on and build rather than
/// lock in the loss. `add 1 9C` leaves one card, the discard that goes out.
fn far_behind() -> View<'static> {
    let rules = Rules::classic();
    let mut v = view_with(&rules, "9C 4D");
    v.own_melds = melds(&["5S 5H 5D 5C 5S 5H 5D", "9S 9H 9D"]);
    v.set_rival(
        Rival {
            table: 1600,
            cards: 14,
            ready: true,
        },
        0,
    );
    v.opp_min_hand = 7;
    v.partner_cards = 13;
    v
}

/// Does not go out while the side is far behind on the table, holds the
/// cards, and the rivals are far from going out: it keeps the nine for
/// its meld and throws the four, and it does not ask partner.
#[test]
fn plays_on_rather_than_go_out_far_behind() {
    let v = far_behind();
    let go_out: Action = "add 1 9C".parse().unwrap();
    let legal = vec![
        go_out,
        Action::Discard(card("9C")),
        Action::Discard(card("4D")),
    ];
    assert_eq!(best(&v, &legal), Action::Discard(card("4D")));
    assert!(score(&v, &Action::Ask) < score(&v, &Action::Discard(card("4D"))));
}

/// Goes out all the same when a rival is close to going out itself, when
/// the rivals hold the cards (cut the losses), when the side has nothing
/// left to build, when the stock is running out, or when going out wins
/// the game.
#[test]
fn goes_out_far_behind_when_playing_on_cannot_pay() {
    let go_out: Action = "add 1 9C".parse().unwrap();
    let legal = vec![
        go_out,
        Action::Discard(card("9C")),
        Action::Discard(card("4D")),
    ];
    let mut close = far_behind();
    close.opp_min_hand = 5;
    let mut their_cards = far_behind();
    let rival = their_cards.rival();
    their_cards.set_rival(Rival { cards: 30, ..rival }, 0);
    let mut built = far_behind();
    built.own_melds = melds(&["5S 5H 5D 5C 5S 5H 5D", "9S 9H 9D 9C 9S 9H 9D"]);
    let mut short_stock = far_behind();
    short_stock.stock = 6;
    let mut winning = far_behind();
    winning.own_score = 4500;
    let rival = winning.rival();
    winning.set_rival(rival, 2000);
    for v in [close, their_cards, built, short_stock, winning] {
        assert_eq!(best(&v, &legal), go_out);
    }
}

/// A natural pair takes the pile, even a frozen one, where a pair laid
/// with a wild card takes nothing (S002: retaining cards "ensures you have
/// natural pairs available to claim a frozen pack"). Classic, dealt for
/// real: seat 1 opens with three aces over a five-card pile, holding the
/// nines and a two; playing out its turn, the bot neither lays 9-9-2 nor
/// throws a nine.
#[test]
fn holds_the_pile_taking_pair() {
    let rules = Rules::classic();
    let mut g = stacked(
        &rules,
        &["", "AS AH AD 9S 9H 2C 4C 6D 8S TC QH", "", ""],
        "7C",
        "5S 6H 8D JC 5D",
    );
    play(
        &mut g,
        "draw; discard 5S; draw; discard 6H; draw; discard 8D; draw; discard JC; \
         draw; meld AS AH AD",
    );
    let pair_with_wild: Action = "meld 9S 9H 2C".parse().unwrap();
    assert!(g.legal_actions().contains(&pair_with_wild));
    while g.to_act() == Seat::new(1) && g.phase() == Phase::Play {
        let chosen = choice(&g);
        g.apply(chosen).unwrap();
    }
    assert_eq!(g.hand(Seat::new(1)).rank_count(Rank::Nine), 2);
}

/// When an opponent is about to go out, cards in hand only cost: then the
/// pair is laid with the wild card after all.
#[test]
fn lays_the_pair_with_a_wild_card_when_the_hand_is_ending() {
    let rules = Rules::classic();
    let mut v = view_with(&rules, "9S 9H 2C 4C 6D 8S");
    v.own_melds = melds(&["AS AH AD"]);
    v.pile = pile("7C 5S 6H 8D JC");
    let pair_with_wild: Action = "meld 9S 9H 2C".parse().unwrap();
    let legal = vec![pair_with_wild, Action::Discard(card("4C"))];
    assert_eq!(best(&v, &legal), Action::Discard(card("4C")));
    v.opp_min_hand = 2;
    assert_eq!(best(&v, &legal), pair_with_wild);
}

/// A natural set is held like a pair while the pile is worth the wait: an
/// opened side keeps three eights in hand and discards the four, since a
/// laid set tells the opponents to stop discarding eights, while a pair
/// of them in hand takes the pile when they do. It lays the set when an
/// opponent is about to go out, when the pile holds too little to wait
/// for, and at three players (where holding measured worse).
#[test]
fn holds_a_natural_set_while_the_pile_is_worth_taking() {
    let opened = |rules: &Rules| {
        let mut v = view_with(rules, "8S 8H 8D 4C 6D KH");
        v.own_melds = melds(&["AS AH AD"]);
        v.pile = pile("7C 5S 6H 8D JC");
        v
    };
    let classic = Rules::classic();
    let set: Action = "meld 8S 8H 8D".parse().unwrap();
    let legal = vec![set, Action::Discard(card("4C"))];
    assert_eq!(best(&opened(&classic), &legal), Action::Discard(card("4C")));

    let mut ending = opened(&classic);
    ending.opp_min_hand = 2;
    let mut small_pile = opened(&classic);
    small_pile.pile = pile("7C 5S");
    let three_players = opened(&Rules::preset("classic", Some(3), None).unwrap());
    for v in [ending, small_pile, three_players] {
        assert_eq!(best(&v, &legal), set);
    }
}

/// The next opponent has melded kings and queens, so any king or queen
/// thrown gives it the pile onto its melds: a pile of aces and tens it is
/// sure to take. Freezing it with the two costs less (S002, "freezing the
/// pack ... makes it challenging for opponents to pick up cards from the
/// discard pile"). Classic, dealt for real: seat 1 opens with sevens and
/// eights, seat 2 opens with kings and queens, two rounds fill the pile.
#[test]
fn freezes_a_valuable_pile_the_next_opponent_is_sure_to_take() {
    let rules = Rules::classic();
    let mut g = stacked(
        &rules,
        &[
            "",
            "7S 7H 7D 7C 8S 8H 8D KC QC 2C 5H",
            "KS KH KD QS QH QD",
            "",
        ],
        "8C",
        "QD AS AH AD AC AS AH AD KH",
    );
    play(
        &mut g,
        "draw; meld 7S 7H 7D 7C / 8S 8H 8D; discard 5H; \
         draw; meld KS KH KD / QS QH QD; discard AS; \
         draw; discard AH; draw; discard AD; \
         draw; discard AC; draw; discard AS; draw; discard AH; draw; discard AD; \
         draw",
    );
    assert_eq!(g.to_act(), Seat::new(1));
    assert_eq!(discard_choice(&g), Action::Discard(card("2C")));
}

/// The same wild card is kept when the next opponent can hardly take the
/// pile with the card we throw: two copies of its rank are left unseen and
/// the opponent holds six cards. A freeze would cost a wild card to stop
/// a take that is unlikely, however big the pile.
#[test]
fn keeps_the_wild_card_when_the_next_opponent_can_hardly_take_the_pile() {
    let rules = Rules::classic();
    let mut v = view_with(&rules, "2C 6S KH KD KS");
    v.own_melds = melds(&["6H 6D 6C 6S 6H"]);
    v.pile = pile("4S 5H 8D 9C TS JH QC 4D 5C 8H 9D TH JC QS 4H 5D 8C 9S TC JD QH 4C 5S 7H");
    for c in v
        .own_melds
        .iter()
        .flat_map(|m| m.cards.cards())
        .chain(v.pile.iter().copied())
    {
        v.unseen_mut().remove(c);
    }
    let hand = v.hand;
    v.unseen_mut().remove_all(&hand);
    v.next_opp.as_mut().unwrap().hand = 6;
    let legal = vec![Action::Discard(card("2C")), Action::Discard(card("6S"))];
    assert_eq!(best(&v, &legal), Action::Discard(card("6S")));
}
