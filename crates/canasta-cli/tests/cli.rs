//! Runs the built `canasta` binary as an external program would.

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn canasta(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `canasta check -` (plus `extra` args) with `input` on stdin.
fn check_stdin(input: &[u8], extra: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .arg("check")
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Simulates `games` games and returns the record's text.
fn sim_record(dir: &Path, name: &str, args: &[&str]) -> String {
    let path = dir.join(name);
    let mut all = vec!["sim", "--record", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = canasta(&all);
    assert!(out.status.success(), "sim failed: {}", text(&out.stderr));
    std::fs::read_to_string(&path).unwrap()
}

fn lines_with(record: &str, key: &str) -> Vec<(usize, Value)> {
    record
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, serde_json::from_str::<Value>(l).unwrap()))
        .filter(|(_, v)| v.get(key).is_some())
        .collect()
}

/// A record rejected with exit status 1 and `line N:` on stderr, without a panic.
fn assert_rejected(out: &Output, line: usize) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.starts_with(&format!("line {line}: ")),
        "expected `line {line}:` first, got: {err}"
    );
}

#[test]
fn sim_json_summary_has_the_promised_shape() {
    let out = canasta(&[
        "sim",
        "--variant",
        "classic",
        "--games",
        "3",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["games"], 3);
    assert!(v["hands"].as_u64().unwrap() >= 3);
    let wins: Vec<u64> = serde_json::from_value(v["wins"].clone()).unwrap();
    assert_eq!(wins.len(), 2, "two teams");
    assert_eq!(wins.iter().sum::<u64>() + v["ties"].as_u64().unwrap(), 3);
    assert_eq!(v["variant"], "classic");
    assert_eq!(v["players"], 4);
    assert_eq!(v["seed"], 1);
}

#[test]
fn records_are_identical_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--games", "20", "--seed", "7", "--players", "2"];
    let one = sim_record(
        dir.path(),
        "one.jsonl",
        &[&args[..], &["--threads", "1"]].concat(),
    );
    let two = sim_record(
        dir.path(),
        "two.jsonl",
        &[&args[..], &["--threads", "2"]].concat(),
    );
    assert!(!one.is_empty());
    assert_eq!(one, two, "byte-identical records");
    assert_eq!(lines_with(&one, "canasta_record").len(), 20);
    assert_eq!(lines_with(&one, "game_end").len(), 20);
    let other = sim_record(
        dir.path(),
        "other.jsonl",
        &["--games", "5", "--seed", "8", "--players", "2"],
    );
    assert_ne!(one, other, "another seed gives other games");
}

#[test]
fn a_sim_record_checks_and_its_scores_match() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "3", "--seed", "3"]);
    let path = dir.path().join("r.jsonl");
    let out = canasta(&["check", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("totals"));

    let out = canasta(&["check", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let checked: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let recorded: Vec<Value> = lines_with(&record, "hand_end")
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert!(!recorded.is_empty());
    assert_eq!(checked.len(), recorded.len(), "one line per finished hand");
    for (c, r) in checked.iter().zip(&recorded) {
        assert_eq!(c, r, "check --json gives the hand_end objects");
        assert_eq!(c["hand_end"]["totals"], r["hand_end"]["totals"]);
    }
}

#[test]
fn a_tampered_hand_end_is_reported_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "1", "--seed", "4"]);
    let (line, mut v) = lines_with(&record, "hand_end").remove(0);
    let total = v["hand_end"]["teams"][0]["total"].as_i64().unwrap();
    v["hand_end"]["teams"][0]["total"] = (total + 5).into();
    let mut lines: Vec<String> = record.lines().map(String::from).collect();
    lines[line - 1] = v.to_string();
    let out = check_stdin(lines.join("\n").as_bytes(), &[]);
    assert_rejected(&out, line);
    assert!(text(&out.stderr).contains(&format!("{}", total + 5)));
}

