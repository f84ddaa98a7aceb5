//! What a connection is sent: a seat's [`Observation`] (or the public view
//! for a spectator) and the annotations a player reads off the table, all
//! computed from that view and the rules, never from the game state.

use canasta_core::Seat;
use canasta_core::{CanastaKind, Card, GroupKind, Meld, Observation, PileWords, Rules, Suit};
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
    let kind = meld.canasta(rules);
    json!({
        "cards": cards,
        "label": meld_label(meld),
        "canasta": kind.map(|k| match k {
            CanastaKind::Natural => "natural",
            CanastaKind::Mixed => "mixed",
        }),
        "name": meld.canasta_name(rules),
        "bonus": meld.canasta_bonus(rules),
        "closed": meld.closed,
    })
}

/// The `annotations` field: melds with labels and canastas, what freezes
/// the pile for this viewer and what stops this viewer taking it in words
/// (the terminal's sentence, cards as drawn), the stop card, and the teams.
pub fn annotations(obs: &Observation, rules: &Rules, viewer: Viewer) -> Value {
    let melds: Vec<Vec<Value>> = obs
        .melds
        .iter()
        .map(|side| side.iter().map(|m| meld_json(m, rules)).collect())
        .collect();
    // The judge's predicate: a spectator sees what freezes it for everyone.
    let frozen_for_me = match viewer {
        Viewer::Seat(_) => obs.pile_freeze(rules).is_some(),
        Viewer::Spectator => rules.pile.freeze.against(obs.pile_frozen, true).is_some(),
    };
    let top = obs.pile.last().copied();
    let seat = match viewer {
        Viewer::Seat(s) => Some(Seat::new(s)),
        Viewer::Spectator => None,
    };
    let pile_words = PileWords::new(obs, rules, seat).map(|w| format!("{w:#}"));
    let teams: Vec<Value> = (0..rules.game.teams as usize)
        .map(|team| {
            let seats: Vec<usize> = (0..obs.players)
                .filter(|&s| rules.game.team_of(Seat::new(s)).index() == team)
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
        "pile_words": pile_words,
        "stop": top.is_some_and(Card::is_black_three),
        "teams": teams,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{GameState, Group, Rng};

    #[test]
    fn a_spectator_view_has_no_hand() {
        let rules = Rules::classic();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(1), Seat::new(0));
        let seat = view_json(&g.observe(Seat::new(1)), Viewer::Seat(1));
        assert_eq!(seat["hand"].as_array().unwrap().len(), 11);
        let public = view_json(&g.observe_public(), Viewer::Spectator);
        assert!(public.get("hand").is_none());
        assert!(public["seat"].is_null());
        let notes = annotations(&g.observe(Seat::new(1)), &rules, Viewer::Seat(1));
        assert_eq!(notes["teams"].as_array().unwrap().len(), 2);
        assert_eq!(notes["teams"][0]["opening_needed"], 50);
    }

    /// The pile's words are the seat's: frozen for a side yet to meld
    /// (P-CAN), nothing for a spectator while no card freezes it.
    #[test]
    fn the_pile_words_are_the_seats() {
        let rules = Rules::classic();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(1), Seat::new(0));
        let mut obs = g.observe(Seat::new(1));
        obs.pile = vec!["7D".parse().unwrap(), "TH".parse().unwrap()];
        obs.pile_frozen = false;
        let notes = annotations(&obs, &rules, Viewer::Seat(1));
        assert_eq!(
            notes["pile_words"],
            "Frozen for your team until it melds: only two natural tens from hand take it \
             as part of a 50-point opening"
        );
        let mut public = g.observe_public();
        public.pile = obs.pile.clone();
        public.pile_frozen = false;
        assert!(annotations(&public, &rules, Viewer::Spectator)["pile_words"].is_null());
        // A black three on top, named as drawn.
        obs.pile.push("3C".parse().unwrap());
        let notes = annotations(&obs, &rules, Viewer::Seat(1));
        assert_eq!(
            notes["pile_words"],
            "A black three (3♣) on top: nobody takes the pile this turn"
        );
    }

    fn meld(rules: &Rules, text: &str) -> Value {
        let cards: Vec<Card> = text.split(' ').map(|c| c.parse().unwrap()).collect();
        let group = Group::from_cards(&cards).unwrap();
        meld_json(
            &Meld {
                cards: group,
                closed: false,
            },
            rules,
        )
    }

    #[test]
    fn canastas_are_named_as_players_name_them() {
        let classic = Rules::classic();
        let natural = meld(&classic, "KS KS KH KH KD KC KC");
        assert_eq!(
            (natural["canasta"].as_str(), natural["name"].as_str()),
            (Some("natural"), Some("natural"))
        );
        assert_eq!(natural["bonus"], 500);
        let mixed = meld(&classic, "KS KS KH KH KD KC 2C");
        assert_eq!(
            (mixed["canasta"].as_str(), mixed["name"].as_str()),
            (Some("mixed"), Some("mixed"))
        );
        assert_eq!(mixed["bonus"], 300);
        let short = meld(&classic, "KS KS KH");
        assert!(short["name"].is_null());
        assert_eq!(short["bonus"], 0);

        let pennies = Rules::preset("pennies", None, None).unwrap();
        let sevens = meld(&pennies, "7S 7S 7H 7H 7D 7C 7C");
        assert_eq!(sevens["name"], "sevens");
        assert_eq!(sevens["bonus"], pennies.scoring.special_canasta_bonus);
        let wild = meld(&pennies, "2S 2H 2D 2C JK JK 2S");
        assert_eq!(wild["name"], "wild");

        let samba = Rules::preset("samba", None, None).unwrap();
        let run = meld(&samba, "4S 5S 6S 7S 8S 9S TS");
        assert_eq!(
            (run["name"].as_str(), run["label"].as_str()),
            (Some("samba"), Some("4–T♠"))
        );
        assert_eq!(run["bonus"], samba.scoring.samba_bonus);
    }
}
