//! The bot protocol: JSON lines between a host that runs a game and a bot
//! that plays one seat of it (`docs/bot-protocol.md` is the reference).
//!
//! The host writes one object per line; the bot answers each `decision`
//! with one line `{"action": "<action in the record notation>"}`:
//!
//! - `{"type":"game","seat":S,"seed":N,"header":{...}}` starts a game; the
//!   header is the game record's first line, so the bot knows the rules.
//! - `{"type":"decision","observation":{...},"legal":["draw","pickup",...]}`
//!   asks for one action of `legal` (the seat's [`Observation`] as JSON).
//!
//! The host closes the bot's stdin when it has no more games. Everything
//! here is plain data; the process handling lives in the binary.

use crate::BotError;
use canasta_core::record::Header;
use canasta_core::{Action, Card, CardCounts, Group, Meld, Observation, Phase, Rules};
use canasta_core::{MeldId, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version a `game` message names.
pub const PROTOCOL_VERSION: u64 = 1;

/// A line from the host.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMessage {
    /// A new game: the bot plays `seat`; `seed` is for its own random choices.
    Game {
        protocol: u64,
        seat: Seat,
        seed: u64,
        header: Header,
    },
    /// The seat must choose one of `legal`.
    Decision {
        observation: Value,
        legal: Vec<String>,
    },
}

/// The bot's answer to a decision.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reply {
    pub action: String,
}

/// The `game` line for a seat of a game under `rules`.
pub fn game_line(rules: &Rules, seat: Seat, seed: u64) -> String {
    let msg = HostMessage::Game {
        protocol: PROTOCOL_VERSION,
        seat,
        seed,
        header: Header::for_rules(rules, None),
    };
    serde_json::to_string(&msg).expect("messages serialize")
}

/// The `decision` line for an observation and its legal actions.
pub fn decision_line(obs: &Observation, legal: &[Action]) -> String {
    let msg = HostMessage::Decision {
        observation: serde_json::to_value(obs).expect("observations serialize"),
        legal: legal.iter().map(ToString::to_string).collect(),
    };
    serde_json::to_string(&msg).expect("messages serialize")
}

/// The reply line for an action.
pub fn reply_line(action: &Action) -> String {
    serde_json::to_string(&Reply {
        action: action.to_string(),
    })
    .expect("replies serialize")
}

/// Reads a reply line and finds its action in `legal` (an action naming
/// other suits of the same choice, as the rules see it, counts as that choice).
///
/// # Errors
/// A line that is not a reply, or an action that is not legal.
pub fn read_reply(line: &str, legal: &[Action]) -> Result<Action, BotError> {
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line.trim())
        && let Some(error) = o.get("error")
    {
        let error = error
            .as_str()
            .map_or_else(|| error.to_string(), str::to_string);
        return Err(BotError(format!("the bot answered with an error: {error}")));
    }
    let reply: Reply = serde_json::from_str(line.trim())
        .map_err(|e| BotError(format!("`{}` is not a reply: {e}", line.trim())))?;
    let action: Action = reply
        .action
        .parse()
        .map_err(|e| BotError(format!("`{}`: {e}", reply.action)))?;
    legal
        .iter()
        .find(|a| **a == action)
        .or_else(|| {
            let key = action.class_key();
            legal.iter().find(|a| a.class_key() == key)
        })
        .copied()
        .ok_or_else(|| BotError(format!("`{action}` is not a legal action here")))
}

fn field<'v>(v: &'v Value, key: &str) -> Result<&'v Value, BotError> {
    v.get(key)
        .ok_or_else(|| BotError(format!("observation without `{key}`")))
}

fn de<T: serde::de::DeserializeOwned>(v: &Value, key: &str) -> Result<T, BotError> {
    serde_json::from_value(field(v, key)?.clone())
        .map_err(|e| BotError(format!("observation `{key}`: {e}")))
}

fn counts(v: &Value) -> Result<CardCounts, BotError> {
    let cards: Vec<Card> =
        serde_json::from_value(v.clone()).map_err(|e| BotError(format!("cards: {e}")))?;
    Ok(CardCounts::from_cards(cards))
}

fn meld(text: &str) -> Result<Meld, BotError> {
    let cards = text
        .split_whitespace()
        .map(str::parse::<Card>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| BotError(format!("meld `{text}`: {e}")))?;
    let cards = Group::from_cards(&cards).map_err(|e| BotError(format!("meld `{text}`: {e}")))?;
    // Closed by choice (Canastia) or not is in `closed_melds`.
    Ok(Meld {
        cards,
        closed: false,
    })
}

