//! `canasta serve`: the game server for the browser; `canasta load`: a
//! load test of it over real WebSockets.

use anyhow::{Context, bail};
use canasta_server::attack::{Attack, run as run_attack};
use canasta_server::connections::ConnectionLimits;
use canasta_server::limits::TableLimits;
use canasta_server::load::{LoadOptions, run as run_load};
use canasta_server::pace::Pacing;
use canasta_server::storage::{
    Database, MemoryStorage, NodeSettings, Quarantined, SQLITE_FILE, SqliteStorage, Storage,
    StorageError, StorageSettings,
};
use canasta_server::table::game::TableGame;
use canasta_server::{Config, Options, start, start_with};
use clap::Args;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (loopback by default: only this machine
    /// can connect; 0.0.0.0 opens the server to the network).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// Where games are kept (created if missing), in an SQLite file,
    /// unless --database names a PostgreSQL database.
    #[arg(long, default_value = "canasta-data", value_name = "DIR")]
    pub data_dir: PathBuf,
    /// Keep games in this PostgreSQL database instead
    /// (`postgres://USER@HOST/DB`; its schema is created and upgraded at
    /// start). No TLS to the database: a local server, a Unix socket or a
    /// trusted network.
    #[arg(
        long,
        env = "CANASTA_DATABASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub database: Option<String>,
    /// Logs as JSON lines instead of text.
    #[arg(long)]
    pub log_json: bool,
    /// Serve the browser client from this folder (a checkout's `web/`)
    /// instead of the copy built into the binary: an edited file shows on
    /// reload, without rebuilding.
    #[arg(long, value_name = "DIR")]
    pub web_dir: Option<PathBuf>,
    /// The scale on every table's pace: 1 plays bots at the pace each table
    /// was created with (relaxed, normal, fast), 0 at once (for tests),
    /// 0.5 twice as fast.
    #[arg(long, default_value_t = 1.0, value_name = "SCALE")]
    pub pace_scale: f64,
    /// The SQLite file's write-ahead log at most, in MiB: the server
    /// empties it once it passes half of this (and at shutdown).
    #[arg(long, default_value_t = StorageSettings::default().wal_limit_bytes >> 20, value_name = "MIB")]
    pub wal_limit_mb: u64,
    #[command(flatten)]
    pub node: NodeArgs,
    #[command(flatten)]
    pub tables: TableLimitArgs,
    #[command(flatten)]
    pub connections: ConnectionArgs,
}

/// One server of several on a PostgreSQL database (`NodeSettings`; each
/// default is the server's own).
#[derive(Args, Debug)]
#[command(next_help_heading = "Several servers on one PostgreSQL database")]
pub struct NodeArgs {
    /// This server's number among those sharing the --database, each its
    /// own (0 to 32767): a lease in the database gives each table to one
    /// server at a time.
    #[arg(long, env = "CANASTA_NODE_ID", default_value_t = 0, value_name = "N")]
    pub node_id: u16,
    /// The address clients reach this server at (`https://n1.example.org`),
    /// told to clients of another server that asks for a table this one
    /// plays.
    #[arg(long, env = "CANASTA_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,
    /// How long a table's lease runs without renewal, in milliseconds: the
    /// longest its game waits for another server after its own died.
    #[arg(long, default_value_t = NodeSettings::default().lease.as_millis() as u64, value_name = "MS")]
    pub lease_ms: u64,
    /// How often a server renews its tables' leases, in milliseconds
    /// (below a third of --lease-ms).
    #[arg(long, default_value_t = NodeSettings::default().renew_every.as_millis() as u64, value_name = "MS")]
    pub renew_ms: u64,
    /// How often a server looks for tables whose lease ended, to take
    /// them, in milliseconds.
    #[arg(long, default_value_t = NodeSettings::default().scan_every.as_millis() as u64, value_name = "MS")]
    pub takeover_scan_ms: u64,
}

