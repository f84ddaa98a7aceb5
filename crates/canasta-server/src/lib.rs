//! The Canasta game server: a lobby over HTTP, one WebSocket per player,
//! bots at the empty seats, and every game kept as its record in durable
//! storage (`docs/server-api.md` is the reference).
//!
//! Each table is a task owning its game ([`table`]); connections
//! ([`ws`]) and the HTTP handlers ([`http`]) talk to it through commands.
//! What a seat is sent is built from that seat's observation only
//! ([`views`]).

pub mod attack;
pub mod connections;
pub mod creators;
pub mod http;
pub mod limits;
pub mod load;
pub mod metrics;
pub mod nodes;
pub mod pace;
pub mod protocol;
pub mod refusal;
pub mod replays;
pub mod search;
pub mod secrets;
pub mod storage;
pub mod table;
pub mod views;
pub mod web_files;
pub mod ws;

use connections::ConnectionLimits;
use limits::TableLimits;
use metrics::{Counters, Latency};
use pace::Pacing;
use protocol::RateLimit;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use storage::{
    Database, Leases, Monitored, NodeSettings, Storage, StorageError, StorageHealth,
    StorageSettings,
};
use table::game::TableGame;
use table::{Command, TableHandle};
use thiserror::Error;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{oneshot, watch};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: SocketAddr,
    pub data_dir: PathBuf,
    /// Where games are kept: `None` for SQLite in [`Config::data_dir`]
    /// (the default, nothing to install), or a PostgreSQL database.
    pub database: Option<Database>,
    /// With PostgreSQL, this server as one node of several on the database
    /// (its number, address and leases' times; [`nodes`]). Unused with
    /// SQLite, whose file has one server.
    pub node: NodeSettings,
    /// Serve the browser client from this folder instead of the files
    /// embedded at build time (for working on `web/`: a reload shows an
    /// edit without rebuilding the server).
    pub web_dir: Option<PathBuf>,
    /// The scale on every table's pace ([`Pacing`]): paced for people
    /// unless told otherwise.
    pub pacing: Pacing,
    /// How the SQLite file is kept small.
    pub storage: StorageSettings,
    /// Tables, their bots, watchers and hints.
    pub tables: TableLimits,
    /// See [`Options::connections`].
    pub connections: ConnectionLimits,
}

/// What a server started in code may differ in from one for people.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Every connection's rate limit.
    pub rate_limit: RateLimit,
    /// The scale on every table's pace: tests and `canasta load` play bots
    /// at once with [`Pacing::UNPACED`].
    pub pacing: Pacing,
    /// See [`Config::web_dir`].
    pub web_dir: Option<PathBuf>,
    /// Tables, their bots, watchers and hints.
    pub tables: TableLimits,
    /// Connections in total and by address, their timeouts, and the
    /// names and origins browsers' requests must come with.
    pub connections: ConnectionLimits,
}

impl Options {
    /// For tests and load runs: clients and bots at machine speed.
    pub fn unpaced() -> Options {
        Options {
            rate_limit: RateLimit {
                per_second: 1e9,
                burst: 1e9,
            },
            pacing: Pacing::UNPACED,
            web_dir: None,
            tables: TableLimits::unconstrained(),
            connections: ConnectionLimits::uncounted(),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServerError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot open the data directory's lock file {path}: {source}")]
    LockFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "another server is using {path} (its lock is held); stop it first, or give this one another --data-dir"
    )]
    InUse { path: PathBuf },
    #[error(
        "another server is using the database {database} as node {node}; stop it first, or give this one another --node-id"
    )]
    DatabaseInUse { database: String, node: u16 },
    #[error("storage: {0}")]
    Storage(#[from] StorageError),
}

/// The tables being played (and finished ones still watched).
#[derive(Default)]
pub struct Registry {
    tables: RwLock<HashMap<String, TableHandle>>,
}

