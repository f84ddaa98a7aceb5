//! `canasta serve --database postgres://...` as a process, on a throwaway
//! PostgreSQL server: a game with bots is played, the server is killed
//! with SIGKILL and started again on the same database, and the game
//! resumes where it was and plays on; `canasta export --database` writes
//! its record and `canasta check` accepts it. Skipped without PostgreSQL,
//! unless `CANASTA_REQUIRE_POSTGRES=1`.

#[path = "../../canasta-server/tests/support/pg.rs"]
mod pg;

#[path = "support/serve.rs"]
mod serve_process;

use canasta_server::load::http;
use futures_util::{SinkExt, StreamExt};
use pg::PgCluster;
use serde_json::{Value, json};
use serve_process::Server;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A `canasta serve` process on a free loopback port, its games in the
/// database at `url` (the data directory stays empty); it names the
/// database on its second line.
fn start_on(url: &str, data: &Path) -> Server {
    let server = Server::spawn(data, &[], &[("CANASTA_DATABASE_URL", url)], 2);
    assert!(
        server.banner[1].contains("postgres://postgres@127.0.0.1"),
        "the server names its database: {}",
        server.banner[1]
    );
    server
}

struct Seat {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    welcome: Value,
}

impl Seat {
    async fn join(addr: SocketAddr, id: &str, token: &str) -> Seat {
        let (mut ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws"))
                .await
                .unwrap();
        let hello = json!({"type": "hello", "token": token}).to_string();
        ws.send(Message::Text(hello.into())).await.unwrap();
        let mut seat = Seat {
            ws,
            welcome: Value::Null,
        };
        seat.welcome = seat.until(|m| m["type"] == "welcome").await;
        seat
    }

    async fn send(&mut self, msg: Value) {
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
    }

    async fn until(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a message within 20 s")
                .expect("the socket is open")
                .unwrap();
            let Message::Text(text) = msg else { continue };
            let m: Value = serde_json::from_str(&text).unwrap();
            assert_ne!(m["type"], "error", "refused: {m}");
            if want(&m) {
                return m;
            }
        }
    }

    /// Plays our seat's turns (draw, then a discard) until `turns` discards
    /// are made, the bots playing theirs; the last state id seen.
    async fn play_turns(&mut self, turns: usize) -> u64 {
        let (mut played, mut seen, mut ready_at) = (0, 0, None);
        while played < turns {
            let m = self.until(|m| m["type"] == "state").await;
            seen = m["state_id"].as_u64().unwrap();
            if m["status"] == "hand_over" {
                if ready_at != Some(seen) {
                    ready_at = Some(seen);
                    self.send(json!({"type": "next"})).await;
                }
                continue;
            }
            assert_eq!(m["status"], "playing", "{m}");
            let legal = m["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            let pick = legal
                .iter()
                .find(|a| a.as_str().unwrap().starts_with("discard"))
                .unwrap_or(&legal[0]);
            if pick.as_str().unwrap().starts_with("discard") {
                played += 1;
            }
            self.send(json!({"type": "act", "state_id": seen, "action": pick}))
                .await;
        }
        seen
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_kept_in_postgres_resumes_after_sigkill_and_exports() {
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let url = cluster.new_database("serve");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");

    let server = start_on(&url, &data);
    // A second server on the same database is refused while this one runs.
    let second = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["serve", "--port", "0", "--database", &url, "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(!second.status.success());
    let why = String::from_utf8_lossy(&second.stderr);
    assert!(
        why.contains("another server is using the database"),
        "{why}"
    );

    let body = json!({"variant": "classic", "players": 4,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"},
                  {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}],
        "join": {"seat": 0}});
    let (status, created) = http(server.addr, "POST", "/api/tables", &body)
        .await
        .unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut seat = Seat::join(server.addr, &id, &token).await;
    let seen = seat.play_turns(4).await;
    drop(seat);
    let db = url.rsplit('/').next().unwrap();
    let stored_before: u64 = cluster
        .psql_in(
            db,
            &format!("SELECT count(*) FROM record_lines WHERE table_id = '{id}'"),
        )
        .parse()
        .unwrap();
    assert!(stored_before > 4, "{stored_before} lines stored");
    server.kill();
    assert!(
        std::fs::read_dir(&data).map_or(true, |mut d| d.next().is_none()),
        "nothing is kept in the data directory"
    );

    // Started again on the same database: the game is where it was (the
    // bots may have played on after our last look, never back), and goes on.
    let server = start_on(&url, &data);
    let mut seat = Seat::join(server.addr, &id, &token).await;
    assert_eq!(seat.welcome["seat"], 0);
    let resumed = seat.until(|m| m["type"] == "state").await;
    assert!(resumed["state_id"].as_u64().unwrap() >= seen, "{resumed}");
    seat.play_turns(3).await;
    let status = server.terminate();
    assert!(status.success(), "{status}");

    let out = dir.path().join("records");
    let export = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["export", "--database", &url, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let record = out.join(format!("{id}.jsonl"));
    let lines = std::fs::read_to_string(&record).unwrap().lines().count() as u64;
    assert!(lines > stored_before, "{lines} lines exported");
    let check = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .arg("check")
        .arg(&record)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let checked = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["export", "--check", "--database", &url])
        .output()
        .unwrap();
    assert!(checked.status.success());
    assert!(
        String::from_utf8_lossy(&checked.stdout).contains("1 tables checked, 0 quarantined"),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
}
