//! A throwaway PostgreSQL server for tests: a cluster made by `initdb` in a
//! temporary directory, started by `pg_ctl` on a free loopback port with
//! password-less (`trust`) logins, and stopped and deleted when the
//! [`PgCluster`] is dropped. Debian's `postgresql` package provides the
//! programs (`/usr/lib/postgresql/VERSION/bin`); run as root, they run as
//! the `postgres` user, which owns the directory.
//!
//! Without PostgreSQL a test skips with a message, unless
//! `CANASTA_REQUIRE_POSTGRES=1` (as CI sets it): then it fails.
//!
//! Included by path in the server's and the command line's tests; it
//! needs only `std` and `tempfile`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A running PostgreSQL server, its data in a temporary directory.
pub struct PgCluster {
    bin: PathBuf,
    /// Owned by whoever runs the server (`postgres` under root).
    dir: tempfile::TempDir,
    port: u16,
    /// Run the programs as `postgres` (this process is root, which
    /// PostgreSQL refuses to run as).
    as_postgres: bool,
    databases: AtomicUsize,
}

/// The directory of `initdb`, `pg_ctl` and `psql`: the newest of Debian's
/// `/usr/lib/postgresql/*/bin`, else wherever `pg_ctl` is on the PATH.
fn programs() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("pg_ctl").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .find(|dir| dir.join("pg_ctl").is_file() && dir.join("initdb").is_file())
}

fn is_root() -> bool {
    // The effective user's id, without a libc dependency: the owner of a
    // file this process creates.
    // One probe a call: tests starting clusters at once in one process
    // would otherwise delete each other's probe.
    static PROBES: AtomicUsize = AtomicUsize::new(0);
    let n = PROBES.fetch_add(1, Ordering::Relaxed);
    let probe = std::env::temp_dir().join(format!("canasta-uid-{}-{n}", std::process::id()));
    let uid = std::fs::write(&probe, b"")
        .and_then(|()| std::fs::metadata(&probe))
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m));
    let _ = std::fs::remove_file(&probe);
    uid.is_ok_and(|uid| uid == 0)
}

/// The `postgres` user's and group's ids, from `id`.
fn postgres_ids() -> Option<(u32, u32)> {
    let id = |flag: &str| -> Option<u32> {
        let out = Command::new("id").args([flag, "postgres"]).output().ok()?;
        out.status.success().then_some(())?;
        String::from_utf8(out.stdout).ok()?.trim().parse().ok()
    };
    Some((id("-u")?, id("-g")?))
}

/// Why there is no server, as a skip message or (required) a failure.
fn unavailable(why: &str) -> Option<PgCluster> {
    if std::env::var("CANASTA_REQUIRE_POSTGRES").is_ok_and(|v| v == "1") {
        panic!("PostgreSQL is required (CANASTA_REQUIRE_POSTGRES=1): {why}");
    }
    eprintln!(
        "skipped: {why} (install Debian's `postgresql`; CANASTA_REQUIRE_POSTGRES=1 fails instead)"
    );
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn describe(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

impl PgCluster {
    /// A new cluster, started; `None` when PostgreSQL is not installed
    /// (and not required).
    pub fn start() -> Option<PgCluster> {
        let Some(bin) = programs() else {
            return unavailable("no PostgreSQL programs (initdb, pg_ctl) found");
        };
        let as_postgres = is_root();
        let dir = tempfile::Builder::new()
            .prefix("canasta-pg-")
            .tempdir()
            .expect("a temporary directory");
        if as_postgres {
            let Some((uid, gid)) = postgres_ids() else {
                return unavailable(
                    "running as root, and there is no `postgres` user to run PostgreSQL as",
                );
            };
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .expect("the temporary directory given to postgres");
        }
        let mut cluster = PgCluster {
            bin,
            dir,
            port: 0,
            as_postgres,
            databases: AtomicUsize::new(0),
        };
        let data = cluster.data();
        let init = cluster.run(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-U".as_ref(),
                "postgres".as_ref(),
                "--auth=trust".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--locale=C".as_ref(),
                "--no-sync".as_ref(),
            ],
        );
        assert!(init.status.success(), "initdb failed: {}", describe(&init));
        // A port found free may be taken before the server binds it: a
        // few tries.
        for _ in 0..5 {
            cluster.port = free_port();
            let options = format!(
                "-p {} -c listen_addresses=127.0.0.1 -k {}",
                cluster.port,
                cluster.dir.path().display()
            );
            let log = cluster.dir.path().join("server.log");
            let started = cluster.run(
                "pg_ctl",
                &[
                    "-D".as_ref(),
                    data.as_os_str(),
                    "-l".as_ref(),
                    log.as_os_str(),
                    "-w".as_ref(),
                    "-o".as_ref(),
                    options.as_ref(),
                    "start".as_ref(),
                ],
            );
            if started.status.success() {
                return Some(cluster);
            }
            eprintln!(
                "pg_ctl start failed on port {}: {}{}",
                cluster.port,
                describe(&started),
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        panic!("PostgreSQL did not start");
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// Runs one of PostgreSQL's programs (as `postgres` under root).
    fn run(&self, program: &str, args: &[&std::ffi::OsStr]) -> Output {
        let path = self.bin.join(program);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        command
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", path.display()))
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// SQL run by `psql` as the superuser, in database `postgres`.
    pub fn psql(&self, sql: &str) -> String {
        self.psql_in("postgres", sql)
    }

    /// SQL run by `psql` as the superuser, in database `db`; its output
    /// (unaligned, tuples only).
    pub fn psql_in(&self, db: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1"])
            .args([
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                "-d",
                db,
                "-c",
                sql,
            ])
            .output()
            .expect("psql runs");
        assert!(out.status.success(), "psql {sql}: {}", describe(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A new, empty database of its own for one test, and its URL.
    pub fn new_database(&self, name: &str) -> String {
        let n = self.databases.fetch_add(1, Ordering::Relaxed);
        let db: String = format!("{name}_{n}")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        self.psql(&format!("CREATE DATABASE {db}"));
        self.url(&db)
    }

    /// The URL of database `db`, as the superuser.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// The directory the cluster lives in (its log is `server.log`).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PgCluster {
    /// Stops the server at once (nothing in it is kept), before the
    /// directory is deleted.
    fn drop(&mut self) {
        let data = self.data();
        let _ = self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "stop".as_ref(),
            ],
        );
    }
}