impl NodeArgs {
    /// The settings these flags give.
    ///
    /// # Errors
    /// A node number beyond PostgreSQL's, or times that let a lease end
    /// between two renewals.
    pub fn settings(&self) -> anyhow::Result<NodeSettings> {
        if self.node_id > i16::MAX as u16 {
            bail!("--node-id is 0 to {}", i16::MAX);
        }
        if self.renew_ms == 0 || self.takeover_scan_ms == 0 {
            bail!("--renew-ms and --takeover-scan-ms are at least 1");
        }
        if self.renew_ms.saturating_mul(3) > self.lease_ms {
            bail!(
                "--renew-ms ({}) is at most a third of --lease-ms ({}), so that a lease outlives two failed renewals",
                self.renew_ms,
                self.lease_ms
            );
        }
        if let Some(url) = &self.public_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            bail!("--public-url is an http:// or https:// address, not `{url}`");
        }
        Ok(NodeSettings {
            node_id: self.node_id,
            public_url: self
                .public_url
                .as_ref()
                .map(|u| u.trim_end_matches('/').to_string()),
            lease: Duration::from_millis(self.lease_ms),
            renew_every: Duration::from_millis(self.renew_ms),
            scan_every: Duration::from_millis(self.takeover_scan_ms),
        })
    }
}

/// The bounds on tables, their bots and watchers (`TableLimits`; each
/// default is the server's own).
#[derive(Args, Debug)]
#[command(next_help_heading = "Table limits")]
pub struct TableLimitArgs {
    /// Tables open at once (waiting or playing) on the server.
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().max_tables)]
    pub max_tables: usize,
    /// Open tables created from one address.
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().max_tables_per_address)]
    pub max_tables_per_address: usize,
    /// Tables one address may create a minute (bursts of as many).
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().creations_per_minute)]
    pub tables_per_minute: u32,
    /// Minutes a waiting table stays open with nobody connected and
    /// nothing done.
    #[arg(long, value_name = "MIN", default_value_t = TableLimits::default().idle_unstarted.as_secs() / 60)]
    pub idle_table_minutes: u64,
    /// Hours a game stays open with none of its players connected (a
    /// table of bots: nobody watching); its record is kept.
    #[arg(long, value_name = "H", default_value_t = TableLimits::default().abandoned.as_secs() / 3600)]
    pub abandoned_table_hours: u64,
    /// Searches (bots' decisions, hints) running at once on the server,
    /// one thread each [default: one fewer than the machine's cores, at
    /// least 1].
    #[arg(long, value_name = "N")]
    pub search_threads: Option<usize>,
    /// Searches one table may run at once.
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().searches_per_table)]
    pub searches_per_table: usize,
    /// The longest a search thinks, in milliseconds: bot budgets beyond it
    /// are refused, and every search stops there.
    #[arg(long, value_name = "MS", default_value_t = TableLimits::default().max_think.as_millis() as u64)]
    pub max_think_ms: u64,
    /// The most iterations a bot's budget may name.
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().max_iterations)]
    pub max_iterations: u32,
    /// Spectators one table may have connected at once.
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().spectators_per_table)]
    pub spectators_per_table: usize,
    /// Hints one seat may ask a minute (one at a time).
    #[arg(long, value_name = "N", default_value_t = TableLimits::default().hints_per_minute)]
    pub hints_per_minute: u32,
}

impl TableLimitArgs {
    fn limits(&self) -> anyhow::Result<TableLimits> {
        let defaults = TableLimits::default();
        if self.search_threads == Some(0) || self.searches_per_table == 0 {
            bail!("--search-threads and --searches-per-table are at least 1");
        }
        Ok(TableLimits {
            max_tables: self.max_tables,
            max_tables_per_address: self.max_tables_per_address,
            creations_per_minute: self.tables_per_minute,
            idle_unstarted: Duration::from_secs(self.idle_table_minutes.saturating_mul(60)),
            abandoned: Duration::from_secs(self.abandoned_table_hours.saturating_mul(3600)),
            search_threads: self.search_threads.unwrap_or(defaults.search_threads),
            searches_per_table: self.searches_per_table,
            max_think: Duration::from_millis(self.max_think_ms),
            max_iterations: self.max_iterations,
            spectators_per_table: self.spectators_per_table,
            hints_per_minute: self.hints_per_minute,
        })
    }
}

