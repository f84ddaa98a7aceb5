//! `canasta play`: a game at the terminal, the user against bots (or
//! several users at one keyboard), full-screen on a terminal and line by
//! line without one; or, with no human seat, a bot game's transcript.

pub mod hand;
pub mod line;
pub mod render;
pub mod session;
mod transcript;
pub mod tui;
pub mod view;

use crate::GameArgs;
use crate::external::check_seat_name;
use crate::game::{Setup, clock_seed};
use anyhow::{Context, bail};
use clap::Args;
use session::{HUMAN_NAME, Seat, Session};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The bot of a seat no flag names: IS-MCTS at its default level, a
/// decision in milliseconds.
pub const DEFAULT_BOT: &str = "ismcts";

/// The bots' pace on screen when --pace is not given.
const SCREEN_PACE_MS: u64 = 700;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of the game: the decks follow from it [default: from the clock,
    /// kept from the players until the game ends (then shown, and held by a
    /// saved record)].
    #[arg(long, short = 's', value_name = "S")]
    pub seed: Option<u64>,
    /// Seats played at this keyboard, comma-separated (`0,2`: two players
    /// taking turns, each hand hidden between turns), or `none` for a game
    /// between bots printed as a transcript [default: 0, or on --resume the
    /// seats the record names `human`].
    #[arg(long, value_name = "SEATS")]
    pub humans: Option<String>,
    /// Every seat a bot, the game printed as a transcript (as --humans none).
    #[arg(long, conflicts_with = "humans")]
    pub watch: bool,
    /// Milliseconds between bots' moves [default: 700 on the full screen,
    /// 0 in line mode]; + and - change it during the game.
    #[arg(long, value_name = "MS")]
    pub pace: Option<u64>,
    /// Continue the game saved in FILE (a game record: the rules, seed and
    /// seats come from it); saving then writes back to FILE unless --save
    /// names another file.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Where the save key (`save` in line mode) writes; the game is also
    /// saved there when it stops or ends.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// The line mode even on a terminal (it is the mode whenever stdin or
    /// stdout is not a terminal).
    #[arg(long)]
    pub line: bool,
}

/// The human seats the arguments name (`None`: not said).
fn human_seats(args: &PlayArgs, players: usize) -> anyhow::Result<Option<Vec<usize>>> {
    if args.watch {
        return Ok(Some(Vec::new()));
    }
    let Some(text) = &args.humans else {
        return Ok(None);
    };
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(Some(Vec::new()));
    }
    let mut seats = Vec::new();
    for part in text.split(',') {
        let seat: usize = part
            .trim()
            .parse()
            .with_context(|| format!("--humans: `{part}` is not a seat number"))?;
        if seat >= players {
            bail!(
                "--humans: seat {seat} does not exist ({players} players: seats 0 to {})",
                players - 1
            );
        }
        if !seats.contains(&seat) {
            seats.push(seat);
        }
    }
    Ok(Some(seats))
}

/// The bot names --bots gives, one per seat (`None`: not given).
fn bot_names(args: &GameArgs, players: usize) -> anyhow::Result<Option<Vec<String>>> {
    let names = match args.bots.len() {
        0 => return Ok(None),
        1 => vec![args.bots[0].clone(); players],
        k if k == players => args.bots.clone(),
        k => bail!("--bots names {k} bots; give one for every seat ({players}) or one for all"),
    };
    for name in &names {
        check_seat_name(name).map_err(anyhow::Error::msg)?;
    }
    Ok(Some(names))
}

pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let session = match &args.resume {
        Some(path) => resume(args, path)?,
        None => {
            let mut game = args.game.clone();
            if game.bots.is_empty() {
                game.bots = vec![DEFAULT_BOT.to_string()];
            }
            let setup = Setup::from_args(&game)?;
            let seed = args.seed.unwrap_or_else(clock_seed);
            let n = setup.rules.game.players as usize;
            let humans = human_seats(args, n)?.unwrap_or_else(|| vec![0]);
            if humans.is_empty() {
                return transcript::run(&setup, seed);
            }
            let seats = (0..n)
                .map(|s| match humans.contains(&s) {
                    true => Seat::Human,
                    false => Seat::Bot(setup.bots[s].clone()),
                })
                .collect();
            let mut session = Session::new(setup.rules, seats, seed, setup.max_hands)?;
            if args.seed.is_none() {
                session.keep_seed_secret();
            }
            session
        }
    };
    let save = args.save.clone().or_else(|| args.resume.clone());
    let screen = !args.line && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let mut session = session;
    if screen {
        let pace = Duration::from_millis(args.pace.unwrap_or(SCREEN_PACE_MS));
        tui::run(&mut session, pace, save)?;
    } else {
        let opts = line::LineOptions {
            pace: Duration::from_millis(args.pace.unwrap_or(0)),
            save,
            echo: !std::io::stdin().is_terminal(),
            clear_between_humans: std::io::stdout().is_terminal(),
        };
        let stdin = std::io::stdin();
        let mut out = std::io::stdout().lock();
        line::run(&mut session, stdin.lock(), &mut out, opts)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The session of a saved game, with seats from the flags or the record.
fn resume(args: &PlayArgs, path: &PathBuf) -> anyhow::Result<Session> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = canasta_core::record::without_bom(&text).to_string();
    let header = Session::record_header(&text)
        .with_context(|| format!("{} is not a game record", path.display()))?;
    let rules = header
        .rules()
        .map_err(|e| anyhow::anyhow!("{}: line 1: {e}", path.display()))?;
    let n = rules.game.players as usize;
    let names = header.names.clone().unwrap_or_default();
    let named = |s: usize| names.get(s).map(String::as_str);
    let humans = match human_seats(args, n)? {
        Some(h) => h,
        None => {
            let named_humans: Vec<usize> =
                (0..n).filter(|&s| named(s) == Some(HUMAN_NAME)).collect();
            // A record of bots (from `canasta sim`, say): you take seat 0,
            // as in a new game; `--humans none` watches it go on.
            if named_humans.is_empty() {
                vec![0]
            } else {
                named_humans
            }
        }
    };
    let bots = bot_names(&args.game, n)?;
    let seats = (0..n)
        .map(|s| {
            if humans.contains(&s) {
                return Seat::Human;
            }
            let name = match (&bots, named(s)) {
                (Some(b), _) => b[s].clone(),
                // Built-in bots only: a record must not start programs.
                (None, Some(name)) if canasta_ai::bot_by_name(name, 0).is_some() => {
                    name.to_string()
                }
                _ => DEFAULT_BOT.to_string(),
            };
            Seat::Bot(name)
        })
        .collect();
    Session::resume(&text, seats, args.game.max_hands)
        .with_context(|| format!("cannot resume {}", path.display()))
}
