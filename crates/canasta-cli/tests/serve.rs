//! `canasta serve` as a process: killed with SIGKILL mid-game it loses
//! nothing that anyone was told, every game resumes exactly and every seat
//! reconnects with its token; SIGTERM tells the players and exits cleanly;
//! `canasta export` writes what it keeps, and `canasta check` accepts it.

#[path = "support/serve.rs"]
mod serve_process;

use canasta_server::load::http;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use serve_process::Server;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

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
        ws.send(Message::Text(
            json!({"type": "hello", "token": token}).to_string().into(),
        ))
        .await
        .unwrap();
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

    async fn next(&mut self) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .ok()??;
            match msg {
                Ok(Message::Text(t)) => return Some(serde_json::from_str(&t).unwrap()),
                Ok(Message::Close(frame)) => {
                    eprintln!("closed: {frame:?}");
                    return None;
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return None;
                }
                Ok(_) => {}
            }
        }
    }

    async fn until(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await.expect("the awaited message came");
            assert_ne!(m["type"], "error", "refused: {m}");
            if want(&m) {
                return m;
            }
        }
    }

    /// The first state at `id` or later.
    async fn state_from(&mut self, id: u64) -> Value {
        self.until(|m| m["type"] == "state" && m["state_id"].as_u64() >= Some(id))
            .await
    }
}

/// Every seat's state at the table's current state id (the newest any seat
/// has been sent).
async fn in_step(seats: &mut [Seat], mut id: u64) -> Vec<Value> {
    loop {
        let mut states = Vec::new();
        for s in seats.iter_mut() {
            states.push(s.state_from(id).await);
        }
        let newest = states
            .iter()
            .filter_map(|m| m["state_id"].as_u64())
            .max()
            .unwrap();
        if states.iter().all(|m| m["state_id"] == json!(newest)) {
            return states;
        }
        id = newest;
    }
}

/// Plays `actions` actions at an all-human table from `states` (every
/// seat's newest), each seat choosing among its legal actions; returns the
/// seats' states after the last.
async fn play(
    seats: &mut [Seat],
    mut states: Vec<Value>,
    actions: usize,
    mut pick: u64,
) -> Vec<Value> {
    let mut played = 0;
    while played < actions {
        let id = states[0]["state_id"].as_u64().unwrap();
        match states[0]["status"].as_str().unwrap() {
            "hand_over" => {
                for s in seats.iter_mut() {
                    s.send(json!({"type": "next"})).await;
                }
                states = in_step(seats, id + 1).await;
                continue;
            }
            "playing" => {}
            other => panic!("status {other} after {played} actions"),
        }
        let actor = states
            .iter()
            .position(|m| !m["legal"].as_array().unwrap().is_empty())
            .expect("someone is to act");
        let legal = states[actor]["legal"].as_array().unwrap();
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let action = legal[(pick >> 33) as usize % legal.len()].clone();
        seats[actor]
            .send(json!({"type": "act", "state_id": id, "action": action}))
            .await;
        states = in_step(seats, id + 1).await;
        played += 1;
    }
    states
}

