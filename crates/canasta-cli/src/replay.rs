//! `canasta replay FILE`: a record's game step by step, every hand shown
//! (a replay is an onlooker's view of a game already played).

use crate::check::hand_lines;
use crate::play::line::game_over_text;
use crate::play::render::{Screen, render};
use crate::play::view::{TableView, position_lines};
use crate::text::shorten_quoted;
use anyhow::Context;
use canasta_core::Seat;
use canasta_core::record::{Header, Replay};
use canasta_core::{GameState, Phase, Rules};
use clap::Args;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record; `-` reads stdin.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Which game of the file, counting from 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: usize,
    /// Print every step even on a terminal (the mode whenever stdin or
    /// stdout is not one).
    #[arg(long)]
    pub line: bool,
}

/// One line of the record and the position after it.
pub struct Step {
    /// 1-based line of the file.
    pub line: usize,
    /// What the line did, in words.
    pub text: Vec<String>,
    pub state: GameState,
}

/// A game of a record, replayed.
pub struct Steps {
    pub rules: Rules,
    /// Seat names from the header, if it has them.
    pub names: Vec<String>,
    pub steps: Vec<Step>,
    /// The line that could not be replayed (`line N: reason`), or the
    /// record's `hand_end`/`game_end` lines that disagree with the replay.
    pub errors: Vec<String>,
}

/// Replays game `game` (from 1) of `text`, keeping every position.
///
/// # Errors
/// No such game, or a header that cannot start one (`line N: reason`).
pub fn load(text: &str, game: usize) -> Result<Steps, String> {
    let mut headers = 0;
    let mut replay: Option<Replay> = None;
    let mut out: Option<Steps> = None;
    for (i, raw) in canasta_core::record::without_bom(text).lines().enumerate() {
        let line = i + 1;
        if raw.len() > canasta_core::record::MAX_LINE_BYTES {
            return Err(format!(
                "line {line}: {}",
                canasta_core::record::RecordErrorKind::LineTooLong(raw.len())
            ));
        }
        if raw.trim().is_empty() {
            continue;
        }
        let value: Result<Value, _> = serde_json::from_str(raw);
        let is_header = value
            .as_ref()
            .is_ok_and(|v| v.get("canasta_record").is_some());
        if is_header {
            headers += 1;
            if replay.is_some() {
                break;
            }
        } else if headers == 0 {
            // As `canasta check`: the record starts with its header.
            return Err(format!(
                "line {line}: the first line must be a header with \"canasta_record\""
            ));
        }
        if headers != game {
            continue;
        }
        let value = match value {
            Ok(v) => v,
            Err(e) => {
                if let Some(s) = out.as_mut() {
                    s.errors
                        .push(shorten_quoted(&format!("line {line}: not valid JSON: {e}")));
                    break;
                }
                return Err(shorten_quoted(&format!("line {line}: not valid JSON: {e}")));
            }
        };
        let Some(r) = replay.as_mut() else {
            let r = Replay::start(&value, line).map_err(|e| shorten_quoted(&e.to_string()))?;
            let header: Option<Header> = serde_json::from_value(value).ok();
            out = Some(Steps {
                rules: r.state().rules().clone(),
                names: header.and_then(|h| h.names).unwrap_or_default(),
                steps: vec![Step {
                    line,
                    text: vec!["the game starts".into()],
                    state: r.state().clone(),
                }],
                errors: Vec::new(),
            });
            replay = Some(r);
            continue;
        };
        let steps = out.as_mut().expect("started with the replay");
        if let Err(kind) = r.feed(&value, line) {
            steps
                .errors
                .push(shorten_quoted(&format!("line {line}: {kind}")));
            break;
        }
        let state = r.state().clone();
        let text = describe(&value, &state);
        steps.steps.push(Step { line, text, state });
    }
    let (Some(mut steps), Some(r)) = (out, replay) else {
        return Err(match headers {
            0 => "line 1: the first line must be a header with \"canasta_record\"".into(),
            1 => format!("the file holds one game, not {game}"),
            n => format!("the file holds {n} games, not {game}"),
        });
    };
    for m in r.finish().mismatches {
        steps.errors.push(format!("line {}: {}", m.line, m.message));
    }
    Ok(steps)
}

/// What a record line did, in words, given the position after it.
fn describe(value: &Value, state: &GameState) -> Vec<String> {
    if let Some(d) = value.get("dealer") {
        let dealt = !matches!(state.phase(), Phase::Deal | Phase::HandOver);
        return vec![if dealt {
            format!("hand {} dealt by seat {d}", state.hands_played() + 1)
        } else {
            format!("a deal by seat {d}, annulled by the rules")
        }];
    }
    if let (Some(seat), Some(action)) = (value.get("seat"), value.get("action")) {
        return vec![format!(
            "seat {seat}: {}",
            action.as_str().unwrap_or_default()
        )];
    }
    if value.get("hand_end").is_some()
        && let Some(result) = state.last_hand()
    {
        return hand_lines(state.rules(), state.hands_played(), result);
    }
    if value.get("game_end").is_some() {
        return game_over_text(
            state.rules(),
            state.hands_played(),
            state.scores(),
            state.winner().flatten(),
        );
    }
    vec!["(a line with nothing to show)".into()]
}

