//! `canasta sim`: many bot games in parallel, records written in game order.

use crate::GameArgs;
use crate::game::{Observer, Outcome, Setup, clock_seed, play_game};
use crate::progress::Progress;
use crate::text::{count, thousands};
use anyhow::{Context, bail};
use canasta_core::Seat;
use canasta_core::record::write;
use canasta_core::{Action, Card, GameState, HandEndReason, HandResult};
use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Most worker threads `sim` and `tournament` start: far above any
/// machine this runs on, low enough that a typo cannot start thousands.
pub const MAX_THREADS: usize = 256;

#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 100, value_name = "N")]
    pub games: u64,
    /// Seed of the run [default: from the clock].
    ///
    /// The summary shows the seed, so that a run can be played again.
    #[arg(long, short = 's', value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads [default: every core].
    ///
    /// At most 256. Results and records do not depend on it.
    #[arg(long, short = 't', value_name = "T")]
    pub threads: Option<usize>,
    /// Write the games' records to FILE (`-`: stdout).
    ///
    /// In the record format (docs/record-format.md), one game after another.
    /// With `-` the records go to stdout and the summary to stderr (not with
    /// --json).
    #[arg(long, short = 'r', value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Collects a game's record lines.
struct Recorder {
    text: String,
}

impl Recorder {
    fn line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }
}

impl Observer for Recorder {
    fn deal(&mut self, state: &GameState, deck: &[Card], dealer: Seat) {
        let first = (state.rules().deal.random_first_player
            && state.phase() != canasta_core::Phase::Deal)
            .then(|| state.current());
        self.line(&write::deal_with_first(deck, dealer, first));
    }
    fn action(&mut self, _state: &GameState, seat: Seat, action: &Action) {
        self.line(&write::action(seat, action));
    }
    fn hand_end(&mut self, _state: &GameState, result: &HandResult) {
        self.line(&write::hand_end(result));
    }
    fn game_end(&mut self, state: &GameState) {
        if let Some(line) = write::game_end(state) {
            self.line(&line);
        }
    }
}

/// Counts how hands end, for the summary.
#[derive(Default)]
struct Tally {
    out: u64,
    stock: u64,
    blocked: u64,
}

impl Observer for Tally {
    fn hand_end(&mut self, _state: &GameState, result: &HandResult) {
        match result.reason {
            HandEndReason::Out => self.out += 1,
            HandEndReason::Stock => self.stock += 1,
            HandEndReason::Blocked => self.blocked += 1,
        }
    }
}

/// Both observers at once.
struct Both<'a>(&'a mut Recorder, &'a mut Tally);

impl Observer for Both<'_> {
    fn deal(&mut self, state: &GameState, deck: &[Card], dealer: Seat) {
        self.0.deal(state, deck, dealer);
    }
    fn action(&mut self, state: &GameState, seat: Seat, action: &Action) {
        self.0.action(state, seat, action);
    }
    fn hand_end(&mut self, state: &GameState, result: &HandResult) {
        self.0.hand_end(state, result);
        self.1.hand_end(state, result);
    }
    fn game_end(&mut self, state: &GameState) {
        self.0.game_end(state);
    }
}

struct GameRun {
    outcome: Result<Outcome, String>,
    tally: Tally,
    record: String,
}

fn run_one(setup: &Setup, seed: u64, index: u64, recording: bool, progress: &Progress) -> GameRun {
    let mut tally = Tally::default();
    let mut rec = Recorder {
        text: String::new(),
    };
    let outcome = if recording {
        rec.line(&write::header(&setup.rules, Some(seed)));
        let mut both = Both(&mut rec, &mut tally);
        play_game(setup, seed, index, &mut progress.observer(&mut both))
    } else {
        play_game(setup, seed, index, &mut progress.observer(&mut tally))
    };
    progress.game_done(outcome.as_ref().map_or(0, |o| o.hands));
    GameRun {
        outcome,
        tally,
        record: rec.text,
    }
}

/// The worker threads of a run: `threads` of them (checked), or one a core.
pub fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        if t > MAX_THREADS {
            bail!(
                "--threads is at most {MAX_THREADS} (this machine has {} cores)",
                std::thread::available_parallelism().map_or(1, |n| n.get())
            );
        }
        builder = builder.num_threads(t);
    }
    builder.build().context("cannot start the worker threads")
}

