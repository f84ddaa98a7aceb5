//! The browser client's tests, run by `cargo test`: its unit tests under
//! Node, and the end-to-end test (web/tests/e2e.mjs) in a real Chromium
//! driven by playwright-core against a `canasta serve` of this build.
//!
//! They need Node, Debian's chromium and playwright-core (found through
//! `PLAYWRIGHT_CORE` or `NODE_PATH`; `.ci/run` installs all three). Where
//! they are missing each test says so and passes, unless
//! `CANASTA_REQUIRE_BROWSER=1` (set by `.ci/run`), which makes a missing
//! tool a failure: CI never skips them.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A tool is missing: a failure under CI, a skip (said on stderr) otherwise.
fn missing(reason: &str) {
    if std::env::var("CANASTA_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("{reason} (CANASTA_REQUIRE_BROWSER=1: the browser tests must run)");
    }
    eprintln!("skipped: {reason}; see web/tests/README.md");
}

fn have_node() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    path.is_file().then_some(path)
}

/// Whether node can load playwright-core as the e2e test does.
fn have_playwright() -> bool {
    let mut probe = Command::new("node");
    probe.args([
        "-e",
        "require(process.env.PLAYWRIGHT_CORE || 'playwright-core')",
    ]);
    probe.output().is_ok_and(|o| o.status.success())
}

#[test]
fn web_unit_tests_pass_under_node() {
    if !have_node() {
        return missing("node is not installed");
    }
    let out = Command::new("node")
        .arg(repo().join("web/tests/unit.mjs"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "web/tests/unit.mjs failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_browser_client_plays_against_a_real_server() {
    if !have_node() {
        return missing("node is not installed");
    }
    let Some(chromium) = chromium() else {
        return missing("chromium is not installed (apt-get install chromium)");
    };
    if !have_playwright() {
        return missing("playwright-core cannot be loaded (set PLAYWRIGHT_CORE or NODE_PATH)");
    }
    let data = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["serve", "--port", "0", "--pace-scale", "0", "--data-dir"])
        .arg(data.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    out.read_line(&mut first).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .trim_end_matches('/')
        .to_string();

    let e2e = Command::new("node")
        .arg(repo().join("web/tests/e2e.mjs"))
        .args(["--base", &base, "--chromium"])
        .arg(&chromium)
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&e2e.stdout),
        String::from_utf8_lossy(&e2e.stderr)
    );
    eprintln!("{log}");
    assert!(e2e.status.success(), "web/tests/e2e.mjs failed:\n{log}");
    assert!(log.contains("all passed"), "{log}");
}
