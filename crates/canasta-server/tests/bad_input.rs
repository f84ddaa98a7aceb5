//! Bad input gets a clear error, changes nothing and disturbs no other
//! table: malformed requests, wrong tokens, stale state ids, moves out of
//! turn, illegal and unreadable actions, oversized messages and floods.

mod common;

use canasta_server::protocol::{MAX_MESSAGE_BYTES, RateLimit};
use common::Server;
use serde_json::json;

#[tokio::test]
async fn bad_requests_get_a_status_a_code_and_the_reason() {
    let server = Server::start().await;
    let (status, health) = server.get("/healthz").await;
    assert_eq!((status, health["status"].as_str()), (200, Some("ok")));
    let (status, variants) = server.get("/api/variants").await;
    assert_eq!(status, 200);
    assert_eq!(variants["variants"][0]["id"], "classic");
    assert!(
        variants["bots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b == "ismcts-hard")
    );

    let cases = [
        (json!("not an object"), "the table request"),
        (json!({"variant": "poker"}), "poker"),
        (json!({"variant": "classic", "players": 5}), "5"),
        (
            json!({"variant": "classic", "options": {"target": "high"}}),
            "target",
        ),
        (
            json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}]}),
            "1 seats given",
        ),
        (
            json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "genius"}]}),
            "unknown bot `genius`",
        ),
        (
            json!({"variant": "classic", "timeout_secs": 1}),
            "timeout_secs",
        ),
        (json!({"variant": "classic", "join": {"seat": 3}}), "seat 3"),
        (json!({"variant": "classic", "colour": "red"}), "colour"),
    ];
    for (body, says) in cases {
        let (status, reply) = server.post("/api/tables", body.clone()).await;
        assert_eq!(status, 400, "{body}: {reply}");
        assert_eq!(reply["error"]["code"], "bad_request");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: `{message}` lacks `{says}`");
    }
    let big = json!({"variant": "classic", "options": {"x": "a".repeat(20_000)}});
    let (status, _) = server.post("/api/tables", big).await;
    assert_eq!(status, 413, "bodies over the limit are refused");

    let (status, reply) = server.get("/api/tables/nope").await;
    assert_eq!(
        (status, reply["error"]["code"].as_str()),
        (404, Some("no_such_table"))
    );
    let (id, _) = server.table_of_humans("classic", 2, json!({})).await;
    let (status, reply) = server
        .post(&format!("/api/tables/{id}/seats/1"), json!({}))
        .await;
    assert_eq!(
        (status, reply["error"]["code"].as_str()),
        (409, Some("seat_taken"))
    );
    let (status, reply) = server
        .post(&format!("/api/tables/{id}/seats/7"), json!({}))
        .await;
    assert_eq!(
        (status, reply["error"]["code"].as_str()),
        (400, Some("no_such_seat"))
    );
    let (status, reply) = server.get(&format!("/api/tables/{id}/record")).await;
    assert_eq!(
        (status, reply["error"]["code"].as_str()),
        (409, Some("game_not_over"))
    );
    let (status, reply) = server.get(&format!("/api/tables/{id}/replay/0")).await;
    assert_eq!(
        (status, reply["error"]["code"].as_str()),
        (409, Some("game_not_over"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_are_refused_and_change_nothing() {
    let server = Server::start().await;
    let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    let (other, other_tokens) = server.table_of_humans("classic", 2, json!({})).await;

    let mut early = server.connect(&id).await;
    early.send(json!({"type": "ping"})).await;
    assert_eq!(early.until("error").await["code"], "hello_first");
    early
        .send(json!({"type": "hello", "token": "x".repeat(43)}))
        .await;
    assert_eq!(early.until("error").await["code"], "bad_token");
    // The other table's token opens no seat here.
    early
        .send(json!({"type": "hello", "token": other_tokens[0]}))
        .await;
    assert_eq!(early.until("error").await["code"], "bad_token");
    early.hello(None).await;
    let state = early.until("state").await;
    early
        .send(json!({"type": "act", "state_id": state["state_id"], "action": "draw"}))
        .await;
    assert_eq!(early.until("error").await["code"], "spectator");

    let mut seats = Vec::new();
    for t in &tokens {
        let mut c = server.connect(&id).await;
        c.hello(Some(t)).await;
        seats.push(c);
    }
    let state = seats[0].state_where(|m| !m["view"].is_null()).await;
    let state_id = state["state_id"].as_u64().unwrap();
    let to_act = state["view"]["to_act"].as_u64().unwrap() as usize;
    let waiting = 1 - to_act;
    let before = server.get(&format!("/api/tables/{id}")).await.1;

    let refusals = [
        (waiting, "{".to_string(), "bad_json", "not JSON"),
        (
            waiting,
            json!({"type": "dance"}).to_string(),
            "unknown_type",
            "dance",
        ),
        (
            waiting,
            json!({"type": "act", "state_id": "7"}).to_string(),
            "bad_json",
            "act",
        ),
        (
            waiting,
            json!({"type": "act", "state_id": state_id, "action": "draw"}).to_string(),
            "not_your_turn",
            "turn",
        ),
        (
            to_act,
            json!({"type": "act", "state_id": state_id + 5, "action": "draw"}).to_string(),
            "stale_state",
            "moved on",
        ),
        (
            to_act,
            json!({"type": "act", "state_id": state_id, "action": "discard 4H"}).to_string(),
            "illegal_action",
            "",
        ),
        (
            to_act,
            json!({"type": "act", "state_id": state_id, "action": "fly away"}).to_string(),
            "bad_action",
            "fly away",
        ),
        (
            to_act,
            json!({"type": "hello"}).to_string(),
            "bad_json",
            "first message",
        ),
    ];
    for (seat, text, code, says) in refusals {
        seats[seat].send_text(text.clone()).await;
        let error = seats[seat].until("error").await;
        assert_eq!(error["code"], code, "{text}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(says), "{text}: `{message}` lacks `{says}`");
        assert!(!message.is_empty());
    }
    // The engine's own words for the illegal discard (before drawing).
    assert_eq!(
        server.get(&format!("/api/tables/{id}")).await.1,
        before,
        "nothing changed"
    );

    // Too large: refused, and the connection is closed.
    let mut big = server.connect(&id).await;
    big.hello(Some(&tokens[waiting])).await;
    big.send_text(format!(
        r#"{{"type":"ping","pad":"{}"}}"#,
        "a".repeat(MAX_MESSAGE_BYTES + 10)
    ))
    .await;
    assert_eq!(big.until("error").await["code"], "too_large");
    while big.next().await.is_some() {}

    // The other table plays on meanwhile, and so does this one.
    let mut elsewhere = server.connect(&other).await;
    elsewhere.hello(Some(&other_tokens[0])).await;
    let s = elsewhere.state_where(|m| !m["view"].is_null()).await;
    let seat = s["view"]["to_act"].as_u64().unwrap() as usize;
    let mut actor = server.connect(&other).await;
    actor.hello(Some(&other_tokens[seat])).await;
    let s = actor.state_where(|m| !m["view"].is_null()).await;
    actor
        .send(json!({"type": "act", "state_id": s["state_id"], "action": "draw"}))
        .await;
    let after = actor
        .state_where(|m| m["state_id"].as_u64() > s["state_id"].as_u64())
        .await;
    assert_eq!(after["last"]["action"], "draw");

    seats[to_act]
        .send(json!({"type": "act", "state_id": state_id, "action": "draw"}))
        .await;
    let moved = seats[to_act]
        .state_where(|m| m["state_id"].as_u64() == Some(state_id + 1))
        .await;
    assert_eq!(moved["last"], json!({"seat": to_act, "action": "draw"}));
}

#[tokio::test]
async fn a_flood_is_rate_limited_then_closed() {
    let server = Server::start_limited(RateLimit::default()).await;
    let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    let mut c = server.connect(&id).await;
    c.hello(Some(&tokens[0])).await;
    // Beyond the burst: refused with `rate_limited`, still connected.
    for _ in 0..100 {
        c.send(json!({"type": "ping"})).await;
    }
    let mut pongs = 0;
    loop {
        let m = c.next().await.expect("the connection stays open");
        if m["type"] == "pong" {
            pongs += 1;
        } else if m["type"] == "error" {
            assert_eq!(m["code"], "rate_limited", "{m}");
            break;
        }
    }
    assert!(
        (35..=60).contains(&pongs),
        "{pongs} answered before the limit"
    );
    // A connection that keeps flooding is closed.
    for _ in 0..2000 {
        use futures_util::SinkExt;
        let ping = tokio_tungstenite::tungstenite::Message::Text(r#"{"type":"ping"}"#.into());
        if c.ws.send(ping).await.is_err() {
            break;
        }
    }
    while c.next().await.is_some() {}
    // The server is fine: a new connection is served.
    let mut d = server.connect(&id).await;
    d.hello(Some(&tokens[1])).await;
    d.send(json!({"type": "ping"})).await;
    assert_eq!(d.until("pong").await["type"], "pong");
}