/// `canasta serve`'s bounds on connections (`ConnectionLimits`; the
/// defaults are its own).
#[derive(Args, Debug)]
#[command(next_help_heading = "Connection limits")]
pub struct ConnectionArgs {
    /// TCP connections open at once, HTTP and WebSocket alike (also kept
    /// below the open-file limit less --reserved-files).
    #[arg(long, default_value_t = ConnectionLimits::default().max_connections, value_name = "N")]
    pub max_connections: usize,
    /// TCP connections from one IP address at once.
    #[arg(long, default_value_t = ConnectionLimits::default().max_per_address, value_name = "N")]
    pub max_connections_per_address: usize,
    /// Open files kept from connections (database, logs, refusals).
    #[arg(long, default_value_t = ConnectionLimits::default().reserved_files, value_name = "N")]
    pub reserved_files: u64,
    /// Seconds a new WebSocket may take to send `hello`.
    #[arg(long, default_value_t = ConnectionLimits::default().hello_timeout.as_secs_f64(), value_name = "S")]
    pub hello_timeout: f64,
    /// Seconds a request's head may take to arrive (idle connections are
    /// closed after as long).
    #[arg(long, default_value_t = ConnectionLimits::default().header_timeout.as_secs_f64(), value_name = "S")]
    pub header_timeout: f64,
    /// Seconds a request's body may take to arrive.
    #[arg(long, default_value_t = ConnectionLimits::default().body_timeout.as_secs_f64(), value_name = "S")]
    pub body_timeout: f64,
    /// A host name the server answers to (repeat for more): besides IP
    /// addresses and localhost, requests naming any other host are refused.
    #[arg(long = "public-name", value_name = "NAME")]
    pub public_names: Vec<String>,
    /// An origin (`https://example.org`) whose pages may open sockets and
    /// change things here, besides the server's own (repeat for more).
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,
}

impl ConnectionArgs {
    /// The limits these flags give.
    ///
    /// # Errors
    /// A time that is not a positive number of seconds.
    pub fn limits(&self) -> anyhow::Result<ConnectionLimits> {
        let seconds = |flag: &str, s: f64| {
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .with_context(|| format!("--{flag} is a number of seconds above 0, not {s}"))
        };
        if self.max_connections == 0 || self.max_connections_per_address == 0 {
            bail!("--max-connections and --max-connections-per-address are at least 1");
        }
        Ok(ConnectionLimits {
            max_connections: self.max_connections,
            max_per_address: self.max_connections_per_address,
            reserved_files: self.reserved_files,
            hello_timeout: seconds("hello-timeout", self.hello_timeout)?,
            header_timeout: seconds("header-timeout", self.header_timeout)?,
            body_timeout: seconds("body-timeout", self.body_timeout)?,
            public_names: self.public_names.clone(),
            allowed_origins: self.allowed_origins.clone(),
        })
    }
}

fn init_logs(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Waits for Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    init_logs(args.log_json);
    let connections = args.connections.limits()?;
    let Some(pacing) = Pacing::scaled(args.pace_scale) else {
        bail!("--pace-scale is a number of at least 0");
    };
    if args.wal_limit_mb == 0 {
        bail!("--wal-limit-mb is at least 1");
    }
    let database = args
        .database
        .as_deref()
        .map(Database::from_url)
        .transpose()?;
    let config = Config {
        bind: SocketAddr::new(args.bind, args.port),
        data_dir: args.data_dir.clone(),
        database: database.clone(),
        node: args.node.settings()?,
        web_dir: args.web_dir.clone(),
        pacing,
        storage: StorageSettings {
            wal_limit_bytes: args.wal_limit_mb << 20,
            ..StorageSettings::default()
        },
        tables: args.tables.limits()?,
        connections,
    };
    let kept_in = database.unwrap_or_else(|| Database::in_data_dir(&args.data_dir));
    runtime()?.block_on(async {
        let server = start(&config).await?;
        let tables = server.app.registry.all().len();
        let host = if server.addr.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            server.addr.ip().to_string()
        };
        // Told on stdout, once; a server whose stdout is gone serves on.
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "canasta server: open http://{host}:{}/ in a browser",
                server.addr.port()
            );
            // With PostgreSQL, one node of those the database may have.
            let node = match &kept_in {
                Database::Postgres(_) => format!(" as node {}", config.node.node_id),
                Database::Sqlite(_) => String::new(),
            };
            let _ = writeln!(
                out,
                "games are kept in {kept_in}{node} ({tables} resumed); stop with Ctrl-C"
            );
        }
        tracing::info!(addr = %server.addr, database = %kept_in, resumed = tables, "listening");
        stop_signal().await;
        tracing::info!("stopping: telling the tables, finishing writes");
        server.stop().await;
        tracing::info!("stopped");
        Ok(ExitCode::SUCCESS)
    })
}

