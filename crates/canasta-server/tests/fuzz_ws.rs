//! The WebSocket messages under arbitrary input: any sequence of frames
//! (text that is JSON or not, of known and unknown types, binary, ping,
//! pong, over the size limit), before and after `hello`. The server never
//! fails, answers every refusal with a documented error code, sends a
//! bounded number of messages for what it got, and answers all the protocol
//! says it owes (pongs, `hello_first`), unless a message too large closed
//! the connection, which it then does.

mod common;

use canasta_server::Options;
use canasta_server::protocol::{ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, parse};
use common::Server;
use futures_util::{SinkExt, StreamExt};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Every error code `docs/server-api.md` lists for the WebSocket.
const DOCUMENTED: &[&str] = &[
    "bad_json",
    "unknown_type",
    "too_large",
    "rate_limited",
    "hello_first",
    "bad_token",
    "spectator",
    "not_started",
    "game_over",
    "not_your_turn",
    "stale_state",
    "bad_action",
    "illegal_action",
    "busy",
    "cannot_undo",
    "unavailable",
];

/// One server for every case: its runtime, its address, a table of two
/// people and their tokens.
struct Shared {
    runtime: tokio::runtime::Runtime,
    addr: std::net::SocketAddr,
    id: String,
    tokens: Vec<String>,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (addr, id, tokens) = runtime.block_on(async {
            let server = Server::start_with(Options::unpaced()).await;
            let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
            let addr = server.addr();
            // Serves for the rest of the test process.
            std::mem::forget(server);
            (addr, id, tokens)
        });
        Shared {
            runtime,
            addr,
            id,
            tokens,
        }
    })
}

#[derive(Clone, Debug)]
enum Frame {
    Text(String),
    Binary(Vec<u8>),
    Ping(Vec<u8>),
    Pong(Vec<u8>),
}

fn message_text() -> impl Strategy<Value = String> {
    let kinds = prop::sample::select(vec![
        "hello", "act", "start", "next", "hint", "undo", "ping", "dance", "",
    ]);
    let shaped = (
        kinds,
        prop::option::of(any::<u64>()),
        prop::option::of("[a-z0-9 ]{0,20}"),
        prop::option::of(".{0,50}"),
    )
        .prop_map(|(kind, state_id, action, token)| {
            let mut v = json!({"type": kind});
            if let Some(s) = state_id {
                v["state_id"] = json!(s);
            }
            if let Some(a) = action {
                v["action"] = json!(a);
            }
            if let Some(t) = token {
                v["token"] = json!(t);
            }
            v.to_string()
        });
    prop_oneof![
        4 => shaped,
        2 => ".{0,100}",
        1 => (MAX_MESSAGE_BYTES - 10..MAX_MESSAGE_BYTES + 100)
            .prop_map(|n| format!(r#"{{"type":"ping","pad":"{}"}}"#, "a".repeat(n))),
        1 => Just(r#"{"type":"ping"}"#.to_string()),
    ]
}

fn frame() -> impl Strategy<Value = Frame> {
    let bytes = || prop::collection::vec(any::<u8>(), 0..64);
    prop_oneof![
        6 => message_text().prop_map(Frame::Text),
        1 => bytes().prop_map(Frame::Binary),
        1 => bytes().prop_map(Frame::Ping),
        1 => bytes().prop_map(Frame::Pong),
    ]
}

fn to_message(frame: &Frame) -> Message {
    match frame {
        Frame::Text(t) => Message::Text(t.clone().into()),
        Frame::Binary(b) => Message::Binary(b.clone().into()),
        Frame::Ping(b) => Message::Ping(b.clone().into()),
        Frame::Pong(b) => Message::Pong(b.clone().into()),
    }
}

/// The answers a connection owes for `frames` and the probe after them,
/// as the protocol says (`parse` reads each text as the server does):
/// pongs, and `hello_first` refusals before a `hello` joins; `None` when
/// a message too large ends the connection first.
fn owed(seated: bool, frames: &[Frame]) -> Option<(usize, usize)> {
    let mut joined = seated;
    let (mut pongs, mut hello_first) = (0, 0);
    let probe = Frame::Text(r#"{"type":"ping"}"#.into());
    for frame in frames.iter().chain([&probe]) {
        let Frame::Text(text) = frame else { continue };
        match parse(text) {
            Err(e) if e.code == ErrorCode::TooLarge => return None,
            Err(_) => {}
            Ok(ClientMessage::Ping) if joined => pongs += 1,
            Ok(ClientMessage::Hello { token: None }) if !joined => joined = true,
            Ok(ClientMessage::Hello { .. }) if !joined => {}
            Ok(_) if !joined => hello_first += 1,
            Ok(_) => {}
        }
    }
    Some((pongs, hello_first))
}

/// Sends `frames` (after a `hello` with seat 0's token if `seated`), then
/// a ping: what the server sent, read until it owes nothing more (or it
/// closed the connection), and whether it paid all it owed.
async fn exchange(shared: &Shared, seated: bool, frames: &[Frame]) -> (Vec<Value>, bool) {
    let owed = owed(seated, frames);
    let url = format!("ws://{}/api/tables/{}/ws", shared.addr, shared.id);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let (mut sink, mut stream) = ws.split();
    let reader = tokio::spawn(async move {
        let mut seen: Vec<Value> = Vec::new();
        let paid = |seen: &[Value]| {
            let count = |f: &dyn Fn(&Value) -> bool| seen.iter().filter(|m| f(m)).count();
            owed.is_some_and(|(pongs, hello_first)| {
                count(&|m| m["type"] == "pong") >= pongs
                    && count(&|m| m["code"] == "hello_first") >= hello_first
            })
        };
        let read = tokio::time::timeout(Duration::from_secs(10), async {
            while let Some(Ok(message)) = stream.next().await {
                if let Message::Text(text) = message {
                    let value: Value = serde_json::from_str(&text).expect("the server sends JSON");
                    seen.push(value);
                    if paid(&seen) {
                        return true;
                    }
                }
            }
            // Closed by the server: only for a message too large.
            owed.is_none()
        });
        let done = read.await.unwrap_or(false);
        (seen, done)
    });
    if seated {
        let hello = json!({"type": "hello", "token": shared.tokens[0]}).to_string();
        let _ = sink.send(Message::Text(hello.into())).await;
    }
    for frame in frames {
        if sink.send(to_message(frame)).await.is_err() {
            break;
        }
    }
    let _ = sink.send(Message::Text(r#"{"type":"ping"}"#.into())).await;
    reader.await.unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_frames_get_documented_answers_and_bounded_work(
        seated in any::<bool>(),
        frames in prop::collection::vec(frame(), 0..16),
    ) {
        let shared = shared();
        let (seen, answered) = shared.runtime.block_on(exchange(shared, seated, &frames));
        for m in &seen {
            prop_assert!(m["type"].is_string(), "{}", m);
            if m["type"] == "error" {
                let code = m["code"].as_str().unwrap_or("");
                prop_assert!(DOCUMENTED.contains(&code), "undocumented code: {}", m);
            }
        }
        // At most a few messages a frame: a state and its log after hello,
        // an answer for each frame, never a flood.
        prop_assert!(seen.len() <= 2 * frames.len() + 6, "{} messages for {} frames", seen.len(), frames.len());
        prop_assert!(answered, "what was owed came: {:?}", seen);
        let health = shared.runtime.block_on(canasta_server::load::http(shared.addr, "GET", "/healthz", &Value::Null));
        prop_assert_eq!(health.map(|(status, _)| status).ok(), Some(200));
    }
}
