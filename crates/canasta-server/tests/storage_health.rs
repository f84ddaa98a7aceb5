//! A storage whose writes fail on demand (as a full or failing disk makes
//! them): only the table whose write failed waits, its seats are told, the
//! server says so (`/healthz`, `/readyz`) and creates no table meanwhile;
//! once writes work again the table plays on by itself, with the waiting
//! move stored once and nothing acknowledged lost.

mod common;

use canasta_server::storage::{Change, Layer, MemoryStorage, Storage, StorageError, StorageFuture};
use canasta_server::table::game::TableGame;
use canasta_server::{Options, start_with};
use common::{Client, Server};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// How the wrapper treats appends to one table.
#[derive(Clone, Debug, PartialEq)]
enum Fault {
    /// Every append fails; nothing is stored.
    Fail(String),
    /// The next append is stored, but its answer is an error (a commit
    /// that landed while its answer was lost).
    StoreThenFail(String),
}

/// Memory storage whose appends fail on demand.
struct FaultyStorage {
    inner: Arc<MemoryStorage>,
    fault: Mutex<Option<Fault>>,
}

impl FaultyStorage {
    fn set(&self, fault: Option<Fault>) {
        *self.fault.lock().unwrap() = fault;
    }
}

fn disk_error() -> StorageError {
    StorageError::Unavailable("disk I/O error (injected by the test)".into())
}

impl Layer for FaultyStorage {
    fn inner(&self) -> &dyn Storage {
        &*self.inner
    }

    fn write_through(&self, change: Change) -> StorageFuture<'_, ()> {
        let mut fault = self.fault.lock().unwrap();
        let Change::Append { id, .. } = &change else {
            return self.inner.write(change);
        };
        match fault.clone() {
            Some(Fault::Fail(t)) if t == *id => Box::pin(async { Err(disk_error()) }),
            Some(Fault::StoreThenFail(t)) if t == *id => {
                *fault = None;
                let stored = self.inner.write(change);
                Box::pin(async move {
                    stored.await?;
                    Err(disk_error())
                })
            }
            _ => self.inner.write(change),
        }
    }
}

/// The seats of a two-person table and who acts first.
struct Seated {
    id: String,
    seats: Vec<Client>,
    actor: usize,
    state: Value,
}

async fn seated(server: &Server) -> Seated {
    // The first state as the seat to act read it, with its legal actions.
    let (id, seats, actor, state) = server.two_seated().await;
    Seated {
        id,
        seats,
        actor,
        state,
    }
}

impl Seated {
    /// The acting seat plays its first legal action.
    async fn act(&mut self) -> String {
        let action = self.state["legal"][0].as_str().unwrap().to_string();
        let state_id = self.state["state_id"].clone();
        self.seats[self.actor]
            .send(json!({"type": "act", "state_id": state_id, "action": action}))
            .await;
        action
    }

    fn state_id(&self) -> u64 {
        self.state["state_id"].as_u64().unwrap()
    }
}

/// Reads until a message satisfying `want`.
async fn until(client: &mut Client, want: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = client.next().await.expect("the message waited for came");
        if want(&m) {
            return m;
        }
    }
}

