//! Positions reached for real: a deck stacked so that the seats hold the
//! cards a test names, then a script of actions the judge accepts.

use canasta_core::{Action, Card, GameState, Rules, Seat};

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// A hand dealt by seat 0 (so seat 1 plays first) from a deck stacked so
/// that seat `s` holds `hands[s]`, `up` is turned up, and `stock` holds the
/// next cards drawn, in order. Hands named short are filled up with cards
/// nobody named, red threes last so that no seat lays one out and draws a
/// card the script counts on.
pub fn stacked(rules: &Rules, hands: &[&str], up: &str, stock: &str) -> GameState {
    let players = usize::from(rules.game.players);
    let size = usize::from(rules.deal.hand_size);
    assert_eq!(hands.len(), players, "one hand a seat");
    let mut spare = rules.deal.deck();
    let mut named: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let up = cards(up);
    let stock = cards(stock);
    for c in named.iter().flatten().chain(&up).chain(&stock) {
        assert!(spare.remove(*c), "{c} named more often than the deck holds");
    }
    let mut rest: Vec<Card> = spare.iter().filter(|c| !c.is_red_three()).collect();
    rest.extend(spare.iter().filter(|c| c.is_red_three()));
    let mut rest = rest.into_iter();
    for hand in &mut named {
        assert!(hand.len() <= size, "a hand holds {size} cards");
        while hand.len() < size {
            hand.push(rest.next().unwrap());
        }
    }
    // The deal gives card i to seat (1 + i) mod players, round by round.
    let mut deck: Vec<Card> = (0..players * size)
        .map(|i| named[(1 + i) % players][i / players])
        .collect();
    deck.extend(up);
    deck.extend(stock);
    deck.extend(rest);
    let mut g = GameState::new(rules.clone());
    g.deal(&deck, Seat::new(0)).unwrap();
    g
}

/// Plays `script`, actions in the record notation separated by `;`.
pub fn play(g: &mut GameState, script: &str) {
    for a in script.split(';').map(str::trim).filter(|a| !a.is_empty()) {
        let action: Action = a.parse().unwrap();
        g.apply(action)
            .unwrap_or_else(|e| panic!("{a} refused: {e}"));
    }
}
