//! Seats over time: bots think without stalling other tables and play at
//! the table's pace, an absent player's turn is played by the bot one turn
//! at a time (marked, across a restart), a table whose player left waits
//! for them, and a server started again on the same storage resumes every
//! game.

mod common;

use canasta_server::storage::{SqliteStorage, Storage};
use canasta_server::{Options, Running, start_with};
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

    let (_, mut others, seat, s) = server.two_seated().await;
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

/// Reads until the state where `seat` is asked to act.
async fn until_asked(c: &mut Client, seat: u64) -> Value {
    c.state_where(|m| m["view"]["to_act"] == seat && !m["legal"].as_array().unwrap().is_empty())
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absent_player_has_one_turn_played_and_the_marks_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let running = sqlite_server(dir.path()).await;
    let seats = vec![json!({"kind": "human"}); 2];
    let (_, created) = canasta_server::load::http(
        running.addr,
        "POST",
        "/api/tables",
        &json!({"variant": "classic", "players": 2, "seats": seats, "timeout_secs": 5, "join": {"seat": 0}}),
    )
    .await
    .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let (_, claimed) = canasta_server::load::http(
        running.addr,
        "POST",
        &format!("/api/tables/{id}/seats/1"),
        &json!({}),
    )
    .await
    .unwrap();
    let absent_token = claimed["token"].as_str().unwrap().to_string();
    let mut present = Client::connect(running.addr, &id).await;
    present.hello(Some(&token)).await;
    // Seat 1 never connects: after its timeout, the bot plays one turn.
    let mut m = until_asked(&mut present, 0).await;
    if m["seats"][1]["stand_in_turns"] == 0 {
        present
            .send(json!({"type": "act", "state_id": m["state_id"], "action": "draw"}))
            .await;
        let waiting = play_turn(&mut present, 0).await;
        assert_eq!(waiting["view"]["to_act"], 1);
        let deadline = waiting["deadline_ms"].as_u64().expect("the clock runs");
        assert!(deadline > 0 && deadline <= 5000, "{waiting}");
        let played = tokio::time::timeout(
            Duration::from_secs(20),
            present.state_where(|m| m["last"]["seat"] == 1),
        )
        .await
        .expect("the absent seat's turn was played");
        assert_eq!(played["last"]["stand_in"], true, "{played}");
        assert_eq!(played["seats"][1]["stand_in"], true);
        m = until_asked(&mut present, 0).await;
    }
    // One turn, and the seat is still the player's.
    assert_eq!(m["seats"][1]["kind"], "human");
    assert_eq!(m["seats"][1]["stand_in"], false);
    assert_eq!(m["seats"][1]["stand_in_turns"], 1, "{m}");
    running.stop().await;

    // After a restart the marks are still there, in the log and the seats.
    let running = sqlite_server(dir.path()).await;
    let mut back = Client::connect(running.addr, &id).await;
    let welcome = back.hello(Some(&absent_token)).await;
    assert_eq!(welcome["table"]["seats"][1]["stand_in_turns"], 1);
    let marked: Vec<&Value> = welcome["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["stand_in"] == true)
        .collect();
    assert!(marked.len() >= 2, "a draw and a discard: {marked:?}");
    assert!(marked.iter().all(|e| e["seat"] == 1));
    let m = back.state_where(|m| !m["view"].is_null()).await;
    assert_eq!(m["seats"][1]["connected"], true);
    assert_eq!(m["seats"][1]["stand_in"], false);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_player_left_is_paused_not_played_out() {
    let server = Server::start().await;
    let (_, created) = server
        .post(
            "/api/tables",
            json!({"variant": "samba", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], "timeout_secs": 5, "join": {"seat": 0}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut c = server.connect(&id).await;
    c.hello(created["token"].as_str()).await;
    let m = until_asked(&mut c, 0).await;
    c.send(json!({"type": "act", "state_id": m["state_id"], "action": "draw"}))
        .await;
    play_turn(&mut c, 0).await;
    drop(c);
    // Whatever happens meanwhile, the table soon says it is paused, and
    // stays in the hand it was in: nothing is played for the player.
    let paused = loop {
        let (_, t) = server.get(&format!("/api/tables/{id}")).await;
        if t["paused"] == true {
            break t;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let lines = server.storage.load(&id).await.unwrap().unwrap().lines;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        server.storage.load(&id).await.unwrap().unwrap().lines,
        lines
    );
    assert_eq!(paused["status"], "playing");
    assert_eq!(paused["hand"], 1);
    assert_eq!(paused["seats"][0]["stand_in_turns"], 0);
    // Back: it goes on.
    let mut c = server.connect(&id).await;
    c.hello(created["token"].as_str()).await;
    let (_, t) = server.get(&format!("/api/tables/{id}")).await;
    assert_eq!(t["paused"], false);
    until_asked(&mut c, 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paced_bot_actions_arrive_as_separate_states() {
    let server = Server::start_paced(1.0).await;
    let (status, created) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "pace": "fast", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], "join": {"seat": 0}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (_, summary) = server.get(&format!("/api/tables/{id}")).await;
    assert_eq!(summary["pace"], "fast");
    let mut c = server.connect(&id).await;
    c.hello(created["token"].as_str()).await;
    let m = until_asked(&mut c, 0).await;
    c.send(json!({"type": "act", "state_id": m["state_id"], "action": "draw"}))
        .await;
    let drawn = c.state_where(|m| m["last"]["action"] == "draw").await;
    let discard = drawn["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a.as_str().unwrap().starts_with("discard"))
        .unwrap()
        .clone();
    let sent_at = std::time::Instant::now();
    c.send(json!({"type": "act", "state_id": drawn["state_id"], "action": discard}))
        .await;
    let mut id_before = drawn["state_id"].as_u64().unwrap();
    let mut bot_actions = 0;
    loop {
        let m = c.until("state").await;
        assert_eq!(m["state_id"].as_u64(), Some(id_before + 1), "none skipped");
        id_before += 1;
        if m["last"]["seat"] == 1 {
            bot_actions += 1;
        }
        if m["view"]["to_act"] == 0 || m["status"] != "playing" {
            break;
        }
    }
    assert!(bot_actions >= 2, "a draw and a discard");
    // Each bot action waited the fast pace (200 ms) after the state before.
    assert!(sent_at.elapsed() >= Duration::from_millis(200) * bot_actions);
}

async fn sqlite_server(dir: &std::path::Path) -> Running {
    let storage = SqliteStorage::open(&dir.join("canasta.sqlite3"))
        .await
        .unwrap();
    start_with(
        "127.0.0.1:0".parse().unwrap(),
        Arc::new(storage) as Arc<dyn Storage>,
        Options::unpaced(),
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
    let (_, mut seats, actor, s) = server.two_seated().await;
    let other = 1 - actor;
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
