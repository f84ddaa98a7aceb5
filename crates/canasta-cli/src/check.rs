//! `canasta check`: replays a record with the engine and reports what it finds.

use crate::text::shorten_quoted;
use canasta_core::Team;
use canasta_core::record::{
    GameReport, MAX_LINE_BYTES, RecordChecker, RecordError, RecordErrorKind,
};
use canasta_core::{HandEndReason, HandResult, Phase, Rules};
use clap::Args;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The record to check; `-` reads stdin.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print each finished hand's `hand_end` line, as JSON.
    ///
    /// Each finished hand as its `{"hand_end": {...}}` line (exactly as
    /// the record format writes it), one JSON object per line and nothing
    /// else on stdout; a game that stops before its end describes the
    /// position reached as one `{"position": {...}}` line on stderr. Errors
    /// also go to stderr, as `line N: reason`.
    #[arg(long)]
    pub json: bool,
    /// One line a game: its hands, final scores and winner.
    ///
    /// Instead of every hand's itemised scores: the game's number and line,
    /// its variant, players and teams, how many hands it had, each team's
    /// final score and the winner (or where an unfinished record stops),
    /// then the total line. Errors are reported as without it.
    #[arg(long, conflicts_with = "json")]
    pub summary: bool,
}

/// Why a record was rejected.
enum Rejection {
    Record(RecordError),
    /// The engine panicked on this line: an engine bug, reported as a rejection.
    Panic {
        line: usize,
        message: String,
    },
}

impl Rejection {
    fn line(&self) -> usize {
        match self {
            Rejection::Record(e) => e.line,
            Rejection::Panic { line, .. } => *line,
        }
    }
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::Record(e) => write!(f, "{e}"),
            Rejection::Panic { line, message } => {
                write!(
                    f,
                    "line {line}: the engine failed on this line (engine bug): {message}"
                )
            }
        }
    }
}

thread_local! {
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into());
    match PANIC_MESSAGE.with(|m| m.borrow_mut().take()) {
        Some(loc) => format!("{text} ({loc})"),
        None => text,
    }
}

/// What the replay found: the games, the rejected line if any, and
/// whether that line starts a game of its own.
struct Checked {
    reports: Vec<GameReport>,
    rejection: Option<Rejection>,
    rejected_header: bool,
}

/// Reads the next line into `buf` (without its line ending), keeping at
/// most [`MAX_LINE_BYTES`] + 1 bytes of it; returns its full length, or
/// `None` at the end of the input. A huge line costs no memory.
fn read_line_capped(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0;
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        len += part.len();
        let room = (MAX_LINE_BYTES + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
        len -= 1;
    }
    Ok(any.then_some(len))
}

