//! No leaks: whole games of every preset and player count played through
//! the WebSocket by clients choosing among the legal actions they are
//! sent, with a spectator watching. Every `state` a seat receives must be
//! exactly that seat's observation of the real game at that state id (the
//! spectator's: the public view), its legal list the real one, and no
//! message may carry another seat's token, a deck, or a card the seat
//! cannot see.

mod common;

use canasta_core::Seat;
use canasta_core::record::Replay;
use canasta_core::{Card, CardCounts, GameState, PRESETS, Phase, Rng};
use canasta_server::storage::Storage;
use common::{Client, Server};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Hands played at most per game: random play in some forms never
/// reaches the target.
const MAX_HANDS: u64 = 3;

/// Plays a seat (or watches, with `seat` None) until the game ends or
/// `MAX_HANDS` have been played; returns every message received.
async fn play(mut client: Client, token: Option<String>, seed: u64) -> (Vec<Value>, Vec<String>) {
    let mut rng = Rng::new(seed);
    // A state is sent again when someone connects: act on each one once.
    let mut acted_on = None;
    client.hello(token.as_deref()).await;
    loop {
        let Some(m) = client.next().await else { break };
        match m["type"].as_str().unwrap() {
            "state" => {
                if m["hand"].as_u64().unwrap() > MAX_HANDS {
                    break;
                }
                let legal = m["legal"].as_array().unwrap();
                if !legal.is_empty() && acted_on != m["state_id"].as_u64() {
                    acted_on = m["state_id"].as_u64();
                    let action = legal[rng.below(legal.len())].clone();
                    client
                        .send(json!({"type": "act", "state_id": m["state_id"], "action": action}))
                        .await;
                }
            }
            "hand_end" if token.is_some() => {
                client.send(json!({"type": "next"})).await;
            }
            "game_end" => break,
            "error" => panic!("refused: {m}"),
            _ => {}
        }
    }
    (client.seen, client.raw)
}

/// The states of the stored game by state id.
fn states_by_id(lines: &[String]) -> HashMap<u64, GameState> {
    let parse = |l: &str| serde_json::from_str::<Value>(l).unwrap();
    let mut replay = Replay::start(&parse(&lines[0]), 1).unwrap();
    let mut states = HashMap::new();
    states.insert(replay.state().state_id(), replay.state().clone());
    for (i, line) in lines.iter().enumerate().skip(1) {
        replay.feed(&parse(line), i + 1).unwrap();
        states.insert(replay.state().state_id(), replay.state().clone());
    }
    states
}

