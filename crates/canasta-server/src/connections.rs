//! Who may hold a connection, and for how long. The server runs its own
//! accept loop: it counts TCP connections (in total and by address),
//! refuses those over the limits politely (an HTTP error or a WebSocket
//! close code, never a silent hang), and closes requests whose head or
//! body does not arrive in time. The checks on `Host`, `Origin` and the
//! content type keep a page on another site from driving the server
//! through a visitor's browser (`docs/server-api.md`, "Threat model").

use crate::refusal::{ApiError, CLOSE_TRY_AGAIN_LATER, MAX_BODY_BYTES, api_error};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::{CloseFrame, Message, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Extension, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt as _;

/// Refusals answered at once at most; a connection arriving beyond them
/// is closed unanswered (each refusal holds a file while it is written).
/// Well within [`ConnectionLimits::reserved_files`]' default.
const REFUSALS_AT_ONCE: usize = 32;

/// How long a refused connection is given to send its request head (its
/// answer is the refusal whatever it asks).
const REFUSAL_HEAD_TIMEOUT: Duration = Duration::from_secs(2);

/// Every bound on connections, with the defaults a public server runs with
/// (`docs/server-api.md`, "Limits"; each is a `canasta serve` flag).
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionLimits {
    /// TCP connections open at once, HTTP and WebSocket alike. Default
    /// 4,096: about 150 KB each, some 600 MB at most. The server also keeps
    /// it below its open-file limit less [`Self::reserved_files`], so that
    /// it refuses politely before the system refuses `accept`.
    pub max_connections: usize,
    /// TCP connections from one IP address at once. Default 64: a player
    /// needs one for the table and a few short ones for the lobby, so a
    /// household or a club behind one address fits; one script does not
    /// take the server.
    pub max_per_address: usize,
    /// Open files kept from connections: the database and its journal,
    /// logs, the client files and the refusals being answered. Default 128.
    pub reserved_files: u64,
    /// How long a new WebSocket may take to send `hello`. Default 10 s: a
    /// client sends it at once, a socket that says nothing holds a file.
    pub hello_timeout: Duration,
    /// How long a request's head may take to arrive, counted from the
    /// connection's start or the previous answer (so it also closes idle
    /// keep-alive connections). Default 10 s.
    pub header_timeout: Duration,
    /// How long a request's body (at most 16 KiB) may take to arrive.
    /// Default 10 s.
    pub body_timeout: Duration,
    /// Host names the server answers to besides IP addresses and
    /// `localhost` (`--public-name`). Empty by default. Any other name in
    /// `Host` is refused (`421 bad_host`): it is how a DNS-rebinding page
    /// reaches a server on a private address.
    pub public_names: Vec<String>,
    /// Origins (`https://example.org`) whose pages may open sockets and
    /// send requests that change anything, besides the server's own
    /// (`--allowed-origin`). Empty by default.
    pub allowed_origins: Vec<String>,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            max_connections: 4096,
            max_per_address: 64,
            reserved_files: 128,
            hello_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            public_names: Vec::new(),
            allowed_origins: Vec::new(),
        }
    }
}

impl ConnectionLimits {
    /// No cap on counts (the open-file limit still holds): tests and
    /// `canasta load` open hundreds of connections from one address.
    pub fn uncounted() -> ConnectionLimits {
        ConnectionLimits {
            max_connections: usize::MAX,
            max_per_address: usize::MAX,
            ..ConnectionLimits::default()
        }
    }

    /// The connections held at once under an open-file limit of `files`:
    /// at most [`Self::max_connections`], and the files less those
    /// reserved (one at least).
    pub fn connections_under(&self, files: u64) -> usize {
        let free = files.saturating_sub(self.reserved_files).max(1);
        self.max_connections
            .min(usize::try_from(free).unwrap_or(usize::MAX))
    }
}

/// Raises this process's open-file limit to its hard limit (the usual
/// soft limit, 1,024, is far below what a server with many players holds).
/// The soft limit in force afterwards.
pub fn raise_open_file_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            let limit = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
            tracing::warn!(error = %e, limit, "cannot raise the open-file limit");
            limit
        }
    }
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The server holds as many connections as it may.
    ServerFull,
    /// This address holds as many as one address may.
    AddressFull,
}

impl Refusal {
    fn status(self) -> StatusCode {
        match self {
            Refusal::ServerFull => StatusCode::SERVICE_UNAVAILABLE,
            Refusal::AddressFull => StatusCode::TOO_MANY_REQUESTS,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Refusal::ServerFull => "server_full",
            Refusal::AddressFull => "too_many_connections",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Refusal::ServerFull => "the server holds all the connections it can; try again soon",
            Refusal::AddressFull => {
                "too many connections from your address; close some and try again"
            }
        }
    }
}

/// The counts the accept loop keeps.
#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
    refusing: usize,
}

