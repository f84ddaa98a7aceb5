//! `canasta play` and `canasta replay` driven as a user would without a
//! terminal: lines on stdin, the game on stdout.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn canasta(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(args)
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

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `play` in line mode against heuristic bots (quick and deterministic).
fn play(extra: &[&str], input: &str) -> String {
    let mut args = vec!["play", "--line", "--bots", "heuristic"];
    args.extend_from_slice(extra);
    let out = canasta(&args, input);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

/// Writes a record of `games` games of heuristic bots to `path`.
fn sim_heuristic(path: &Path, games: u32, seed: u64) {
    let (games, seed) = (games.to_string(), seed.to_string());
    let out = canasta(
        &[
            "sim",
            "--games",
            &games,
            "--seed",
            &seed,
            "--bots",
            "heuristic",
            "--record",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

fn check(path: &Path) -> Output {
    canasta(&["check", path.to_str().unwrap()], "")
}

/// The human's hand as last printed.
fn last_hand(out: &str) -> Vec<String> {
    let line = out
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("your hand: "))
        .expect("a hand is shown");
    line.split_whitespace()
        .filter(|t| t.len() == 2 && *t != "|")
        .map(str::to_string)
        .collect()
}

/// A scripted game: a typo and an illegal action are explained and lose
/// nothing, undo takes back a discard and the bots' replies but not a draw
/// (its card was seen), save writes a record `check` accepts, and the
/// record holds what was played.
#[test]
fn a_scripted_game_refuses_undoes_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let first = play(&["--seed", "5"], "draw\n");
    let card = last_hand(&first)[0].clone();
    let save = dir.path().join("game.jsonl");
    let script = format!(
        "flop\ndiscard {card}\ndraw\nundo\ndiscard {card}\nundo\ndiscard {card}\nhint\nsave {}\n",
        save.display()
    );
    let out = play(&["--seed", "5"], &script);
    assert!(out.contains("cannot read `flop`: unknown action"), "{out}");
    assert!(
        out.contains(&format!(
            "`discard {card}` is refused: not now: draw (or take the pile) first"
        )),
        "{out}"
    );
    assert!(
        out.contains("cannot undo: undo cannot go back past a card you have seen"),
        "{out}"
    );
    assert!(out.contains("undone: back to before your last action"));
    assert!(out.contains(&format!("seat 0: discard {card}")));
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("end of input: the game stops here"));
    let record = std::fs::read_to_string(&save).unwrap();
    let mine: Vec<&str> = record
        .lines()
        .filter(|l| l.contains("\"seat\":0"))
        .collect();
    assert_eq!(
        mine[..2],
        [
            "{\"action\":\"draw\",\"seat\":0}".to_string(),
            format!("{{\"action\":\"discard {card}\",\"seat\":0}}")
        ],
        "the undone discard is not in the record twice"
    );
    assert!(
        record
            .lines()
            .next()
            .unwrap()
            .contains("\"names\":[\"human\"")
    );
    let checked = check(&save);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
}

/// A saved game resumes where it stopped and goes on exactly as the
/// unbroken game does; saving writes back to the resumed file.
#[test]
fn a_resumed_game_continues_as_the_unbroken_one() {
    let dir = tempfile::tempdir().unwrap();
    let first = play(&["--seed", "9"], "draw\n");
    let card = last_hand(&first)[0].clone();
    let saved = dir.path().join("saved.jsonl");
    let whole = dir.path().join("whole.jsonl");
    play(
        &["--seed", "9", "--save", saved.to_str().unwrap()],
        &format!("draw\ndiscard {card}\n"),
    );
    play(
        &["--seed", "9", "--save", whole.to_str().unwrap()],
        &format!("draw\ndiscard {card}\ndraw\n"),
    );
    let before = std::fs::read_to_string(&saved).unwrap();
    let out = play(&["--resume", saved.to_str().unwrap()], "draw\n");
    assert!(out.contains("seat 0 (you) to draw"), "{out}");
    assert!(out.contains(&format!("saved to {}", saved.display())));
    let after = std::fs::read_to_string(&saved).unwrap();
    assert!(after.starts_with(&before) && after.len() > before.len());
    assert_eq!(after, std::fs::read_to_string(&whole).unwrap());
    assert!(check(&saved).status.success());
}

/// A record that stops in the middle of a hand (cut from a bot game)
/// resumes there, with the seat named on the command line at the keyboard.
#[test]
fn a_record_cut_mid_hand_resumes_there() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sim.jsonl");
    sim_heuristic(&path, 1, 4);
    let record = std::fs::read_to_string(&path).unwrap();
    let cut: String = record.lines().take(40).map(|l| format!("{l}\n")).collect();
    let cut_path = dir.path().join("cut.jsonl");
    std::fs::write(&cut_path, &cut).unwrap();
    let out = play(
        &["--resume", cut_path.to_str().unwrap(), "--humans", "2"],
        "",
    );
    assert!(out.contains("seat 2 (you) to "), "{out}");
    let resumed = std::fs::read_to_string(&cut_path).unwrap();
    let (header, rest) = resumed.split_once('\n').unwrap();
    assert!(rest.starts_with(cut.split_once('\n').unwrap().1));
    // The header now names who sat where.
    assert!(
        header.contains("\"names\":[\"heuristic\",\"heuristic\",\"human\",\"heuristic\"]"),
        "{header}"
    );
    assert!(check(&cut_path).status.success());
    // A finished game resumes straight to its result.
    let out = play(&["--resume", path.to_str().unwrap()], "");
    assert!(out.contains("=== game over after"), "{out}");
    assert!(out.contains("winner: team") || out.contains("a tie"));
}

