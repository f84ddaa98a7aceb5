//! A player's words: what the server writes for a player to read (a
//! refusal's reason, the hint's advice and figures, the pile's words)
//! names cards as drawn (`10♦`, `Joker`), never in record notation or
//! backticks; structured fields stay in notation (docs/server-api.md).

mod common;

use canasta_core::Card;
use common::{Client, Server};
use serde_json::{Value, json};

/// The words of `text` that are cards in record notation (`7D`, `JK`).
fn notation_in(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() == 2 && w.chars().all(|c| !c.is_ascii_lowercase()))
        .filter(|w| w.parse::<Card>().is_ok())
        .map(str::to_string)
        .collect()
}

fn assert_drawn(what: &str, text: &str) {
    assert!(notation_in(text).is_empty(), "{what} in notation: {text}");
    assert!(!text.contains('`'), "{what} with backticks: {text}");
}

/// A two-player Classic table of humans, both seated; the seat to act's
/// connection first, with its first state.
async fn two_humans(server: &Server) -> (Client, Client, Value) {
    let (_, mut seats, actor, s) = server.two_seated().await;
    let other = seats.remove(1 - actor);
    let me = seats.remove(0);
    (me, other, s)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_names_the_card_as_drawn() {
    let server = Server::start().await;
    let (mut me, _other, s) = two_humans(&server).await;
    me.send(json!({"type": "act", "state_id": s["state_id"], "action": "draw"}))
        .await;
    let s = me.state_where(|m| m["last"]["action"] == "draw").await;
    // A card the hand does not hold: the engine refuses it by name.
    let hand: Vec<&str> = s["view"]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    // Tens and the joker first: their drawn names differ most.
    let first: Vec<Card> = ["TD", "TH", "TS", "TC", "JK"]
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    let absent = first
        .into_iter()
        .chain(Card::all())
        .find(|c| !hand.contains(&c.to_string().as_str()))
        .expect("a hand holds few of the 53 faces");
    let drawn = format!("{absent:#}");
    me.send(
        json!({"type": "act", "state_id": s["state_id"], "action": format!("discard {absent}")}),
    )
    .await;
    let error = me.until("error").await;
    assert_eq!(error["code"], "illegal_action", "{error}");
    let message = error["message"].as_str().unwrap();
    assert_eq!(message, format!("{drawn} is not in your hand"));
    assert_drawn("the refusal", message);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hint_and_the_pile_words_name_cards_as_drawn() {
    let server = Server::start().await;
    let (mut me, _other, s) = two_humans(&server).await;
    // Nobody has melded: the pile is frozen against the seat until it
    // opens (P-CAN), or for everyone where a wild card or a red three was
    // turned up under the upcard, unless a black three on top stops it;
    // the deal is random, and every case says so in words.
    let words = s["annotations"]["pile_words"].as_str().unwrap();
    assert!(
        words.starts_with("Frozen for you until you meld: only two natural")
            || words.starts_with("Frozen: only two natural")
            || words.starts_with("A black three (3"),
        "{words}"
    );
    assert_drawn("pile_words", words);
    me.send(json!({"type": "act", "state_id": s["state_id"], "action": "draw"}))
        .await;
    let s = me.state_where(|m| m["last"]["action"] == "draw").await;
    me.send(json!({"type": "hint", "state_id": s["state_id"]}))
        .await;
    let hint = me.until("hint").await;
    // The action stays in notation; the words are a player's.
    assert!(
        hint["action"]
            .as_str()
            .unwrap()
            .parse::<canasta_core::Action>()
            .is_ok()
    );
    assert_drawn("the advice", hint["advice"].as_str().unwrap());
    assert_drawn("the figures", hint["figures"].as_str().unwrap());
}
