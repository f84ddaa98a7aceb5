//! Deal options any preset may turn on: faces taken out of the deck, and a
//! first player drawn at random and named in the record (`first`).

use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::record::{check_record, write};
use canasta_core::{Card, DealError, GameState, Phase, Rng, Rules, shuffled_deck};

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// `rules` with house rules set by name, validated (a `Rules` is changed
/// only that way).
fn with(rules: Rules, options: &str) -> Rules {
    rules
        .with_options(&serde_json::from_str(options).unwrap())
        .unwrap()
}

#[test]
fn excluded_faces_leave_the_deck() {
    let rules = with(
        Rules::preset("classic", Some(2), None).unwrap(),
        r#"{"hand_size": 10, "excluded_faces": ["9S", "9H", "9D", "9C", "2H", "2D"]}"#,
    );
    let deck = rules.deal.deck();
    assert_eq!(deck.total(), 108 - 12);
    assert_eq!(deck.count(card("9S")), 0);
    assert_eq!(deck.count(card("2S")), 2);
    let mut g = GameState::new(rules.clone());
    g.deal(&shuffled_deck(&rules, &mut Rng::new(1)), Seat::new(0))
        .unwrap();
    assert_eq!(g.all_cards(), deck);
}

#[test]
fn a_random_first_player_is_named_by_the_deal() {
    let mut rules = Rules::preset("classic", Some(4), None).unwrap();
    let deck = shuffled_deck(&rules, &mut Rng::new(2));
    let mut g = GameState::new(rules.clone());
    assert_eq!(
        g.deal_with_first(&deck, Seat::new(0), Some(Seat::new(3))),
        Err(DealError::BadFirst { first: 3 })
    );
    assert_eq!(g.phase(), Phase::Deal);
    g.deal_with_first(&deck, Seat::new(0), Some(Seat::new(1)))
        .unwrap();
    assert_eq!(g.to_act(), Seat::new(1));

    rules = with(rules, r#"{"random_first_player": true}"#);
    let mut g = GameState::new(rules.clone());
    g.deal_with_first(&deck, Seat::new(0), Some(Seat::new(3)))
        .unwrap();
    assert_eq!((g.phase(), g.to_act()), (Phase::Draw, Seat::new(3)));
    // A record names the first player; replaying it starts there.
    let options = rules.options_against(&Rules::classic());
    let header = serde_json::json!({"canasta_record": 1, "variant": "classic", "players": 4, "options": options});
    let text = format!(
        "{header}\n{}\n{}\n",
        write::deal_with_first(&deck, Seat::new(0), Some(Seat::new(3))),
        write::action(Seat::new(3), &"draw".parse().unwrap())
    );
    let checked = check_record(&text);
    assert!(checked.error.is_none(), "{:?}", checked.error);
    let state = checked.games[0].state.as_ref().unwrap();
    assert_eq!(
        (state.phase(), state.current()),
        (Phase::Play, Seat::new(3))
    );
}

/// Plays random hands until one ends; returns the last action taken.
fn random_hand(g: &mut GameState, rng: &mut Rng) -> canasta_core::Action {
    let dealer = g.hands_played() as usize % g.players();
    g.deal_random(rng, Seat::new(dealer));
    let mut last = canasta_core::Action::Draw;
    while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
        let actions = g.legal_actions();
        last = actions[rng.below(actions.len())];
        g.apply(last).unwrap();
    }
    last
}