/// Admits connections while the counts allow.
#[derive(Clone, Debug)]
struct Gate {
    counts: Arc<Mutex<Counts>>,
    cap: usize,
    per_address: usize,
}

/// What a connection holds of the counts; the last clone dropped (the
/// connection's task, or the WebSocket it became) counts it out.
#[derive(Clone, Debug)]
pub struct ConnectionSlot {
    _held: Arc<Held>,
}

#[derive(Debug)]
struct Held {
    counts: Arc<Mutex<Counts>>,
    /// `Some(address)` for an admitted connection, `None` for a refusal.
    address: Option<IpAddr>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        match self.address {
            Some(address) => {
                counts.total -= 1;
                if let Some(n) = counts.by_address.get_mut(&address) {
                    *n -= 1;
                    if *n == 0 {
                        counts.by_address.remove(&address);
                    }
                }
            }
            None => counts.refusing -= 1,
        }
    }
}

enum Admission {
    Admitted(ConnectionSlot),
    Refused(Refusal, ConnectionSlot),
    /// Too many refusals are being answered: closed unanswered.
    Dropped,
}

impl Gate {
    fn new(cap: usize, per_address: usize) -> Gate {
        Gate {
            counts: Arc::default(),
            cap,
            per_address,
        }
    }

    fn admit(&self, address: IpAddr) -> Admission {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let from_address = counts.by_address.get(&address).copied().unwrap_or(0);
        let refusal = if counts.total >= self.cap {
            Some(Refusal::ServerFull)
        } else if from_address >= self.per_address {
            Some(Refusal::AddressFull)
        } else {
            None
        };
        let held = |address| ConnectionSlot {
            _held: Arc::new(Held {
                counts: self.counts.clone(),
                address,
            }),
        };
        match refusal {
            None => {
                counts.total += 1;
                *counts.by_address.entry(address).or_insert(0) += 1;
                Admission::Admitted(held(Some(address)))
            }
            Some(_) if counts.refusing >= REFUSALS_AT_ONCE => Admission::Dropped,
            Some(refusal) => {
                counts.refusing += 1;
                Admission::Refused(refusal, held(None))
            }
        }
    }
}

/// Accepts connections on `listener` and serves `router` to those the
/// limits admit, until `stop` turns true; then lets every connection
/// finish its request (HTTP connections, not the WebSockets they became)
/// and returns.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &ConnectionLimits,
    cap: usize,
    stop: watch::Receiver<bool>,
) {
    let gate = Gate::new(cap, limits.max_per_address);
    let refusals = Router::new().fallback(refuse);
    // Every connection's task holds a receiver: all have ended once the
    // sender sees none left.
    let (open, open_seen) = watch::channel(());
    let mut stopping = stop.clone();
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = stopped(&mut stopping) => break,
        };
        let (service, slot, head_timeout) = match gate.admit(remote.ip()) {
            Admission::Admitted(slot) => (router.clone(), slot, limits.header_timeout),
            // The refusal says `Connection: close` (a WebSocket's
            // handshake must say `upgrade` instead).
            Admission::Refused(refusal, slot) => {
                let refusals = refusals.clone().layer(Extension(refusal));
                let head_timeout = limits.header_timeout.min(REFUSAL_HEAD_TIMEOUT);
                (refusals, slot, head_timeout)
            }
            Admission::Dropped => continue,
        };
        let service = service.map_request(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(remote));
            request.extensions_mut().insert(slot.clone());
            request
        });
        let connection = Connection {
            head_timeout,
            stop: stop.clone(),
            _open: open_seen.clone(),
        };
        tokio::spawn(connection.serve(stream, service));
    }
    drop(open_seen);
    open.closed().await;
}

/// Until `stop` turns true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// What `accept` failing means: a connection reset before it was taken
/// is the client's; anything else (no file left) is logged and waited
/// out a moment, as the files free themselves when connections end.
async fn accept_failed(e: &std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused
    ) {
        return;
    }
    tracing::error!(error = %e, "accept error");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// One TCP connection's HTTP settings.
struct Connection {
    head_timeout: Duration,
    stop: watch::Receiver<bool>,
    /// Held while the connection is served (see [`serve`]).
    _open: watch::Receiver<()>,
}

impl Connection {
    async fn serve<S>(mut self, stream: TcpStream, service: S)
    where
        S: tower::Service<Request<Incoming>, Response = Response, Error = std::convert::Infallible>
            + Clone
            + Send
            + 'static,
        S::Future: Send + 'static,
    {
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.head_timeout);
        let connection = builder
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
            .with_upgrades();
        let mut connection = std::pin::pin!(connection);
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "connection ended");
                }
                return;
            }
            () = stopped(&mut self.stop) => connection.as_mut().graceful_shutdown(),
        }
        let _ = connection.await;
    }
}