impl Registry {
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.read().get(id).cloned()
    }

    /// Forgets table `id`: its handle, if it had one.
    pub fn remove(&self, id: &str) -> Option<TableHandle> {
        self.tables
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
    }

    /// The live table `id` whose task still runs.
    pub fn live(&self, id: &str) -> Option<TableHandle> {
        self.get(id).filter(|h| !h.tx.is_closed())
    }

    pub fn insert(&self, id: String, handle: TableHandle) {
        self.tables
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, handle);
    }

    /// The live table `id`, or the one `spawn` starts if there is none:
    /// a table never has two tasks (each is the only writer of its record).
    pub fn get_or_spawn(&self, id: &str, spawn: impl FnOnce() -> TableHandle) -> TableHandle {
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        if let Some(h) = tables.get(id).filter(|h| !h.tx.is_closed()) {
            return h.clone();
        }
        let handle = spawn();
        tables.insert(id.to_string(), handle.clone());
        handle
    }

    /// Tables open (waiting or playing), for the caps on tables.
    pub fn open_count(&self) -> usize {
        self.read().values().filter(|h| h.is_open()).count()
    }

    /// Whether table `id` is live and open (waiting or playing).
    pub fn is_open(&self, id: &str) -> bool {
        self.read().get(id).is_some_and(TableHandle::is_open)
    }

    /// Every live table's handle.
    pub fn all(&self) -> Vec<TableHandle> {
        self.read().values().cloned().collect()
    }

    /// Forgets tables whose task has ended.
    pub fn sweep(&self) {
        self.tables
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, h| !h.tx.is_closed());
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, TableHandle>> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    pub registry: Arc<Registry>,
    pub storage: Arc<dyn Storage>,
    /// Whether writes fail (tables waiting on storage), and the tables
    /// quarantined at start.
    pub storage_health: Arc<StorageHealth>,
    /// Arrival to broadcast of every accepted action.
    pub latency: Arc<Latency>,
    /// The node's WebSockets and takeovers, for `/metrics`.
    pub counters: Arc<Counters>,
    pub rate_limit: RateLimit,
    /// The connections' writers still running: a stopping server waits
    /// for them, so that the last message (`shutdown`) reaches the players.
    pub writers: ws::Writers,
    /// Where the browser client's files are read from, if not the embedded
    /// ones ([`Config::web_dir`]).
    pub web_dir: Option<Arc<PathBuf>>,
    /// The scale on every table's pace.
    pub pacing: Pacing,
    /// Rematches are set up one at a time: two players asking at once get
    /// the same new table.
    pub rematches: Arc<tokio::sync::Mutex<()>>,
    /// Tables, their bots, watchers and hints.
    pub limits: Arc<TableLimits>,
    /// Every search's slot, thinking cap and stop signal.
    pub searches: Arc<search::Searches>,
    /// Tables are created one at a time, each after its creator's caps and
    /// rate are checked.
    pub creators: Arc<tokio::sync::Mutex<creators::Creators>>,
    /// How long a new WebSocket may take to send `hello`
    /// ([`ConnectionLimits::hello_timeout`]).
    pub hello_timeout: std::time::Duration,
    /// Finished games' replays, rendered once each (bounded).
    pub replays: Arc<replays::ReplayCache>,
    /// This node's table leases, when it is one of several servers on a
    /// PostgreSQL database ([`nodes`]); `None` with SQLite or memory.
    pub leases: Option<Arc<Leases>>,
}