/// Canastia (S004): the hand ends the moment a draw empties the stock.
#[test]
fn emptying_the_stock_ends_the_hand_at_once() {
    let rules = with(Rules::classic(), r#"{"stock_end": "emptied"}"#);
    let mut rng = Rng::new(4);
    let mut seen = 0;
    for _ in 0..40 {
        let mut g = GameState::new(rules.clone());
        let last = random_hand(&mut g, &mut rng);
        if g.last_hand().unwrap().reason == canasta_core::HandEndReason::Stock {
            assert_eq!(last, canasta_core::Action::Draw);
            assert_eq!(g.stock_len(), 0);
            seen += 1;
        }
    }
    assert!(seen > 0);
}

/// Canastia (S004): from the second hand, a player strictly ahead of
/// everyone needs `opening_when_leading` to open.
#[test]
fn the_leader_needs_the_higher_opening() {
    let rules = with(
        Rules::preset("classic", Some(2), None).unwrap(),
        r#"{"opening_when_leading": 15, "opening_table": [{"from": null, "need": 10}]}"#,
    );
    let mut rng = Rng::new(9);
    let mut g = GameState::new(rules.clone());
    assert_eq!(g.opening_minimum(Seat::new(0)), 10, "first hand: the table");
    random_hand(&mut g, &mut rng);
    let s = g.scores().to_vec();
    if s[0] != s[1] {
        let leader = if s[0] > s[1] { 0 } else { 1 };
        assert_eq!(g.opening_minimum(Seat::new(leader)), 15);
        assert_eq!(g.opening_minimum(Seat::new(1 - leader)), 10);
    } else {
        assert_eq!(g.opening_minimum(Seat::new(0)), 10);
    }
}

/// Canastia (S004) melds threes as an ordinary rank (3-3-3 opens): with
/// that option on, random play keeps every invariant and threes are melded
/// with wild cards and added to like any rank.
#[test]
fn threes_as_an_ordinary_rank() {
    let rules = with(Rules::classic(), r#"{"threes_natural": true}"#);
    let deck = rules.deal.deck();
    let mut rng = Rng::new(12);
    let mut threes_melded = 0;
    for _ in 0..60 {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, Seat::new(0));
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            assert_eq!(g.all_cards(), deck);
            let actions = g.legal_actions();
            assert!(!actions.is_empty(), "{}", g.describe());
            let a = actions[rng.below(actions.len())];
            g.apply(a).unwrap_or_else(|e| panic!("{a}: {e}"));
        }
        for side in Side::all(2) {
            threes_melded += g
                .melds(side)
                .iter()
                .filter(|m| m.rank() == Some(canasta_core::Rank::Three))
                .count();
        }
    }
    assert!(threes_melded > 0, "no meld of threes in 60 hands");
}

/// A foot (Pennies from Heaven; P-CAN's Classic variation): dealt after the
/// hands, hidden, picked up after the player completes a canasta. Random
/// play keeps every invariant, feet are picked up, and an unpicked foot
/// scores minus.
#[test]
fn feet_are_dealt_hidden_and_picked_up() {
    let rules = with(
        Rules::preset("classic", Some(2), None).unwrap(),
        r#"{"hand_size": 13, "foot_size": 11}"#,
    );
    rules.validate().unwrap();
    let deck = rules.deal.deck();
    let mut rng = Rng::new(5);
    let (mut picked, mut penalties) = (0, 0);
    for _ in 0..80 {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, Seat::new(0));
        assert_eq!(g.observe(Seat::new(0)).foot_sizes, vec![11, 11]);
        let o = g.observe(Seat::new(0));
        let laid_out: usize = o.red_threes.iter().sum();
        assert_eq!(
            o.unseen(&rules).total(),
            deck.total() - 13 - g.pile().len() - laid_out,
            "feet are unseen"
        );
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            assert_eq!(g.all_cards(), deck);
            let actions = g.legal_actions();
            assert!(!actions.is_empty(), "{}", g.describe());
            let a = actions[rng.below(actions.len())];
            let before: Vec<usize> = g.observe(Seat::new(0)).foot_sizes;
            g.apply(a).unwrap_or_else(|e| panic!("{a}: {e}"));
            if matches!(g.phase(), Phase::Draw | Phase::Play)
                && g.observe(Seat::new(0)).foot_sizes != before
            {
                picked += 1;
            }
        }
        assert_eq!(g.all_cards(), deck);
        let h = g.last_hand().unwrap();
        for (t, s) in h.teams.iter().enumerate() {
            let foot = g.observe(Seat::new(t)).foot_sizes[t];
            assert_eq!(foot == 0, s.foot == 0, "an unpicked foot scores minus");
            if s.foot < 0 {
                penalties += 1;
            }
            assert_eq!(
                s.melded + s.in_hand + s.canastas + s.red_threes + s.going_out + s.other + s.foot,
                s.total
            );
        }
    }
    assert!(picked > 0, "no foot picked up in 80 hands");
    assert!(penalties > 0);
}
