//! The audit's smaller defects: each `/replay/{step}` replayed the whole
//! record again, and a lock file that could not be opened was blamed on
//! the data directory.

mod common;

use canasta_server::pace::Pacing;
use canasta_server::{Config, ServerError, start};
use common::Server;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_replayed_once_for_all_its_steps() {
    let server = Server::start().await;
    let bots = json!([{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]);
    let (status, created) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "options": {"target": 200}, "seats": bots}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut watcher = server.connect(&id).await;
    watcher.hello(None).await;
    watcher.until("game_end").await;

    let replays = &server.running.app.replays;
    assert!(replays.get(&id).is_none());
    let (status, first) = server.get(&format!("/api/tables/{id}/replay/0")).await;
    assert_eq!(status, 200, "{first}");
    let steps = first["steps"].as_u64().unwrap() as usize;
    let kept = replays
        .get(&id)
        .expect("the steps are kept after one replay");
    assert_eq!(kept.len(), steps);
    // The attack: every step asked for, twice. Each answer is the kept
    // one: no step replays the record again.
    for _ in 0..2 {
        for step in 0..steps {
            let (status, body) = server.get(&format!("/api/tables/{id}/replay/{step}")).await;
            assert_eq!(status, 200);
            assert_eq!(body["step"], step);
            assert_eq!(body, serde_json::from_str::<Value>(&kept[step]).unwrap());
        }
    }
    let last = serde_json::from_str::<Value>(&kept[steps - 1]).unwrap();
    assert_eq!(last["line"], "game over");
    let (status, beyond) = server
        .get(&format!("/api/tables/{id}/replay/{steps}"))
        .await;
    assert_eq!(
        (status, &beyond["error"]["code"]),
        (400, &json!("no_such_step"))
    );
}

#[tokio::test]
async fn a_lock_file_that_cannot_be_opened_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the lock file goes: opening it fails as on a
    // read-only file system, while the data directory itself is fine.
    let lock = dir.path().join("canasta.lock");
    std::fs::create_dir(&lock).unwrap();
    let config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.path().to_path_buf(),
        database: None,
        node: Default::default(),
        web_dir: None,
        pacing: Pacing::UNPACED,
        storage: Default::default(),
        tables: Default::default(),
        connections: Default::default(),
    };
    let error = start(&config)
        .await
        .err()
        .expect("the server does not start");
    assert!(
        matches!(&error, ServerError::LockFile { path, .. } if *path == lock),
        "{error}"
    );
    assert!(error.to_string().contains("canasta.lock"), "{error}");
}