fn check_exported(data: &Path, out: &Path) {
    let export = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["export", "--data-dir"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let files: Vec<_> = std::fs::read_dir(out).unwrap().collect();
    assert!(!files.is_empty());
    for file in files {
        let path = file.unwrap().path();
        let check = Command::new(env!("CARGO_BIN_EXE_canasta"))
            .arg("check")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_game_loses_nothing_and_every_seat_reconnects() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data);
    // A second server on the same games is refused while this one runs.
    let second = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["serve", "--port", "0", "--pace-scale", "0", "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(!second.status.success());
    let why = String::from_utf8_lossy(&second.stderr);
    assert!(why.contains("another server is using"), "{why}");

    // Two tables of people (so that nothing moves while the server is
    // down) and one with a bot.
    let mut tables = Vec::new();
    for (variant, players) in [("classic", 4), ("samba", 2)] {
        let seats = vec![json!({"kind": "human"}); players];
        let (id, first) = server
            .create(json!({"variant": variant, "players": players, "seats": seats, "join": {"seat": 0}}))
            .await;
        let mut tokens = vec![first];
        for s in 1..players {
            tokens.push(server.claim(&id, s).await);
        }
        tables.push((id, tokens));
    }
    let (bot_table, bot_token) = server
        .create(json!({"variant": "canastone", "players": 4,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}],
            "join": {"seat": 0}}))
        .await;

    let mut before = Vec::new();
    for (t, (id, tokens)) in tables.iter().enumerate() {
        let mut seats = Vec::new();
        for token in tokens {
            seats.push(Seat::join(server.addr, id, token).await);
        }
        let states = in_step(&mut seats, 0).await;
        let states = play(&mut seats, states, 60, t as u64 + 7).await;
        before.push((seats, states));
    }
    // The bot table: our turns drawn and discarded a few times.
    let mut human = Seat::join(server.addr, &bot_table, &bot_token).await;
    let mut turns = 0;
    let mut bot_table_seen = 0;
    let mut ready_at = None;
    while turns < 3 {
        let m = human.state_from(0).await;
        bot_table_seen = m["state_id"].as_u64().unwrap();
        let legal = m["legal"].as_array().unwrap();
        if m["status"] == "hand_over" {
            if ready_at != Some(bot_table_seen) {
                ready_at = Some(bot_table_seen);
                human.send(json!({"type": "next"})).await;
            }
            continue;
        }
        if legal.is_empty() {
            continue;
        }
        let pick = legal
            .iter()
            .find(|a| a.as_str().unwrap().starts_with("discard"))
            .unwrap_or(&legal[0]);
        if pick.as_str().unwrap().starts_with("discard") {
            turns += 1;
        }
        human
            .send(json!({"type": "act", "state_id": m["state_id"], "action": pick}))
            .await;
    }

    // One action in flight on the first table as the server dies.
    let (seats, states) = &mut before[0];
    let actor = states
        .iter()
        .position(|m| !m["legal"].as_array().unwrap().is_empty())
        .unwrap();
    let in_flight = states[actor]["legal"][0].clone();
    seats[actor]
        .send(json!({"type": "act", "state_id": states[actor]["state_id"], "action": in_flight}))
        .await;
    server.kill();

    let server = Server::start(&data);
    for (t, (id, tokens)) in tables.iter().enumerate() {
        let old = &before[t].1;
        let last_id = old[0]["state_id"].as_u64().unwrap();
        let mut seats = Vec::new();
        for (s, token) in tokens.iter().enumerate() {
            let seat = Seat::join(server.addr, id, token).await;
            assert_eq!(
                seat.welcome["seat"],
                json!(s),
                "table {t}: the token's seat"
            );
            seats.push(seat);
        }
        let now = in_step(&mut seats, 0).await;
        let now_id = now[0]["state_id"].as_u64().unwrap();
        if now_id == last_id {
            for (s, state) in now.iter().enumerate() {
                assert_eq!(state["view"], old[s]["view"], "table {t}, seat {s}");
                assert_eq!(state["legal"], old[s]["legal"], "table {t}, seat {s}");
            }
        } else {
            // Only the action in flight may have been kept, whole.
            assert_eq!(
                t, 0,
                "table {t} moved while nobody played: {now_id} after {last_id}"
            );
            assert_eq!(now_id, last_id + 1);
            // A state sent on joining marks no fresh action (`last` is for
            // the broadcast that follows one); the log says what it was.
            let log = seats[0].welcome["log"].as_array().expect("a log");
            let kept = log.last().expect("the kept action in the log");
            assert_eq!(kept["action"], in_flight);
            assert_eq!(kept["seat"], json!(actor));
        }
        // And the game goes on.
        play(&mut seats, now, 10, 99).await;
    }
    // The bot table: at least where we left it, and the bots play on.
    let mut human = Seat::join(server.addr, &bot_table, &bot_token).await;
    assert_eq!(human.welcome["seat"], 0);
    let m = human.state_from(0).await;
    assert!(m["state_id"].as_u64().unwrap() >= bot_table_seen);
    let goes_on = m["state_id"].as_u64().unwrap() + 1;
    if m["legal"].as_array().unwrap().is_empty() {
        human.state_from(goes_on).await;
    }

    // SIGTERM: connected players are told, and the server exits cleanly.
    let status = server.terminate();
    assert!(status.success(), "{status}");
    let told = human.until(|m| m["type"] == "shutdown").await;
    assert!(
        told["message"].as_str().unwrap().contains("saved"),
        "{told}"
    );

    check_exported(&data, &dir.path().join("records"));
}