#[test]
fn an_illegal_action_is_rejected_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "1", "--seed", "5"]);
    let mut lines: Vec<String> = record.lines().take(2).map(String::from).collect();
    // Right after the deal, the first player must draw or take the pile.
    let dealer = serde_json::from_str::<Value>(&lines[1]).unwrap()["dealer"]
        .as_u64()
        .unwrap();
    let first = (dealer + 1) % 4;
    lines.push(format!(r#"{{"seat": {first}, "action": "discard JK"}}"#));
    let out = check_stdin(lines.join("\n").as_bytes(), &[]);
    assert_rejected(&out, 3);
    // A seat acting out of turn is refused as well.
    lines[2] = format!(r#"{{"seat": {}, "action": "draw"}}"#, (first + 1) % 4);
    assert_rejected(&check_stdin(lines.join("\n").as_bytes(), &[]), 3);
}

#[test]
fn a_record_cut_mid_hand_describes_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "1", "--seed", "6"]);
    let cut: Vec<&str> = record.lines().take(12).collect();
    let out = check_stdin(cut.join("\n").as_bytes(), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("seat 3 to meld, add or discard"),
        "{stdout}"
    );
    assert!(stdout.contains("stock:"), "{stdout}");

    let out = check_stdin(cut.join("\n").as_bytes(), &["--json"]);
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout).trim(),
        "",
        "stdout holds only hand_end lines"
    );
    let v: Value = serde_json::from_str(text(&out.stderr).trim()).unwrap();
    assert_eq!(v["position"]["hands_played"], 0);
    assert!(v["position"]["to_act"].is_u64());
}

/// A record that stops between hands names the hand that is over, in
/// words and in JSON alike (the JSON description once named the next hand
/// as under way, with the last hand's dealer).
#[test]
fn a_record_cut_between_hands_names_the_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "1", "--seed", "6"]);
    let end = record
        .lines()
        .position(|l| l.contains("hand_end"))
        .expect("a hand_end line");
    assert!(
        record.lines().count() > end + 1,
        "the game goes on after hand 1"
    );
    let cut: Vec<&str> = record.lines().take(end + 1).collect();
    let out = check_stdin(cut.join("\n").as_bytes(), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("the record stops after hand 1"), "{stdout}");

    let out = check_stdin(cut.join("\n").as_bytes(), &["--json"]);
    assert!(out.status.success());
    let position = text(&out.stderr);
    let v: Value = serde_json::from_str(position.trim()).unwrap();
    assert_eq!(v["position"]["hands_played"], 1);
    assert!(v["position"]["dealer"].is_null());
    let description = v["position"]["description"].as_str().unwrap();
    assert!(
        description.starts_with("hand 1 is over; the next deal has not been made"),
        "{description}"
    );
    // The seat that went out holds nothing, and says so.
    assert!(
        description.contains("): no cards; red threes"),
        "{description}"
    );
}

