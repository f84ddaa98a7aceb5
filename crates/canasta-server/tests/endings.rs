//! After a game: a finished table's socket says how it ended and closes
//! (no 404 for a client that reconnects), and a rematch sets the same
//! table again for the same players.

mod common;

use canasta_server::Options;
use canasta_server::pace::Pace;
use canasta_server::secrets;
use canasta_server::storage::{
    MemoryStorage, SeatMeta, Storage, StoredTable, TableMeta, TableStatus,
};
use common::Server;
use serde_json::{Value, json};

/// A game of two heuristic bots to a low target, watched to its end.
async fn finished_table(server: &Server, seats: Value) -> (String, Value) {
    let (status, created) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "options": {"target": 200}, "seats": seats, "pace": "fast", "timeout_secs": 77}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut watcher = server.connect(&id).await;
    watcher.hello(None).await;
    let end = watcher.until("game_end").await;
    (id, end)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tables_socket_sends_the_end_and_closes() {
    let server = Server::start().await;
    let bots = json!([{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]);
    let (id, end) = finished_table(&server, bots).await;
    assert!(end["stand_ins"].as_array().unwrap().is_empty());
    // Now or once its task has gone: the same answer.
    for _ in 0..2 {
        let mut c = server.connect(&id).await;
        let welcome = c.hello(None).await;
        assert_eq!(welcome["table"]["status"], "finished");
        assert!(!welcome["log"].as_array().unwrap().is_empty());
        let state = c.until("state").await;
        assert_eq!(state["status"], "finished");
        assert!(state["legal"].as_array().unwrap().is_empty());
        assert!(c.next().await.is_none(), "the socket closes");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_sets_the_same_table_for_the_same_players() {
    // A finished game's record, cut before its last action: a table of two
    // people stored there, for one of them to end it.
    let first = Server::start().await;
    let bots = json!([{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]);
    let (done, _) = finished_table(&first, bots).await;
    let lines = first.storage.load(&done).await.unwrap().unwrap().lines;
    let last = lines
        .iter()
        .rposition(|l| l.contains("\"action\""))
        .unwrap();
    let final_action: Value = serde_json::from_str(&lines[last]).unwrap();
    let storage = std::sync::Arc::new(MemoryStorage::new());
    let seat_of = |token: &str| SeatMeta::Human {
        name: Some(token.to_string()),
        token_hash: Some(secrets::token_hash(token)),
    };
    storage
        .create(&StoredTable {
            meta: TableMeta {
                id: "old".into(),
                created: 1,
                seats: vec![seat_of("ann"), seat_of("bob")],
                timeout_secs: 77,
                status: TableStatus::Playing,
                pace: Pace::Fast,
                turn_secs: Some(30),
                rematch: None,
                invite_hash: None,
            },
            lines: lines[..last].to_vec(),
        })
        .await
        .unwrap();
    let server = Server::start_on(storage, Options::unpaced()).await;
    let ender = final_action["seat"].as_u64().unwrap() as usize;
    let tokens = ["ann", "bob"];
    let mut seats = Vec::new();
    for t in tokens {
        let mut c = server.connect("old").await;
        c.hello(Some(t)).await;
        seats.push(c);
    }
    let m = seats[ender]
        .state_where(|m| !m["legal"].as_array().unwrap().is_empty())
        .await;
    seats[ender]
        .send(json!({"type": "act", "state_id": m["state_id"], "action": final_action["action"]}))
        .await;
    seats[ender].until("game_end").await;

    let (status, refused) = server
        .post("/api/tables/old/rematch", json!({"token": "nobody"}))
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("bad_token"))
    );
    let (status, made) = server
        .post("/api/tables/old/rematch", json!({"token": tokens[ender]}))
        .await;
    assert_eq!(status, 201, "{made}");
    let new_id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["seat"], ender);
    for c in &mut seats {
        let told = c.until("rematch").await;
        assert_eq!(told["id"], new_id.as_str());
    }
    let (_, table) = server.get(&format!("/api/tables/{new_id}")).await;
    assert_eq!(table["variant"], "classic");
    assert_eq!(table["options"]["target"], 200);
    assert_eq!(
        (table["pace"].as_str(), table["timeout_secs"].as_u64()),
        (Some("fast"), Some(77))
    );
    assert_eq!(table["turn_secs"], 30);
    assert_eq!(
        table["status"], "waiting",
        "the other seat is free: {table}"
    );
    assert_eq!(table["seats"][ender]["claimed"], true);
    assert_eq!(table["seats"][1 - ender]["claimed"], false);
    // The other player asks: the same table, their seat claimed for them.
    let (status, theirs) = server
        .post(
            "/api/tables/old/rematch",
            json!({"token": tokens[1 - ender]}),
        )
        .await;
    assert_eq!(status, 201, "{theirs}");
    assert_eq!(theirs["id"], new_id.as_str());
    assert_eq!(theirs["seat"], 1 - ender);
    let (_, table) = server.get(&format!("/api/tables/{new_id}")).await;
    assert_eq!(table["status"], "playing");
    // Both hold their new seats.
    for (token, seat) in [(&made["token"], ender), (&theirs["token"], 1 - ender)] {
        let mut c = server.connect(&new_id).await;
        let welcome = c.hello(token.as_str()).await;
        assert_eq!(welcome["seat"], seat);
    }
    // A late visitor of the old table learns of it too; the new game is
    // not over, so it has no rematch yet.
    let mut late = server.connect("old").await;
    late.hello(None).await;
    assert_eq!(late.until("rematch").await["id"], new_id.as_str());
    let (status, _) = server
        .post(
            &format!("/api/tables/{new_id}/rematch"),
            json!({"token": made["token"]}),
        )
        .await;
    assert_eq!(status, 409);
}