/// Plays `play --line` interactively: at every prompt `answer` gets the
/// output since the last one and the prompt, and gives the next line
/// (`None` closes stdin). Returns the whole output.
fn drive(args: &[&str], mut answer: impl FnMut(&str, &str) -> Option<String>) -> String {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["play", "--line", "--bots", "heuristic"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take();
    let mut stdout = child.stdout.take().unwrap();
    let (mut all, mut since) = (String::new(), 0);
    let mut buf = [0u8; 65536];
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        all.push_str(&String::from_utf8_lossy(&buf[..n]));
        let prompt = if all.ends_with("press Enter\n") {
            "enter"
        } else if all.ends_with("> ") {
            "seat"
        } else {
            continue;
        };
        let reply = answer(&all[since..], prompt);
        since = all.len();
        match (reply, stdin.as_mut()) {
            (Some(line), Some(pipe)) => pipe.write_all(format!("{line}\n").as_bytes()).unwrap(),
            _ => drop(stdin.take()),
        }
    }
    let status = child.wait().unwrap();
    assert!(status.success());
    all
}

/// A simple player: asks for the legal list, then draws, else discards,
/// else plays the first legal action.
fn simple_player(since: &str, prompt: &str, pending: &mut bool) -> String {
    if prompt == "enter" {
        return String::new();
    }
    if !*pending {
        *pending = true;
        return "legal".into();
    }
    *pending = false;
    let legal: Vec<&str> = since.lines().filter_map(|l| l.strip_prefix("  ")).collect();
    legal
        .iter()
        .find(|a| **a == "draw")
        .or_else(|| legal.iter().find(|a| a.starts_with("discard ")))
        .or(legal.first())
        .expect("a legal list")
        .to_string()
}

/// The line mode shows only what seat 0 may see: no other hand, no card
/// another seat drew, through a whole hand and into the next.
#[test]
fn the_line_mode_never_shows_another_seats_cards() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.jsonl");
    let mut pending = false;
    let out = drive(
        &["--seed", "12", "--save", save.to_str().unwrap()],
        |since, prompt| {
            if since.contains("=== hand 2") {
                return None;
            }
            Some(simple_player(since, prompt, &mut pending))
        },
    );
    assert!(out.contains("hand 1: "), "a hand was scored: {out}");
    assert!(out.contains("=== hand 2"));
    assert!(!out.contains("hand of seat"), "{out}");
    for seat in 1..4 {
        assert!(!out.contains(&format!("seat {seat}: draw ->")), "{out}");
    }
    assert!(out.contains("seat 0: draw ->"));
    let checked = check(&save);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
}

