//! `canasta tournament` and `canasta bot-serve`, run as a user would.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_canasta");

fn canasta(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a tournament with `--json` and returns its object.
fn tournament(args: &[&str]) -> Value {
    let mut all = vec!["tournament", "--json"];
    all.extend_from_slice(args);
    let out = canasta(&all);
    assert!(
        out.status.success(),
        "tournament failed: {}",
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The object without what depends on the machine (time, threads).
fn results(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("threads");
    // Decisions counted stay: they depend on the games alone.
    for b in o["bots"].as_array_mut().unwrap() {
        let t = b["thinking"].as_object_mut().unwrap();
        t.remove("mean_ms");
        t.remove("slowest_ms");
    }
    v
}

fn bot<'v>(v: &'v Value, name: &str) -> &'v Value {
    v["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no bot {name} in {v}"))
}

#[test]
fn heuristic_beats_random_and_the_report_has_every_field() {
    let v = tournament(&["--bots", "heuristic,random", "--games", "15", "--seed", "3"]);
    assert_eq!(v["games_per_deal"], 2);
    let h = bot(&v, "heuristic");
    let r = bot(&v, "random");
    for b in [h, r] {
        assert_eq!(b["games"], 30);
        let rate = b["win_rate"].as_f64().unwrap();
        let ci = b["ci95"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= rate && rate <= hi, "{b}");
        assert!(b["wins"].is_u64() && b["elo"].is_f64() && b["margin_per_hand"].is_f64());
    }
    assert!(h["win_rate"].as_f64().unwrap() >= 0.9, "{h}");
    assert!(h["elo"].as_f64().unwrap() > r["elo"].as_f64().unwrap());
    assert!(h["margin_per_hand"].as_f64().unwrap() > 0.0);
}

/// `--one-hand`: every game is one hand, and a deal (both seatings) is won
/// by the bot whose sides scored more over them; none is left unfinished,
/// and the report names the unit.
#[test]
fn one_hand_deals_are_decided_by_the_hands_points() {
    let v = tournament(&[
        "--bots",
        "heuristic,random",
        "--games",
        "20",
        "--seed",
        "4",
        "--one-hand",
    ]);
    assert_eq!(v["unit"], "deal");
    let p = &v["pairings"][0];
    assert_eq!(p["games"], 20, "{p}");
    assert_eq!(p["unfinished"], 0, "{p}");
    let decided = p["a_wins"].as_u64().unwrap() + p["b_wins"].as_u64().unwrap();
    assert!(decided >= 19, "two hands' points rarely tie: {p}");
    let h = bot(&v, "heuristic");
    // A hand's margin is the game's margin when the game is one hand.
    assert!(h["win_rate"].as_f64().unwrap() >= 0.8, "{h}");
    assert!(h["margin_per_hand"].as_f64().unwrap() > 0.0);
    // The margin's interval holds the margin, clear of zero here; the
    // pairing's, from the first bot's side, mirrors the heuristic's.
    let m = h["margin_per_hand"].as_f64().unwrap();
    let (lo, hi) = (
        h["margin_ci95"][0].as_f64().unwrap(),
        h["margin_ci95"][1].as_f64().unwrap(),
    );
    assert!(0.0 < lo && lo < m && m < hi, "{h}");
    assert_eq!(p["a"], "heuristic");
    assert!(
        (p["a_margin_ci95"][0].as_f64().unwrap() - lo).abs() < 1e-6,
        "{p} {h}"
    );
    let text = text(
        &canasta(&[
            "tournament",
            "--bots",
            "heuristic,random",
            "--games",
            "2",
            "--seed",
            "4",
            "--one-hand",
        ])
        .stdout,
    );
    assert!(
        text.contains("(one hand each)") && text.contains("4 hands"),
        "{text}"
    );
}