/// One bad row of each kind (bytes that are not UTF-8, a record line the
/// rules refuse, settings that are not a table's) written straight into a
/// stopped server's file: the server starts, resumes the good table, leaves
/// the bad ones out of the lobby and names them with why; `canasta export
/// --check` lists the same three. A server stopped by SIGTERM leaves no
/// write-ahead log behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_stored_rows_are_quarantined_and_the_rest_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let db = data.join("canasta.sqlite3");
    let server = Server::start(&data);
    let mut ids = Vec::new();
    for _ in 0..4 {
        let body = json!({"variant": "classic", "players": 2, "join": {"seat": 0}});
        ids.push(server.create(body).await.0);
    }
    assert!(server.terminate().success());
    assert_eq!(
        canasta_server::storage::wal_size(&db),
        0,
        "the log is emptied at shutdown"
    );

    let (good, bytes, line, settings) = (&ids[0], &ids[1], &ids[2], &ids[3]);
    let url = format!("sqlite://{}", db.display());
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    for (sql, id) in [
        (
            "UPDATE record_lines SET line = CAST(X'7B2263616E6173746192' AS TEXT) WHERE table_id = ? AND seq = 0",
            bytes,
        ),
        (
            "INSERT INTO record_lines SELECT table_id, MAX(seq) + 1, '{\"seat\": 0, \"action\": \"discard ZZ\"}' FROM record_lines WHERE table_id = ?",
            line,
        ),
        (
            "UPDATE tables SET meta = '{\"seats\": \"none\"}' WHERE id = ?",
            settings,
        ),
    ] {
        let done = sqlx::query(sql).bind(id).execute(&mut conn).await.unwrap();
        assert_eq!(done.rows_affected(), 1, "{sql}");
    }
    drop(conn);

    let server = Server::start(&data);
    let (status, lobby) = http(server.addr, "GET", "/api/tables", &Value::Null)
        .await
        .unwrap();
    assert_eq!(status, 200);
    let listed: Vec<&str> = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [good.as_str()], "only the good table resumes");
    let (_, health) = http(server.addr, "GET", "/healthz", &Value::Null)
        .await
        .unwrap();
    let reasons: std::collections::HashMap<&str, &str> = health["storage"]["quarantined"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| (q["id"].as_str().unwrap(), q["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(reasons.len(), 3, "{health}");
    assert!(
        reasons[bytes.as_str()].starts_with("record line 1: not UTF-8"),
        "{health}"
    );
    assert!(
        reasons[line.as_str()].starts_with("its record does not replay: line"),
        "{health}"
    );
    assert!(
        reasons[settings.as_str()].starts_with("settings: "),
        "{health}"
    );
    let (status, asked) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{line}"),
        &Value::Null,
    )
    .await
    .unwrap();
    assert_eq!(status, 409, "{asked}");
    assert_eq!(asked["error"]["code"], "quarantined", "{asked}");
    assert!(server.terminate().success());

    let check = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["export", "--check", "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1), "some tables are quarantined");
    let listed = String::from_utf8_lossy(&check.stdout);
    for (id, reason) in &reasons {
        assert!(
            listed.contains(&format!("quarantined {id}: {reason}")),
            "{listed}"
        );
    }
    assert!(
        listed.contains("4 tables checked, 3 quarantined"),
        "{listed}"
    );
    assert!(!listed.contains(good.as_str()), "{listed}");
}

/// Bots searching a minute a move (allowed by the flag): SIGTERM ends
/// their searches, and the process exits within five seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_every_search_and_exits_within_five_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_with(dir.path(), &["--max-think-ms", "60000"]);
    let bot = json!({"kind": "bot", "bot": "ismcts@60000ms"});
    let body = json!({"variant": "classic", "players": 2, "seats": [bot, bot]});
    let (status, created) = http(server.addr, "POST", "/api/tables", &body)
        .await
        .unwrap();
    assert_eq!(status, 201, "{created}");
    // A table of bots plays while someone watches.
    let id = created["id"].as_str().unwrap();
    let url = format!("ws://{}/api/tables/{id}/ws", server.addr);
    let (mut watcher, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    watcher
        .send(Message::Text(json!({"type": "hello"}).to_string().into()))
        .await
        .unwrap();
    // The welcome, then a minute's search (forced moves take no time).
    watcher.next().await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let asked = std::time::Instant::now();
    let status = server.terminate();
    assert!(status.success(), "{status}");
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
}

#[test]
fn export_names_what_it_cannot_find() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["export", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no canasta.sqlite3"), "{err}");
}

#[test]
fn load_plays_tables_over_websockets_and_reports_the_servers_times() {
    let out = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args([
            "load",
            "--tables",
            "6",
            "--seconds",
            "2",
            "--think-ms",
            "0",
            "--variant",
            "samba",
            "--data-dir",
            "memory",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("6 tables (24 connections) of samba"),
        "{text}"
    );
    assert!(text.contains("errors 0"), "{text}");
    let actions: u64 = text
        .split_whitespace()
        .skip_while(|w| *w != "actions")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no action count in {text}"));
    assert!(actions > 20, "{text}");
    // The server's own times were read from it: numbers, not dashes.
    let server = text
        .lines()
        .find(|l| l.contains("arrival to broadcast"))
        .unwrap();
    assert!(!server.contains(" - "), "{server}");
}
