//! The work one client may ask of the server is bounded (`TableLimits`):
//! each test runs an attack in a bounded loop on loopback, then checks
//! that the limit holds.

mod common;

use canasta_server::Options;
use canasta_server::limits::TableLimits;
use canasta_server::storage::{Storage, TableStatus};
use common::Server;
use serde_json::{Value, json};
use std::time::Duration;

/// Bots unpaced and the clients' rate limit out of reach, with these
/// table limits.
async fn server_with(tables: TableLimits) -> Server {
    Server::start_with(Options {
        tables,
        ..Options::unpaced()
    })
    .await
}

fn bot_table(bot: &str) -> Value {
    json!({"variant": "classic", "players": 2, "seats": [{"kind": "bot", "bot": bot}, {"kind": "bot", "bot": bot}]})
}

fn waiting_table() -> Value {
    json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
}

/// Waits (at most ten seconds) until `done` holds.
async fn eventually(mut done: impl AsyncFnMut() -> bool) -> bool {
    for _ in 0..200 {
        if done().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// The audit's budgets (an hour a move, 64 threads, a hundred million
/// iterations) are refused with the ceiling named; the levels are not.
#[tokio::test]
async fn bot_budgets_beyond_the_levels_ceiling_are_refused() {
    let server = server_with(TableLimits::default()).await;
    let attacks = [
        "ismcts@3600000ms",
        "ismcts@250ms/64",
        "ismcts-expert@100000000",
        "ismcts-expert/8",
        "ismcts-hard@901ms",
    ];
    for bot in attacks {
        let (status, body) = server.post("/api/tables", bot_table(bot)).await;
        assert_eq!(status, 400, "{bot}: {body}");
        assert_eq!(body["error"]["code"], "bot_over_ceiling", "{body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("12000 iterations or 900 ms"), "{message}");
    }
    for bot in ["ismcts-expert", "ismcts-hard@12000", "ismcts@900ms"] {
        let (status, body) = server.post("/api/tables", bot_table(bot)).await;
        assert_eq!(status, 201, "{bot}: {body}");
    }
    assert_eq!(server.running.app.registry.open_count(), 3);
}

/// One address creating tables in a loop: stopped at its cap, at the
/// server's, and by its rate.
#[tokio::test]
async fn table_creation_is_capped_per_address_and_server_and_rate_limited() {
    let cases = [
        (
            TableLimits {
                max_tables_per_address: 5,
                ..TableLimits::unconstrained()
            },
            5,
            429,
            "too_many_tables",
        ),
        (
            TableLimits {
                max_tables: 3,
                ..TableLimits::unconstrained()
            },
            3,
            503,
            "server_full",
        ),
        (
            TableLimits {
                creations_per_minute: 4,
                ..TableLimits::unconstrained()
            },
            4,
            429,
            "rate_limited",
        ),
    ];
    for (limits, allowed, refusal, code) in cases {
        let server = server_with(limits).await;
        let mut created = 0;
        for _ in 0..20 {
            let (status, body) = server.post("/api/tables", waiting_table()).await;
            match status {
                201 => created += 1,
                _ => {
                    assert_eq!(
                        (status, body["error"]["code"].as_str()),
                        (refusal, Some(code)),
                        "{body}"
                    );
                }
            }
        }
        assert_eq!(created, allowed, "{code}");
        assert_eq!(server.running.app.registry.open_count(), allowed);
        let (_, lobby) = server.get("/api/tables").await;
        assert_eq!(lobby["tables"].as_array().unwrap().len(), allowed);
    }
}

/// A table nobody joins closes, leaves the lobby, and is not resumed by a
/// restart; so does a game everyone left, its record kept.
#[tokio::test]
async fn idle_and_abandoned_tables_close_and_stay_closed_after_a_restart() {
    let limits = TableLimits {
        idle_unstarted: Duration::from_millis(200),
        abandoned: Duration::from_millis(300),
        ..TableLimits::unconstrained()
    };
    let server = server_with(limits.clone()).await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (status, body) = server.post("/api/tables", waiting_table()).await;
        assert_eq!(status, 201, "{body}");
        ids.push(body["id"].as_str().unwrap().to_string());
    }
    let (played, _) = server.table_of_humans("classic", 2, json!({})).await;
    ids.push(played.clone());
    let closed = eventually(async || {
        let (_, lobby) = server.get("/api/tables").await;
        lobby["tables"].as_array().unwrap().is_empty()
    })
    .await;
    assert!(closed, "the tables left the lobby");
    for id in &ids {
        let stored = server.storage.load(id).await.unwrap().unwrap();
        assert_eq!(stored.meta.status, TableStatus::Closed, "{id}");
        let (status, summary) = server.get(&format!("/api/tables/{id}")).await;
        assert_eq!((status, summary["status"].as_str()), (200, Some("closed")));
    }
    // The game's record is kept: the header and the first deal.
    let stored = server.storage.load(&played).await.unwrap().unwrap();
    assert!(stored.lines.len() >= 2, "{:?}", stored.lines);
    let storage = server.storage.clone();
    server.running.stop().await;
    let again = Server::start_on(
        storage,
        Options {
            tables: limits,
            ..Options::unpaced()
        },
    )
    .await;
    assert_eq!(again.running.app.registry.open_count(), 0);
    let (_, lobby) = again.get("/api/tables").await;
    assert_eq!(lobby["tables"], json!([]));
    // A socket to a closed table gets what it came to, then the end.
    let mut c = again.connect(&played).await;
    let welcome = c.hello(None).await;
    assert_eq!(welcome["table"]["status"], "closed");
    let state = c.until("state").await;
    assert_eq!(state["status"], "closed");
    assert!(c.next().await.is_none(), "the socket closes");
}

/// Spectators joining a table in a loop: at most the cap are let in, and
/// no join sends anything to the connections already there.
#[tokio::test]
async fn spectators_are_capped_and_a_join_sends_the_state_to_the_joiner_alone() {
    let server = server_with(TableLimits {
        spectators_per_table: 5,
        ..TableLimits::unconstrained()
    })
    .await;
    let (id, mut seats, _, _) = server.two_seated().await;
    // What the seats were told before (seat 1's arrival, to seat 0).
    for c in &mut seats {
        c.send(json!({"type": "ping"})).await;
        c.until("pong").await;
    }
    let (mut welcomed, mut refused) = (Vec::new(), 0);
    for _ in 0..20 {
        let mut c = server.connect(&id).await;
        c.send(json!({"type": "hello"})).await;
        let m = c.next().await.unwrap();
        match m["type"].as_str() {
            Some("welcome") => {
                let state = c.next().await.unwrap();
                assert_eq!(state["type"], "state");
                welcomed.push(c);
            }
            _ => {
                assert_eq!(m["code"], "too_many_spectators", "{m}");
                refused += 1;
            }
        }
    }
    assert_eq!((welcomed.len(), refused), (5, 15));
    // What the others got meanwhile, up to their answer to a ping sent
    // after every join: nothing.
    let mut told = Vec::new();
    for c in seats.iter_mut().chain(welcomed.iter_mut()) {
        let before = c.seen.len();
        c.send(json!({"type": "ping"})).await;
        c.until("pong").await;
        told.extend(c.seen[before..c.seen.len() - 1].iter().cloned());
    }
    assert!(told.is_empty(), "{told:?}");
    // A seat's player leaving is told in a few words, not a state.
    drop(seats.remove(1));
    let m = seats[0].next().await.unwrap();
    assert_eq!(m["type"], "presence", "{m}");
    assert_eq!(m["seats"][1]["connected"], false);
}

/// One seat's token on ten connections asking hints at once: one search
/// runs, the others are told it is busy; then the seat's rate holds.
#[tokio::test]
async fn hints_are_one_at_a_time_a_seat_and_rate_limited() {
    let server = server_with(TableLimits {
        hints_per_minute: 3,
        max_think: Duration::from_millis(50),
        ..TableLimits::unconstrained()
    })
    .await;
    let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    let mut first = server.connect(&id).await;
    first.hello(Some(&tokens[0])).await;
    let state = first.state_where(|m| !m["view"].is_null()).await;
    let actor = state["view"]["to_act"].as_u64().unwrap() as usize;
    let state_id = state["state_id"].clone();
    let mut conns = Vec::new();
    for _ in 0..10 {
        let mut c = server.connect(&id).await;
        c.hello(Some(&tokens[actor])).await;
        c.until("state").await;
        conns.push(c);
    }
    for c in &mut conns {
        c.send(json!({"type": "hint", "state_id": state_id})).await;
    }
    let (mut hints, mut busy) = (0, 0);
    for c in &mut conns {
        loop {
            let m = c.next().await.expect("an answer to the hint");
            match (m["type"].as_str(), m["code"].as_str()) {
                (Some("hint"), _) => hints += 1,
                (Some("error"), Some("busy")) => busy += 1,
                (Some("error"), code) => panic!("{code:?}: {m}"),
                _ => continue,
            }
            break;
        }
    }
    assert_eq!((hints, busy), (1, 9));
    // Two more this minute, then the rate refuses.
    let c = &mut conns[0];
    let mut answers = Vec::new();
    for _ in 0..4 {
        c.send(json!({"type": "hint", "state_id": state_id})).await;
        loop {
            let m = c.next().await.expect("an answer to the hint");
            if m["type"] == "hint" || m["type"] == "error" {
                answers.push(m["code"].as_str().unwrap_or("hint").to_string());
                break;
            }
        }
    }
    assert_eq!(answers, ["hint", "hint", "rate_limited", "rate_limited"]);
}

/// A search of a minute a move under way: stopping the server ends it at
/// once, and the stop returns well within five seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_server_ends_every_search() {
    let server = server_with(TableLimits {
        max_think: Duration::from_secs(60),
        search_threads: 1,
        ..TableLimits::unconstrained()
    })
    .await;
    let (status, body) = server
        .post("/api/tables", bot_table("ismcts@60000ms"))
        .await;
    assert_eq!(status, 201, "{body}");
    // A table of bots plays while watched.
    let mut watcher = server.connect(body["id"].as_str().unwrap()).await;
    watcher.hello(None).await;
    let app = server.running.app.clone();
    let searching = eventually(async || app.searches.running() == 1).await;
    assert!(searching, "a bot is thinking");
    // Forced moves take no time: a minute's search is what runs now.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.searches.running(), 1);
    let started = std::time::Instant::now();
    tokio::time::timeout(Duration::from_secs(5), server.running.stop())
        .await
        .expect("the server stops within five seconds");
    let ended = eventually(async || app.searches.running() == 0).await;
    assert!(ended, "the search ended");
    assert!(started.elapsed() < Duration::from_secs(5));
}
