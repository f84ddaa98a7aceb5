//! Undo against bots over the WebSocket, as the terminal allows it: the
//! player's last action and the bots' moves after it are taken back, never
//! past a card the player has seen, and only for a player alone against
//! bots; the stored record loses the undone lines and still checks.

mod common;

use canasta_core::record::check_record;
use canasta_server::storage::Storage;
use common::{Server, legal};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_takes_back_a_discard_and_the_bots_replies_and_nothing_before() {
    let server = Server::start().await;
    let (_, created) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], "join": {"seat": 0}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut c = server.connect(&id).await;
    c.hello(created["token"].as_str()).await;
    let m = c
        .state_where(|m| m["view"]["to_act"] == 0 && legal(m).contains(&"draw".to_string()))
        .await;
    assert_eq!(m["can_undo"], false);
    c.send(json!({"type": "undo", "state_id": m["state_id"]}))
        .await;
    let refused = c.until("error").await;
    assert_eq!(refused["code"], "cannot_undo", "{refused}");
    c.send(json!({"type": "act", "state_id": m["state_id"], "action": "draw"}))
        .await;
    let drawn = c.state_where(|m| m["last"]["action"] == "draw").await;
    // The draw showed cards: it cannot be taken back.
    assert_eq!(drawn["can_undo"], false);
    c.send(json!({"type": "undo", "state_id": drawn["state_id"]}))
        .await;
    let refused = c.until("error").await;
    assert_eq!(refused["code"], "cannot_undo");
    assert!(
        refused["message"].as_str().unwrap().contains("seen"),
        "{refused}"
    );
    let lines_drawn = server.storage.load(&id).await.unwrap().unwrap().lines;
    let discard = legal(&drawn)
        .into_iter()
        .find(|a| a.starts_with("discard"))
        .unwrap();
    c.send(json!({"type": "act", "state_id": drawn["state_id"], "action": discard}))
        .await;
    // Our turn again, after the bot's: undo all of it.
    let back = c
        .state_where(|m| m["view"]["to_act"] == 0 && !legal(m).is_empty())
        .await;
    assert_eq!(back["can_undo"], true, "{back}");
    c.send(json!({"type": "undo", "state_id": back["state_id"].as_u64().unwrap() + 7}))
        .await;
    assert_eq!(c.until("error").await["code"], "stale_state");
    c.send(json!({"type": "undo", "state_id": back["state_id"]}))
        .await;
    let undone = c.until("undone").await;
    let removed = undone["removed"].as_u64().unwrap();
    assert!(
        removed >= 3,
        "our discard and the bot's draw and discard: {undone}"
    );
    let again = c.until("state").await;
    assert!(again["state_id"].as_u64() > back["state_id"].as_u64());
    assert_eq!(again["view"]["hand"], drawn["view"]["hand"]);
    assert_eq!(again["view"]["state_id"], again["state_id"]);
    assert_eq!(legal(&again), legal(&drawn));
    assert_eq!(again["can_undo"], false);
    let stored = server.storage.load(&id).await.unwrap().unwrap().lines;
    assert_eq!(stored, lines_drawn, "the record lost the undone lines");
    let check = check_record(&stored.join("\n"));
    assert!(check.error.is_none(), "{:?}", check.error);
    // Played on from there, the game goes on as any other.
    c.send(json!({"type": "act", "state_id": again["state_id"], "action": discard}))
        .await;
    let on = c.state_where(|m| m["last"]["action"] == discard).await;
    assert_eq!(
        on["state_id"].as_u64(),
        again["state_id"].as_u64().map(|i| i + 1)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_is_refused_at_a_table_of_two_players() {
    let server = Server::start().await;
    let (_, mut seats, actor, s) = server.two_seated().await;
    assert!(!legal(&s).is_empty());
    seats[actor]
        .send(json!({"type": "act", "state_id": s["state_id"], "action": "draw"}))
        .await;
    let s = seats[actor]
        .state_where(|m| m["last"]["action"] == "draw")
        .await;
    let discard = legal(&s)
        .into_iter()
        .find(|a| a.starts_with("discard"))
        .unwrap();
    seats[actor]
        .send(json!({"type": "act", "state_id": s["state_id"], "action": discard}))
        .await;
    let s = seats[actor]
        .state_where(|m| m["last"]["action"] == discard)
        .await;
    assert_eq!(s["can_undo"], false);
    seats[actor]
        .send(json!({"type": "undo", "state_id": s["state_id"]}))
        .await;
    let refused = seats[actor].until("error").await;
    assert_eq!(refused["code"], "cannot_undo");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("against bots")
    );
}