impl App {
    /// Resumes every unfinished table from its stored record; a table
    /// that does not replay is quarantined (logged, left in storage).
    ///
    /// # Errors
    /// The storage cannot be read.
    pub async fn resume(
        storage: Arc<dyn Storage>,
        pacing: Pacing,
        limits: TableLimits,
        leases: Option<Arc<Leases>>,
    ) -> Result<App, ServerError> {
        let storage_health = Arc::new(StorageHealth::default());
        let storage: Arc<dyn Storage> = Arc::new(Monitored::new(storage, storage_health.clone()));
        let app = App {
            registry: Arc::new(Registry::default()),
            storage: storage.clone(),
            storage_health: storage_health.clone(),
            latency: Arc::new(Latency::default()),
            counters: Arc::default(),
            rate_limit: RateLimit::default(),
            writers: ws::Writers::default(),
            web_dir: None,
            pacing,
            rematches: Arc::default(),
            searches: Arc::new(search::Searches::new(&limits)),
            limits: Arc::new(limits),
            creators: Arc::default(),
            hello_timeout: ConnectionLimits::default().hello_timeout,
            replays: Arc::default(),
            leases: leases.clone(),
        };
        if let Some(leases) = &leases {
            // A node resumes the tables nobody holds, and its own (left by
            // a process of this node that died: the node's lock says so).
            let taken = app.take_orphans(leases, true).await?;
            tracing::info!(
                node = leases.settings().node_id,
                tables = taken,
                "took the tables no node holds"
            );
            return Ok(app);
        }
        let mut quarantined = Vec::new();
        for stored in storage.load_unfinished().await? {
            // One bad table is left as it is stored; the others resume.
            match stored.and_then(TableGame::of_stored) {
                Ok((meta, game)) => {
                    let id = meta.id.clone();
                    let handle = app.spawn_table(meta, game);
                    app.registry.insert(id, handle);
                }
                Err(bad) => {
                    tracing::error!(table = %bad.id, reason = %bad.reason, "a stored table is quarantined: not resumed, not listed (`canasta export --check` lists it)");
                    quarantined.push(bad);
                }
            }
        }
        storage_health.set_quarantined(quarantined);
        Ok(app)
    }

    /// Starts the task of a table with this server's storage, latency
    /// counts, pacing, limits and search slots.
    pub(crate) fn spawn_table(&self, meta: storage::TableMeta, game: TableGame) -> TableHandle {
        table::spawn(
            meta,
            game,
            table::Services {
                storage: self.storage.clone(),
                latency: self.latency.clone(),
                pacing: self.pacing,
                limits: self.limits.clone(),
                searches: self.searches.clone(),
                leases: self.leases.clone(),
            },
        )
    }

    /// Tells every table to stop and waits until each has.
    pub async fn shutdown(&self) {
        // Searches first: a table waits for none of them to end.
        self.searches.stop();
        let mut waits = Vec::new();
        for handle in self.registry.all() {
            let (done, wait) = oneshot::channel();
            if handle.send(Command::Shutdown { done }).await {
                waits.push(wait);
            }
        }
        for wait in waits {
            let _ = wait.await;
        }
    }
}

/// How long a stopping server waits for its sockets to send their last
/// messages.
const WRITERS_DRAIN: std::time::Duration = std::time::Duration::from_secs(3);

/// Connections waiting to be accepted at most (the kernel may cap it):
/// the usual 1,024 drops a burst of players arriving at once.
const BACKLOG: u32 = 4096;

fn listen(bind: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if bind.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(bind)?;
    socket.listen(BACKLOG)
}

/// A server that is listening.
pub struct Running {
    pub addr: SocketAddr,
    pub app: App,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    /// The data directory's lock, held while the server runs (the system
    /// lets it go when the process ends, however it ends).
    data_lock: Option<std::fs::File>,
}