/// Checks a record as it is read, one line at a time; an engine panic is
/// the rejection of the line that caused it.
fn check_stream(mut reader: impl BufRead) -> std::io::Result<Checked> {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let loc = info
            .location()
            .map(|l| format!("at {}:{}", l.file(), l.line()));
        PANIC_MESSAGE.with(|m| *m.borrow_mut() = loc);
    }));
    let mut checker = RecordChecker::new();
    let mut rejection = None;
    let mut rejected_header = false;
    let mut buf = Vec::new();
    let read = loop {
        let len = match read_line_capped(&mut reader, &mut buf) {
            Ok(Some(len)) => len,
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        };
        if len > MAX_LINE_BYTES {
            let e = checker.refuse(RecordErrorKind::LineTooLong(len));
            rejection = Some(Rejection::Record(e));
            break Ok(());
        }
        let Ok(text) = std::str::from_utf8(&buf) else {
            rejection = Some(Rejection::Record(checker.refuse(RecordErrorKind::NotText)));
            break Ok(());
        };
        match panic::catch_unwind(AssertUnwindSafe(|| checker.feed(text))) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                rejected_header = serde_json::from_str::<Value>(text)
                    .is_ok_and(|v| v.get("canasta_record").is_some());
                rejection = Some(Rejection::Record(e));
                break Ok(());
            }
            Err(payload) => {
                let line = checker.line();
                let message = panic_text(payload.as_ref());
                rejection = Some(Rejection::Panic { line, message });
                break Ok(());
            }
        }
    };
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| checker.finish()));
    panic::set_hook(previous);
    read?;
    let (reports, error) = match outcome {
        Ok(o) => (o.games, o.error),
        Err(_) => (Vec::new(), None),
    };
    Ok(Checked {
        reports,
        rejection: rejection.or(error.map(Rejection::Record)),
        rejected_header,
    })
}

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let checked = if args.file.as_os_str() == "-" {
        check_stream(std::io::stdin().lock())
    } else {
        match std::fs::File::open(&args.file) {
            Ok(f) => check_stream(std::io::BufReader::new(f)),
            Err(e) => Err(e),
        }
    };
    let Checked {
        reports,
        rejection,
        rejected_header,
    } = match checked {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file.display());
            return Ok(ExitCode::from(2));
        }
    };
    match rejection {
        None => {
            let mut mismatches = 0;
            for (i, report) in reports.iter().enumerate() {
                if args.json {
                    print_json(i + 1, report)?;
                } else if args.summary {
                    outln!("{}", summary_line(i + 1, report));
                } else {
                    print_text(i + 1, report)?;
                }
                for m in &report.mismatches {
                    eprintln!("line {}: {}", m.line, shorten_quoted(&m.message));
                    mismatches += 1;
                }
            }
            if mismatches > 0 {
                eprintln!("{mismatches} disagreement(s) between the record and the replay");
                return Ok(ExitCode::FAILURE);
            }
            let hands: usize = reports.iter().map(|r| r.hands.len()).sum();
            if args.summary {
                outln!(
                    "ok: {}, {} finished",
                    count(reports.len(), "game"),
                    count(hands, "hand")
                );
            } else if !args.json {
                // Exactly as before --summary existed: programs read it.
                outln!("ok: {} game(s), {hands} finished hand(s)", reports.len());
                if reports.len() > 1 && std::io::stdout().is_terminal() {
                    eprintln!(
                        "({} games: `canasta check {} --summary` shows one line a game)",
                        crate::text::thousands(reports.len() as u64),
                        args.file.display()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(rejection) => {
            // The line's own text, quoted in the reason, is shortened.
            eprintln!("{}", shorten_quoted(&rejection.to_string()));
            for m in reports.iter().flat_map(|r| &r.mismatches) {
                eprintln!("line {}: {}", m.line, shorten_quoted(&m.message));
            }
            // The position the rejected line was played in, unless the
            // rejected line starts a game of its own.
            let line = rejection.line();
            if !args.json
                && !rejected_header
                && matches!(rejection, Rejection::Record(_))
                && let Some(state) = reports.last().and_then(|r| r.state.as_ref())
                && matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer)
            {
                eprintln!("position before line {line}:");
                eprintln!("{}", indent(&state.describe(), "  "));
            }
            Ok(ExitCode::FAILURE)
        }
    }
}

fn indent(text: &str, pad: &str) -> String {
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn print_json(game: usize, report: &GameReport) -> anyhow::Result<()> {
    for hand in &report.hands {
        outln!("{}", canasta_core::record::write::hand_end(hand));
    }
    if let Some(state) = &report.state {
        let mid_hand = matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer);
        let position = json!({"position": {
            "game": game,
            "header_line": report.header_line,
            "hands_played": state.hands_played(),
            "phase": state.phase(),
            "dealer": mid_hand.then(|| state.dealer()),
            "current": mid_hand.then(|| state.current()),
            "to_act": mid_hand.then(|| state.to_act()),
            "stock": state.stock_len(),
            "pile": state.pile().len(),
            "pile_top": state.pile_top().map(|c| c.to_string()),
            "scores": state.scores(),
            "description": state.describe(),
        }});
        // Stdout holds only `hand_end` lines, as the record spec promises.
        eprintln!("{position}");
    }
    Ok(())
}

/// The seats of team `t`, as "seat 2" or "seats 0, 2".
pub fn members(rules: &Rules, team: Team) -> String {
    let seats: Vec<String> = rules
        .game
        .seats()
        .filter(|&s| rules.game.team_of(s) == team)
        .map(|s| s.to_string())
        .collect();
    format!(
        "seat{} {}",
        if seats.len() > 1 { "s" } else { "" },
        seats.join(", ")
    )
}

/// The breakdown keys of a `hand_end` team, in the record spec's order.
const SCORE_ITEMS: &[&str] = &[
    "melded",
    "in_hand",
    "canastas",
    "red_threes",
    "going_out",
    "other",
];

/// A hand's itemised scores as readable lines.
pub fn hand_lines(rules: &Rules, number: u32, hand: &HandResult) -> Vec<String> {
    let how = match (hand.reason, hand.seat) {
        // "Concealed" only where the rules pay for it: in Samba or
        // Canastone a concealed going out scores as any other.
        (HandEndReason::Out, Some(s)) => format!(
            "seat {s} went out{}",
            if hand.concealed && rules.scoring.concealed_bonus != 0 {
                " concealed"
            } else {
                ""
            }
        ),
        (HandEndReason::Stock, _) => "the stock ran out".to_string(),
        (HandEndReason::Blocked, _) => {
            "play was blocked: the player to act held only cards that may not be discarded"
                .to_string()
        }
        (HandEndReason::Out, None) => "a player went out".to_string(),
    };
    let mut lines = vec![format!("hand {number}: {how}")];
    for (t, team) in hand.teams.iter().enumerate() {
        // The record spec's items in its order, then any a variant adds.
        let items = match serde_json::to_value(team) {
            Ok(Value::Object(map)) => {
                let rank = |k: &str| {
                    SCORE_ITEMS
                        .iter()
                        .position(|x| *x == k)
                        .unwrap_or(usize::MAX)
                };
                let mut entries: Vec<_> =
                    map.iter().filter(|(k, _)| k.as_str() != "total").collect();
                entries.sort_by_key(|(k, _)| rank(k));
                entries
                    .iter()
                    .map(|(k, v)| format!("{} {v}", k.replace('_', " ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            _ => String::new(),
        };
        lines.push(format!(
            "  team {t} ({}): {items} = {}",
            members(rules, Team::new(t)),
            team.total
        ));
    }
    let totals: Vec<String> = hand.totals.iter().map(|t| t.to_string()).collect();
    lines.push(format!("  totals: {}", totals.join(", ")));
    lines
}

/// Teams' scores as the report prints them: `5700, 3940`.
fn scores_words(scores: &[i32]) -> String {
    let scores: Vec<String> = scores.iter().map(i32::to_string).collect();
    scores.join(", ")
}

/// `7 hands`, `1 hand`, `1,408 hands`.
fn count(n: usize, what: &str) -> String {
    format!(
        "{} {what}{}",
        crate::text::thousands(n as u64),
        if n == 1 { "" } else { "s" }
    )
}

/// One game on one line, for `--summary`: `game 1 (line 1): classic, 4
/// players, 7 hands, final 5700, 3940: team 0 wins`. The teams are named
/// when they are neither two nor one a player.
fn summary_line(game: usize, report: &GameReport) -> String {
    let head = format!("game {game} (line {})", report.header_line);
    let Some(rules) = &report.rules else {
        return format!("{head}: no game");
    };
    let alone = rules.game.teams == rules.game.players;
    let teams = if alone || rules.game.teams == 2 {
        String::new()
    } else {
        format!(" in {} teams", rules.game.teams)
    };
    let scores: Vec<i32> = match (&report.state, report.hands.last()) {
        (Some(state), _) => state.scores().to_vec(),
        (None, Some(hand)) => hand.totals.clone(),
        (None, None) => vec![0; rules.game.teams as usize],
    };
    let scores: Vec<String> = scores.iter().map(i32::to_string).collect();
    let end = match (report.winner, &report.state) {
        (Some(Some(t)), _) if alone => format!("seat {t} wins"),
        (Some(Some(t)), _) => format!("team {t} wins"),
        (Some(None), _) => "a tie".to_string(),
        (None, Some(state)) => match state.phase() {
            Phase::Deal => "stops before the first deal".to_string(),
            Phase::HandOver => format!("stops after hand {}", state.hands_played()),
            _ => format!("stops in hand {}", state.hands_played() + 1),
        },
        (None, None) => "unfinished".to_string(),
    };
    format!(
        "{head}: {}, {} players{teams}, {}, {} {}: {end}",
        &rules.game.variant,
        rules.game.players,
        count(report.hands.len(), "hand"),
        if report.winner.is_some() {
            "final"
        } else {
            "scores"
        },
        scores.join(", ")
    )
}

fn print_text(game: usize, report: &GameReport) -> anyhow::Result<()> {
    let Some(rules) = &report.rules else {
        return Ok(());
    };
    outln!(
        "game {game} (line {}): {}, {} players, {} teams",
        report.header_line,
        &rules.game.variant,
        rules.game.players,
        rules.game.teams
    );
    for (i, hand) in report.hands.iter().enumerate() {
        for line in hand_lines(rules, i as u32 + 1, hand) {
            outln!("  {line}");
        }
    }
    match (report.winner, &report.state) {
        (Some(Some(t)), _) => outln!(
            "  game over: team {t} ({}) wins, totals {}",
            members(rules, t),
            scores_words(report.hands.last().map_or(&[], |h| &h.totals))
        ),
        (Some(None), _) => outln!(
            "  game over: a tie, totals {}",
            scores_words(report.hands.last().map_or(&[], |h| &h.totals))
        ),
        (None, Some(state)) => match state.phase() {
            Phase::Deal => outln!("  the record stops before the first deal"),
            Phase::HandOver => outln!(
                "  the record stops after hand {}, before the next deal (scores {})",
                state.hands_played(),
                scores_words(state.scores())
            ),
            _ => {
                outln!("  the record stops in the middle of a hand; the position reached:");
                outln!("{}", indent(&state.describe(), "    "));
            }
        },
        (None, None) => {}
    }
    Ok(())
}
