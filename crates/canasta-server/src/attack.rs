//! What one hostile client can try against a server, for `canasta load
//! --attack`: run in its own process while a second `canasta load` plays a
//! human table, it shows what the attack costs the people playing (their
//! round trip) and what the server's limits let through.
//!
//! Each attack reports what it attempted, what the server accepted and
//! what it refused or closed, so a run says both "the victim's p99 stayed
//! at X" and "the server stopped the attack here".

use crate::load::{LoadError, http};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// The attacks of the audit in issue 41, each bounded by `count` and time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attack {
    /// `count` WebSocket connections to a table, each sending binary
    /// frames as fast as it can, never a hello.
    BinaryFlood,
    /// `count` TCP connections opened and left idle: no request, no hello.
    IdleConnections,
    /// `count` tables whose every seat is the strongest bot, each watched
    /// by one spectator so that it plays.
    ExpertBots,
    /// `count` spectators joining one table that bots are playing.
    Spectators,
}

impl Attack {
    pub const ALL: [Attack; 4] = [
        Attack::BinaryFlood,
        Attack::IdleConnections,
        Attack::ExpertBots,
        Attack::Spectators,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Attack::BinaryFlood => "binary-flood",
            Attack::IdleConnections => "idle-connections",
            Attack::ExpertBots => "expert-bots",
            Attack::Spectators => "spectators",
        }
    }

    /// The count the audit used.
    pub fn audit_count(self) -> usize {
        match self {
            Attack::BinaryFlood => 8,
            Attack::IdleConnections => 1_100,
            Attack::ExpertBots => 40,
            Attack::Spectators => 3_000,
        }
    }
}

impl FromStr for Attack {
    type Err = String;

    fn from_str(name: &str) -> Result<Attack, String> {
        Attack::ALL
            .into_iter()
            .find(|attack| attack.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Attack::ALL.iter().map(|a| a.name()).collect();
                format!("no attack `{name}`: one of {}", names.join(", "))
            })
    }
}

/// What an attack did and what the server made of it.
#[derive(Clone, Debug, Default)]
pub struct AttackReport {
    /// Connections, tables or spectators attempted.
    pub attempted: u64,
    /// Of those, the ones the server took (connected, created, joined).
    pub accepted: u64,
    /// The ones the server refused outright (an HTTP status, a close).
    pub refused: u64,
    /// Accepted ones the server closed during the run.
    pub closed_by_server: u64,
    /// Frames or messages sent in all (the flood's).
    pub frames_sent: u64,
    pub seconds: f64,
}

#[derive(Default)]
struct Counts {
    attempted: AtomicU64,
    accepted: AtomicU64,
    refused: AtomicU64,
    closed_by_server: AtomicU64,
    frames_sent: AtomicU64,
}

impl Counts {
    fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn report(&self, seconds: f64) -> AttackReport {
        AttackReport {
            attempted: self.attempted.load(Ordering::Relaxed),
            accepted: self.accepted.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
            closed_by_server: self.closed_by_server.load(Ordering::Relaxed),
            frames_sent: self.frames_sent.load(Ordering::Relaxed),
            seconds,
        }
    }
}

/// Runs `attack` with `count` against the server at `addr` for `seconds`.
///
/// # Errors
/// Only when the attack's own set-up (a table to aim at) is refused; what
/// the server refuses during the attack is counted, not an error.
pub async fn run(
    addr: SocketAddr,
    attack: Attack,
    count: usize,
    seconds: f64,
) -> Result<AttackReport, LoadError> {
    let counts = Arc::new(Counts::default());
    let start = Instant::now();
    let until = start + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::with_capacity(count);
    match attack {
        Attack::BinaryFlood => {
            let id = table_of_bots(addr, "heuristic").await?;
            for _ in 0..count {
                tasks.push(tokio::spawn(flood(addr, id.clone(), counts.clone(), until)));
            }
        }
        Attack::IdleConnections => {
            for _ in 0..count {
                tasks.push(tokio::spawn(idle(addr, counts.clone(), until)));
            }
        }
        Attack::ExpertBots => {
            for _ in 0..count {
                Counts::add(&counts.attempted);
                match table_of_bots(addr, "ismcts-expert").await {
                    Ok(id) => {
                        Counts::add(&counts.accepted);
                        tasks.push(tokio::spawn(watch(addr, id, counts.clone(), until, false)));
                    }
                    Err(_) => Counts::add(&counts.refused),
                }
            }
        }
        Attack::Spectators => {
            let id = table_of_bots(addr, "heuristic").await?;
            for _ in 0..count {
                tasks.push(tokio::spawn(watch(
                    addr,
                    id.clone(),
                    counts.clone(),
                    until,
                    true,
                )));
            }
        }
    }
    for task in tasks {
        let _ = task.await;
    }
    Ok(counts.report(start.elapsed().as_secs_f64()))
}

