//! The browser client's tests, run by `cargo test`: its unit tests under
//! Node, the end-to-end test (web/tests/e2e.mjs) in a real Chromium
//! driven by playwright-core against a `canasta serve` of this build, and
//! the table's motion and sounds (web/tests/motion.mjs) on a static fixture,
//! and the lobby's house rules and the How to play pages
//! (web/tests/e2e-rules.mjs).
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

/// Chromium's path when node, chromium and playwright-core are all there;
/// else the missing one is reported ([`missing`]) and `None`.
fn browser_tools() -> Option<PathBuf> {
    if !have_node() {
        missing("node is not installed");
        return None;
    }
    let Some(chromium) = chromium() else {
        missing("chromium is not installed (apt-get install chromium)");
        return None;
    };
    if !have_playwright() {
        missing("playwright-core cannot be loaded (set PLAYWRIGHT_CORE or NODE_PATH)");
        return None;
    }
    Some(chromium)
}

/// The client's tests that need Node alone: the pure logic (unit.mjs) and
/// the card faces (cards.mjs).
const NODE_TESTS: &[&str] = &["web/tests/unit.mjs", "web/tests/cards.mjs"];

#[test]
fn web_unit_tests_pass_under_node() {
    if !have_node() {
        return missing("node is not installed");
    }
    for test in NODE_TESTS {
        let out = Command::new("node")
            .arg(repo().join(test))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{test} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Runs the browser script `web/tests/{script}` against a `canasta serve
/// --port 0` of this build (a data directory of its own) and asserts that it
/// succeeded and printed `done`.
fn run_against_server(script: &str, done: &str) {
    run_against(script, done, Pace::Unpaced);
}

/// How the test's server plays its bots.
#[derive(Clone, Copy)]
enum Pace {
    /// At each table's own pace, as `canasta serve` does by default.
    Tables,
    /// At once (`--pace-scale 0`): scripts that do not watch the pace.
    Unpaced,
}

/// [`run_against_server`] with the server's bots at `pace`.
fn run_against(script: &str, done: &str, pace: Pace) {
    let Some(chromium) = browser_tools() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["serve", "--port", "0", "--pace-scale"])
        .arg(match pace {
            Pace::Tables => "1",
            Pace::Unpaced => "0",
        })
        .arg("--data-dir")
        .arg(data.path())
        // A script's tables all come from one address, and one that replaces a
        // finished short game (layout.mjs) makes more than the defaults allow.
        .args([
            "--max-tables-per-address",
            "100",
            "--tables-per-minute",
            "100",
        ])
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

    let run = Command::new("node")
        .arg(repo().join("web/tests").join(script))
        .args(["--base", &base, "--chromium"])
        .arg(&chromium)
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    eprintln!("{log}");
    assert!(run.status.success(), "web/tests/{script} failed:\n{log}");
    assert!(log.contains(done), "{log}");
}

#[test]
fn the_browser_client_plays_against_a_real_server() {
    run_against_server("e2e.mjs", "all passed");
}

/// Every variant's table at its largest player count fits 1280x800,
/// 1366x768, 390x844 and 360x740: hand and action bar in view, no region
/// over another (web/tests/layout.mjs).
#[test]
fn the_table_fits_every_screen() {
    run_against_server("layout.mjs", "all fit");
}

/// Sorting, reordering by drag, drawing from the stock, the new-card mark,
/// a meld and an add by drag, the Add button's state and undo, played
/// through the page (web/tests/play.mjs).
#[test]
fn the_table_plays_by_click_and_drag() {
    run_against("play.mjs", "all passed", Pace::Tables);
}

/// The lobby's house rules and presets make a table that carries them, and
/// every variant's How to play page fits 1280×800 and 390×844
/// (web/tests/e2e-rules.mjs).
#[test]
fn the_house_rules_and_rules_pages_work_in_a_real_browser() {
    run_against_server("e2e-rules.mjs", "all passed");
}

#[test]
fn the_table_motion_and_sounds_work_in_chromium() {
    let Some(chromium) = browser_tools() else {
        return;
    };
    // The fixture is served from web/ by `python3 -m http.server`.
    let out = Command::new("node")
        .arg(repo().join("web/tests/motion.mjs"))
        .arg("--chromium")
        .arg(&chromium)
        .output()
        .unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{log}");
    assert!(out.status.success(), "web/tests/motion.mjs failed:\n{log}");
    assert!(log.contains("checks passed"), "{log}");
}