#[tokio::test]
async fn a_failing_write_pauses_only_its_table_and_play_resumes_when_it_heals() {
    let inner = Arc::new(MemoryStorage::new());
    let faulty = Arc::new(FaultyStorage {
        inner: inner.clone(),
        fault: Mutex::new(None),
    });
    let running = start_with(
        "127.0.0.1:0".parse().unwrap(),
        faulty.clone() as Arc<dyn Storage>,
        Options::unpaced(),
    )
    .await
    .unwrap();
    let server = Server {
        running,
        storage: inner.clone(),
    };
    let mut failing = seated(&server).await;
    let mut healthy = seated(&server).await;
    let (status, ready) = server.get("/readyz").await;
    assert_eq!((status, &ready["ready"]), (200, &json!(true)), "{ready}");

    // Table `failing`'s writes fail: its move waits, every seat is told.
    faulty.set(Some(Fault::Fail(failing.id.clone())));
    let before = inner.load(&failing.id).await.unwrap().unwrap().lines;
    let action = failing.act().await;
    let current = failing.state_id();
    for seat in &mut failing.seats {
        let newer = |m: &Value| m["type"] == "state" && m["state_id"].as_u64() > Some(current);
        let told = until(seat, |m| m["type"] == "storage" || newer(m)).await;
        assert_eq!(told["type"], "storage", "no state before storage: {told}");
        assert_eq!(told["ok"], false);
        assert!(
            told["message"].as_str().unwrap().contains("disk I/O error"),
            "{told}"
        );
        assert!(told["retry_ms"].as_u64().is_some(), "{told}");
    }
    // Anything more is refused while the move waits.
    let (actor, state_id) = (failing.actor, failing.state_id());
    failing.seats[actor]
        .send(json!({"type": "act", "state_id": state_id, "action": action}))
        .await;
    let refused = failing.seats[actor].until("error").await;
    assert_eq!(refused["code"], "storage_failing", "{refused}");

    // The other table plays on.
    let expected = healthy.state_id() + 1;
    healthy.act().await;
    let moved = healthy.seats[0]
        .state_where(|m| m["state_id"].as_u64() >= Some(expected))
        .await;
    assert_eq!(moved["last"]["seat"], json!(healthy.actor), "{moved}");

    // The server says storage fails, and takes no new table.
    let (status, health) = server.get("/healthz").await;
    assert_eq!(status, 200);
    assert_eq!(health["status"], "degraded", "{health}");
    assert_eq!(health["storage"]["status"], "failing", "{health}");
    assert_eq!(health["storage"]["tables_waiting"], 1, "{health}");
    assert!(
        health["storage"]["reason"]
            .as_str()
            .unwrap()
            .contains("disk I/O error"),
        "{health}"
    );
    let (status, ready) = server.get("/readyz").await;
    assert_eq!(status, 503, "{ready}");
    assert_eq!(ready["error"]["code"], "storage_failing", "{ready}");
    let (status, created) = server
        .post("/api/tables", json!({"variant": "classic", "players": 2}))
        .await;
    assert_eq!(status, 503, "{created}");
    assert_eq!(created["error"]["code"], "storage_failing", "{created}");
    // Nothing of the waiting move was stored.
    assert_eq!(
        inner.load(&failing.id).await.unwrap().unwrap().lines,
        before
    );

    // Healed: the move is stored and played, once, without anyone asking.
    faulty.set(None);
    let next = failing.state_id() + 1;
    let mut states = Vec::new();
    for seat in &mut failing.seats {
        let back = seat.until("storage").await;
        assert_eq!(back["ok"], true, "{back}");
        let played = seat.until("state").await;
        assert_eq!(played["state_id"], next, "{played}");
        assert_eq!(played["last"]["action"], action, "{played}");
        states.push(played);
    }
    let after = inner.load(&failing.id).await.unwrap().unwrap().lines;
    assert_eq!(after[..before.len()], before[..]);
    let replayed = TableGame::resume(after).expect("the stored record replays");
    assert_eq!(replayed.state_id(), next, "the move is stored once");
    let (status, ready) = server.get("/readyz").await;
    assert_eq!(status, 200, "{ready}");
    let (_, health) = server.get("/healthz").await;
    assert_eq!(health["storage"]["status"], "ok", "{health}");
    let (status, created) = server
        .post("/api/tables", json!({"variant": "classic", "players": 2}))
        .await;
    assert_eq!(status, 201, "{created}");

    // A write that landed though its answer was an error: tried again, it
    // is found stored, and played once.
    failing.actor = states[0]["view"]["to_act"].as_u64().unwrap() as usize;
    failing.state = states.swap_remove(failing.actor);
    faulty.set(Some(Fault::StoreThenFail(failing.id.clone())));
    let stored_before = inner.load(&failing.id).await.unwrap().unwrap().lines.len();
    let action = failing.act().await;
    let seat = &mut failing.seats[0];
    let told = seat.until("storage").await;
    assert_eq!(told["ok"], false, "{told}");
    assert_eq!(seat.until("storage").await["ok"], true);
    let played = seat.until("state").await;
    assert_eq!(played["state_id"], next + 1, "{played}");
    assert_eq!(played["last"]["action"], action, "{played}");
    let after = inner.load(&failing.id).await.unwrap().unwrap().lines;
    assert!(after.len() > stored_before);
    let replayed = TableGame::resume(after).expect("the stored record replays");
    assert_eq!(replayed.state_id(), next + 1, "the move is stored once");
    server.running.stop().await;
}
