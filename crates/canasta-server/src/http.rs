//! The HTTP side: health, the lobby (variants, tables, seats), finished
//! games' records and replays, the WebSocket upgrade, and the browser
//! client's files, embedded in the binary.

use crate::creators::CreateRefused;
use crate::limits::BotRefused;
use crate::pace::Pace;
use crate::protocol::MAX_MESSAGE_BYTES;
use crate::refusal::{ApiError, MAX_BODY_BYTES, api_error};
use crate::storage::{
    Owner, Quarantined, SeatMeta, StorageError, StoredTable, TableMeta, TableStatus,
};
use crate::table::game::TableGame;
use crate::table::{ClaimError, Command, RematchError, TableHandle, summary_json};
use crate::views::{Viewer, view_json};
use crate::web_files::WebFiles;
use crate::{App, secrets};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use canasta_ai::BOT_NAMES;
use canasta_core::Rules;
use canasta_core::Seat;
use canasta_core::record::Replay;
use canasta_core::rules::catalogue_json;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::oneshot;

/// Tables the lobby lists at most.
pub const LOBBY_LIMIT: usize = 100;

pub fn router(app: App) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/api/stats", get(stats))
        .route("/metrics", get(metrics))
        .route("/api/variants", get(variants))
        .route("/api/rules", get(rules_page))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{id}", get(get_table))
        .route("/api/tables/{id}/seats/{seat}", post(claim_seat))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay/{step}", get(replay_step))
        .route("/api/tables/{id}/ws", get(websocket))
        .fallback(get(static_file))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(app)
}

fn no_table(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    api_error(
        StatusCode::NOT_FOUND,
        "no_such_table",
        format!("there is no table `{shown}`"),
    )
}

/// A stored table the server does not play (`canasta export --check`
/// lists it).
fn quarantined(bad: Quarantined) -> ApiError {
    tracing::warn!(table = %bad.id, reason = %bad.reason, "a quarantined table was asked for");
    api_error(StatusCode::CONFLICT, "quarantined", bad.to_string())
}

/// A table another node plays (several servers on one database): `409
/// table_elsewhere`, naming the node and, if it told one, its address.
fn elsewhere(id: &str, node: u16, url: Option<&str>) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    let at = url.map_or_else(String::new, |u| format!(" at {u}"));
    api_error(
        StatusCode::CONFLICT,
        "table_elsewhere",
        format!("table `{shown}` is played by node {node}{at}: connect there"),
    )
    .with_url(url)
}

fn storage_error(e: impl std::fmt::Display) -> ApiError {
    tracing::error!(error = %e, "storage");
    api_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "unavailable",
        format!("storage: {e}"),
    )
}

async fn healthz(State(app): State<App>) -> impl IntoResponse {
    app.registry.sweep();
    let tables = app.registry.all();
    let playing = tables
        .iter()
        .filter(|t| t.meta.borrow().status == TableStatus::Playing)
        .count();
    let quarantined: Vec<Value> = app
        .storage_health
        .quarantined()
        .into_iter()
        .map(|q| json!({"id": q.id, "reason": q.reason}))
        .collect();
    let storage = match app.storage_health.failing() {
        None => json!({"status": "ok", "quarantined": quarantined}),
        Some(f) => json!({
            "status": "failing",
            "reason": f.reason,
            "failing_secs": f.for_time.as_secs(),
            "tables_waiting": f.tables,
            "quarantined": quarantined,
        }),
    };
    let mut status = if storage["status"] == "ok" {
        "ok"
    } else {
        "degraded"
    };
    let mut health = json!({"tables": tables.len(), "playing": playing, "storage": storage});
    if let Some(leases) = &app.leases {
        // One of several servers: which, and whether it surely still holds
        // its tables (a renewal within the lease).
        let sure = leases.sure();
        if !sure {
            status = "degraded";
        }
        health["node"] = json!({
            "id": leases.settings().node_id,
            "url": leases.public_url(),
            "leases": leases.held_ids().len(),
            "leases_renewed": sure,
        });
    }
    health["status"] = json!(status);
    axum::Json(health)
}

