//! Seats over time: bots think without stalling other tables, an absent
//! player's turns are played by the heuristic bot until they return, and a
//! server started again on the same storage resumes every game.

mod common;

use canasta_server::storage::{SqliteStorage, Storage};
use canasta_server::{Running, start_with};
use common::{Client, Server};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// Plays `seat`'s turns with the first legal discard after a draw (or the
/// first legal action) until it is no longer this seat's turn.
async fn play_turn(c: &mut Client, seat: u64) -> Value {
    loop {
        let m = c.until("state").await;
        let legal = m["legal"].as_array().unwrap();
        if m["view"]["to_act"] != json!(seat) || legal.is_empty() {
            return m;
        }
        let pick = legal
            .iter()
            .find(|a| a.as_str().unwrap().starts_with("discard"))
            .unwrap_or(&legal[0]);
        c.send(json!({"type": "act", "state_id": m["state_id"], "action": pick}))
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thinking_bot_does_not_stall_other_tables() {
    let server = Server::start().await;
    let (status, created) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts@3000ms"}], "join": {"seat": 0}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let a = created["id"].as_str().unwrap().to_string();
    let mut human = server.connect(&a).await;
    human.hello(created["token"].as_str()).await;
    // Until the bot is to act (play our turn first if it is ours).
    let mut m = human.state_where(|m| !m["view"].is_null()).await;
    if m["view"]["to_act"] == 0 {
        human
            .send(json!({"type": "act", "state_id": m["state_id"], "action": "draw"}))
            .await;
        m = play_turn(&mut human, 0).await;
    }
    assert_eq!(m["view"]["to_act"], 1, "the bot is thinking now");
    let thinking_at = m["state_id"].as_u64().unwrap();

    let (b, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    let mut others = Vec::new();
    for t in &tokens {
        let mut c = server.connect(&b).await;
        c.hello(Some(t)).await;
        others.push(c);
    }
    let s = others[0].state_where(|m| !m["view"].is_null()).await;
    let seat = s["view"]["to_act"].as_u64().unwrap() as usize;
    let s = others[seat].state_where(|m| !m["view"].is_null()).await;
    others[seat]
        .send(json!({"type": "act", "state_id": s["state_id"], "action": "draw"}))
        .await;
    let answered = others[seat]
        .state_where(|m| m["last"]["action"] == "draw")
        .await;
    assert_eq!(
        answered["state_id"].as_u64(),
        s["state_id"].as_u64().map(|i| i + 1)
    );

    // The bot has not finished its turn: a discard (from a hand of many
    // cards) takes it three seconds. Only a forced draw may have come.
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_millis(1), human.next()).await {
        assert!(
            m["state_id"].as_u64() == Some(thinking_at) || m["last"]["action"] == "draw",
            "the bot chose before the other table was answered: {m}"
        );
    }
    // And then it does.
    let moved = human
        .state_where(|m| m["last"]["seat"] == 1 && m["last"]["action"] != "draw")
        .await;
    assert!(moved["state_id"].as_u64() > Some(thinking_at));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absent_players_turns_are_played_for_them_until_they_return() {
    let server = Server::start().await;
    let seats = vec![json!({"kind": "human"}); 2];
    let (_, created) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "seats": seats, "timeout_secs": 5, "join": {"seat": 0}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let (_, claimed) = server
        .post(&format!("/api/tables/{id}/seats/1"), json!({}))
        .await;
    let absent_token = claimed["token"].as_str().unwrap().to_string();
    let mut present = server.connect(&id).await;
    present.hello(created["token"].as_str()).await;
    // Seat 1 never connects: within its timeout, its turn is played for it.
    let played_for = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let m = play_turn(&mut present, 0).await;
            if m["last"]["seat"] == 1 {
                return m;
            }
        }
    })
    .await
    .expect("the absent seat's turn was played");
    assert_eq!(played_for["seats"][1]["stand_in"], true, "{played_for}");
    assert_eq!(played_for["seats"][1]["connected"], false);

    // Back: the seat is the player's again, and on its turn it waits.
    let mut back = server.connect(&id).await;
    back.hello(Some(&absent_token)).await;
    let m = back.state_where(|m| !m["view"].is_null()).await;
    assert_eq!(m["seats"][1]["connected"], true);
    assert_eq!(m["seats"][1]["stand_in"], false);
}

