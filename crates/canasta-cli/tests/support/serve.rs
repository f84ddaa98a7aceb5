//! A `canasta serve` process for the command's own tests (tests/serve.rs,
//! tests/postgres.rs): started on a free loopback port, killed or stopped
//! with SIGTERM, and killed at the end of the test whatever happens.
//! Each test binary uses part of it.
#![allow(dead_code)]

use canasta_server::load::http;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

/// A `canasta serve` process on a free loopback port.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// The first lines it printed (the first names its address).
    pub banner: Vec<String>,
}

impl Server {
    pub fn start(data: &Path) -> Server {
        Server::start_with(data, &[])
    }

    /// With these flags besides.
    pub fn start_with(data: &Path, flags: &[&str]) -> Server {
        Server::spawn(data, flags, &[], 1)
    }

    /// With games in `data`, these `flags` and environment variables,
    /// reading the first `banner_lines` lines of its output. Bots play at
    /// once (`--pace-scale 0`); warnings go to the test's error output.
    pub fn spawn(data: &Path, flags: &[&str], env: &[(&str, &str)], banner_lines: usize) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_canasta"))
            .args(["serve", "--port", "0", "--pace-scale", "0", "--data-dir"])
            .arg(data)
            .args(flags)
            .envs(env.iter().copied())
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        // Its first line: "canasta server: open http://127.0.0.1:PORT/ in a browser".
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let banner: Vec<String> = (0..banner_lines.max(1))
            .map(|_| {
                let mut line = String::new();
                out.read_line(&mut line).unwrap();
                line
            })
            .collect();
        // The rest is read and dropped, so the server never writes to a
        // closed pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let first = &banner[0];
        let addr = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        Server {
            child,
            addr,
            banner,
        }
    }

    /// Sends a signal (`STOP`, `CONT`) to the process.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal} {pid}");
    }

    /// SIGKILL: no chance to finish anything.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then its exit status within ten seconds (else it is killed
    /// and the test fails).
    pub fn terminate(mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.child.kill().unwrap();
        panic!("the server did not stop within ten seconds of SIGTERM");
    }

    /// Creates a table (`POST /api/tables`): its id and the creator's token.
    pub async fn create(&self, body: Value) -> (String, String) {
        let (status, created) = http(self.addr, "POST", "/api/tables", &body).await.unwrap();
        assert_eq!(status, 201, "{created}");
        (
            created["id"].as_str().unwrap().to_string(),
            created["token"].as_str().unwrap().to_string(),
        )
    }

    /// Claims a free seat: its token.
    pub async fn claim(&self, id: &str, seat: usize) -> String {
        let (status, claimed) = http(
            self.addr,
            "POST",
            &format!("/api/tables/{id}/seats/{seat}"),
            &json!({}),
        )
        .await
        .unwrap();
        assert_eq!(status, 200, "{claimed}");
        claimed["token"].as_str().unwrap().to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
