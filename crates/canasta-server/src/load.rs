//! The load tool: many tables at once, every seat a client on a real
//! WebSocket that plays one of the legal actions the server sends it.
//! Reports actions a second, the client's round trip (action sent to the
//! state that shows it), and, for a server in the same process, the
//! server's own arrival-to-broadcast time.

use crate::metrics::{Latency, Snapshot};
use canasta_core::Rng;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use thiserror::Error;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Barrier, Semaphore, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub tables: usize,
    pub seconds: f64,
    /// Each client waits this long (on average) before it acts, as a
    /// player would; zero plays as fast as the server answers.
    pub think: Duration,
    pub variant: String,
    pub players: Option<u8>,
    pub seed: u64,
}

#[derive(Debug, Error)]
pub enum LoadError {
    #[error("HTTP {path}: {reason}")]
    Http { path: String, reason: String },
    #[error("WebSocket: {0}")]
    WebSocket(String),
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct LoadReport {
    pub tables: usize,
    pub connections: usize,
    pub seconds: f64,
    pub actions: u64,
    pub errors: u64,
    pub games_finished: u64,
    pub client_p50: Option<Duration>,
    pub client_p99: Option<Duration>,
    pub server_p50: Option<Duration>,
    pub server_p99: Option<Duration>,
    pub setup_seconds: f64,
}

impl LoadReport {
    pub fn actions_per_second(&self) -> f64 {
        self.actions as f64 / self.seconds
    }
}

/// A small HTTP/1.1 request to the server under test (the tool needs only
/// these few calls; no client library).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &Value,
) -> Result<(u16, Value), LoadError> {
    let err = |reason: String| LoadError::Http {
        path: path.to_string(),
        reason,
    };
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| err(e.to_string()))?;
    let body = body.to_string();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| err(e.to_string()))?;
    let mut response = Vec::new();
    stream
        .read_to_end(&mut response)
        .await
        .map_err(|e| err(e.to_string()))?;
    let text = String::from_utf8_lossy(&response);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| err("no response".into()))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| err(format!("bad status line: {head}")))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let value = serde_json::from_str(&body).unwrap_or(Value::String(body));
    Ok((status, value))
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

struct Shared {
    actions: AtomicU64,
    errors: AtomicU64,
    games: AtomicU64,
    round_trip: Latency,
    measuring: std::sync::atomic::AtomicBool,
}

/// Creates a table whose seats are all human, claims them all, and
/// returns the id and the tokens.
async fn new_table(
    addr: SocketAddr,
    opts: &LoadOptions,
) -> Result<(String, Vec<String>), LoadError> {
    let mut request = json!({"variant": opts.variant, "join": {"seat": 0, "name": "load"}});
    if let Some(p) = opts.players {
        request["players"] = json!(p);
    }
    let (_, probe) = http(addr, "GET", "/api/variants", &Value::Null).await?;
    let players = opts.players.map(usize::from).unwrap_or_else(|| {
        probe["variants"]
            .as_array()
            .and_then(|v| v.iter().find(|v| v["id"] == opts.variant.as_str()))
            .and_then(|v| v["default_players"].as_u64())
            .unwrap_or(4) as usize
    });
    request["seats"] = json!(vec![json!({"kind": "human"}); players]);
    let (status, created) = http(addr, "POST", "/api/tables", &request).await?;
    if status != 201 {
        return Err(LoadError::Http {
            path: "/api/tables".into(),
            reason: format!("{status}: {created}"),
        });
    }
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let mut tokens = vec![created["token"].as_str().unwrap_or_default().to_string()];
    for seat in 1..players {
        let path = format!("/api/tables/{id}/seats/{seat}");
        let (status, claimed) = http(addr, "POST", &path, &json!({"name": "load"})).await?;
        if status != 200 {
            return Err(LoadError::Http {
                path,
                reason: format!("{status}: {claimed}"),
            });
        }
        tokens.push(claimed["token"].as_str().unwrap_or_default().to_string());
    }
    Ok((id, tokens))
}

/// What one seat's client is given.
struct SeatClient {
    addr: SocketAddr,
    id: String,
    token: String,
    seed: u64,
    think: Duration,
    shared: Arc<Shared>,
    /// Every client connected: the measured window begins.
    ready: Arc<Barrier>,
    until: watch::Receiver<Option<Instant>>,
    /// Limits the connections being opened at once.
    connecting: Arc<Semaphore>,
}