/// A table whose every seat is `bot`: it plays while someone watches.
async fn table_of_bots(addr: SocketAddr, bot: &str) -> Result<String, LoadError> {
    let request = json!({
        "variant": "classic",
        "seats": vec![json!({"kind": "bot", "bot": bot}); 4],
    });
    let (status, created) = http(addr, "POST", "/api/tables", &request).await?;
    if status != 201 {
        return Err(LoadError::Http {
            path: "/api/tables".into(),
            reason: format!("{status}: {created}"),
        });
    }
    Ok(created["id"].as_str().unwrap_or_default().to_string())
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A WebSocket to the table, counted as attempted, and as refused when
/// the upgrade fails.
async fn connect(addr: SocketAddr, id: &str, counts: &Counts) -> Option<Socket> {
    Counts::add(&counts.attempted);
    let url = format!("ws://{addr}/api/tables/{id}/ws");
    match tokio_tungstenite::connect_async(&url).await {
        Ok((socket, _)) => Some(socket),
        Err(_) => {
            Counts::add(&counts.refused);
            None
        }
    }
}

/// Binary frames as fast as the socket takes them, reading whatever the
/// server says so that its close is seen.
async fn flood(addr: SocketAddr, id: String, counts: Arc<Counts>, until: Instant) {
    let Some(socket) = connect(addr, &id, &counts).await else {
        return;
    };
    Counts::add(&counts.accepted);
    let (mut sink, mut stream) = socket.split();
    let frame: Vec<u8> = vec![0xAB; 64];
    let closed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader_closed = closed.clone();
    let reader = tokio::spawn(async move {
        while let Ok(Some(message)) = tokio::time::timeout_at(until, stream.next()).await {
            if message.is_err() || matches!(message, Ok(Message::Close(_))) {
                break;
            }
        }
        reader_closed.store(Instant::now() < until, Ordering::Relaxed);
    });
    while Instant::now() < until && !closed.load(Ordering::Relaxed) {
        if sink
            .send(Message::Binary(frame.clone().into()))
            .await
            .is_err()
        {
            closed.store(true, Ordering::Relaxed);
            break;
        }
        counts.frames_sent.fetch_add(1, Ordering::Relaxed);
    }
    let _ = reader.await;
    if closed.load(Ordering::Relaxed) {
        Counts::add(&counts.closed_by_server);
    }
}

/// A TCP connection that never says anything; closed by the server if it
/// reads end of stream before the run ends.
async fn idle(addr: SocketAddr, counts: Arc<Counts>, until: Instant) {
    Counts::add(&counts.attempted);
    let Ok(Ok(mut stream)) = tokio::time::timeout_at(until, TcpStream::connect(addr)).await else {
        Counts::add(&counts.refused);
        return;
    };
    Counts::add(&counts.accepted);
    let mut answer = [0u8; 256];
    // End of stream, a reset, or an answer (a 408 or 503) before the end.
    if tokio::time::timeout_at(until, stream.read(&mut answer))
        .await
        .is_ok()
    {
        Counts::add(&counts.closed_by_server);
    }
}

/// A spectator: hello without a token, then reading every message (a slow
/// reader would be another attack). With `count`, it is counted: accepted
/// when welcomed, refused when the server answers with an error, closed
/// when the server ends the connection.
async fn watch(addr: SocketAddr, id: String, counts: Arc<Counts>, until: Instant, count: bool) {
    let socket = if count {
        connect(addr, &id, &counts).await
    } else {
        let url = format!("ws://{addr}/api/tables/{id}/ws");
        tokio_tungstenite::connect_async(&url)
            .await
            .ok()
            .map(|(s, _)| s)
    };
    let Some(mut socket) = socket else {
        return;
    };
    let hello = json!({"type": "hello"}).to_string();
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    loop {
        match tokio::time::timeout_at(until, socket.next()).await {
            Err(_) => break,
            Ok(Some(Ok(Message::Close(_))) | Some(Err(_)) | None) => {
                if count {
                    Counts::add(&counts.closed_by_server);
                }
                break;
            }
            Ok(Some(Ok(Message::Text(text)))) => {
                let kind = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|msg| msg["type"].as_str().map(str::to_owned));
                match kind.as_deref() {
                    Some("welcome") if count => Counts::add(&counts.accepted),
                    Some("error") if count => {
                        Counts::add(&counts.refused);
                        break;
                    }
                    _ => {}
                }
            }
            Ok(Some(Ok(_))) => {}
        }
    }
    let _ = socket.close(None).await;
}

#[cfg(test)]
mod tests {
    use super::Attack;

    #[test]
    fn attacks_are_named_and_parsed_back() {
        for attack in Attack::ALL {
            assert_eq!(attack.name().parse::<Attack>(), Ok(attack));
        }
        let refused = "ddos".parse::<Attack>().unwrap_err();
        assert!(refused.contains("binary-flood"), "{refused}");
    }
}