async fn sqlite_server(dir: &std::path::Path) -> Running {
    let storage = SqliteStorage::open(&dir.join("canasta.sqlite3"))
        .await
        .unwrap();
    start_with(
        "127.0.0.1:0".parse().unwrap(),
        Arc::new(storage) as Arc<dyn Storage>,
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_resumes_the_game_and_its_seats() {
    let dir = tempfile::tempdir().unwrap();
    let running = sqlite_server(dir.path()).await;
    let addr = running.addr;
    let (_, created) = canasta_server::load::http(
        addr,
        "POST",
        "/api/tables",
        &json!({"variant": "samba", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], "join": {"seat": 0, "name": "Ann"}}),
    )
    .await
    .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = Client::connect(addr, &id).await;
    c.hello(Some(&token)).await;
    let mut last = Value::Null;
    for _ in 0..3 {
        let m = c
            .state_where(|m| m["view"]["to_act"] == 0 && !m["legal"].as_array().unwrap().is_empty())
            .await;
        c.send(json!({"type": "act", "state_id": m["state_id"], "action": "draw"}))
            .await;
        last = play_turn(&mut c, 0).await;
    }
    running.stop().await;

    let running = sqlite_server(dir.path()).await;
    let mut c = Client::connect(running.addr, &id).await;
    let welcome = c.hello(Some(&token)).await;
    assert_eq!(welcome["seat"], 0);
    assert_eq!(welcome["table"]["seats"][0]["name"], "Ann");
    let again = c.until("state").await;
    // The bot may have moved after our last message; the game is the same
    // game: our hand and everything before.
    if again["state_id"] == last["state_id"] {
        assert_eq!(again["view"], last["view"]);
    } else {
        assert!(again["state_id"].as_u64() > last["state_id"].as_u64());
    }
    let logged = welcome["log"].as_array().unwrap();
    assert!(logged.len() >= 6, "the log is back: {logged:?}");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_a_legal_action_with_advice_and_figures() {
    let server = Server::start().await;
    let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    let mut seats = Vec::new();
    for t in &tokens {
        let mut c = server.connect(&id).await;
        c.hello(Some(t)).await;
        seats.push(c);
    }
    let m = seats[0].state_where(|m| !m["view"].is_null()).await;
    let actor = m["view"]["to_act"].as_u64().unwrap() as usize;
    let other = 1 - actor;
    let s = seats[actor].state_where(|m| !m["view"].is_null()).await;
    seats[actor]
        .send(json!({"type": "act", "state_id": s["state_id"], "action": "draw"}))
        .await;
    let s = seats[actor]
        .state_where(|m| m["last"]["action"] == "draw")
        .await;
    let id_now = s["state_id"].clone();

    // Not this seat's turn: refused at once.
    seats[other]
        .send(json!({"type": "hint", "state_id": id_now}))
        .await;
    let refused = seats[other].until("error").await;
    assert_eq!(refused["code"], "not_your_turn", "{refused}");

    // Asked twice: the second waits for the first.
    seats[actor]
        .send(json!({"type": "hint", "state_id": id_now}))
        .await;
    seats[actor]
        .send(json!({"type": "hint", "state_id": id_now}))
        .await;
    let busy = seats[actor].until("error").await;
    assert_eq!(busy["code"], "busy", "{busy}");
    let hint = seats[actor].until("hint").await;
    assert_eq!(hint["state_id"], id_now);
    let legal = s["legal"].as_array().unwrap();
    assert!(legal.contains(&hint["action"]), "{hint} not in {legal:?}");
    // The advice in a player's words; the numbers apart, on request.
    let advice = hint["advice"].as_str().unwrap();
    assert!(advice.ends_with('.'), "{advice}");
    for engine in ["playouts", "mean outcome", "Some(", "::"] {
        assert!(!advice.contains(engine), "`{engine}` in: {advice}");
    }
    let figures = hint["figures"].as_str().unwrap();
    assert!(figures.contains("playouts chose it"), "{figures}");
    assert!(figures.contains("rules of thumb"), "{figures}");
    // `why`, the old field, repeats the advice.
    assert_eq!(hint["why"], hint["advice"]);
}
