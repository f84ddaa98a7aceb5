//! The audit's connection attacks, each in a bounded loop on loopback, and
//! the limit that now holds: sockets that never say `hello`, request heads
//! and bodies that never finish, too many connections from one address or
//! in all, floods of every frame kind, and messages too large to read.

mod common;

use canasta_server::Options;
use canasta_server::connections::ConnectionLimits;
use canasta_server::protocol::RateLimit;
use common::{Server, answer, tcp_from};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;

/// Every bound in these tests is an upper limit on a wait, never a
/// measured time: generous, so a loaded machine does not fail them.
const AT_MOST: Duration = Duration::from_secs(10);

fn limits(change: impl FnOnce(&mut ConnectionLimits)) -> Options {
    let mut connections = ConnectionLimits::uncounted();
    change(&mut connections);
    Options {
        connections,
        ..Options::unpaced()
    }
}

fn get(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
}

/// Reads until the server ends the connection: the close frame it sent,
/// if any, and the JSON texts before it.
async fn until_closed<S>(ws: &mut S) -> (Option<CloseFrame>, Vec<Value>)
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let mut texts = Vec::new();
    let read = tokio::time::timeout(AT_MOST, async {
        while let Some(Ok(message)) = ws.next().await {
            match message {
                Message::Text(t) => texts.push(serde_json::from_str(&t).unwrap()),
                Message::Close(frame) => return frame,
                _ => {}
            }
        }
        None
    });
    let frame = read.await.expect("the server closes the connection");
    (frame, texts)
}

/// Whether the server closed `stream` (end of file or a reset) within
/// [`AT_MOST`], reading and dropping whatever it sent first.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buffer = [0u8; 1024];
    let read = tokio::time::timeout(AT_MOST, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    });
    read.await.is_ok()
}

#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed() {
    let server = Server::start_with(limits(|l| l.hello_timeout = Duration::from_millis(300))).await;
    let (id, _) = server.table_of_humans("classic", 2, json!({})).await;
    let mut idle = server.connect(&id).await;
    let (frame, texts) = until_closed(&mut idle.ws).await;
    let frame = frame.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1008);
    assert!(frame.reason.contains("no hello"), "{}", frame.reason);
    assert_eq!(texts.last().unwrap()["code"], "hello_first");
    // Sending something other than hello does not keep it open either.
    let mut chatty = server.connect(&id).await;
    for _ in 0..5 {
        chatty.send(json!({"type": "ping"})).await;
    }
    let (frame, _) = until_closed(&mut chatty.ws).await;
    assert_eq!(u16::from(frame.unwrap().code), 1008);
    // One that says hello in time plays on past the timeout.
    let mut player = server.connect(&id).await;
    player.hello(None).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    player.send(json!({"type": "ping"})).await;
    assert_eq!(player.until("pong").await["type"], "pong");
}

#[tokio::test]
async fn a_half_sent_request_head_or_a_silent_connection_is_closed() {
    let server =
        Server::start_with(limits(|l| l.header_timeout = Duration::from_millis(300))).await;
    let mut half = Vec::new();
    for _ in 0..20 {
        let mut stream = tcp_from("127.0.0.1", server.addr()).await;
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await
            .unwrap();
        half.push(stream);
    }
    let mut silent = tcp_from("127.0.0.1", server.addr()).await;
    for stream in &mut half {
        assert!(closed_by_server(stream).await, "a half-sent head is closed");
    }
    assert!(
        closed_by_server(&mut silent).await,
        "a silent connection is closed"
    );
    assert_eq!(server.get("/healthz").await.0, 200);
}

#[tokio::test]
async fn a_request_body_that_never_arrives_is_refused_in_time() {
    let server = Server::start_with(limits(|l| l.body_timeout = Duration::from_millis(300))).await;
    let mut slow = tcp_from("127.0.0.1", server.addr()).await;
    let head = "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"variant\":";
    let (status, body) = answer(&mut slow, head).await;
    assert_eq!(status, 408, "{body}");
    assert_eq!(body["error"]["code"], "request_timeout");
    // A body over the limit is refused whole, with `too_large`.
    let big = "x".repeat(20_000);
    let request = format!(
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
        big.len()
    );
    let mut stream = tcp_from("127.0.0.1", server.addr()).await;
    let (status, body) = answer(&mut stream, &request).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["error"]["code"], "too_large");
}

