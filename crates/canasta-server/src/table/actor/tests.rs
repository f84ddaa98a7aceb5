//! A table's task driven through its commands on tokio's paused clock:
//! the pace's delays and the players' timeouts pass in virtual time, so
//! these tests neither wait for them nor depend on the machine's speed.

use super::super::{Command, Outgoing, Services, TableHandle};
use super::spawn;
use crate::limits::TableLimits;
use crate::metrics::Latency;
use crate::pace::{Pace, Pacing};
use crate::protocol::ClientMessage;
use crate::search::Searches;
use crate::secrets;
use crate::storage::{MemoryStorage, SeatMeta, Storage, StoredTable, TableMeta, TableStatus};
use crate::table::game::TableGame;
use canasta_core::Rules;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// A seat as set up: a player holding this token, or a bot.
enum Sits {
    Player(&'static str),
    Bot(&'static str),
}

struct Setup {
    handle: TableHandle,
    storage: Arc<MemoryStorage>,
    id: String,
}

async fn table(rules: &Rules, seats: Vec<Sits>, pace: Pace, timeout_secs: u64) -> Setup {
    table_with(rules, seats, pace, timeout_secs, None).await
}

async fn table_with(
    rules: &Rules,
    seats: Vec<Sits>,
    pace: Pace,
    timeout_secs: u64,
    turn_secs: Option<u64>,
) -> Setup {
    table_under(
        rules,
        seats,
        pace,
        timeout_secs,
        turn_secs,
        TableStatus::Playing,
        TableLimits::unconstrained(),
    )
    .await
}

/// A table in `status` under `limits`, created at the Unix epoch's first
/// second (long ago, for a table's age).
async fn table_under(
    rules: &Rules,
    seats: Vec<Sits>,
    pace: Pace,
    timeout_secs: u64,
    turn_secs: Option<u64>,
    status: TableStatus,
    limits: TableLimits,
) -> Setup {
    let id = "t-test".to_string();
    let seats = seats
        .into_iter()
        .map(|s| match s {
            Sits::Player(token) => SeatMeta::Human {
                name: Some(token.to_string()),
                token_hash: Some(secrets::token_hash(token)),
            },
            Sits::Bot(bot) => SeatMeta::Bot { bot: bot.into() },
        })
        .collect();
    let meta = TableMeta {
        id: id.clone(),
        created: 1,
        seats,
        timeout_secs,
        status,
        pace,
        turn_secs,
        rematch: None,
        invite_hash: None,
    };
    let game = TableGame::new(rules);
    let storage = Arc::new(MemoryStorage::new());
    storage
        .create(&StoredTable {
            meta: meta.clone(),
            lines: game.lines().to_vec(),
        })
        .await
        .unwrap();
    let handle = spawn(
        meta,
        game,
        Services {
            storage: storage.clone(),
            latency: Arc::new(Latency::default()),
            pacing: Pacing::PACED,
            searches: Arc::new(Searches::new(&limits)),
            limits: Arc::new(limits),
            leases: None,
        },
    );
    Setup {
        handle,
        storage,
        id,
    }
}

/// A connection to the table, seen from the inside: every message with
/// the (virtual) time it was queued.
struct Conn {
    id: u64,
    rx: mpsc::Receiver<Outgoing>,
    tx: mpsc::Sender<Command>,
}

impl Conn {
    async fn open(handle: &TableHandle, token: Option<&str>) -> Conn {
        let (out, rx) = mpsc::channel(super::CONN_QUEUE);
        let (reply, answer) = oneshot::channel();
        handle
            .tx
            .send(Command::Connect {
                token: token.map(str::to_string),
                out,
                reply,
            })
            .await
            .unwrap();
        let joined = answer.await.unwrap().unwrap();
        Conn {
            id: joined.conn,
            rx,
            tx: handle.tx.clone(),
        }
    }

    /// The next message and when it came; `None` once the table closed
    /// the connection.
    async fn next(&mut self) -> Option<(Value, Instant)> {
        match self.rx.recv().await? {
            Outgoing::Text(t) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                Some((v, Instant::now()))
            }
            Outgoing::Close(_) | Outgoing::Moved => None,
        }
    }

    async fn until(&mut self, want: impl Fn(&Value) -> bool) -> (Value, Instant) {
        loop {
            let (m, at) = self.next().await.expect("the connection stays open");
            if want(&m) {
                return (m, at);
            }
        }
    }

    async fn send(&self, msg: ClientMessage) {
        self.tx
            .send(Command::Message {
                conn: self.id,
                msg,
                received: std::time::Instant::now(),
            })
            .await
            .unwrap();
    }

    async fn act(&self, state: &Value, action: &str) {
        self.send(ClientMessage::Act {
            state_id: state["state_id"].as_u64().unwrap(),
            action: action.to_string(),
        })
        .await;
    }

    async fn close(self) {
        self.tx
            .send(Command::Disconnect { conn: self.id })
            .await
            .unwrap();
    }
}

fn legal(m: &Value) -> Vec<String> {
    m["legal"]
        .as_array()
        .map(|l| l.iter().map(|a| a.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn is_state(m: &Value) -> bool {
    m["type"] == "state"
}

/// The first discard offered, or the first action.
fn simple_choice(m: &Value) -> String {
    let legal = legal(m);
    legal
        .iter()
        .find(|a| a.starts_with("discard"))
        .unwrap_or(&legal[0])
        .clone()
}

/// Whether `m` asks `seat` to act.
fn to_act(m: &Value, seat: u64) -> bool {
    is_state(m) && m["view"]["to_act"] == seat && !legal(m).is_empty()
}

/// Plays this seat's turn to its end (draw, then the first discard, or
/// the first legal action where there is no discard), from `start` or the
/// next state that asks it to act; returns the state after its last action.
async fn play_turn(c: &mut Conn, seat: u64, start: Option<Value>) -> (Value, Instant) {
    let mut m = match start {
        Some(m) => m,
        None => c.until(|m| to_act(m, seat)).await.0,
    };
    loop {
        let action = if legal(&m).iter().any(|a| a == "draw") {
            "draw".to_string()
        } else {
            simple_choice(&m)
        };
        let sent = m["state_id"].as_u64().unwrap();
        c.act(&m, &action).await;
        let (after, at) = c
            .until(|n| is_state(n) && n["state_id"].as_u64() > Some(sent))
            .await;
        if after["view"]["to_act"] != seat || legal(&after).is_empty() {
            return (after, at);
        }
        m = after;
    }
}

#[tokio::test(start_paused = true)]
async fn bots_play_one_state_at_a_time_at_the_tables_pace() {
    let rules = Rules::classic();
    let seats = vec![
        Sits::Player("ann"),
        Sits::Bot("heuristic"),
        Sits::Bot("heuristic"),
        Sits::Bot("heuristic"),
    ];
    let t = table(&rules, seats, Pace::Normal, 60).await;
    let mut ann = Conn::open(&t.handle, Some("ann")).await;
    let (welcome, _) = ann.next().await.unwrap();
    assert_eq!(welcome["table"]["pace"], "normal");
    let mut ours = None;
    'turns: for _ in 0..3 {
        let (mut before, mut at) = play_turn(&mut ann, 0, ours.take()).await;
        // Every bot action until it is our turn again: one state each,
        // none skipped, each the pace's delay after the one before.
        let mut bot_states = 0;
        loop {
            let (m, now) = ann.until(is_state).await;
            assert_eq!(
                m["state_id"].as_u64(),
                before["state_id"].as_u64().map(|i| i + 1),
                "no state is skipped: {m}"
            );
            if m["last"]["seat"] != 0 {
                assert!(
                    now - at >= Pace::Normal.delay(),
                    "a bot acted {:?} after the state before",
                    now - at
                );
                bot_states += 1;
            }
            if to_act(&m, 0) {
                ours = Some(m);
                break;
            }
            if m["status"] != "playing" {
                break 'turns;
            }
            (before, at) = (m, now);
        }
        assert!(bot_states >= 3, "three bots played: {bot_states} states");
    }
}

/// The lines stored for the table.
async fn stored_lines(t: &Setup) -> Vec<String> {
    t.storage.load(&t.id).await.unwrap().unwrap().lines
}

#[tokio::test(start_paused = true)]
async fn a_stand_in_plays_one_turn_and_the_seat_stays_the_players() {
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let seats = vec![Sits::Player("ann"), Sits::Player("bob")];
    let t = table(&rules, seats, Pace::Fast, 60).await;
    let mut ann = Conn::open(&t.handle, Some("ann")).await;
    let mut ours = None;
    for _ in 0..2 {
        let (after, left_at) = play_turn(&mut ann, 0, ours.take()).await;
        // (Bob may have been first to play: his turns so far.)
        let before = after["seats"][1]["stand_in_turns"].as_u64().unwrap();
        // Bob is away: his clock runs, and the state says when it ends.
        assert_eq!(after["view"]["to_act"], 1);
        assert_eq!(after["deadline_ms"], 60_000, "{after}");
        assert_eq!(after["seats"][1]["stand_in"], false);
        let (m, at) = ann.until(|m| m["last"]["seat"] == 1).await;
        assert!(at - left_at >= Duration::from_secs(60), "the bot waited");
        assert_eq!(m["last"]["stand_in"], true, "{m}");
        assert_eq!(m["seats"][1]["stand_in"], true);
        // Exactly one turn: then it is Ann's, and Bob's seat is his.
        let (m, _) = ann.until(|m| to_act(m, 0)).await;
        assert_eq!(m["seats"][1]["kind"], "human");
        assert_eq!(m["seats"][1]["stand_in"], false);
        assert_eq!(m["seats"][1]["stand_in_turns"], before + 1);
        assert!(m["deadline_ms"].is_null(), "no clock on Ann: {m}");
        ours = Some(m);
    }
    let lines = stored_lines(&t).await;
    let marked: Vec<&String> = lines.iter().filter(|l| l.contains("stand_in")).collect();
    assert!(marked.len() >= 4, "two draws and two discards: {marked:?}");
    assert!(marked.iter().all(|l| l.contains(r#""seat":1"#)));
    // Bob back: his turn waits for him, with no clock.
    let mut bob = Conn::open(&t.handle, Some("bob")).await;
    let (welcome, _) = bob.next().await.unwrap();
    let logged = welcome["log"].as_array().unwrap();
    assert!(
        logged.iter().any(|e| e["stand_in"] == true),
        "the log marks it"
    );
    play_turn(&mut ann, 0, ours).await;
    let (m, _) = bob.until(|m| to_act(m, 1)).await;
    assert!(m["deadline_ms"].is_null(), "{m}");
    assert_eq!(m["seats"][1]["stand_in"], false);
}

#[tokio::test(start_paused = true)]
async fn a_turn_clock_stands_in_for_a_connected_player_who_does_not_play() {
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let seats = vec![Sits::Player("ann"), Sits::Bot("heuristic")];
    let t = table_with(&rules, seats, Pace::Fast, 60, Some(20)).await;
    let mut ann = Conn::open(&t.handle, Some("ann")).await;
    for turn in 0..2u32 {
        let (m, at) = ann.until(|m| to_act(m, 0)).await;
        assert_eq!(m["deadline_ms"], 20_000, "{m}");
        assert_eq!(m["seats"][0]["stand_in_turns"], turn);
        // Ann does not play: twenty seconds on, the bot plays her turn.
        let (m, played_at) = ann.until(|m| m["last"]["seat"] == 0).await;
        assert!(played_at - at >= Duration::from_secs(20));
        assert_eq!(m["last"]["stand_in"], true);
        assert!(legal(&m).is_empty(), "hers again only next turn: {m}");
    }
    assert_eq!(t.handle.summary.borrow()["turn_secs"], 20);
}

#[tokio::test(start_paused = true)]
async fn a_table_whose_only_player_left_waits_for_them() {
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let seats = vec![Sits::Player("ann"), Sits::Bot("heuristic")];
    let t = table(&rules, seats, Pace::Fast, 60).await;
    let mut ann = Conn::open(&t.handle, Some("ann")).await;
    let (after, _) = play_turn(&mut ann, 0, None).await;
    ann.close().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let summary = t.handle.summary.borrow().clone();
    assert_eq!(summary["paused"], true, "{summary}");
    let lines = stored_lines(&t).await;
    // Hours later nothing has moved: no bot, no stand-in, no new hand.
    tokio::time::sleep(Duration::from_secs(4 * 3600)).await;
    assert_eq!(stored_lines(&t).await, lines);
    let summary = t.handle.summary.borrow().clone();
    assert_eq!(summary["status"], "playing");
    assert_eq!(summary["hand"], 1);
    // Back: the game goes on from where it was, at the table's pace.
    let mut ann = Conn::open(&t.handle, Some("ann")).await;
    let (state, back_at) = ann.until(is_state).await;
    assert!(state["state_id"].as_u64() >= after["state_id"].as_u64());
    assert_eq!(t.handle.summary.borrow()["paused"], false);
    let (_, moved_at) = ann.until(|m| m["last"]["seat"] == 1).await;
    assert!(moved_at - back_at >= Pace::Fast.delay());
    assert!(stored_lines(&t).await.len() > lines.len());
}

#[tokio::test(start_paused = true)]
async fn a_table_of_bots_plays_only_while_watched() {
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let seats = vec![Sits::Bot("heuristic"), Sits::Bot("heuristic")];
    let t = table(&rules, seats, Pace::Fast, 60).await;
    tokio::time::sleep(Duration::from_secs(3600)).await;
    let lines = stored_lines(&t).await;
    assert_eq!(lines.len(), 2, "dealt, and nothing played: {lines:?}");
    let mut watcher = Conn::open(&t.handle, None).await;
    watcher.until(|m| m["last"]["action"] == "draw").await;
    watcher.close().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let lines = stored_lines(&t).await;
    assert!(lines.len() > 2);
    tokio::time::sleep(Duration::from_secs(3600)).await;
    assert_eq!(stored_lines(&t).await, lines);
}

/// Stored status of the table.
async fn stored_status(t: &Setup) -> TableStatus {
    t.storage.load(&t.id).await.unwrap().unwrap().meta.status
}

#[tokio::test(start_paused = true)]
async fn a_game_nobody_plays_closes_once_abandoned_and_not_before() {
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let seats = vec![Sits::Player("ann"), Sits::Bot("heuristic")];
    let limits = TableLimits {
        abandoned: Duration::from_secs(3600),
        ..TableLimits::unconstrained()
    };
    let t = table_under(
        &rules,
        seats,
        Pace::Fast,
        60,
        None,
        TableStatus::Playing,
        limits,
    )
    .await;
    // Ann plays a turn and leaves: the hour counts from then.
    tokio::time::sleep(Duration::from_secs(1800)).await;
    let mut ann = Conn::open(&t.handle, Some("ann")).await;
    ann.until(is_state).await;
    ann.close().await;
    tokio::time::sleep(Duration::from_secs(3500)).await;
    assert_eq!(stored_status(&t).await, TableStatus::Playing);
    assert!(!t.handle.tx.is_closed());
    tokio::time::sleep(Duration::from_secs(200)).await;
    assert_eq!(stored_status(&t).await, TableStatus::Closed);
    assert!(t.handle.tx.is_closed(), "the task ended");
    assert_eq!(t.handle.summary.borrow()["status"], "closed");
}

#[tokio::test(start_paused = true)]
async fn a_waiting_table_closes_when_idle_and_a_stale_invite_at_once() {
    let rules = Rules::preset("classic", Some(2), None).unwrap();
    let limits = TableLimits {
        idle_unstarted: Duration::from_secs(600),
        ..TableLimits::unconstrained()
    };
    // Claimed by Ann (who came): idle ten minutes from the last thing done.
    let seats = vec![Sits::Player("ann"), Sits::Bot("heuristic")];
    let t = table_under(
        &rules,
        seats,
        Pace::Fast,
        60,
        None,
        TableStatus::Waiting,
        limits.clone(),
    )
    .await;
    let ann = Conn::open(&t.handle, Some("ann")).await;
    tokio::time::sleep(Duration::from_secs(3600)).await;
    assert_eq!(
        stored_status(&t).await,
        TableStatus::Waiting,
        "someone is there"
    );
    ann.close().await;
    tokio::time::sleep(Duration::from_secs(590)).await;
    assert_eq!(stored_status(&t).await, TableStatus::Waiting);
    tokio::time::sleep(Duration::from_secs(20)).await;
    assert_eq!(stored_status(&t).await, TableStatus::Closed);
    // Nobody ever joined, created long ago (a restart's resume): closed at once.
    let seats = vec![Sits::Bot("heuristic"), Sits::Bot("heuristic")];
    let stale = table_under(
        &rules,
        seats,
        Pace::Fast,
        60,
        None,
        TableStatus::Waiting,
        limits,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert_eq!(stored_status(&stale).await, TableStatus::Closed);
}
