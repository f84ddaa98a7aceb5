//! `canasta serve`: the game server for the browser; `canasta load`: a
//! load test of it over real WebSockets.

use anyhow::{Context, bail};
use canasta_server::connections::ConnectionLimits;
use canasta_server::load::{LoadOptions, run as run_load};
use canasta_server::pace::Pacing;
use canasta_server::storage::{MemoryStorage, SqliteStorage, Storage};
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
    /// Where games are kept (created if missing).
    #[arg(long, default_value = "canasta-data", value_name = "DIR")]
    pub data_dir: PathBuf,
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
    #[command(flatten)]
    pub connections: ConnectionArgs,
}

/// `canasta serve`'s bounds on connections (`ConnectionLimits`; the
/// defaults are its own).
#[derive(Args, Debug)]
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
    let config = Config {
        bind: SocketAddr::new(args.bind, args.port),
        data_dir: args.data_dir.clone(),
        web_dir: args.web_dir.clone(),
        pacing,
        connections,
    };
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
            let _ = writeln!(
                out,
                "games are kept in {} ({tables} resumed); stop with Ctrl-C",
                config.data_dir.join("canasta.sqlite3").display()
            );
        }
        tracing::info!(addr = %server.addr, data_dir = %config.data_dir.display(), resumed = tables, "listening");
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
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<String>,
    /// Seed of the clients' choices among the legal actions and of their
    /// waits (the tables' deals are the server's own).
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
}

/// The server's SQLite storage in `dir` (created if missing).
async fn sqlite_in(dir: &Path) -> anyhow::Result<SqliteStorage> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(SqliteStorage::open(&dir.join("canasta.sqlite3")).await?)
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
    /// Tables to export by id [default: every table, oldest first].
    #[arg(value_name = "ID")]
    pub tables: Vec<String>,
    /// Write one file `ID.jsonl` a table into this directory (created if
    /// missing) instead of everything to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let db = args.data_dir.join("canasta.sqlite3");
    if !db.is_file() {
        bail!(
            "no games in {}: it holds no canasta.sqlite3 (give the --data-dir the server uses)",
            args.data_dir.display()
        );
    }
    runtime()?.block_on(async {
        let storage = SqliteStorage::open(&db)
            .await
            .with_context(|| format!("cannot open {}", db.display()))?;
        let ids: Vec<String> = if args.tables.is_empty() {
            let mut all = storage.recent(i64::MAX as usize).await?;
            all.reverse();
            all.into_iter().map(|meta| meta.id).collect()
        } else {
            args.tables.clone()
        };
        if let Some(dir) = &args.out {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut missing = Vec::new();
        for id in &ids {
            let Some(stored) = storage.load(id).await? else {
                missing.push(id.as_str());
                continue;
            };
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
        }
        if let Some(dir) = &args.out {
            eprintln!(
                "{} records written to {}",
                ids.len() - missing.len(),
                dir.display()
            );
        }
        if missing.is_empty() {
            Ok(ExitCode::SUCCESS)
        } else {
            eprintln!("error: no table {}", missing.join(", "));
            Ok(ExitCode::from(1))
        }
    })
}