#[tokio::test]
async fn connections_from_one_address_are_capped_and_others_still_served() {
    let server = Server::start_with(limits(|l| l.max_per_address = 8)).await;
    let (id, _) = server.table_of_humans("classic", 2, json!({})).await;
    // The attack: idle connections from one address, far past the cap.
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(tcp_from("127.0.0.1", server.addr()).await);
    }
    for _ in 0..40 {
        let mut extra = tcp_from("127.0.0.1", server.addr()).await;
        let (status, body) = answer(&mut extra, &get("/healthz")).await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["error"]["code"], "too_many_connections");
    }
    // A WebSocket over the cap is closed with a code and a reason.
    let url = format!("ws://{}/api/tables/{id}/ws", server.addr());
    let (mut refused, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (frame, _) = until_closed(&mut refused).await;
    let frame = frame.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1013);
    assert!(frame.reason.contains("your address"), "{}", frame.reason);
    // Another address is served meanwhile.
    let mut victim = tcp_from("127.0.0.2", server.addr()).await;
    let (status, body) = answer(&mut victim, &get("/healthz")).await;
    assert_eq!((status, &body["status"]), (200, &json!("ok")));
    // Once the idle ones go, the address is served again.
    drop(held);
    let served = async {
        loop {
            let mut again = tcp_from("127.0.0.1", server.addr()).await;
            if answer(&mut again, &get("/healthz")).await.0 == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(AT_MOST, served).await.unwrap();
}

#[tokio::test]
async fn a_full_server_refuses_new_connections_with_503() {
    let server = Server::start_with(limits(|l| l.max_connections = 6)).await;
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(tcp_from("127.0.0.1", server.addr()).await);
    }
    for from in ["127.0.0.1", "127.0.0.2", "127.0.0.3"] {
        let mut extra = tcp_from(from, server.addr()).await;
        let (status, body) = answer(&mut extra, &get("/healthz")).await;
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["error"]["code"], "server_full");
    }
}

/// The frames of one kind a flooding client sends.
fn frame_of(kind: &str) -> Message {
    match kind {
        "binary" => Message::Binary(vec![0u8; 16].into()),
        "ping" => Message::Ping(vec![1u8; 4].into()),
        "pong" => Message::Pong(vec![2u8; 4].into()),
        _ => Message::Text(r#"{"type":"ping"}"#.into()),
    }
}

#[tokio::test]
async fn a_flood_of_any_frame_kind_is_closed_before_and_after_hello() {
    let server = Server::start_with(Options {
        rate_limit: RateLimit::default(),
        ..Options::unpaced()
    })
    .await;
    let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    for kind in ["binary", "ping", "pong", "text"] {
        for after_hello in [false, true] {
            let mut c = server.connect(&id).await;
            if after_hello {
                c.hello(Some(&tokens[0])).await;
            }
            // The audit sent millions; a few thousand pass every limit.
            for _ in 0..3000 {
                if c.ws.send(frame_of(kind)).await.is_err() {
                    break;
                }
            }
            let (frame, texts) = until_closed(&mut c.ws).await;
            let frame = frame.unwrap_or_else(|| panic!("{kind} flood: a close frame"));
            assert_eq!(
                u16::from(frame.code),
                1008,
                "{kind} after hello {after_hello}"
            );
            assert!(
                texts.iter().any(|m| m["code"] == "rate_limited"),
                "{kind}: told it was rate limited: {texts:?}"
            );
        }
    }
    // The server is fine: a new connection is served.
    let mut d = server.connect(&id).await;
    d.hello(Some(&tokens[1])).await;
    d.send(json!({"type": "ping"})).await;
    assert_eq!(d.until("pong").await["type"], "pong");
}

#[tokio::test]
async fn every_oversized_message_gets_too_large_and_a_close() {
    let server = Server::start().await;
    let (id, tokens) = server.table_of_humans("classic", 2, json!({})).await;
    // Over the message limit (16 KiB), over what the socket buffers
    // (32 KiB: the audit's reset), and far over it.
    for size in [20 * 1024, 40 * 1024, 2 * 1024 * 1024] {
        for after_hello in [false, true] {
            let mut c = server.connect(&id).await;
            if after_hello {
                c.hello(Some(&tokens[0])).await;
            }
            let pad = "a".repeat(size);
            let message = Message::Text(format!(r#"{{"type":"ping","pad":"{pad}"}}"#).into());
            // Read while sending, as a browser does: the server answers
            // before the message is all sent.
            let (mut sink, mut stream) = c.ws.split();
            let sending = tokio::spawn(async move {
                let _ = sink.send(message).await;
                sink
            });
            let (frame, texts) = until_closed(&mut stream).await;
            drop(sending.await);
            assert!(
                texts.iter().any(|m| m["code"] == "too_large"),
                "{size} bytes, after hello {after_hello}: {texts:?}"
            );
            let frame = frame.unwrap_or_else(|| {
                panic!("{size} bytes, after hello {after_hello}: a close frame")
            });
            assert_eq!(u16::from(frame.code), 1009);
        }
    }
}