/// Whether the server can take players now: 503 while storage writes
/// fail, or (one of several servers) while it has not renewed its leases
/// for a lease's time, for a load balancer or a supervisor to send people
/// elsewhere.
async fn readyz(State(app): State<App>) -> Response {
    if app.leases.as_ref().is_some_and(|l| !l.sure()) {
        return api_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "leases_lost",
            "this server could not renew its table leases for a lease's time: it holds no table until it can",
        )
        .into_response();
    }
    match refuse_while_storage_fails(&app) {
        Ok(()) => axum::Json(json!({"ready": true})).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `503 storage_failing` while a table waits on a write that failed: a new
/// table would only wait too.
fn refuse_while_storage_fails(app: &App) -> Result<(), ApiError> {
    match app.storage_health.failing() {
        None => Ok(()),
        Some(f) => Err(api_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage_failing",
            format!(
                "storage is failing ({}; {} tables waiting); try again later",
                f.reason, f.tables
            ),
        )),
    }
}

/// The server's own times, for load tests and monitoring: every accepted
/// action's arrival-to-broadcast time, as histogram counts since start.
async fn stats(State(app): State<App>) -> impl IntoResponse {
    let latency = app.latency.snapshot();
    axum::Json(json!({
        "actions": latency.count(),
        "bucket_micros": crate::metrics::Snapshot::BUCKET_MICROS,
        "latency": latency,
    }))
}