/// `--ladder`: each bot meets only the next one, weakest first.
#[test]
fn a_ladder_pairs_each_bot_with_the_next() {
    let v = tournament(&[
        "--bots",
        "random,heuristic,ismcts-easy@20",
        "--games",
        "2",
        "--seed",
        "1",
        "--ladder",
        "--one-hand",
    ]);
    assert_eq!(v["mode"], "ladder");
    let pairs: Vec<(String, String)> = v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["a"].as_str().unwrap().into(),
                p["b"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [("random", "heuristic"), ("heuristic", "ismcts-easy@20")];
    assert_eq!(pairs.len(), want.len(), "{pairs:?}");
    for ((a, b), (x, y)) in pairs.iter().zip(want) {
        assert_eq!((a.as_str(), b.as_str()), (x, y));
    }
    // The middle bot played both rungs.
    assert_eq!(bot(&v, "heuristic")["games"], 4);
}

/// The habits counted for each bot add up: a bot goes out behind at most
/// as often as it goes out, feeds the pile with at most its discards, and
/// the heuristic, which blocks the pile, feeds it less than random play.
#[test]
fn habits_are_counted_for_each_bot() {
    let v = tournament(&[
        "--bots",
        "heuristic,random",
        "--games",
        "20",
        "--seed",
        "4",
        "--one-hand",
    ]);
    for name in ["heuristic", "random"] {
        let b = &bot(&v, name)["behaviour"];
        let n = |k: &str| b[k].as_u64().unwrap_or_else(|| panic!("{k} in {b}"));
        assert_eq!(n("hands"), 40, "{b}");
        assert!(n("went_out_behind") <= n("went_out"), "{b}");
        assert!(
            n("fed") <= n("discards") && n("fed_cards") >= n("fed"),
            "{b}"
        );
        assert!(n("pickup_cards") >= n("pickups") && n("pickups") > 0, "{b}");
    }
    // Thinking time: counted for the decisions with a choice, at least one
    // a discard.
    for name in ["heuristic", "random"] {
        let t = &bot(&v, name)["thinking"];
        let n = |k: &str| t[k].as_f64().unwrap_or_else(|| panic!("{k} in {t}"));
        let discards = bot(&v, name)["behaviour"]["discards"].as_f64().unwrap();
        assert!(n("decisions") >= discards && n("mean_ms") >= 0.0, "{t}");
        assert!(n("slowest_ms") >= n("mean_ms"), "{t}");
    }
    let fed = |name: &str| {
        bot(&v, name)["behaviour"]["fed_per_100_discards"]
            .as_f64()
            .unwrap()
    };
    assert!(fed("heuristic") < fed("random"), "{v}");
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let args = [
        "--bots",
        "heuristic,random,heuristic",
        "--games",
        "4",
        "--seed",
        "11",
    ];
    let one = tournament(&[&args[..], &["--threads", "1"]].concat());
    let two = tournament(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(results(one), results(two));
}

/// The object without what depends on the run's history: how many of its
/// games were played now and how many read back from a `--save` file.
fn games_only(v: Value) -> Value {
    let mut v = results(v);
    let o = v.as_object_mut().unwrap();
    o.remove("played_games");
    o.remove("saved_games");
    v
}

#[test]
fn a_saved_run_goes_on_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.jsonl");
    let file = file.to_str().unwrap();
    let run = |games: &str, bots: &str| {
        tournament(&[
            "--bots",
            bots,
            "--games",
            games,
            "--seed",
            "5",
            "--one-hand",
            "--save",
            file,
        ])
    };
    let first = run("3", "heuristic,random");
    assert_eq!(
        (
            first["played_games"].as_u64(),
            first["saved_games"].as_u64()
        ),
        (Some(6), Some(0))
    );
    // More deals, and a third bot: only the new games are played, and the
    // report is the report of one run of them all.
    let more = run("5", "heuristic,random,heuristic");
    assert_eq!(
        more["saved_games"], 6,
        "the three deals of the first pairing"
    );
    assert_eq!(more["played_games"], 3 * 5 * 2 - 6);
    let fresh = tournament(&[
        "--bots",
        "heuristic,random,heuristic",
        "--games",
        "5",
        "--seed",
        "5",
        "--one-hand",
    ]);
    assert_eq!(games_only(more), games_only(fresh));
    let again = run("5", "heuristic,random,heuristic");
    assert_eq!(again["played_games"], 0);

    // Another run's file is refused, and left as it was.
    let before = std::fs::read_to_string(file).unwrap();
    let out = canasta(&[
        "tournament",
        "--bots",
        "heuristic,random",
        "--games",
        "3",
        "--seed",
        "6",
        "--one-hand",
        "--save",
        file,
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("holds the games of another run: the file's seed is 5, this run's 6"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(file).unwrap(), before);
}

#[test]
fn a_duplicate_deal_is_even_between_equal_bots() {
    // The same bot on both sides of every deal: each deal is won once by
    // each side, so the record is exactly even.
    let v = tournament(&[
        "--bots",
        "heuristic,heuristic",
        "--games",
        "6",
        "--seed",
        "5",
    ]);
    let p = &v["pairings"][0];
    assert_eq!(p["a_wins"], p["b_wins"], "{p}");
    assert_eq!(p["a_margin_per_hand"].as_f64().unwrap(), 0.0);
    // Scored by the deal (one hand each), the seatings' points cancel
    // exactly: every deal is a tie.
    let v = tournament(&[
        "--bots",
        "heuristic,heuristic",
        "--games",
        "6",
        "--seed",
        "5",
        "--one-hand",
    ]);
    let p = &v["pairings"][0];
    assert_eq!(p["ties"], 6, "{p}");
}

#[test]
fn every_preset_form_holds_a_tournament() {
    for (variant, players, per_deal) in [
        ("classic", "2", 2),
        ("classic", "3", 6),
        ("classic", "6", 6),
        ("canastone", "4", 2),
        ("canastone", "6", 2),
        ("italian", "4", 2),
        ("italian", "6", 2),
        ("canastia", "2", 2),
        ("canastia", "3", 6),
    ] {
        let v = tournament(&[
            "--variant",
            variant,
            "--players",
            players,
            "--bots",
            "heuristic,random",
            "--games",
            "1",
            "--seed",
            "2",
        ]);
        assert_eq!(v["games_per_deal"], per_deal, "{variant} {players}");
        assert_eq!(bot(&v, "random")["games"], per_deal, "{variant} {players}");
    }
}

#[test]
fn an_external_seat_plays_exactly_like_the_bot_it_serves() {
    // `bot-serve --bot random` seeded through the protocol makes the same
    // choices as the built-in random bot, so the results are identical.
    let external = format!("cmd:{BIN} bot-serve --bot random");
    let args = ["--games", "2", "--seed", "8", "--threads", "1"];
    let ext = tournament(&[&args[..], &["--bots", &format!("heuristic,{external}")]].concat());
    let own = tournament(&[&args[..], &["--bots", "heuristic,random"]].concat());
    let strip = |v: &Value| {
        let mut p = v["pairings"][0].clone();
        p.as_object_mut().unwrap().remove("b");
        p
    };
    assert_eq!(strip(&ext), strip(&own));
    assert_eq!(bot(&ext, &external)["games"], 4);
}

#[test]
fn a_served_search_bot_plays_from_observations_alone() {
    let external = format!("cmd:{BIN} bot-serve --bot ismcts-easy");
    let v = tournament(&[
        "--variant",
        "canastone",
        "--bots",
        &format!("heuristic,{external}"),
        "--games",
        "1",
        "--seed",
        "4",
    ]);
    assert_eq!(bot(&v, &external)["games"], 2);
}

#[test]
fn an_external_seat_that_answers_nonsense_stops_the_run() {
    let out = canasta(&[
        "tournament",
        "--bots",
        "heuristic,cmd:echo '{\"action\":\"ask\"}'",
        "--games",
        "1",
        "--seed",
        "1",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("ask") || err.contains("closed"), "{err}");
}

/// Runs `canasta bot-serve` with `input` on stdin.
fn serve(bot: &str, input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(["bot-serve", "--bot", bot])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn bot_serve_answers_the_documented_example() {
    // The exchange of docs/bot-protocol.md.
    let doc = include_str!("../../../docs/bot-protocol.md");
    let host: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("host> "))
        .collect();
    assert!(host.len() >= 2, "the document shows a game and a decision");
    let out = serve("heuristic", &(host.join("\n") + "\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replies: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), host.len() - 1);
    let bot_lines: Vec<Value> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("bot> "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies, bot_lines);
}

/// A bad line gets an error reply naming it, and the server goes on to
/// the next line (it used to stop at the first).
#[test]
fn bot_serve_answers_a_bad_line_with_an_error_and_goes_on() {
    let out = serve(
        "random",
        "{\"type\":\"decision\",\"observation\":{},\"legal\":[\"draw\"]}\nnot json\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replies: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 2);
    assert!(
        replies[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 1: a decision before any game")
    );
    assert!(
        replies[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 2: not a message")
    );
}

#[test]
fn search_bots_take_their_seats_by_level() {
    let v = tournament(&[
        "--variant",
        "classic",
        "--players",
        "2",
        "--bots",
        "ismcts-easy,random",
        "--games",
        "1",
        "--seed",
        "6",
    ]);
    assert_eq!(bot(&v, "ismcts-easy")["games"], 2);
    let out = canasta(&[
        "tournament",
        "--bots",
        "ismcts-genius,random",
        "--games",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("ismcts-expert"),
        "{}",
        text(&out.stderr)
    );
}

/// The text report reads in words and fits 80 columns; a failing external
/// seat is named with what went wrong.
#[test]
fn the_report_reads_well_and_a_missing_program_is_named() {
    let out = canasta(&[
        "tournament",
        "--bots",
        "heuristic,random,ismcts-easy",
        "--games",
        "1",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "no progress bar when piped");
    let report = text(&out.stdout);
    assert!(report.starts_with("round-robin tournament of heuristic, random, ismcts-easy\n"));
    assert!(!report.contains("(s)"), "{report}");
    for l in report.lines() {
        assert!(l.chars().count() <= 80, "{l}");
    }
    assert!(
        report.contains("heuristic vs random: 2 games, "),
        "{report}"
    );
    assert!(
        report
            .lines()
            .any(|l| l.starts_with("thinking ") && l.ends_with("ms a choice    slowest ms")),
        "{report}"
    );

    let out = canasta(&[
        "tournament",
        "--bots",
        "cmd:no-such-program-here,random",
        "--games",
        "1",
        "--seed",
        "1",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    let last = err.lines().last().unwrap();
    assert!(last.contains("no such program"), "{err}");
    assert!(
        last.contains("`cmd:no-such-program-here` against `random`"),
        "{err}"
    );
}