fn phase(name: &str) -> Result<Phase, BotError> {
    Ok(match name {
        "deal" => Phase::Deal,
        "draw" => Phase::Draw,
        "play" => Phase::Play,
        "answer" => Phase::Answer,
        "hand_over" => Phase::HandOver,
        "game_over" => Phase::GameOver,
        other => return Err(BotError(format!("unknown phase `{other}`"))),
    })
}

/// Rebuilds an [`Observation`] from its JSON form.
///
/// # Errors
/// A missing or malformed field.
pub fn parse_observation(v: &Value) -> Result<Observation, BotError> {
    let melds: Vec<Vec<String>> = de(v, "melds")?;
    // Absent from hosts that predate it: then every meld is open.
    let closed_melds: Vec<Vec<MeldId>> = match v.get("closed_melds") {
        None => vec![Vec::new(); melds.len()],
        Some(_) => de(v, "closed_melds")?,
    };
    let mut melds = melds
        .iter()
        .map(|side| side.iter().map(|m| meld(m)).collect())
        .collect::<Result<Vec<Vec<Meld>>, _>>()?;
    for (side, closed) in melds.iter_mut().zip(&closed_melds) {
        for &i in closed {
            let m = side
                .get_mut(i.index())
                .ok_or_else(|| BotError(format!("observation `closed_melds`: no meld {i}")))?;
            m.closed = true;
        }
    }
    let known = field(v, "known")?
        .as_array()
        .ok_or_else(|| BotError("observation `known` is not a list".into()))?
        .iter()
        .map(counts)
        .collect::<Result<Vec<_>, _>>()?;
    let phase_name: String = de(v, "phase")?;
    Ok(Observation {
        seat: de(v, "seat")?,
        players: de(v, "players")?,
        phase: phase(&phase_name)?,
        current: de(v, "current")?,
        to_act: de(v, "to_act")?,
        dealer: de(v, "dealer")?,
        state_id: de(v, "state_id")?,
        hand: counts(field(v, "hand")?)?,
        hand_sizes: de(v, "hand_sizes")?,
        foot_sizes: de(v, "foot_sizes")?,
        known,
        melds,
        closed_melds,
        side_of: de(v, "side_of")?,
        red_threes: de(v, "red_threes")?,
        red_three_suits: de(v, "red_three_suits")?,
        pile: de(v, "pile")?,
        pile_hidden: de(v, "pile_hidden")?,
        pile_frozen: de(v, "pile_frozen")?,
        stock: de(v, "stock")?,
        scores: de(v, "scores")?,
        opening_needed: de(v, "opening_needed")?,
        drew_from_stock: de(v, "drew_from_stock")?,
        took_pile: de(v, "took_pile")?,
        asked: de(v, "asked")?,
        answer: de(v, "answer")?,
        must_go_out: de(v, "must_go_out")?,
        // Absent from hosts that predate it: rebuilt by guesses then.
        table: match v.get("table") {
            None => Default::default(),
            Some(_) => de(v, "table")?,
        },
    })
}

/// Parses the `legal` list of a decision.
///
/// # Errors
/// An entry that is not an action.
pub fn parse_legal(legal: &[String]) -> Result<Vec<Action>, BotError> {
    legal
        .iter()
        .map(|s| {
            s.parse::<Action>()
                .map_err(|e| BotError(format!("legal action `{s}`: {e}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{GameState, Rng, rules::all_forms};

    #[test]
    fn observations_and_actions_survive_the_round_trip() {
        let mut checked = 0;
        for rules in all_forms() {
            let mut rng = Rng::new(3);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(0));
            for _ in 0..120 {
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    break;
                }
                let legal = g.legal_actions();
                let obs = g.observe(g.to_act());
                let line = decision_line(&obs, &legal);
                let HostMessage::Decision {
                    observation,
                    legal: texts,
                } = serde_json::from_str(&line).unwrap()
                else {
                    panic!("not a decision: {line}");
                };
                let back = parse_observation(&observation).unwrap();
                assert_eq!(back, obs);
                assert_eq!(parse_legal(&texts).unwrap(), legal);
                let pick = legal[rng.below(legal.len())];
                assert_eq!(read_reply(&reply_line(&pick), &legal).unwrap(), pick);
                g.apply_unchecked(pick);
                checked += 1;
            }
        }
        assert!(checked > 500);
    }

    #[test]
    fn a_reply_outside_the_legal_list_is_refused() {
        let legal = [Action::Draw];
        assert!(read_reply(r#"{"action":"ask"}"#, &legal).is_err());
        assert!(read_reply("draw", &legal).is_err());
        let err = read_reply(r#"{"error":"line 3: no game"}"#, &legal).unwrap_err();
        assert!(
            err.0.contains("answered with an error: line 3: no game"),
            "{}",
            err.0
        );
        assert_eq!(
            read_reply(r#"{"action":"draw"}"#, &legal).unwrap(),
            Action::Draw
        );
    }
}