pub fn run(args: &SimArgs) -> anyhow::Result<ExitCode> {
    let setup = Setup::from_args(&args.game)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let to_stdout = args.record.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if to_stdout && args.json {
        bail!("--record - and --json would both write to stdout");
    }
    let mut out: Option<Box<dyn Write>> = match &args.record {
        None => None,
        Some(_) if to_stdout => Some(Box::new(BufWriter::new(std::io::stdout().lock()))),
        Some(path) => Some(Box::new(BufWriter::new(
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        ))),
    };
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let progress = Progress::new(args.games);

    let start = Instant::now();
    let teams = setup.rules.game.teams as usize;
    let mut wins = vec![0u64; teams];
    let (mut ties, mut hands, mut actions, mut out_hands, mut stock_hands) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut unfinished, mut blocked_hands) = (0u64, 0u64);
    let mut score_sums = vec![0i64; teams];
    // Games run in chunks so that records stay in game order without
    // holding every record in memory at once.
    let recording = out.is_some();
    let chunk = (threads as u64 * 16).max(16);
    let mut first = 0;
    while first < args.games {
        let last = (first + chunk).min(args.games);
        let runs: Vec<GameRun> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|g| run_one(&setup, seed, g, recording, &progress))
                .collect()
        });
        for (g, run) in (first..).zip(runs) {
            if let Some(w) = out.as_mut() {
                w.write_all(run.record.as_bytes())
                    .context("cannot write the record")?;
            }
            let outcome = match run.outcome {
                Ok(o) => o,
                Err(e) => {
                    progress.abandon();
                    if let Some(w) = out.as_mut() {
                        w.flush().context("cannot write the record")?;
                    }
                    bail!(
                        "game {g} of seed {seed} failed{}: {e}",
                        if out.is_some() {
                            " (its record so far is the last game written)"
                        } else {
                            ""
                        }
                    );
                }
            };
            hands += u64::from(outcome.hands);
            actions += outcome.actions;
            out_hands += run.tally.out;
            stock_hands += run.tally.stock;
            blocked_hands += run.tally.blocked;
            for (s, t) in score_sums.iter_mut().zip(&outcome.totals) {
                *s += i64::from(*t);
            }
            match (outcome.finished, outcome.winner) {
                (false, _) => unfinished += 1,
                (true, Some(t)) => wins[t] += 1,
                (true, None) => ties += 1,
            }
        }
        first = last;
    }
    if let Some(mut w) = out.take() {
        w.flush().context("cannot write the record")?;
    }
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    let games = args.games;
    let per_game = |x: u64| {
        if games == 0 {
            0.0
        } else {
            x as f64 / games as f64
        }
    };
    let mean_scores: Vec<f64> = score_sums
        .iter()
        .map(|&s| {
            if games == 0 {
                0.0
            } else {
                s as f64 / games as f64
            }
        })
        .collect();
    let rules = &setup.rules;
    if args.json {
        let summary = json!({
            "games": games,
            "hands": hands,
            "wins": wins,
            "ties": ties,
            "unfinished": unfinished,
            "variant": &rules.game.variant,
            "players": rules.game.players,
            "teams": rules.game.teams,
            "options": canasta_core::record::Header::for_rules(rules, None).options,
            "bots": setup.bots,
            "seed": seed,
            "threads": threads,
            "mean_hands_per_game": per_game(hands),
            "hands_out": out_hands,
            "hands_stock": stock_hands,
            "hands_blocked": blocked_hands,
            "actions": actions,
            "mean_actions_per_hand": if hands == 0 { 0.0 } else { actions as f64 / hands as f64 },
            "mean_final_scores": mean_scores,
            "seconds": seconds,
        });
        outln!("{summary}");
    } else {
        // With the record on stdout, the summary goes to stderr.
        let mut text = String::new();
        macro_rules! say {
            ($($t:tt)*) => {{
                text.push_str(&format!($($t)*));
                text.push('\n');
            }};
        }
        let bots = if setup.bots.iter().all(|b| *b == setup.bots[0]) {
            format!("{} at every seat", setup.bots[0])
        } else {
            format!("by seat {}", setup.bots.join(", "))
        };
        say!(
            "{} of {} ({} players, {} teams), bots {bots}; seed {seed}, {}",
            count(games, "game"),
            &rules.game.variant,
            rules.game.players,
            rules.game.teams,
            count(threads as u64, "thread")
        );
        say!(
            "{} ({:.1} a game; {} ended by going out, {} by the stock{}), {} ({:.1} a hand)",
            count(hands, "hand"),
            per_game(hands),
            thousands(out_hands),
            thousands(stock_hands),
            if blocked_hands > 0 {
                format!(", {} blocked by sevens", thousands(blocked_hands))
            } else {
                String::new()
            },
            count(actions, "action"),
            if hands == 0 {
                0.0
            } else {
                actions as f64 / hands as f64
            }
        );
        for (t, w) in wins.iter().enumerate() {
            say!(
                "team {t}: {} ({:.1}%), mean final score {:.0}",
                count(*w, "win"),
                100.0 * per_game(*w),
                mean_scores[t]
            );
        }
        say!("ties: {}", thousands(ties));
        if unfinished > 0 {
            say!(
                "unfinished: {} still short of the target after {} hands",
                count(unfinished, "game"),
                setup.max_hands
            );
        }
        say!(
            "{seconds:.2} s ({:.1} games a second)",
            if seconds > 0.0 {
                games as f64 / seconds
            } else {
                0.0
            }
        );
        if let Some(path) = &args.record
            && !to_stdout
        {
            say!("records written to {}", path.display());
        }
        if to_stdout {
            eprint!("{text}");
        } else {
            std::io::stdout().lock().write_all(text.as_bytes())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
