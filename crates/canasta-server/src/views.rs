//! What a connection is sent: a seat's [`Observation`] (or the public view
//! for a spectator) and the annotations a player reads off the table, all
//! computed from that view and the rules, never from the game state.

use canasta_core::{CanastaKind, Card, GroupKind, Meld, Observation, Rules, Suit};
use serde_json::{Value, json};

/// Who is looking: a seat, or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(usize),
    Spectator,
}

/// The `view` field: the observation as the bot protocol sends it; for a
/// spectator (given the public observation) without `hand`, `seat` null.
pub fn view_json(obs: &Observation, viewer: Viewer) -> Value {
    let mut value = serde_json::to_value(obs).expect("observations serialize");
    if viewer == Viewer::Spectator
        && let Value::Object(map) = &mut value
    {
        map.remove("hand");
        map.insert("seat".into(), Value::Null);
    }
    value
}

fn suit_symbol(suit: Suit) -> char {
    match suit {
        Suit::Clubs => '♣',
        Suit::Diamonds => '♦',
        Suit::Hearts => '♥',
        Suit::Spades => '♠',
    }
}

/// A meld's name as players say it: its rank, `wild`, or a sequence's
/// lowest and highest rank and its suit.
pub fn meld_label(meld: &Meld) -> String {
    match meld.cards.kind() {
        GroupKind::Wild => "wild".to_string(),
        GroupKind::Rank(rank) => Card::new(rank, Suit::Spades).to_string()[..1].to_string(),
        GroupKind::Sequence(suit, _) => {
            let ranks: Vec<String> = meld
                .cards
                .cards()
                .filter_map(|c| c.rank().map(|_| c.to_string()[..1].to_string()))
                .collect();
            match (ranks.first(), ranks.last()) {
                (Some(lo), Some(hi)) => format!("{lo}–{hi}{}", suit_symbol(suit)),
                _ => format!("run {}", suit_symbol(suit)),
            }
        }
    }
}

fn meld_json(meld: &Meld, rules: &Rules) -> Value {
    let cards: Vec<String> = meld.cards.cards().map(|c| c.to_string()).collect();
    let canasta = meld.canasta(rules).map(|k| match k {
        CanastaKind::Natural => "natural",
        CanastaKind::Mixed => "mixed",
    });
    json!({
        "cards": cards,
        "label": meld_label(meld),
        "canasta": canasta,
        "closed": meld.closed,
    })
}

/// Whether the side has laid a meld this hand (from the public facts).
fn side_has_melded(obs: &Observation, side: usize) -> bool {
    (0..obs.players).any(|s| {
        obs.side_of.get(s) == Some(&side) && obs.table.seat_melded.get(s).copied().unwrap_or(false)
    })
}

/// The `annotations` field: melds with labels and canastas, what freezes
/// the pile for this viewer, the stop card, and the teams.
pub fn annotations(obs: &Observation, rules: &Rules, viewer: Viewer) -> Value {
    let melds: Vec<Vec<Value>> = obs
        .melds
        .iter()
        .map(|side| side.iter().map(|m| meld_json(m, rules)).collect())
        .collect();
    let frozen_for_all = obs.pile_frozen || rules.pile_always_frozen();
    let frozen_for_me = match viewer {
        Viewer::Seat(seat) => {
            frozen_for_all
                || (rules.unopened_side_frozen() && !side_has_melded(obs, obs.side_of[seat]))
        }
        Viewer::Spectator => frozen_for_all,
    };
    let top = obs.pile.last().copied();
    let teams: Vec<Value> = (0..rules.teams() as usize)
        .map(|team| {
            let seats: Vec<usize> = (0..obs.players)
                .filter(|&s| rules.team_of(s) == team)
                .collect();
            json!({
                "seats": seats,
                "score": obs.scores.get(team),
                "opening_needed": seats.first().map(|&s| obs.opening_needed[s]),
            })
        })
        .collect();
    json!({
        "melds": melds,
        "pile_frozen_for_me": frozen_for_me,
        "pile_top": top.map(|c| c.to_string()),
        "stop": top.is_some_and(Card::is_black_three),
        "teams": teams,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{GameState, Rng};

    #[test]
    fn a_spectator_view_has_no_hand() {
        let rules = Rules::classic();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(1), 0);
        let seat = view_json(&g.observe(1), Viewer::Seat(1));
        assert_eq!(seat["hand"].as_array().unwrap().len(), 11);
        let public = view_json(&g.observe_public(), Viewer::Spectator);
        assert!(public.get("hand").is_none());
        assert!(public["seat"].is_null());
        let notes = annotations(&g.observe(1), &rules, Viewer::Seat(1));
        assert_eq!(notes["teams"].as_array().unwrap().len(), 2);
        assert_eq!(notes["teams"][0]["opening_needed"], 50);
    }
}