/// The answer to a refused connection: a WebSocket is accepted only to be
/// closed with [`CLOSE_TRY_AGAIN_LATER`] and the reason (a browser's
/// socket sees no HTTP status); anything else gets the HTTP error.
async fn refuse(
    Extension(refusal): Extension<Refusal>,
    Extension(slot): Extension<ConnectionSlot>,
    socket: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let Ok(socket) = socket else {
        let refused = api_error(refusal.status(), refusal.code(), refusal.message());
        return ([(header::CONNECTION, "close")], refused).into_response();
    };
    socket.on_upgrade(move |mut socket| async move {
        let _slot = slot;
        let frame = CloseFrame {
            code: CLOSE_TRY_AGAIN_LATER,
            reason: refusal.message().into(),
        };
        if socket.send(Message::Close(Some(frame))).await.is_ok() {
            // The client's close ends the handshake (bounded).
            let _ = tokio::time::timeout(REFUSAL_HEAD_TIMEOUT, async {
                while let Some(Ok(_)) = socket.recv().await {}
            })
            .await;
        }
    })
}

/// Whether a request asks to become a WebSocket.
fn is_websocket_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// The names and origins a browser's requests must come with.
#[derive(Debug)]
pub(crate) struct SitePolicy {
    /// Lower case, without a port.
    public_names: Vec<String>,
    /// Lower case, without a trailing `/`.
    allowed_origins: Vec<String>,
}

impl SitePolicy {
    pub(crate) fn new(limits: &ConnectionLimits) -> SitePolicy {
        SitePolicy {
            public_names: limits
                .public_names
                .iter()
                .map(|n| host_name(n).to_ascii_lowercase())
                .collect(),
            allowed_origins: limits
                .allowed_origins
                .iter()
                .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        }
    }

    /// Whether the server answers to a `Host` header: any IP address (a
    /// DNS-rebinding page needs a name it controls, and a visitor who typed
    /// an address is on the server's own page), `localhost`, and the
    /// public names.
    fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host).trim_end_matches('.').to_ascii_lowercase();
        name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.public_names.contains(&name)
    }

    /// Whether a page of `origin` may send a request that changes
    /// something or opens a socket: the server's own origin (the same
    /// host and port as the request's `Host`) or an allowed one. `null`
    /// (a sandboxed frame, a file, a redirect across sites) never is.
    fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        if self.allowed_origins.contains(&origin) {
            return true;
        }
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false;
        };
        matches!(scheme, "http" | "https")
            && host.is_some_and(|host| host.eq_ignore_ascii_case(authority))
    }
}

/// The name of a `Host` value (`example.org:8080`, `[::1]:80`), without
/// its port or brackets.
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    }
}

fn shown(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(60).collect()
}