/// Two humans at one keyboard: the keyboard is passed between them, each
/// sees their own hand, and undo is refused.
#[test]
fn hot_seat_passes_the_keyboard() {
    let mut pending = false;
    let mut passes = 0;
    let mut undo_asked = false;
    let out = drive(&["--seed", "2", "--humans", "0,1"], |since, prompt| {
        if prompt == "enter" {
            passes += 1;
            if passes == 3 {
                return None;
            }
        }
        if !undo_asked && prompt == "seat" {
            undo_asked = true;
            return Some("undo".into());
        }
        Some(simple_player(since, prompt, &mut pending))
    });
    assert!(
        out.contains("pass the keyboard to seat 1, press Enter"),
        "{out}"
    );
    assert!(
        out.contains("pass the keyboard to seat 0, press Enter"),
        "{out}"
    );
    assert!(out.contains("seat 1 (you) to draw"), "{out}");
    assert!(out.contains("seat 0 (you) to draw"), "{out}");
    assert!(out.contains("cannot undo: undo is for games of one human against bots"));
}

/// `replay` without a terminal prints every step with every hand; a bad
/// line is reported as `check` reports it.
#[test]
fn replay_prints_each_step_and_reports_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    sim_heuristic(&path, 2, 3);
    let out = canasta(&["replay", path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("[line 1] the game starts"));
    assert!(stdout.contains("[line 2] hand 1 dealt by seat"));
    assert!(stdout.contains("[line 3] seat "));
    for seat in 0..4 {
        assert!(stdout.contains(&format!("hand of seat {seat}: ")));
    }
    assert!(stdout.contains("=== game over after"));
    let second = canasta(&["replay", path.to_str().unwrap(), "--game", "2"], "");
    assert!(second.status.success());
    assert_ne!(text(&second.stdout), stdout);
    let missing = canasta(&["replay", path.to_str().unwrap(), "--game", "3"], "");
    assert_eq!(missing.status.code(), Some(1));
    // The fifth line made illegal: replayed up to it, then reported.
    let record = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = record.lines().map(str::to_string).collect();
    lines[4] = "{\"seat\": 0, \"action\": \"discard 4H\"}".into();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let out = canasta(&["replay", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("line 5: "),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("[line 4] "));
}

/// Input that is not UTF-8 is refused like any unreadable line; quitting
/// without a save file says so; a seed from the clock is kept secret.
#[test]
fn odd_input_and_quitting() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_canasta"))
        .args(["play", "--line", "--bots", "heuristic"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"draw\n\xff\xfe\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("cannot read `"), "{stdout}");
    assert!(
        stdout.contains("the game stops here (not saved; `canasta play -v classic -p 4 -s "),
        "{stdout}"
    );
    assert!(
        stdout.contains("seed from the clock, shown at the end"),
        "{stdout}"
    );
}

/// With no flags, `play` seats the user at seat 0 against IS-MCTS bots;
/// the end of input stops the game cleanly.
#[test]
fn play_without_flags_seats_you_against_ismcts() {
    let out = canasta(&["play", "--seed", "1"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("seats: 0 human, 1 ismcts, 2 ismcts, 3 ismcts"),
        "{stdout}"
    );
    assert!(stdout.contains("seat 0 (you) to draw"), "{stdout}");
    assert!(stdout.contains("your hand: "));
    assert!(stdout.contains("end of input: the game stops here"));
}

/// Bad seats are refused before the game starts.
#[test]
fn bad_human_seats_are_refused() {
    let out = canasta(&["play", "--line", "--humans", "7"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("seat 7 does not exist"));
    let out = canasta(&["play", "--line", "--humans", "x"], "");
    assert!(text(&out.stderr).contains("not a seat number"));
}

/// A 100,000-character line is answered with its first characters and how
/// many more there were, not echoed whole (the prompt's echo neither).
#[test]
fn a_huge_bad_line_is_shortened() {
    let long = "x".repeat(100_000);
    let out = play(&["-s", "7"], &format!("draw\n{long}\nquit\n"));
    assert!(out.len() < 20_000, "{} bytes of output", out.len());
    assert!(out.contains("… (99940 more characters)"), "{out}");
    assert!(out.contains("cannot read `xxxxxxxx"), "{out}");
}