impl Running {
    /// Stops gracefully: no new connections, every table told and its
    /// writes finished.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// Opens the storage in `config.data_dir`, resumes its games and listens.
///
/// # Errors
/// The data directory, the database or the address cannot be used.
pub async fn start(config: &Config) -> Result<Running, ServerError> {
    let options = Options {
        rate_limit: RateLimit::default(),
        pacing: config.pacing,
        web_dir: config.web_dir.clone(),
        tables: config.tables.clone(),
        connections: config.connections.clone(),
    };
    if let Some(database @ Database::Postgres(url)) = &config.database {
        // Each table has one owner among the nodes on the database, by its
        // lease; two servers of one node number would both take that
        // node's tables back at start.
        let node = config.node.node_id;
        let storage = storage::PostgresStorage::connect_node(url, config.node.clone()).await?;
        if !storage.claim_node(node).await? {
            return Err(ServerError::DatabaseInUse {
                database: database.to_string(),
                node,
            });
        }
        let leases = storage.leases().expect("a node's storage keeps its leases");
        let app = App::resume(
            Arc::new(storage),
            options.pacing,
            options.tables.clone(),
            Some(leases),
        )
        .await?;
        return listen_with(config.bind, app, options).await;
    }
    std::fs::create_dir_all(&config.data_dir).map_err(|source| ServerError::DataDir {
        path: config.data_dir.clone(),
        source,
    })?;
    // Two servers on one file would both resume its games and write them.
    let lock_path = config.data_dir.join("canasta.lock");
    let lock_error = |source| ServerError::LockFile {
        path: lock_path.clone(),
        source,
    };
    let lock = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(lock_error)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(ServerError::InUse {
                path: config.data_dir.clone(),
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(lock_error(e)),
    }
    let database = match &config.database {
        Some(database) => database.clone(),
        None => Database::in_data_dir(&config.data_dir),
    };
    let storage = database.open(config.storage).await?;
    let mut running = start_with(config.bind, storage, options).await?;
    running.data_lock = Some(lock);
    Ok(running)
}

/// Listens on `bind` with the given storage.
///
/// # Errors
/// The address cannot be used, or a stored game cannot be resumed.
pub async fn start_with(
    bind: SocketAddr,
    storage: Arc<dyn Storage>,
    options: Options,
) -> Result<Running, ServerError> {
    let app = App::resume(storage, options.pacing, options.tables.clone(), None).await?;
    listen_with(bind, app, options).await
}

/// Listens on `bind` for the tables of `app`; a node also keeps its
/// leases, and takes the tables whose lease ended ([`nodes`]).
async fn listen_with(
    bind: SocketAddr,
    mut app: App,
    options: Options,
) -> Result<Running, ServerError> {
    app.rate_limit = options.rate_limit;
    app.web_dir = options.web_dir.map(Arc::new);
    app.hello_timeout = options.connections.hello_timeout;
    let files = connections::raise_open_file_limit();
    let cap = options.connections.connections_under(files);
    tracing::info!(
        open_files = files,
        connections = cap,
        per_address = options.connections.max_per_address,
        "connection limits"
    );
    let listener = listen(bind).map_err(|source| ServerError::Bind { addr: bind, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| ServerError::Bind { addr: bind, source })?;
    if let Some(leases) = &app.leases {
        let host = match addr.ip() {
            ip if ip.is_unspecified() => "127.0.0.1".to_string(),
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        leases.advertise(format!("http://{host}:{}", addr.port()));
        leases.heartbeat().await?;
    }
    let (stop, mut stopped) = watch::channel(false);
    let router = connections::guarded(http::router(app.clone()), &options.connections);
    let shared = app.clone();
    let limits = options.connections;
    let task = tokio::spawn(async move {
        let keeper = app
            .leases
            .clone()
            .map(|leases| tokio::spawn(nodes::keep(app.clone(), leases, stopped.clone())));
        let serve = connections::serve(listener, router, &limits, cap, stopped.clone());
        // Tables are told first, so that open sockets end and the server's
        // graceful shutdown does not wait for them.
        let tables = app.clone();
        let tell = tokio::spawn(async move {
            let _ = stopped.wait_for(|s| *s).await;
            tables.shutdown().await;
        });
        serve.await;
        let _ = tell.await;
        // Upgraded sockets are not the graceful shutdown's to wait for:
        // let their writers send what the tables queued (bounded).
        app.writers.drained(WRITERS_DRAIN).await;
        if let Some(keeper) = keeper {
            let _ = keeper.await;
        }
        // Every table has stopped writing: its lease can go at once, for
        // another node to take the table without waiting for it to end.
        if let Some(leases) = &app.leases {
            match leases.release_all().await {
                Ok(n) => tracing::info!(tables = n, "released this node's tables"),
                Err(e) => {
                    tracing::warn!(error = %e, "releasing this node's tables failed; their leases end by themselves")
                }
            }
        }
        // Every table has stopped writing: the log can go.
        if let Err(e) = app.storage.close().await {
            tracing::warn!(error = %e, "closing the storage failed");
        }
    });
    Ok(Running {
        addr,
        app: shared,
        stop,
        task,
        data_lock: None,
    })
}