/// Refuses what a browser on another site could make a visitor send:
/// a `Host` the server does not answer to (`421 bad_host`); a request
/// body that is not JSON (`415 unsupported_media_type`: a form or a
/// `text/plain` body is what a page may send across sites without
/// asking); and, for anything that changes state or opens a WebSocket,
/// an `Origin` other than the server's own (`403 bad_origin`). A request
/// without `Origin` is not a browser's across sites (browsers send it on
/// every such request) and passes: the command line and scripts.
pub(crate) async fn check_site(
    State(policy): State<Arc<SitePolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let host = match headers.get(header::HOST) {
        None => None,
        Some(value) => match value.to_str() {
            Ok(host) if policy.host_allowed(host) => Some(host),
            _ => {
                let named = String::from_utf8_lossy(value.as_bytes());
                return api_error(
                    StatusCode::MISDIRECTED_REQUEST,
                    "bad_host",
                    format!(
                        "this server does not answer to the name `{}` (its operator lists its names with --public-name)",
                        shown(&named)
                    ),
                )
                .into_response();
            }
        },
    };
    let upgrade = is_websocket_upgrade(headers);
    let changes_state = upgrade
        || !matches!(
            *request.method(),
            Method::GET | Method::HEAD | Method::OPTIONS
        );
    if !changes_state {
        return next.run(request).await;
    }
    if !upgrade && let Err(refusal) = json_content(headers) {
        return refusal.into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let allowed = origin
            .to_str()
            .is_ok_and(|origin| policy.origin_allowed(origin, host));
        if !allowed {
            let named = String::from_utf8_lossy(origin.as_bytes());
            return api_error(
                StatusCode::FORBIDDEN,
                "bad_origin",
                format!(
                    "requests from pages of `{}` are not accepted here",
                    shown(&named)
                ),
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// A request that sends a body says it is JSON.
fn json_content(headers: &HeaderMap) -> Result<(), ApiError> {
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|n| n.as_bytes() != b"0");
    let media = headers.get(header::CONTENT_TYPE).map(|v| {
        String::from_utf8_lossy(v.as_bytes())
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    match media {
        Some(media) if media == "application/json" => Ok(()),
        None if !has_body => Ok(()),
        other => Err(api_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            format!(
                "request bodies are JSON (Content-Type: application/json), not `{}`",
                shown(other.as_deref().unwrap_or("none"))
            ),
        )),
    }
}

/// Reads a request's body within the time and size allowed before the
/// handler sees it: a body sent a byte at a time, or never finished, is
/// answered `408 request_timeout` and its connection closed.
pub(crate) async fn read_body_in_time(
    State(limit): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    if is_websocket_upgrade(request.headers()) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(limit, collect_body(body)).await {
        Err(_) => api_error(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            format!(
                "the request's body did not arrive within {} s",
                limit.as_secs_f64()
            ),
        )
        .into_response(),
        Ok(Err(refusal)) => refusal.into_response(),
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}

async fn collect_body(body: Body) -> Result<Bytes, ApiError> {
    let mut chunks = body.into_data_stream();
    let mut read = Vec::new();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|e| {
            api_error(
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("the request's body: {e}"),
            )
        })?;
        if read.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(api_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("request bodies are at most {MAX_BODY_BYTES} bytes"),
            ));
        }
        read.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(read))
}

/// The router with the site checks and the body deadline around it.
pub(crate) fn guarded(router: Router, limits: &ConnectionLimits) -> Router {
    let policy = Arc::new(SitePolicy::new(limits));
    router
        .layer(axum::middleware::from_fn_with_state(
            limits.body_timeout,
            read_body_in_time,
        ))
        .layer(axum::middleware::from_fn_with_state(policy, check_site))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_stay_below_the_open_file_limit() {
        let limits = ConnectionLimits::default();
        assert_eq!(limits.connections_under(1 << 20), 4096);
        assert_eq!(limits.connections_under(1024), 1024 - 128);
        assert_eq!(limits.connections_under(200), 72);
        assert_eq!(limits.connections_under(100), 1);
        assert_eq!(
            ConnectionLimits::uncounted().connections_under(5000),
            5000 - 128
        );
    }

    #[test]
    fn the_gate_counts_by_address_and_in_total_and_refuses_politely() {
        let gate = Gate::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = gate.admit(a);
        let second = gate.admit(a);
        assert!(matches!(first, Admission::Admitted(_)));
        assert!(matches!(second, Admission::Admitted(_)));
        assert!(matches!(
            gate.admit(a),
            Admission::Refused(Refusal::AddressFull, _)
        ));
        let third = gate.admit(b);
        assert!(matches!(third, Admission::Admitted(_)));
        assert!(matches!(
            gate.admit(b),
            Admission::Refused(Refusal::ServerFull, _)
        ));
        drop(first);
        let again = gate.admit(a);
        assert!(matches!(again, Admission::Admitted(_)));
        // Refusals being answered are bounded too.
        let held: Vec<_> = (0..REFUSALS_AT_ONCE).map(|_| gate.admit(b)).collect();
        assert!(held.iter().all(|h| matches!(h, Admission::Refused(..))));
        assert!(matches!(gate.admit(b), Admission::Dropped));
        drop(held);
        let counts = gate.counts.lock().unwrap();
        assert_eq!(counts.refusing, 0);
    }

    #[test]
    fn hosts_are_addresses_localhost_or_public_names() {
        let policy = SitePolicy::new(&ConnectionLimits {
            public_names: vec!["Canasta.Example.org".into()],
            ..ConnectionLimits::default()
        });
        for allowed in [
            "127.0.0.1:8080",
            "[::1]:8080",
            "localhost:8080",
            "LOCALHOST",
            "192.168.1.5",
            "canasta.example.org",
            "canasta.example.org:443",
        ] {
            assert!(policy.host_allowed(allowed), "{allowed}");
        }
        for refused in [
            "evil.example",
            "evil.example:8080",
            "canasta.example.org.evil",
            "",
        ] {
            assert!(!policy.host_allowed(refused), "{refused}");
        }
    }

    #[test]
    fn origins_are_the_servers_own_or_allowed_and_never_null() {
        let policy = SitePolicy::new(&ConnectionLimits {
            allowed_origins: vec!["https://Friends.example/".into()],
            ..ConnectionLimits::default()
        });
        let host = Some("127.0.0.1:8080");
        assert!(policy.origin_allowed("http://127.0.0.1:8080", host));
        assert!(policy.origin_allowed("https://friends.example", host));
        assert!(!policy.origin_allowed("null", host));
        assert!(!policy.origin_allowed("http://127.0.0.1:9090", host));
        assert!(!policy.origin_allowed("http://evil.example", host));
        assert!(!policy.origin_allowed("ftp://127.0.0.1:8080", host));
        assert!(!policy.origin_allowed("http://127.0.0.1:8080", None));
    }
}