#[derive(Args, Debug)]
pub struct LoadArgs {
    /// Tables played at once.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub tables: usize,
    /// How long to measure, in seconds (after every client has connected).
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub seconds: f64,
    /// Mean time a client waits before each action, in milliseconds (0:
    /// as fast as the server answers).
    #[arg(long, default_value_t = 250, value_name = "MS")]
    pub think_ms: u64,
    /// Rule preset of the tables.
    #[arg(long, short = 'v', default_value = "classic")]
    pub variant: String,
    /// Players at each table [default: the preset's].
    #[arg(long, short = 'p')]
    pub players: Option<u8>,
    /// A running server to load (`127.0.0.1:8080`); without it a server is
    /// started in this process, with its storage in --data-dir.
    #[arg(long, value_name = "HOST:PORT")]
    pub url: Option<SocketAddr>,
    /// Storage for the in-process server: an SQLite file in this directory
    /// (a temporary one by default); `memory` keeps games in memory.
    #[arg(long, value_name = "DIR", conflicts_with = "database")]
    pub data_dir: Option<String>,
    /// Storage for the in-process server: this PostgreSQL database
    /// (`postgres://USER@HOST/DB`) instead of SQLite.
    #[arg(long, value_name = "URL", conflicts_with = "url")]
    pub database: Option<String>,
    /// Seed of the clients' choices among the legal actions and of their
    /// waits (the tables' deals are the server's own).
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Instead of playing, attack the server at --url for --seconds, as a
    /// hostile client would: binary-flood, idle-connections, expert-bots or
    /// spectators. Run it in its own process beside a `canasta load --url
    /// ... --tables 1` that measures what it costs the people playing.
    #[arg(long, value_name = "KIND", requires = "url")]
    pub attack: Option<Attack>,
    /// The attack's size: connections, tables or spectators [default: the
    /// audit's: 8 flooding connections, 1,100 idle connections, 40 tables
    /// of expert bots, 3,000 spectators].
    #[arg(long, value_name = "N", requires = "attack")]
    pub count: Option<usize>,
}

/// `canasta load --attack`: the attack, then what the server made of it.
fn attack(addr: SocketAddr, kind: Attack, count: usize, seconds: f64) -> anyhow::Result<ExitCode> {
    let report = runtime()?.block_on(run_attack(addr, kind, count, seconds))?;
    outln!(
        "{} x{count} against {addr} for {:.1} s",
        kind.name(),
        report.seconds
    );
    outln!(
        "  attempted {}  accepted {}  refused {}  closed by the server {}",
        report.attempted,
        report.accepted,
        report.refused,
        report.closed_by_server
    );
    if kind == Attack::BinaryFlood {
        outln!("  frames sent {}", report.frames_sent);
    }
    Ok(ExitCode::SUCCESS)
}

/// The server's SQLite storage in `dir` (created if missing).
async fn sqlite_in(dir: &Path) -> anyhow::Result<SqliteStorage> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(SqliteStorage::open(&dir.join(SQLITE_FILE)).await?)
}

/// Thousands of sockets need more than the usual 1,024 descriptors.
fn raise_file_limit() {
    let _ = rlimit::increase_nofile_limit(1 << 20);
}

fn ms(d: Option<Duration>) -> String {
    d.map_or("-".into(), |d| {
        format!("{:.1} ms", d.as_secs_f64() * 1000.0)
    })
}

