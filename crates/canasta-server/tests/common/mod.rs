//! A test client: a server on a free loopback port with in-memory storage,
//! HTTP calls, and WebSocket connections that keep every message.

#![allow(dead_code)]

use canasta_server::load::http;
use canasta_server::pace::Pacing;
use canasta_server::protocol::RateLimit;
use canasta_server::storage::{MemoryStorage, Storage};
use canasta_server::{Options, Running, start_with};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct Server {
    pub running: Running,
    pub storage: Arc<MemoryStorage>,
}

impl Server {
    /// A server whose rate limit test clients never reach, its bots
    /// unpaced.
    pub async fn start() -> Server {
        Server::start_with(Options::unpaced()).await
    }

    /// With the rate limit set for people (bots unpaced).
    pub async fn start_limited(limit: RateLimit) -> Server {
        Server::start_with(Options {
            rate_limit: limit,
            ..Options::unpaced()
        })
        .await
    }

    /// Bots at the tables' paces times `scale`.
    pub async fn start_paced(scale: f64) -> Server {
        Server::start_with(Options {
            pacing: Pacing::scaled(scale).unwrap(),
            ..Options::unpaced()
        })
        .await
    }

    pub async fn start_with(options: Options) -> Server {
        Server::start_on(Arc::new(MemoryStorage::new()), options).await
    }

    /// On storage that may hold tables already (resumed at start).
    pub async fn start_on(storage: Arc<MemoryStorage>, options: Options) -> Server {
        let running = start_with(
            "127.0.0.1:0".parse().unwrap(),
            storage.clone() as Arc<dyn Storage>,
            options,
        )
        .await
        .unwrap();
        Server { running, storage }
    }

    pub fn addr(&self) -> SocketAddr {
        self.running.addr
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        http(self.addr(), "GET", path, &Value::Null).await.unwrap()
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        http(self.addr(), "POST", path, &body).await.unwrap()
    }

    /// A table of `players` seats, all human and all claimed: its id and
    /// the tokens by seat.
    pub async fn table_of_humans(
        &self,
        variant: &str,
        players: usize,
        options: Value,
    ) -> (String, Vec<String>) {
        let seats = vec![json!({"kind": "human"}); players];
        let (status, created) = self
            .post(
                "/api/tables",
                json!({"variant": variant, "players": players, "options": options, "seats": seats, "join": {"seat": 0}}),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let mut tokens = vec![created["token"].as_str().unwrap().to_string()];
        for seat in 1..players {
            let (status, claimed) = self
                .post(&format!("/api/tables/{id}/seats/{seat}"), json!({}))
                .await;
            assert_eq!(status, 200, "{claimed}");
            tokens.push(claimed["token"].as_str().unwrap().to_string());
        }
        (id, tokens)
    }

    /// A Classic table of two people, each seat connected with its token:
    /// the table's id, the seats' connections, the seat to act first and
    /// the first state that holds a deal, as the seat to act read it (each
    /// connection is sent the state once, when it joins).
    pub async fn two_seated(&self) -> (String, Vec<Client>, usize, Value) {
        let (id, tokens) = self.table_of_humans("classic", 2, json!({})).await;
        let mut seats = Vec::new();
        let mut firsts = Vec::new();
        for t in &tokens {
            let mut c = self.connect(&id).await;
            c.hello(Some(t)).await;
            firsts.push(c.state_where(|m| !m["view"].is_null()).await);
            seats.push(c);
        }
        let actor = firsts[0]["view"]["to_act"].as_u64().unwrap() as usize;
        (id, seats, actor, firsts.swap_remove(actor))
    }

    pub async fn connect(&self, id: &str) -> Client {
        Client::connect(self.addr(), id).await
    }
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, in order.
    pub seen: Vec<Value>,
    pub raw: Vec<String>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, id: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws"))
            .await
            .unwrap();
        Client {
            ws,
            seen: Vec::new(),
            raw: Vec::new(),
        }
    }

    pub async fn send(&mut self, msg: Value) {
        self.send_text(msg.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next message, or `None` if the connection ended or nothing came
    /// within ten seconds.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .ok()??
                .ok()?;
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(&t).unwrap();
                self.raw.push(t.to_string());
                self.seen.push(v.clone());
                return Some(v);
            }
        }
    }

    /// Reads until a message of `kind` comes.
    pub async fn until(&mut self, kind: &str) -> Value {
        loop {
            let m = self
                .next()
                .await
                .unwrap_or_else(|| panic!("no `{kind}` came"));
            if m["type"] == kind {
                return m;
            }
        }
    }

    /// Reads until a `state` message satisfying `want`.
    pub async fn state_where(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.until("state").await;
            if want(&m) {
                return m;
            }
        }
    }

    pub async fn hello(&mut self, token: Option<&str>) -> Value {
        match token {
            Some(t) => self.send(json!({"type": "hello", "token": t})).await,
            None => self.send(json!({"type": "hello"})).await,
        }
        self.until("welcome").await
    }
}

/// A TCP connection to `server` from the loopback address `from`
/// (127.0.0.1, 127.0.0.2, ...: each reaches a server on 127.0.0.1), for
/// the limits by address.
pub async fn tcp_from(from: &str, server: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(server).await.unwrap()
}

/// What the server answers to the raw HTTP `request` on `stream` before it
/// closes it: the status and the JSON body (`Value::Null` if none).
pub async fn answer(stream: &mut TcpStream, request: &str) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server answers and closes")
        .unwrap();
    let text = String::from_utf8_lossy(&response);
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP response");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The action words a state message lists as legal for its seat.
pub fn legal(m: &Value) -> Vec<String> {
    m["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}