/// One seat's client: plays its turns until the game ends or time is up.
async fn seat_client(client: SeatClient) -> Result<bool, LoadError> {
    let SeatClient {
        addr,
        id,
        token,
        seed,
        think,
        shared,
        ready,
        mut until,
        connecting,
    } = client;
    let url = format!("ws://{addr}/api/tables/{id}/ws");
    let permit = connecting
        .acquire()
        .await
        .expect("the semaphore stays open");
    let (mut ws, _) = tokio_tungstenite::connect_async(&url)
        .await
        .map_err(|e| LoadError::WebSocket(e.to_string()))?;
    drop(permit);
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::Text(hello.into()))
        .await
        .map_err(|e| LoadError::WebSocket(e.to_string()))?;
    ready.wait().await;
    let until = until
        .wait_for(Option::is_some)
        .await
        .map_err(|e| LoadError::WebSocket(e.to_string()))?
        .expect("waited for");
    let mut rng = Rng::new(seed);
    let mut sent: Option<(u64, Instant)> = None;
    let mut acted_on = None;
    let mut finished = false;
    loop {
        let next = tokio::time::timeout_at(until, ws.next()).await;
        let message = match next {
            Ok(Some(Ok(message))) => message,
            Err(_) => break,
            Ok(other) => {
                if std::env::var_os("CANASTA_LOAD_DEBUG").is_some() {
                    eprintln!("client of {id}: the connection ended: {other:?}");
                }
                break;
            }
        };
        let Message::Text(text) = message else {
            continue;
        };
        let Ok(msg) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        match msg["type"].as_str() {
            Some("state") => {
                let state_id = msg["state_id"].as_u64().unwrap_or(0);
                if let Some((at, when)) = sent
                    && state_id > at
                {
                    if shared.measuring.load(Ordering::Relaxed) {
                        shared.round_trip.record(when.elapsed());
                        shared.actions.fetch_add(1, Ordering::Relaxed);
                    }
                    sent = None;
                }
                let legal = msg["legal"].as_array().map_or(&[][..], Vec::as_slice);
                // A state is sent again when someone connects: act once.
                if legal.is_empty() || sent.is_some() || acted_on == Some(state_id) {
                    continue;
                }
                acted_on = Some(state_id);
                if !think.is_zero() {
                    let wait = think.mul_f64(2.0 * (rng.below(1000) as f64 + 0.5) / 1000.0);
                    tokio::time::sleep(wait).await;
                }
                let action = &legal[rng.below(legal.len())];
                let act = json!({"type": "act", "state_id": state_id, "action": action});
                sent = Some((state_id, Instant::now()));
                if ws
                    .send(Message::Text(act.to_string().into()))
                    .await
                    .is_err()
                {
                    break;
                }
            }
            Some("hand_end") => {
                let _ = ws.send(Message::Text(r#"{"type":"next"}"#.into())).await;
            }
            Some("game_end") => {
                finished = true;
                break;
            }
            Some("error") => {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                sent = None;
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(finished)
}

/// The server's arrival-to-broadcast histogram so far (`GET /api/stats`).
async fn server_times(addr: SocketAddr) -> Result<Snapshot, LoadError> {
    let (status, stats) = http(addr, "GET", "/api/stats", &Value::Null).await?;
    let reason = |why: String| LoadError::Http {
        path: "/api/stats".into(),
        reason: why,
    };
    if status != 200 {
        return Err(reason(format!("{status}: {stats}")));
    }
    serde_json::from_value(stats["latency"].clone()).map_err(|e| reason(e.to_string()))
}

/// Runs the load against the server at `addr`. The server's own times are
/// read from it (`GET /api/stats`) as the measured window opens and as it
/// closes, so they cover the same actions as the clients' and not the
/// set-up or the goodbyes.
///
/// # Errors
/// A table cannot be created, a client cannot connect, or the server's
/// times cannot be read.
pub async fn run(addr: SocketAddr, opts: &LoadOptions) -> Result<LoadReport, LoadError> {
    let shared = Arc::new(Shared {
        actions: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        games: AtomicU64::new(0),
        round_trip: Latency::default(),
        measuring: std::sync::atomic::AtomicBool::new(false),
    });
    let setup = Instant::now();
    let mut tables = Vec::with_capacity(opts.tables);
    // Tables are created a few at a time: the server takes them in parallel.
    let mut pending = futures_util::stream::iter((0..opts.tables).map(|_| new_table(addr, opts)))
        .buffer_unordered(16);
    while let Some(t) = pending.next().await {
        tables.push(t?);
    }
    let connections: usize = tables.iter().map(|(_, t)| t.len()).sum();
    let ready = Arc::new(Barrier::new(connections + 1));
    let (set_until, until) = watch::channel(None);
    // Connections are opened a few dozen at a time, as players arrive.
    let connecting = Arc::new(Semaphore::new(64));
    let mut rng = Rng::new(opts.seed);
    let mut clients = Vec::with_capacity(connections);
    for (id, tokens) in &tables {
        for token in tokens {
            clients.push(tokio::spawn(seat_client(SeatClient {
                addr,
                id: id.clone(),
                token: token.clone(),
                seed: rng.next_u64(),
                think: opts.think,
                shared: shared.clone(),
                ready: ready.clone(),
                until: until.clone(),
                connecting: connecting.clone(),
            })));
        }
    }
    ready.wait().await;
    // Everyone connected: the measured window starts.
    let setup_seconds = setup.elapsed().as_secs_f64();
    let opened = server_times(addr).await?;
    let start = Instant::now();
    shared.measuring.store(true, Ordering::Relaxed);
    let end = start + Duration::from_secs_f64(opts.seconds);
    let _ = set_until.send(Some(end));
    tokio::time::sleep_until(end).await;
    let server = server_times(addr).await?.since(&opened);
    let mut games = 0;
    for c in clients {
        match c.await {
            Ok(Ok(true)) => games += 1,
            Ok(Ok(false)) => {}
            Ok(Err(e)) => return Err(e),
            Err(e) => return Err(LoadError::WebSocket(e.to_string())),
        }
    }
    shared.measuring.store(false, Ordering::Relaxed);
    let seconds = start.elapsed().as_secs_f64().min(opts.seconds).max(1e-9);
    shared.games.store(games, Ordering::Relaxed);
    Ok(LoadReport {
        tables: tables.len(),
        connections,
        seconds,
        actions: shared.actions.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        games_finished: games / tables.first().map_or(1, |(_, t)| t.len() as u64),
        client_p50: shared.round_trip.quantile(0.5),
        client_p99: shared.round_trip.quantile(0.99),
        server_p50: server.quantile(0.5),
        server_p99: server.quantile(0.99),
        setup_seconds,
    })
}
