//! After a game: a finished table's socket says how it ended and closes
//! (no 404 for a client that reconnects), and a rematch sets the same
//! table again for the same players.

mod common;

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