/// The summary of a hand says how it ended in words, and calls a going
/// out concealed only where the rules pay a bonus for it.
#[test]
fn how_a_hand_ended_reads_as_words() {
    let records = Path::new(env!("CARGO_MANIFEST_DIR")).join("../canasta-core/tests/data/records");
    let summary = |name: &str| {
        let out = canasta(&["check", records.join(name).to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let pennies = summary("pennies6_blocked_by_a_seven.jsonl");
    assert!(
        pennies.contains("hand 1: play was blocked: the player to act held only cards"),
        "{pennies}"
    );
    // Canastone pays nothing more for closing concealed (P-CNE).
    let canastone = summary("canastone4_annulled_deal_then_closing.jsonl");
    assert!(
        canastone.contains("hand 1: seat 1 went out\n"),
        "{canastone}"
    );
    let classic = summary("classic4_concealed_out.jsonl");
    assert!(classic.contains("went out concealed\n"), "{classic}");
}

#[test]
fn bad_input_is_rejected_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "1", "--seed", "2"]);
    let header = record.lines().next().unwrap();
    let deal = record.lines().nth(1).unwrap();
    let cases: Vec<(Vec<u8>, usize)> = vec![
        (b"".to_vec(), 1),
        (b"garbage\n".to_vec(), 1),
        (b"\xff\xfe\x00binary".to_vec(), 1),
        (b"[1, 2, 3]\n".to_vec(), 1),
        (
            format!("{header}\n{}", &deal[..deal.len() / 2]).into_bytes(),
            2,
        ),
        (
            format!("{header}\n{}", deal.replacen("\"KS\"", "\"KX\"", 1)).into_bytes(),
            2,
        ),
        (
            format!("{header}\n{}", deal.replacen("\"KS\"", "\"QS\"", 1)).into_bytes(),
            2,
        ),
        (
            format!("{header}\n{{\"seat\": 0, \"action\": \"draw\"}}").into_bytes(),
            2,
        ),
        (
            format!("{header}\n{deal}\n{{\"seat\": 0, \"action\": \"fly away\"}}").into_bytes(),
            3,
        ),
        (
            b"{\"canasta_record\": 1, \"variant\": \"nope\"}\n".to_vec(),
            1,
        ),
        (
            b"{\"canasta_record\": 1, \"variant\": \"classic\", \"players\": 5}\n".to_vec(),
            1,
        ),
        (
            format!(
                "{header}\n{}",
                deal.replacen(
                    "\"dealer\":",
                    "\"first\":0,\"dealer\":18446744073709551615,\"x\":",
                    1
                )
            )
            .into_bytes(),
            2,
        ),
    ];
    for (input, line) in cases {
        let out = check_stdin(&input, &[]);
        assert_rejected(&out, line);
    }
    let out = canasta(&["check", dir.path().join("missing").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn variants_lists_classic_for_two_three_four_and_six() {
    let out = canasta(&["variants", "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let classic = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "classic")
        .expect("classic is listed");
    assert_eq!(classic["players"], serde_json::json!([2, 3, 4, 6]));
    assert_eq!(classic["default_players"], 4);
    assert_eq!(classic["options"]["target"], 5000);
    let two = classic["forms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["players"] == 2)
        .unwrap();
    assert_eq!(two["differs"]["hand_size"], 15);
    let text_out = canasta(&["variants"]);
    assert!(text(&text_out.stdout).contains("classic"));
}

#[test]
fn play_prints_a_whole_game() {
    // With no human seat, `play` prints a bot game's transcript.
    let out = canasta(&["play", "--seed", "1", "--watch", "--bots", "random"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("seat 1: ") || stdout.contains("seat 0: "));
    assert!(stdout.contains("totals"));
    assert!(
        stdout.contains("winner") || stdout.contains("tie"),
        "{stdout}"
    );
}

#[test]
fn sim_rejects_bad_arguments() {
    let out = canasta(&["sim", "--games", "1", "--bots", "nobody"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown bot"));
    let out = canasta(&["sim", "--games", "1", "--option", "no_such_rule=1"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no_such_rule"));
    let out = canasta(&["sim", "--games", "1", "--bots", "random,random,random"]);
    assert!(!out.status.success());
}

#[test]
fn sim_options_reach_the_record_header() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(
        dir.path(),
        "r.jsonl",
        &[
            "--games",
            "1",
            "--players",
            "6",
            "--option",
            "teams=2",
            "--option",
            "black_three_freezes=true",
        ],
    );
    let header: Value = serde_json::from_str(record.lines().next().unwrap()).unwrap();
    assert_eq!(header["options"]["teams"], 2);
    assert_eq!(header["options"]["black_three_freezes"], true);
    let game_end = &lines_with(&record, "game_end")[0].1;
    assert_eq!(game_end["game_end"]["totals"].as_array().unwrap().len(), 2);
}

#[test]
fn bench_runs() {
    let out = canasta(&["bench", "--seconds", "0.01", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["classic_4"]["hands_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["classic_4"]["state_bytes"].as_u64().unwrap() > 0);
    // Every other preset form, with its deck and its cost a card against Classic 4.
    let others = v["others"].as_array().unwrap();
    assert_eq!(others.len(), canasta_core::rules::all_forms().len() - 1);
    let samba = others
        .iter()
        .find(|o| o["variant"] == "samba" && o["players"] == 2)
        .unwrap();
    assert_eq!(samba["cards"], 162);
    assert!(
        samba["cost_per_card_vs_classic_4"].as_f64().unwrap() > 0.0,
        "{samba}"
    );
    let search = &v["search_classic_4"];
    assert!(search["positions"].as_u64().unwrap() >= 1, "{search}");
    assert!(search["iterations_per_second_1_thread"].as_f64().unwrap() > 0.0);
    assert!(search["iterations_per_second_2_threads"].as_f64().unwrap() > 0.0);
}

/// Every form of every preset writes records that pass `check` (annulled
/// deals, feet, sequences included).
#[test]
fn records_of_every_preset_check() {
    let dir = tempfile::tempdir().unwrap();
    for rules in canasta_core::rules::all_forms() {
        let (variant, players) = (
            rules.game.variant.to_string(),
            rules.game.players.to_string(),
        );
        let teams = format!("teams={}", rules.game.teams);
        let name = format!("{variant}{players}t{}.jsonl", rules.game.teams);
        let args = [
            "--variant",
            &variant,
            "--players",
            &players,
            "--option",
            &teams,
            "--games",
            "2",
            "--seed",
            "21",
            "--max-hands",
            "4",
        ];
        sim_record(dir.path(), &name, &args);
        let out = canasta(&["check", dir.path().join(&name).to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{variant} {players}: {}",
            text(&out.stderr)
        );
    }
}

/// A game short of the target after --max-hands stops and is counted
/// unfinished, in neither wins nor ties.
#[test]
fn sim_reports_unfinished_games() {
    let out = canasta(&[
        "sim",
        "--variant",
        "canastone",
        "--players",
        "6",
        "--games",
        "3",
        "--seed",
        "1",
        "--max-hands",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["unfinished"], 3);
    assert_eq!(v["ties"], 0);
    assert_eq!(v["wins"], serde_json::json!([0, 0]));
}

/// Input that cannot hurt: a byte-order mark is read past, a huge line is
/// refused by its length before any JSON is built, a thread count past the
/// cap and a game number of 0 are clear errors.
#[test]
fn odd_input_gets_a_clear_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let record = sim_record(dir, "g.jsonl", &["--games", "1", "--seed", "3"]);
    let mut with_bom = "\u{feff}".as_bytes().to_vec();
    with_bom.extend_from_slice(record.as_bytes());
    let out = check_stdin(&with_bom, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let long = format!(
        "{{\"canasta_record\": 1, \"variant\": \"classic\", \"pad\": \"{}\"}}\n",
        "a".repeat(200_000)
    );
    let out = check_stdin(long.as_bytes(), &[]);
    assert_rejected(&out, 1);
    assert!(
        text(&out.stderr).contains("at most 65536"),
        "{}",
        text(&out.stderr)
    );

    for cmd in [
        vec!["sim", "--games", "1", "--threads", "10000"],
        vec![
            "tournament",
            "--bots",
            "random,random",
            "--games",
            "1",
            "--threads",
            "10000",
        ],
    ] {
        let out = canasta(&cmd);
        assert!(!out.status.success());
        assert!(
            text(&out.stderr).contains("at most 256"),
            "{}",
            text(&out.stderr)
        );
    }
    let path = dir.join("g.jsonl");
    let out = canasta(&["replay", path.to_str().unwrap(), "--game", "0"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("numbered from 1"),
        "{}",
        text(&out.stderr)
    );
}

/// `canasta --help` (and `canasta help`) lists every command, one line
/// each, and every help page fits an 80-column terminal.
#[test]
fn help_lists_every_command_in_eighty_columns() {
    let out = canasta(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for cmd in [
        "play",
        "replay",
        "sim",
        "check",
        "variants",
        "rules",
        "bench",
        "tournament",
        "bot-serve",
        "serve",
        "load",
        "export",
        "help",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{cmd} ")))
            .unwrap_or_else(|| panic!("`{cmd}` is not listed:\n{help}"));
        assert!(line.split_whitespace().count() > 2, "{line}");
    }
    let listing = canasta(&["help"]);
    assert!(listing.status.success());
    assert_eq!(text(&listing.stdout).trim_end(), help.trim_end());
    for args in [
        vec!["--help"],
        vec!["help", "sim"],
        vec!["sim", "-h"],
        vec!["tournament", "--help"],
        vec!["play", "--help"],
        vec!["check", "--help"],
    ] {
        let out = canasta(&args);
        assert!(out.status.success(), "{args:?}");
        for l in text(&out.stdout).lines() {
            assert!(l.chars().count() <= 80, "{args:?}: {l}");
        }
    }
    let out = canasta(&["help", "nothing"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no command `nothing`"));
}

/// `check --summary`: one line a game, then the total; without it (and
/// piped) the output is the contract's, unchanged, and nothing more.
#[test]
fn check_summary_prints_one_line_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "3", "--seed", "3"]);
    let hands = lines_with(&record, "hand_end").len();
    let path = dir.path().join("r.jsonl");
    let out = canasta(&["check", "--summary", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(
        lines[0].starts_with("game 1 (line 1): classic, 4 players, "),
        "{stdout}"
    );
    for (i, l) in lines[..3].iter().enumerate() {
        assert!(l.starts_with(&format!("game {} ", i + 1)), "{l}");
        assert!(l.contains(" hands, final "), "{l}");
        assert!(l.ends_with(" wins") || l.ends_with("a tie"), "{l}");
    }
    assert_eq!(lines[3], format!("ok: 3 games, {hands} hands finished"));

    let full = canasta(&["check", path.to_str().unwrap()]);
    assert!(full.status.success());
    let full_out = text(&full.stdout);
    assert!(full_out.lines().count() > 3 * hands, "every hand itemised");
    assert_eq!(
        full_out.lines().last().unwrap(),
        format!("ok: 3 game(s), {hands} finished hand(s)")
    );
    assert_eq!(text(&full.stderr), "", "no hint when piped");

    // A record that stops mid-hand says where.
    let cut: Vec<&str> = record.lines().take(12).collect();
    let out = check_stdin(cut.join("\n").as_bytes(), &["--summary"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with(
            "game 1 (line 1): classic, 4 players, 0 hands, scores 0, 0: stops in hand 1\n"
        ),
        "{}",
        text(&out.stdout)
    );
    let out = canasta(&["check", "--summary", "--json", path.to_str().unwrap()]);
    assert!(
        !out.status.success(),
        "--summary and --json exclude each other"
    );
}

/// `canasta variants` is a short table; one variant's rules, every
/// variant's options and the JSON are asked for.
#[test]
fn variants_is_a_short_table_with_the_rest_on_request() {
    let out = canasta(&["variants"]);
    assert!(out.status.success());
    let table = text(&out.stdout);
    assert!(table.lines().count() <= 15, "{table}");
    for id in [
        "classic",
        "canastone",
        "italian",
        "canastia",
        "samba",
        "pennies",
    ] {
        assert!(
            table.lines().any(|l| l.starts_with(&format!("{id} "))),
            "{id}: {table}"
        );
    }
    assert!(table.contains("canasta variants ID"), "{table}");
    assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");

    let out = canasta(&["variants", "classic"]);
    assert!(out.status.success());
    let one = text(&out.stdout);
    assert!(one.contains("black_three_freezes"), "{one}");
    assert!(one.contains("true/false"), "{one}");
    assert!(one.contains("after_deal | before_upcard |"), "{one}");
    assert!(one.contains("with 2 players"), "{one}");
    let canastia = text(&canasta(&["variants", "canastia"]).stdout);
    assert!(canastia.contains("provisional"), "{canastia}");

    let all = text(&canasta(&["variants", "--options"]).stdout);
    assert!(
        all.lines().count() > 6 * 80,
        "every option of every variant"
    );

    let out = canasta(&["variants", "nothing"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no variant `nothing` (the variants: classic,"),
        "{}",
        text(&out.stderr)
    );

    let out = canasta(&["variants", "samba", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["variants"].as_array().unwrap().len(), 1);
    let values = &v["variants"][0]["values"];
    assert_eq!(values["sequences"]["kind"], "boolean");
    assert_eq!(values["target"]["kind"], "integer");
    assert_eq!(values["stock_end"]["kind"], "choice");
    let choices = values["stock_end"]["choices"].as_array().unwrap();
    assert!(choices.contains(&v["variants"][0]["options"]["stock_end"]));
}

/// A bad `-o` names the option, in every command that takes one.
#[test]
fn an_option_error_names_the_option() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["-o", "target=abc"],
            "option `target` takes a whole number, not \"abc\"",
        ),
        (
            &["-o", "black_three_freezes=maybe"],
            "option `black_three_freezes` takes true or false",
        ),
        (
            &["-o", "target"],
            "option `target` must be written KEY=VALUE",
        ),
        (&["-o", "no_such=1"], "unknown option `no_such`"),
        (&["-o", "hand_size=500"], "option `hand_size`"),
    ];
    for command in [
        vec!["sim", "--games", "1"],
        vec!["tournament", "--bots", "random,random", "--games", "1"],
        vec!["play", "--line", "--watch"],
    ] {
        for (option, says) in &cases {
            let out = canasta(&[&command[..], option].concat());
            assert_eq!(out.status.code(), Some(1), "{command:?} {option:?}");
            let err = text(&out.stderr);
            assert!(err.contains(says), "{command:?} {option:?}: {err}");
            assert!(
                !err.contains("expected u8") && !err.contains("i32"),
                "{err}"
            );
        }
    }
}

/// User text echoed in an error is shortened, however long it is.
#[test]
fn a_long_input_is_not_echoed_whole() {
    let long = "x".repeat(100_000);
    let option = format!("target={long}");
    let bot = long.clone();
    for args in [
        vec!["sim", "--games", "1", "-o", &long],
        vec!["sim", "--games", "1", "-o", &option],
        vec!["sim", "--games", "1", "--bots", &bot],
        vec!["sim", "--games", "1", "--variant", &long],
        vec!["sim", "--games", &long],
        vec!["variants", &long],
    ] {
        let out = canasta(&args);
        assert!(!out.status.success());
        let err = text(&out.stderr);
        assert!(err.len() < 1000, "{} bytes: {}", err.len(), &err[..200]);
        assert!(err.contains("more characters)"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(dir.path(), "r.jsonl", &["--games", "1", "--seed", "5"]);
    let mut lines: Vec<String> = record.lines().take(2).map(String::from).collect();
    lines.push(format!(
        r#"{{"seat": 0, "action": "{}"}}"#,
        "y".repeat(60_000)
    ));
    let out = check_stdin(lines.join("\n").as_bytes(), &[]);
    assert_rejected(&out, 3);
    let err = text(&out.stderr);
    let first = err.lines().next().unwrap();
    assert!(first.len() < 600, "{first}");
    assert!(first.contains("(59940 more characters)"), "{first}");
}

/// Piped, `sim` prints its summary and nothing on stderr (no progress bar),
/// in words: no `(s)`.
#[test]
fn sim_piped_prints_no_progress_and_reads_well() {
    let out = canasta(&["sim", "--games", "2", "--seed", "1", "--threads", "2"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stderr), "");
    let summary = text(&out.stdout);
    assert!(
        summary.starts_with("2 games of classic (4 players, 2 teams), bots random at every seat; seed 1, 2 threads\n"),
        "{summary}"
    );
    assert!(!summary.contains("(s)"), "{summary}");
}