/// The position of a step with every hand shown.
pub fn step_view(steps: &Steps, state: &GameState) -> TableView {
    let mut view = TableView::onlooker(&state.observe(Seat::new(0)), &steps.rules, &steps.names);
    for (s, seat) in state.seats().zip(view.seats.iter_mut()) {
        seat.hand = Some(*state.hand(s));
    }
    view
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let text = if args.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(&args.file)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file.display());
            return Ok(ExitCode::from(2));
        }
    };
    if args.game == 0 {
        eprintln!("error: games are numbered from 1 (--game 1 is the first)");
        return Ok(ExitCode::from(2));
    }
    let steps = match load(&text, args.game) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let screen = !args.line
        && args.file.as_os_str() != "-"
        && std::io::stdin().is_terminal()
        && std::io::stdout().is_terminal();
    if screen {
        replay_screen(&steps)?;
    } else {
        print_steps(&steps, &mut std::io::stdout().lock())?;
    }
    for e in &steps.errors {
        eprintln!("{e}");
    }
    Ok(if steps.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Steps through a replayed record full screen: → or space forward, ←
/// back, PgDn/PgUp ten at a time, Home/End, q to leave.
///
/// # Errors
/// The terminal fails.
fn replay_screen(steps: &Steps) -> anyhow::Result<()> {
    let mut terminal = ratatui::init();
    let result = replay_loop(&mut terminal, steps);
    ratatui::restore();
    result.context("the terminal failed")
}

fn replay_loop(terminal: &mut DefaultTerminal, steps: &Steps) -> anyhow::Result<()> {
    let last = steps.steps.len() - 1;
    let mut at = 0usize;
    loop {
        let step = &steps.steps[at];
        let view = step_view(steps, &step.state);
        let log: Vec<String> = steps.steps[..=at]
            .iter()
            .flat_map(|s| {
                let mut lines = s.text.clone();
                lines[0] = format!("[line {}] {}", s.line, lines[0]);
                lines
            })
            .collect();
        let mut message = format!("step {} of {} (line {})", at + 1, last + 1, step.line);
        if at == last
            && let Some(e) = steps.errors.first()
        {
            message = format!("{message}; the record stops: {e}");
        }
        let keys = "→/space forward  ← back  PgDn/PgUp ten  Home/End  q quit";
        let screen = Screen {
            view: Some(&view),
            log: &log,
            message: &message,
            refused: at == last && !steps.errors.is_empty(),
            keys,
            ..Screen::default()
        };
        terminal.draw(|f| render(f, &screen))?;
        if let Event::Key(key) = event::read()?
            && key.kind == KeyEventKind::Press
        {
            at = match key.code {
                KeyCode::Right | KeyCode::Char(' ') | KeyCode::Enter => (at + 1).min(last),
                KeyCode::Left | KeyCode::Backspace => at.saturating_sub(1),
                KeyCode::PageDown => (at + 10).min(last),
                KeyCode::PageUp => at.saturating_sub(10),
                KeyCode::Home => 0,
                KeyCode::End => last,
                KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                _ => at,
            };
        }
    }
}

/// Every step as text: what the line did, then the position while a hand
/// is being played.
pub fn print_steps(steps: &Steps, out: &mut impl Write) -> anyhow::Result<()> {
    for step in &steps.steps {
        writeln!(out, "[line {}] {}", step.line, step.text.join("\n  "))?;
        if matches!(
            step.state.phase(),
            Phase::Draw | Phase::Play | Phase::Answer
        ) {
            for line in position_lines(&step_view(steps, &step.state)) {
                writeln!(out, "    {line}")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::hand::hand_text;
    use crate::play::render::tests::draw;
    use crate::play::session::{Next, Seat, Session};

    /// A finished hand of four heuristic bots, as a record.
    fn record() -> String {
        let seats = vec![Seat::Bot("heuristic".into()); 4];
        let mut s = Session::new(Rules::classic(), seats, 31, 1).unwrap();
        loop {
            match s.next() {
                Next::Deal => {
                    s.deal().unwrap();
                }
                Next::Bot(_) => {
                    s.play_bot().unwrap();
                }
                _ => return s.record_text(),
            }
        }
    }

    #[test]
    fn a_replay_shows_every_hand_at_every_step() {
        let text = record();
        let steps = load(&text, 1).unwrap();
        assert!(steps.errors.is_empty(), "{:?}", steps.errors);
        assert_eq!(steps.steps.len(), text.lines().count());
        assert_eq!(steps.names[1], "heuristic");
        let mid = &steps.steps[steps.steps.len() / 2];
        let view = step_view(&steps, &mid.state);
        let screen = Screen {
            view: Some(&view),
            ..Screen::default()
        };
        let shot = draw(&screen, 140, 40).join("\n");
        for seat in 0..4 {
            let hand = hand_text(mid.state.hand(canasta_core::Seat::new(seat)));
            assert!(
                shot.contains(&format!("seat {seat} (heuristic): {hand}")),
                "{shot}"
            );
        }
        let last = steps.steps.last().unwrap();
        assert!(last.text[0].starts_with("hand 1: "), "{:?}", last.text);
        let Err(e) = load(&text, 2) else {
            panic!("the record holds one game")
        };
        assert!(e.contains("holds one game, not 2"), "{e}");
    }

    #[test]
    fn a_bad_line_stops_the_replay_where_check_would() {
        let text = record();
        let mut lines: Vec<&str> = text.lines().collect();
        lines[3] = "{\"seat\": 9, \"action\": \"draw\"}";
        let steps = load(&lines.join("\n"), 1).unwrap();
        assert_eq!(steps.steps.len(), 3, "the lines before the bad one");
        assert!(
            steps.errors[0].starts_with("line 4: "),
            "{:?}",
            steps.errors
        );
    }

    /// Lines before the header are refused, as `canasta check` refuses them.
    #[test]
    fn a_record_must_start_with_its_header() {
        let text = format!("garbage\n{{\"x\": 1}}\n{}", record());
        let err = load(&text, 1).map(|_| ()).unwrap_err();
        assert!(err.starts_with("line 1: "), "{err}");
        let text = format!("\n{}", record());
        assert!(load(&text, 1).is_ok(), "blank lines are ignored");
    }
}