/// Every card named anywhere in a JSON value (strings that are cards, and
/// the cards inside action texts).
/// Cards a text names, in record notation (`7D`, `JK`) or as drawn for a
/// player (`7♦`, `10♥`, `Joker`, as in `pile_words`); English words that
/// happen to spell a card ("as", "ah") are not cards.
fn cards_in(value: &Value, out: &mut Vec<Card>) {
    let card = |w: &str| -> Option<Card> {
        if let Some(c) = Card::all().find(|c| format!("{c:#}") == w) {
            return Some(c);
        }
        let upper = w.chars().all(|ch| !ch.is_ascii_lowercase());
        w.parse::<Card>().ok().filter(|_| upper)
    };
    match value {
        Value::String(s) => out.extend(
            s.split([' ', '/', '(', ')', ',', ':', ';'])
                .filter_map(card),
        ),
        Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

fn check_seat(
    messages: &[Value],
    raw: &[String],
    seat: Option<usize>,
    states: &HashMap<u64, GameState>,
    tokens: &[String],
    form: &str,
) {
    for text in raw {
        for (s, t) in tokens.iter().enumerate() {
            assert!(
                !text.contains(t.as_str()),
                "{form}: seat {seat:?} was sent seat {s}'s token"
            );
        }
        assert!(
            !text.contains("\"deal\""),
            "{form}: a deal (deck) was sent: {text}"
        );
    }
    let mut checked = 0;
    for m in messages {
        match m["type"].as_str().unwrap() {
            "state" => {
                let id = m["state_id"].as_u64().unwrap();
                let Some(truth) = states.get(&id) else {
                    // States after the last stored line do not exist.
                    panic!("{form}: a state id the record never reached: {id}");
                };
                if m["view"].is_null() {
                    continue;
                }
                let expected = match seat {
                    Some(s) => serde_json::to_value(truth.observe(Seat::new(s))).unwrap(),
                    None => {
                        let mut v = serde_json::to_value(truth.observe_public()).unwrap();
                        v.as_object_mut().unwrap().remove("hand");
                        v["seat"] = Value::Null;
                        v
                    }
                };
                assert_eq!(m["view"], expected, "{form}: seat {seat:?} at state {id}");
                let in_hand = matches!(truth.phase(), Phase::Draw | Phase::Play | Phase::Answer);
                let legal: Vec<String> = match seat {
                    Some(s)
                        if in_hand && truth.to_act().index() == s && m["status"] == "playing" =>
                    {
                        truth
                            .legal_actions()
                            .iter()
                            .map(ToString::to_string)
                            .collect()
                    }
                    _ => Vec::new(),
                };
                assert_eq!(
                    m["legal"],
                    json!(legal),
                    "{form}: legal list of seat {seat:?} at {id}"
                );
                // Every card named outside the view is one this viewer sees.
                let obs = match seat {
                    Some(s) => truth.observe(Seat::new(s)),
                    None => truth.observe_public(),
                };
                let mut visible: CardCounts = obs.seen();
                visible.add_all(&obs.known[obs.seat]);
                let mut named = Vec::new();
                for key in ["annotations", "legal", "last", "seats"] {
                    cards_in(&m[key], &mut named);
                }
                for card in named {
                    assert!(
                        visible.count(card) > 0,
                        "{form}: seat {seat:?} at state {id} was told of {card}"
                    );
                }
                checked += 1;
            }
            "hand_end" => {
                let hands = m["hands"].as_array().unwrap();
                assert!(hands.len() >= 2, "{form}");
            }
            "welcome" => {
                assert_eq!(m["seat"], json!(seat));
            }
            "error" => panic!("{form}: {m}"),
            _ => {}
        }
    }
    assert!(checked > 10, "{form}: only {checked} states checked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_played_through_the_socket_leaks_nothing() {
    let server = Server::start().await;
    let mut games = Vec::new();
    for info in PRESETS {
        for &players in info.players {
            let form = format!("{} {players}", info.id);
            // A short game, but of `MAX_HANDS` hands: the two-card hands of
            // Micro and Mini score hundreds a hand, and a target of 300
            // would end them after one hand of a few states.
            let hand_size = canasta_core::Rules::preset(info.id, Some(players), None)
                .unwrap()
                .deal
                .hand_size;
            let target = if hand_size <= 3 { 5000 } else { 300 };
            let (id, tokens) = server
                .table_of_humans(info.id, players as usize, json!({ "target": target }))
                .await;
            let mut seats = Vec::new();
            for (s, t) in tokens.iter().enumerate() {
                let client = server.connect(&id).await;
                seats.push(tokio::spawn(play(client, Some(t.clone()), s as u64 + 1)));
            }
            let spectator = tokio::spawn(play(server.connect(&id).await, None, 99));
            games.push((form, id, tokens, seats, spectator));
        }
    }
    for (form, id, tokens, seats, spectator) in games {
        let mut results = Vec::new();
        for s in seats {
            results.push(s.await.unwrap());
        }
        let watched = spectator.await.unwrap();
        let stored = server.storage.load(&id).await.unwrap().unwrap();
        let states = states_by_id(&stored.lines);
        for (s, (messages, raw)) in results.iter().enumerate() {
            check_seat(messages, raw, Some(s), &states, &tokens, &form);
        }
        check_seat(&watched.0, &watched.1, None, &states, &tokens, &form);
    }
}