/// The node's metrics in the Prometheus text format
/// ([`crate::metrics::exposition`]).
async fn metrics(State(app): State<App>) -> Response {
    app.registry.sweep();
    let tables = app.registry.all();
    let text = crate::metrics::exposition(&crate::metrics::Scrape {
        node: app
            .leases
            .as_ref()
            .map(|l| (l.settings().node_id, l.public_url())),
        tables_live: tables.len(),
        tables_open: tables.iter().filter(|t| t.is_open()).count(),
        leases: app.leases.as_ref().map(|l| (l.held_count(), l.counts())),
        leases_renewed: app.leases.as_ref().map(|l| l.sure()),
        storage_failing: app.storage_health.failing().is_some(),
        counters: &app.counters,
        latency: &app.latency,
    });
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

/// The catalogue with the bots; made once (the rules are built into the
/// binary), as its house rules check every listed choice against the engine.
async fn variants() -> impl IntoResponse {
    static CATALOGUE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let body = CATALOGUE.get_or_init(|| {
        let mut catalogue = catalogue_json();
        catalogue["bots"] = json!(
            BOT_NAMES
                .iter()
                .filter(|b| **b != "ismcts")
                .collect::<Vec<_>>()
        );
        catalogue.to_string()
    });
    ([(header::CONTENT_TYPE, "application/json")], body.clone())
}

/// `GET /api/rules?variant=V&players=N&options=JSON`: the rules in force
/// as a How to play page ([`Rules::how_to_play`]), refused as a table
/// request with the same variant, players and options would be.
async fn rules_page(
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Result<Response, ApiError> {
    if let Some(other) = query
        .keys()
        .find(|k| !["variant", "players", "options"].contains(&k.as_str()))
    {
        let shown: String = other.chars().take(40).collect();
        return Err(bad_request(format!(
            "unknown parameter `{shown}` (the rules take variant, players and options)"
        )));
    }
    let variant = query
        .get("variant")
        .ok_or_else(|| bad_request("the rules need a variant (?variant=classic)"))?;
    let players = match query.get("players").map(|p| p.trim()) {
        None | Some("") => None,
        Some(p) => Some(p.parse::<u8>().map_err(|_| {
            let shown: String = p.chars().take(20).collect();
            bad_request(format!("players is a number of players, not `{shown}`"))
        })?),
    };
    let options: Map<String, Value> = match query.get("options").map(|o| o.trim()) {
        None | Some("") => Map::new(),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| bad_request(format!("options must be a JSON object: {e}")))?,
    };
    let rules =
        Rules::from_header(variant, players, &options).map_err(|e| bad_request(e.to_string()))?;
    Ok(axum::Json(rules.how_to_play()).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTable {
    variant: String,
    #[serde(default)]
    players: Option<u8>,
    #[serde(default)]
    options: Map<String, Value>,
    #[serde(default)]
    seats: Option<Vec<SeatRequest>>,
    #[serde(default)]
    timeout_secs: Option<u64>,
    #[serde(default)]
    join: Option<JoinRequest>,
    #[serde(default)]
    pace: Pace,
    #[serde(default)]
    turn_secs: Option<u64>,
    /// Seats claimed only with the invite link's secret; not listed.
    #[serde(default)]
    invite_only: bool,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum SeatRequest {
    Human,
    Bot { bot: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    seat: usize,
    #[serde(default)]
    name: Option<String>,
}

fn bad_request(message: impl Into<String>) -> ApiError {
    api_error(StatusCode::BAD_REQUEST, "bad_request", message)
}

/// A player's name as shown: trimmed, at most 24 characters, no control
/// characters; empty means none.
fn clean_name(name: Option<String>) -> Option<String> {
    let name: String = name?
        .chars()
        .filter(|c| !c.is_control())
        .take(24)
        .collect::<String>()
        .trim()
        .to_string();
    (!name.is_empty()).then_some(name)
}

pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What a new table is set up with besides its rules.
struct Settings {
    seats: Vec<SeatMeta>,
    timeout_secs: u64,
    pace: crate::pace::Pace,
    turn_secs: Option<u64>,
    /// See [`TableMeta::invite_hash`].
    invite_hash: Option<String>,
}

/// A new invite-only table's secret and what is stored of it.
fn new_invite() -> (String, String) {
    let secret = secrets::new_token();
    let hash = secrets::token_hash(&secret);
    (secret, hash)
}

/// The link that brings a player to table `id`: with the secret for an
/// invite-only table (`#/t/ID/SECRET`).
fn invite_link(id: &str, secret: Option<&str>) -> String {
    match secret {
        Some(secret) => format!("/#/t/{id}/{secret}"),
        None => format!("/#/t/{id}"),
    }
}

/// Why `creator` may not create a table now, as the API says it.
fn refused(refusal: CreateRefused) -> ApiError {
    match refusal {
        CreateRefused::ServerFull { max } => api_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "server_full",
            format!("the server has its {max} open tables; join one from the lobby, or try later"),
        ),
        CreateRefused::AddressFull { max } => api_error(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_tables",
            format!(
                "your address has {max} open tables, the most it may have; finish or leave one first"
            ),
        ),
        CreateRefused::TooFast { per_minute, retry } => api_error(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!(
                "an address may create {per_minute} tables a minute; the next in {} s",
                retry.as_secs().saturating_add(1)
            ),
        ),
    }
}

/// A seat's bot as the server's limits allow it.
fn admit_bot(app: &App, name: &str) -> Result<String, ApiError> {
    app.limits.admit_bot(name).map_err(|e| match e {
        BotRefused::Unknown { .. } => bad_request(e.to_string()),
        BotRefused::OverCeiling { .. } => {
            api_error(StatusCode::BAD_REQUEST, "bot_over_ceiling", e.to_string())
        }
    })
}

/// Stores a new table and starts its task: playing at once when every
/// human seat is claimed, else waiting. Its id. Refused when the server or
/// its `creator`'s address has its most open tables, or the address
/// creates them too fast.
async fn open_table(
    app: &App,
    creator: IpAddr,
    rules: &Rules,
    settings: Settings,
) -> Result<String, ApiError> {
    let mut creators = app.creators.lock().await;
    creators
        .admit(creator, &app.limits, &app.registry)
        .map_err(refused)?;
    let all_claimed = settings.seats.iter().all(|s| {
        !matches!(
            s,
            SeatMeta::Human {
                token_hash: None,
                ..
            }
        )
    });
    let id = secrets::new_table_id();
    let meta = TableMeta {
        id: id.clone(),
        created: now_secs(),
        seats: settings.seats,
        timeout_secs: settings.timeout_secs,
        status: if all_claimed {
            TableStatus::Playing
        } else {
            TableStatus::Waiting
        },
        pace: settings.pace,
        turn_secs: settings.turn_secs,
        rematch: None,
        invite_hash: settings.invite_hash,
    };
    refuse_while_storage_fails(app)?;
    let game = TableGame::new(rules);
    let stored = StoredTable {
        meta: meta.clone(),
        lines: game.lines().to_vec(),
    };
    app.storage.create(&stored).await.map_err(storage_error)?;
    app.registry.insert(id.clone(), app.spawn_table(meta, game));
    creators.created(creator, id.clone(), &app.registry);
    Ok(id)
}

async fn create_table(
    State(app): State<App>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: CreateTable = serde_json::from_slice(&body)
        .map_err(|e| bad_request(format!("the table request: {e}")))?;
    let rules = Rules::from_header(&req.variant, req.players, &req.options)
        .map_err(|e| bad_request(e.to_string()))?;
    let n = rules.game.players as usize;
    let seats: Vec<SeatMeta> = match req.seats {
        None => (0..n)
            .map(|s| match s {
                0 => SeatMeta::Human {
                    name: None,
                    token_hash: None,
                },
                _ => SeatMeta::Bot {
                    bot: crate::table::default_bot(),
                },
            })
            .collect(),
        Some(list) if list.len() != n => {
            return Err(bad_request(format!(
                "{} seats given; this game has {n} players",
                list.len()
            )));
        }
        Some(list) => list
            .into_iter()
            .map(|s| match s {
                SeatRequest::Human => Ok(SeatMeta::Human {
                    name: None,
                    token_hash: None,
                }),
                SeatRequest::Bot { bot } => Ok(SeatMeta::Bot {
                    bot: admit_bot(&app, &bot)?,
                }),
            })
            .collect::<Result<_, _>>()?,
    };
    let timeout_secs = req.timeout_secs.unwrap_or(60);
    if !(5..=3600).contains(&timeout_secs) {
        return Err(bad_request("timeout_secs is 5 to 3600"));
    }
    if req.turn_secs.is_some_and(|t| !(10..=3600).contains(&t)) {
        return Err(bad_request(
            "turn_secs is null (no turn clock) or 10 to 3600",
        ));
    }
    let mut token = None;
    let mut seats = seats;
    if let Some(join) = req.join {
        match seats.get_mut(join.seat) {
            Some(SeatMeta::Human { name, token_hash }) => {
                let t = secrets::new_token();
                *token_hash = Some(secrets::token_hash(&t));
                *name = clean_name(join.name);
                token = Some((join.seat, t));
            }
            _ => {
                return Err(bad_request(format!(
                    "seat {} is not a human seat to join",
                    join.seat
                )));
            }
        }
    }
    let invite = req.invite_only.then(new_invite);
    let id = open_table(
        &app,
        client.ip(),
        &rules,
        Settings {
            seats,
            timeout_secs,
            pace: req.pace,
            turn_secs: req.turn_secs,
            invite_hash: invite.as_ref().map(|(_, hash)| hash.clone()),
        },
    )
    .await?;
    tracing::info!(table = %id, variant = %req.variant, players = n, invite_only = req.invite_only, "table created");
    let secret = invite.as_ref().map(|(secret, _)| secret.as_str());
    let mut body = json!({"id": id, "invite": invite_link(&id, secret)});
    if let Some(secret) = secret {
        body["invite_secret"] = json!(secret);
    }
    if let Some((seat, t)) = token {
        body["seat"] = json!(seat);
        body["token"] = json!(t);
    }
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

/// The lobby: the newest open public tables, at most [`LOBBY_LIMIT`]. Only those
/// are copied and written: the server's other tables cost a comparison
/// each, however many there are.
async fn list_tables(State(app): State<App>) -> Response {
    app.registry.sweep();
    // Several servers on one database: the lobby is the database's, the
    // same from every node (a table this node plays, as it is now).
    if app.leases.is_some() {
        return match app.storage.open_public_tables(LOBBY_LIMIT).await {
            Ok(Some(listed)) => {
                let tables: Vec<Value> = listed
                    .iter()
                    .map(|t| match app.registry.live(&t.meta.id) {
                        Some(h) => h.summary.borrow().as_ref().clone(),
                        None => listed_summary(t),
                    })
                    .collect();
                axum::Json(json!({ "tables": tables })).into_response()
            }
            Ok(None) => axum::Json(json!({ "tables": [] })).into_response(),
            Err(e) => storage_error(e).into_response(),
        };
    }
    let mut open: Vec<(u64, String, TableHandle)> = app
        .registry
        .all()
        .into_iter()
        .filter(TableHandle::is_open)
        // Invite-only tables are reached by their link, never listed.
        .filter(|h| h.meta.borrow().invite_hash.is_none())
        .map(|h| {
            let (created, id) = {
                let meta = h.meta.borrow();
                (meta.created, meta.id.clone())
            };
            (created, id, h)
        })
        .collect();
    let newest_first = |a: &(u64, String, TableHandle), b: &(u64, String, TableHandle)| {
        (b.0, &b.1).cmp(&(a.0, &a.1))
    };
    if open.len() > LOBBY_LIMIT {
        open.select_nth_unstable_by(LOBBY_LIMIT - 1, newest_first);
        open.truncate(LOBBY_LIMIT);
    }
    open.sort_unstable_by(newest_first);
    let tables: Vec<Arc<Value>> = open
        .iter()
        .map(|(_, _, h)| h.summary.borrow().clone())
        .collect();
    axum::Json(json!({ "tables": tables })).into_response()
}

/// The lobby's summary of a table another node plays (or none does), as
/// the database holds it: what the table's own summary says, its seats'
/// connections unknown here (`false`), its hand and scores those of the
/// record (the totals after the last scored hand).
fn listed_summary(t: &crate::storage::ListedTable) -> Value {
    let header: Value = serde_json::from_str(&t.header).unwrap_or(Value::Null);
    let totals = t
        .last_hand_end
        .as_deref()
        .and_then(|line| serde_json::from_str::<Value>(line).ok())
        .map(|end| end["hand_end"]["totals"].clone())
        .filter(Value::is_array);
    let players = header["players"]
        .as_u64()
        .unwrap_or(t.meta.seats.len() as u64);
    let seats: Vec<Value> = t
        .meta
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| match s {
            SeatMeta::Human { name, token_hash } => json!({"seat": seat, "kind": "human", "name": name, "claimed": token_hash.is_some(), "connected": false, "stand_in": false}),
            SeatMeta::Bot { bot } => json!({"seat": seat, "kind": "bot", "bot": bot}),
        })
        .collect();
    let status = match t.meta.status {
        TableStatus::Waiting => "waiting",
        _ => "playing",
    };
    // Hands begun: every hand scored, and the one being played.
    let hand = if t.deals == 0 {
        0
    } else {
        t.hands_ended + usize::from(t.deals > t.hands_ended)
    };
    json!({
        "id": t.meta.id,
        "variant": header["variant"],
        "players": players,
        "options": header.get("options").cloned().unwrap_or_else(|| json!({})),
        "status": status,
        "hand": hand,
        "scores": totals.unwrap_or_else(|| json!([])),
        "created": t.meta.created,
        "timeout_secs": t.meta.timeout_secs,
        "turn_secs": t.meta.turn_secs,
        "rematch": t.meta.rematch,
        "invite_only": false,
        "paused": false,
        "pace": t.meta.pace,
        "seats": seats,
    })
}

/// A finished table (not live any more) from storage.
async fn stored_table(app: &App, id: &str) -> Result<(TableMeta, TableGame), ApiError> {
    let stored = load_stored(app, id).await?;
    TableGame::of_stored(stored).map_err(quarantined)
}

/// Table `id` as stored: `404` if there is none, `409 quarantined` if its
/// row does not decode.
async fn load_stored(app: &App, id: &str) -> Result<StoredTable, ApiError> {
    app.storage
        .load(id)
        .await
        .map_err(|e| match e {
            StorageError::Corrupt { id, reason } => quarantined(Quarantined { id, reason }),
            e => storage_error(e),
        })?
        .ok_or_else(|| no_table(id))
}

async fn get_table(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    if let Some(h) = app.registry.get(&id) {
        return Ok(axum::Json((*h.summary.borrow()).as_ref().clone()).into_response());
    }
    let (meta, game) = stored_table(&app, &id).await?;
    let seats = meta
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| match s {
            SeatMeta::Human { name, token_hash } => json!({"seat": seat, "kind": "human", "name": name, "claimed": token_hash.is_some(), "connected": false, "stand_in": false, "stand_in_turns": game.stand_ins().turns(seat)}),
            SeatMeta::Bot { bot } => json!({"seat": seat, "kind": "bot", "bot": bot}),
        })
        .collect();
    let status = match meta.status {
        TableStatus::Finished => "finished",
        TableStatus::Playing => "playing",
        TableStatus::Waiting => "waiting",
        TableStatus::Closed => "closed",
    };
    Ok(axum::Json(summary_json(&meta, &game, seats, status)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimRequest {
    #[serde(default)]
    name: Option<String>,
    /// The invite link's secret, for an invite-only table.
    #[serde(default)]
    invite: Option<String>,
}

async fn claim_seat(
    State(app): State<App>,
    Path((id, seat)): Path<(String, String)>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let seat: usize = seat.parse().map_err(|_| {
        api_error(
            StatusCode::BAD_REQUEST,
            "no_such_seat",
            "a seat is a number",
        )
    })?;
    let req: ClaimRequest = if body.is_empty() {
        ClaimRequest {
            name: None,
            invite: None,
        }
    } else {
        serde_json::from_slice(&body).map_err(|e| bad_request(format!("the seat request: {e}")))?
    };
    // One of several nodes plays the tables whose lease it holds, taking
    // one nobody holds; a single server plays every open table already.
    let handle = match &app.leases {
        Some(_) => live_table(&app, &id).await?,
        None => app.registry.get(&id).ok_or_else(|| no_table(&id))?,
    };
    let invite_hash = handle.meta.borrow().invite_hash.clone();
    if let Some(wanted) = invite_hash {
        let given = req.invite.as_deref().map(secrets::token_hash);
        if given.as_deref() != Some(wanted.as_str()) {
            return Err(api_error(
                StatusCode::FORBIDDEN,
                "bad_invite",
                "this table is invite only: its seats are claimed with the invite link",
            ));
        }
    }
    let (reply, answer) = oneshot::channel();
    let cmd = Command::Claim {
        seat,
        name: clean_name(req.name),
        replace: false,
        reply,
    };
    let gone = || api_error(StatusCode::CONFLICT, "game_over", "the table has closed");
    if !handle.send(cmd).await {
        return Err(gone());
    }
    match answer.await.map_err(|_| gone())? {
        Ok(token) => Ok(axum::Json(json!({"seat": seat, "token": token})).into_response()),
        Err(ClaimError::NoSuchSeat) => Err(api_error(
            StatusCode::BAD_REQUEST,
            "no_such_seat",
            format!("there is no seat {seat}"),
        )),
        Err(ClaimError::Taken) => Err(api_error(
            StatusCode::CONFLICT,
            "seat_taken",
            format!("seat {seat} is taken"),
        )),
        Err(ClaimError::GameOver) => Err(api_error(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over",
        )),
        Err(ClaimError::Storage(e)) => Err(storage_error(e)),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchRequest {
    token: String,
}

/// The same table again for the same players: variant, rules, pace,
/// clocks and bots; human seats free but the asker's, claimed for them.
/// Asked again (by anyone holding a seat), the same new table, with the
/// asker's seat claimed for them (a new token for it).
async fn rematch(
    State(app): State<App>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: RematchRequest = serde_json::from_slice(&body)
        .map_err(|e| bad_request(format!("the rematch request: {e}")))?;
    let _one_at_a_time = app.rematches.lock().await;
    let gone = || api_error(StatusCode::CONFLICT, "game_over", "the table has closed");
    let (reply, answer) = oneshot::channel();
    let asked = Command::RematchOf {
        token: req.token,
        reply,
    };
    tell_table(&app, &id, asked).await?;
    let of = match answer.await.map_err(|_| gone())? {
        Ok(of) => of,
        Err(RematchError::BadToken) => {
            return Err(api_error(
                StatusCode::FORBIDDEN,
                "bad_token",
                "this token holds no seat at this table",
            ));
        }
        Err(RematchError::NotOver) => {
            return Err(api_error(
                StatusCode::CONFLICT,
                "game_not_over",
                "a rematch is for a finished game",
            ));
        }
    };
    let name = match &of.meta.seats[of.seat] {
        SeatMeta::Human { name, .. } => name.clone(),
        SeatMeta::Bot { .. } => None,
    };
    // An invite-only table's rematch is invite only too, with a secret of
    // its own (told to whoever asks first; the others come by their
    // tokens of this table).
    let invite = of.meta.invite_hash.as_ref().map(|_| new_invite());
    let created = |id: &str, token: String, secret: Option<&str>| {
        let mut body =
            json!({"id": id, "invite": invite_link(id, secret), "seat": of.seat, "token": token});
        if let Some(secret) = secret {
            body["invite_secret"] = json!(secret);
        }
        (StatusCode::CREATED, axum::Json(body)).into_response()
    };
    if let Some(new_id) = &of.meta.rematch {
        let handle = app
            .registry
            .get(new_id)
            .filter(|h| !h.tx.is_closed())
            .ok_or_else(|| {
                api_error(StatusCode::CONFLICT, "game_over", "the rematch is over too")
            })?;
        let (reply, answer) = oneshot::channel();
        let claim = Command::Claim {
            seat: of.seat,
            name,
            replace: true,
            reply,
        };
        if !handle.send(claim).await {
            return Err(gone());
        }
        return match answer.await.map_err(|_| gone())? {
            Ok(token) => Ok(created(new_id, token, None)),
            Err(ClaimError::Storage(e)) => Err(storage_error(e)),
            Err(_) => Err(api_error(
                StatusCode::CONFLICT,
                "game_over",
                "the rematch has moved on",
            )),
        };
    }
    let token = secrets::new_token();
    let seats: Vec<SeatMeta> = of
        .meta
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| match s {
            // A bot stored before the server's limits (or under looser
            // ones) is refused as a new table's would be.
            SeatMeta::Bot { bot } => Ok(SeatMeta::Bot {
                bot: admit_bot(&app, bot)?,
            }),
            SeatMeta::Human { .. } if seat == of.seat => Ok(SeatMeta::Human {
                name: name.clone(),
                token_hash: Some(secrets::token_hash(&token)),
            }),
            SeatMeta::Human { .. } => Ok(SeatMeta::Human {
                name: None,
                token_hash: None,
            }),
        })
        .collect::<Result<_, ApiError>>()?;
    let new_id = open_table(
        &app,
        client.ip(),
        &of.rules,
        Settings {
            seats,
            timeout_secs: of.meta.timeout_secs,
            pace: of.meta.pace,
            turn_secs: of.meta.turn_secs,
            invite_hash: invite.as_ref().map(|(_, hash)| hash.clone()),
        },
    )
    .await?;
    let (reply, answer) = oneshot::channel();
    let linked = Command::Rematched {
        id: new_id.clone(),
        reply,
    };
    let linked = tell_table(&app, &id, linked).await.is_ok();
    if !linked || !matches!(answer.await, Ok(Ok(()))) {
        tracing::error!(table = %id, rematch = %new_id, "the rematch could not be linked to its table");
    }
    tracing::info!(table = %id, rematch = %new_id, "rematch created");
    Ok(created(
        &new_id,
        token,
        invite.as_ref().map(|(secret, _)| secret.as_str()),
    ))
}

/// The lines of a finished game; refused before (they hold every deck).
async fn finished_lines(app: &App, id: &str) -> Result<Vec<String>, ApiError> {
    let stored = load_stored(app, id).await?;
    if stored.meta.status != TableStatus::Finished {
        return Err(api_error(
            StatusCode::CONFLICT,
            "game_not_over",
            "the record is shown once the game is over",
        ));
    }
    Ok(stored.lines)
}

async fn record(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let lines = finished_lines(&app, &id).await?;
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// A record line as a log reads it.
fn describe_line(value: &Value) -> String {
    if let (Some(seat), Some(action)) = (value.get("seat"), value.get("action")) {
        return format!("seat {seat}: {}", action.as_str().unwrap_or(""));
    }
    if value.get("deal").is_some() {
        return "the deal".into();
    }
    if let Some(h) = value.get("hand_end") {
        return format!("hand over: {}", h.get("totals").unwrap_or(&Value::Null));
    }
    if value.get("game_end").is_some() {
        return "game over".into();
    }
    String::new()
}

async fn replay_step(
    State(app): State<App>,
    Path((id, step)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let steps = match app.replays.get(&id) {
        Some(steps) => steps,
        None => {
            let lines = finished_lines(&app, &id).await?;
            let rendered = tokio::task::spawn_blocking(move || render_steps(&lines))
                .await
                .map_err(storage_error)??;
            let steps = std::sync::Arc::new(rendered);
            app.replays.keep(&id, steps.clone());
            steps
        }
    };
    let body = step
        .parse::<usize>()
        .ok()
        .and_then(|s| steps.get(s))
        .ok_or_else(|| {
            api_error(
                StatusCode::BAD_REQUEST,
                "no_such_step",
                format!("steps are 0 to {}", steps.len().saturating_sub(1)),
            )
        })?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body.clone()).into_response())
}

/// Every step's answer of a finished game, in one replay of its lines:
/// step 0 is the first deal, each following step one line of the record.
fn render_steps(lines: &[String]) -> Result<Vec<String>, ApiError> {
    let steps = lines.len().saturating_sub(1);
    let parse = |line: &str| serde_json::from_str::<Value>(line).map_err(storage_error);
    let Some(header_line) = lines.first() else {
        return Ok(Vec::new());
    };
    let mut replay = Replay::start(&parse(header_line)?, 1).map_err(storage_error)?;
    let mut rendered = Vec::with_capacity(steps);
    for (i, line) in lines.iter().enumerate().skip(1) {
        let last = parse(line)?;
        replay.feed(&last, i + 1).map_err(storage_error)?;
        let state = replay.state();
        let n = state.players();
        let event = if last.get("deal").is_some() {
            json!({"deal": true})
        } else {
            last.clone()
        };
        let body = json!({
            "step": i - 1,
            "steps": steps,
            "hand": state.hands_played() + u32::from(!matches!(state.phase(), canasta_core::Phase::HandOver | canasta_core::Phase::GameOver)),
            "line": describe_line(&last),
            "event": event,
            "view": view_json(&state.observe_public(), Viewer::Spectator),
            "hands": Seat::all(n).map(|s| state.hand(s).iter().map(|c| c.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "feet": Seat::all(n).map(|s| state.foot(s).iter().map(|c| c.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        });
        rendered.push(body.to_string());
    }
    Ok(rendered)
}

/// The live table `id`; a finished one no longer live is started again
/// from storage, to answer a socket or a rematch (its task ends when no
/// one is connected).
async fn live_table(app: &App, id: &str) -> Result<TableHandle, ApiError> {
    match reach_table(app, id).await? {
        Reach::Here(handle) => Ok(handle),
        Reach::Elsewhere { node_id, url } => Err(elsewhere(id, node_id, url.as_deref())),
    }
}

/// Where table `id` is played.
enum Reach {
    /// Here: its task.
    Here(TableHandle),
    /// By another node (several servers on one database), reached at
    /// `url` if it told one.
    Elsewhere { node_id: u16, url: Option<String> },
}

/// Table `id` as [`live_table`] finds it, or the node that plays it.
async fn reach_table(app: &App, id: &str) -> Result<Reach, ApiError> {
    if let Some(h) = app.registry.live(id) {
        return Ok(Reach::Here(h));
    }
    if let Some(leases) = &app.leases {
        // A node plays a table only while it holds its lease: taken here
        // if no other node's runs, before the table is read.
        match leases.acquire(id).await {
            Ok(Owner::Mine { .. }) => {}
            Ok(Owner::Elsewhere {
                node_id,
                public_url,
            }) => {
                return Ok(Reach::Elsewhere {
                    node_id,
                    url: public_url,
                });
            }
            Err(StorageError::NoSuchTable(_)) => return Err(no_table(id)),
            Err(e) => return Err(storage_error(e)),
        }
    }
    let (meta, game) = stored_table(app, id).await?;
    Ok(Reach::Here(
        app.registry
            .get_or_spawn(id, || app.spawn_table(meta, game)),
    ))
}

/// The WebSocket address of table `id` on the node at `base`
/// (`http://HOST:PORT` gives `ws://HOST:PORT/api/tables/ID/ws`).
fn table_socket_url(base: &str, id: &str) -> String {
    let base = base.trim_end_matches('/');
    let rest = base
        .strip_prefix("https://")
        .map(|r| format!("wss://{r}"))
        .or_else(|| base.strip_prefix("http://").map(|r| format!("ws://{r}")))
        .unwrap_or_else(|| base.to_string());
    format!("{rest}/api/tables/{id}/ws")
}

/// Sends a command to table `id`, started again from storage if its task
/// ended meanwhile (a finished table's task ends when nobody is connected).
async fn tell_table(app: &App, id: &str, mut command: Command) -> Result<(), ApiError> {
    for _ in 0..2 {
        let handle = live_table(app, id).await?;
        match handle.tx.send(command).await {
            Ok(()) => return Ok(()),
            Err(tokio::sync::mpsc::error::SendError(back)) => command = back,
        }
    }
    Err(api_error(
        StatusCode::CONFLICT,
        "game_over",
        "the table has closed",
    ))
}

async fn websocket(
    State(app): State<App>,
    Path(id): Path<String>,
    slot: Option<axum::Extension<crate::connections::ConnectionSlot>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let handle = match reach_table(&app, &id).await? {
        Reach::Here(handle) => handle,
        // Another node plays it: the client is told where, and reconnects
        // there (`moved`, close 1012).
        Reach::Elsewhere {
            node_id,
            url: Some(base),
        } => {
            let url = table_socket_url(&base, &id);
            let counted = app.counters.socket();
            return Ok(ws.on_upgrade(move |socket| async move {
                let _slot = slot;
                let _counted = counted;
                crate::ws::send_elsewhere(socket, node_id, &url).await;
            }));
        }
        Reach::Elsewhere { node_id, url: None } => return Err(elsewhere(&id, node_id, None)),
    };
    let limit = app.rate_limit;
    let hello_timeout = app.hello_timeout;
    let writers = app.writers.clone();
    let counted = app.counters.socket();
    Ok(ws
        .max_message_size(2 * MAX_MESSAGE_BYTES)
        .max_frame_size(2 * MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| {
            let reopen = move || {
                let (app, id) = (app.clone(), id.clone());
                async move { live_table(&app, &id).await.ok() }
            };
            // The socket counts as its connection while it lasts.
            let serving = crate::ws::serve(socket, handle, reopen, limit, hello_timeout, writers);
            async move {
                let _slot = slot;
                let _counted = counted;
                serving.await;
            }
        }))
}

/// The browser client's files ([`crate::web_files`]).
async fn static_file(State(app): State<App>, uri: Uri, request: HeaderMap) -> Response {
    let files = match &app.web_dir {
        Some(folder) => WebFiles::from_folder(folder.clone()),
        None => WebFiles::embedded(),
    };
    let path = uri.path().trim_start_matches('/');
    match files.get(path).await {
        Some(file) => file.respond(&request),
        None => api_error(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no file /{path}"),
        )
        .into_response(),
    }
}