pub fn load(args: &LoadArgs) -> anyhow::Result<ExitCode> {
    if args.tables == 0 || args.seconds <= 0.0 {
        bail!("--tables and --seconds must be above zero");
    }
    raise_file_limit();
    // Quiet unless asked (RUST_LOG): the report is the output.
    if std::env::var_os("RUST_LOG").is_some() {
        init_logs(false);
    }
    if let (Some(kind), Some(addr)) = (args.attack, args.url) {
        return attack(
            addr,
            kind,
            args.count.unwrap_or(kind.audit_count()),
            args.seconds,
        );
    }
    let opts = LoadOptions {
        tables: args.tables,
        seconds: args.seconds,
        think: Duration::from_millis(args.think_ms),
        variant: args.variant.clone(),
        players: args.players,
        seed: args.seed,
    };
    runtime()?.block_on(async {
        let mut temp = None;
        let (addr, server) = match args.url {
            Some(addr) => (addr, None),
            None => {
                let bind: SocketAddr = "127.0.0.1:0".parse().expect("an address");
                let storage: Arc<dyn Storage> = match args.data_dir.as_deref() {
                    _ if args.database.is_some() => {
                        let url = args.database.as_deref().unwrap_or_default();
                        Database::from_url(url)?
                            .open(StorageSettings::default())
                            .await?
                    }
                    Some("memory") => Arc::new(MemoryStorage::new()),
                    Some(dir) => Arc::new(sqlite_in(Path::new(dir)).await?),
                    None => {
                        let dir = tempfile::tempdir().context("a temporary directory")?;
                        let storage = sqlite_in(dir.path()).await?;
                        temp = Some(dir);
                        Arc::new(storage)
                    }
                };
                // Its clients act at machine speed (with --think-ms 0):
                // the rate limit set for people would refuse them.
                let running = start_with(bind, storage, Options::unpaced()).await?;
                (running.addr, Some(running))
            }
        };
        let report = run_load(addr, &opts).await?;
        outln!(
            "{} tables ({} connections) of {} for {:.1} s, clients thinking {} ms on average",
            report.tables,
            report.connections,
            args.variant,
            report.seconds,
            args.think_ms
        );
        outln!(
            "  actions      {} ({:.0} a second), errors {}",
            report.actions,
            report.actions_per_second(),
            report.errors
        );
        outln!(
            "  server, arrival to broadcast: p50 {}  p99 {}",
            ms(report.server_p50),
            ms(report.server_p99)
        );
        outln!(
            "  client round trip:            p50 {}  p99 {}",
            ms(report.client_p50),
            ms(report.client_p99)
        );
        outln!(
            "  set-up (tables and connections): {:.1} s; games finished: {}",
            report.setup_seconds,
            report.games_finished
        );
        if let Some(s) = server {
            s.stop().await;
        }
        drop(temp);
        Ok(if report.errors == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The server's data directory (as given to `canasta serve`).
    #[arg(long, default_value = "canasta-data", value_name = "DIR")]
    pub data_dir: PathBuf,
    /// The server's PostgreSQL database instead (as given to `canasta
    /// serve --database`).
    #[arg(
        long,
        env = "CANASTA_DATABASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub database: Option<String>,
    /// Tables to export by id [default: every table, oldest first].
    #[arg(value_name = "ID")]
    pub tables: Vec<String>,
    /// Write one file `ID.jsonl` a table into this directory (created if
    /// missing) instead of everything to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Export nothing: read every table (or the ones named) as the server
    /// would resume it, and list those it quarantines, with why.
    #[arg(long, conflicts_with = "out")]
    pub check: bool,
}

pub fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let database = match args.database.as_deref() {
        Some(url) => Database::from_url(url)?,
        None => {
            let db = Database::in_data_dir(&args.data_dir);
            if !args.data_dir.join(SQLITE_FILE).is_file() {
                bail!(
                    "no games in {}: it holds no {SQLITE_FILE} (give the --data-dir the server uses, or its --database)",
                    args.data_dir.display()
                );
            }
            db
        }
    };
    runtime()?.block_on(async {
        let storage = database
            .open(StorageSettings::default())
            .await
            .with_context(|| format!("cannot open {database}"))?;
        let mut unreadable = Vec::new();
        let ids: Vec<String> = if args.tables.is_empty() {
            let mut ids = Vec::new();
            for id in storage.ids().await? {
                match id {
                    Ok(id) => ids.push(id),
                    Err(bad) => unreadable.push(bad),
                }
            }
            ids
        } else {
            args.tables.clone()
        };
        // Tables whose id does not decode: listed, never looked up.
        let unnamed = unreadable.len();
        if let Some(dir) = &args.out {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut missing = Vec::new();
        let mut written = 0usize;
        for id in &ids {
            let stored = match storage.load(id).await {
                Ok(Some(stored)) => stored,
                Ok(None) => {
                    missing.push(id.as_str());
                    continue;
                }
                Err(StorageError::Corrupt { id, reason }) => {
                    unreadable.push(Quarantined { id, reason });
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            if args.check {
                if let Err(bad) = TableGame::of_stored(stored) {
                    unreadable.push(bad);
                }
                continue;
            }
            let mut text = stored.lines.join("\n");
            text.push('\n');
            match &args.out {
                Some(dir) => {
                    let path = dir.join(format!("{id}.jsonl"));
                    std::fs::write(&path, text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
                None => {
                    use std::io::Write as _;
                    std::io::stdout().lock().write_all(text.as_bytes())?;
                }
            }
            written += 1;
        }
        if args.check {
            for bad in &unreadable {
                outln!("quarantined {}: {}", bad.id, bad.reason);
            }
            let found = ids.len() - missing.len() + unnamed;
            outln!("{found} tables checked, {} quarantined", unreadable.len());
        } else {
            for bad in &unreadable {
                eprintln!("error: {bad} (not exported)");
            }
        }
        if let Some(dir) = &args.out {
            eprintln!("{written} records written to {}", dir.display());
        }
        if !missing.is_empty() {
            eprintln!("error: no table {}", missing.join(", "));
        }
        Ok(if missing.is_empty() && unreadable.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    })
}
