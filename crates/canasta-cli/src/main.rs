//! `canasta`: the command line around the Canasta engine.
//!
//! Subcommands: `play` (a game against bots at the terminal), `replay`
//! (steps through a record), `sim`
//! (many bot games, with records in the game-record format), `check`
//! (replays and verifies a record), `variants` (presets and their options)
//! `bench` (engine throughput), `tournament` (bots against each other on
//! duplicate deals), `bot-serve` (a built-in bot behind the bot protocol),
//! `serve` (the game server for the browser), `load` (a load test of it)
//! and `export` (the records it keeps).

/// `println!` that returns an error (to be propagated with `?`) instead of
/// panicking when stdout is closed, as in `canasta check x | head`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// mimalloc: the server's tables, connections and bots allocate from many
/// threads at once, where the system allocator's arena locks showed as a
/// third of the server's time under `canasta load`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench;
mod bot_serve;
mod check;
mod external;
mod game;
mod help;
mod play;
mod progress;
mod replay;
mod serve;
mod sim;
mod stats;
mod text;
mod tournament;
mod variants;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// The width help is wrapped to: a terminal's usual width.
const HELP_WIDTH: usize = 80;

/// Canasta: play against bots, run bot games and tournaments, check records.
#[derive(Parser, Debug)]
#[command(name = "canasta", version = env!("CANASTA_VERSION"), long_about = None)]
#[command(
    after_help = "`canasta help COMMAND` (or `canasta COMMAND --help`) tells more about one command."
)]
#[command(disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game at the terminal: you at seat 0, bots at the others.
    ///
    /// On a terminal the game is full screen (press ? for the keys).
    /// Without one (stdin or stdout not a terminal, or --line) it is played
    /// line by line: the position is printed from the acting human's seat
    /// and each line read is an action in the record notation (`draw`,
    /// `meld KS KH KD`, `add 0 KC`, `discard 4H`, ...) or a command (`hint`,
    /// `undo`, `save FILE`, `legal`, `help`, `quit`). With no human seat
    /// (--watch or --humans none) the bots play a game and it is printed as
    /// a transcript: each hand's deal, every action as `seat N: <action>`,
    /// the itemised scores of each hand, and the final totals and winner.
    Play(play::PlayArgs),
    /// Step through a game record, every hand shown.
    ///
    /// The position after every line of the record, full screen on a
    /// terminal (arrows, space, PgUp/PgDn, Home/End), printed otherwise.
    /// An error in the record is reported as `canasta check` does
    /// (`line N: reason`, exit status 1) after the steps before it.
    Replay(replay::ReplayArgs),
    /// Play many games between bots; optionally write their records.
    ///
    /// Game g (counting from 0) draws everything from the random stream
    /// (seed, g): the bots' seeds, the first dealer and every deck. Results
    /// and records are therefore identical whatever the thread count. The
    /// record file holds the games one after another, in game order, each
    /// starting with its header line (game-record format, version 1).
    Sim(sim::SimArgs),
    /// Check a game record: replay every line, recompute every score.
    ///
    /// Exit status 0: every line is legal and every `hand_end`/`game_end`
    /// line agrees with the replay; the scores of every finished hand are
    /// printed on stdout (and, for a game that stops before its end, the
    /// position reached), or with --summary one line a game. Exit status 1: the first malformed or illegal line
    /// is reported on stderr as `line N: reason`, or each `hand_end` /
    /// `game_end` disagreement as `line N: ...`. Exit status 2: the file
    /// cannot be read.
    Check(check::CheckArgs),
    /// List the rule presets (variants) and their options.
    ///
    /// Without an argument, one line a preset. `canasta variants ID` shows
    /// one preset's rules: its player counts, every option with its default
    /// and the values it takes, and the options other player counts change;
    /// --options shows that for every preset.
    Variants(variants::VariantsArgs),
    /// Explain how to play a variant, with its house rules.
    ///
    /// The rules in force (`-p`, `-o` as for `play`) read out by area: the
    /// deal, melds and canastas with their bonuses, the discard pile,
    /// the opening table, going out and scoring with the card values. The
    /// same page the browser shows (`--json` as the server sends it).
    Rules(variants::RulesArgs),
    /// Measure the engine's single-threaded throughput.
    Bench(bench::BenchArgs),
    /// Play bots against each other on duplicate deals and rate them.
    ///
    /// Every pairing (every pair of bots; with --gauntlet the first bot
    /// against each other; with --ladder each bot against the next) plays
    /// the same N deals (whole games, or one hand each with --one-hand),
    /// each deal once for every way of giving the teams to the two bots
    /// (twice with two teams: the sides swapped), so the luck of the cards
    /// cancels. Reported: win rate (ties count half) with its 95% Wilson
    /// interval, mean score margin per hand, Elo ratings fitted to all
    /// results, and each bot's habits (going out while its side scores less
    /// in the hand, pile takes, discards an opponent took the pile with).
    /// Deal d draws its decks
    /// and the bots' seeds from the stream (seed, d): results are identical
    /// for any thread count. A bot may be `cmd:PROGRAM ARGS`, a program
    /// speaking the bot protocol (docs/bot-protocol.md).
    Tournament(tournament::TournamentArgs),
    /// Serve a built-in bot over the bot protocol on stdin and stdout.
    ///
    /// Reads JSON lines (`game`, then `decision` messages) and answers every
    /// decision with one line `{"action": "..."}` in the record notation.
    /// See docs/bot-protocol.md.
    BotServe(bot_serve::BotServeArgs),
    /// Run the game server: play in the browser, with friends and bots.
    ///
    /// Prints the address to open. Games are kept in DATA_DIR (an SQLite
    /// file) and resume when the server starts again. The HTTP and
    /// WebSocket API is in docs/server-api.md.
    Serve(serve::ServeArgs),
    /// Load-test the game server: many tables at once over WebSockets.
    ///
    /// Starts a server on loopback (or uses --url), creates the tables,
    /// takes every seat with clients that choose among the legal actions
    /// the server sends, and reports actions a second and the time from an
    /// action's arrival at the server to its broadcast (p50, p99).
    Load(serve::LoadArgs),
    /// Export the game records a server keeps, finished or not.
    ///
    /// Writes the records kept in DATA_DIR in the record format, for
    /// `canasta check` or `canasta replay`. Without --out the records go to stdout one after another (each
    /// starting with its header); with --out, one file `ID.jsonl` a table.
    /// Reading is safe while the server runs.
    Export(serve::ExportArgs),
    /// Show the help of a command (`canasta help sim`), or this list.
    Help {
        /// The command.
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

/// Options shared by commands that set up a game.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Rule preset (`canasta variants` lists them).
    #[arg(long, short = 'v', default_value = "classic", value_name = "V")]
    pub variant: String,
    /// Number of players [default: the preset's].
    #[arg(long, short = 'p', value_name = "N")]
    pub players: Option<u8>,
    /// Bots, one a seat or one for all (comma-separated).
    ///
    /// Built in: random, heuristic, ismcts (= ismcts-medium), ismcts-easy,
    /// ismcts-hard, ismcts-expert, and a search bot with a budget after `@`:
    /// ismcts@250ms (a quarter of a second a move), ismcts-hard@5000 (5000
    /// iterations), and threads after `/`: ismcts@250ms/2. `cmd:PROGRAM ARGS` seats a program speaking the bot
    /// protocol (docs/bot-protocol.md). Default: random (for `play`: ismcts).
    #[arg(long, short = 'b', value_delimiter = ',', value_name = "B,...")]
    pub bots: Vec<String>,
    /// A house rule, KEY=VALUE (repeatable).
    ///
    /// The value is read as JSON, else as text. `canasta variants V` lists
    /// the preset's options with their defaults and the values they take.
    /// Example: -o black_three_freezes=true -o target=3000.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Stop a game unfinished after N hands.
    ///
    /// A game that has not reached the target after this many hands stops
    /// and is reported as unfinished (random bots in six-player Canastone
    /// sink below zero and never finish).
    #[arg(long, default_value_t = 500, value_name = "N")]
    pub max_hands: u32,
}

/// The command line as clap describes it, with its help wrapped to
/// [`HELP_WIDTH`].
fn command() -> clap::Command {
    help::wrapped(Cli::command(), HELP_WIDTH)
}

/// The parsed command line; a parse error (or `--help`) is printed and the
/// process exits, a long value in the error shortened.
fn parse() -> Cli {
    let parsed = command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    match parsed {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            let rendered = e.render().to_string();
            let short = text::shorten_quoted_with(&rendered, &['\'', '`']);
            if short.len() == rendered.len() {
                e.exit()
            }
            eprint!("{short}");
            std::process::exit(e.exit_code())
        }
        Err(e) => e.exit(),
    }
}

fn main() -> ExitCode {
    let cli = parse();
    let result = match cli.command {
        Command::Play(a) => play::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Sim(a) => sim::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Variants(a) => variants::run(&a),
        Command::Rules(a) => variants::run_rules(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Tournament(a) => tournament::run(&a),
        Command::BotServe(a) => bot_serve::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Load(a) => serve::load(&a),
        Command::Export(a) => serve::export(&a),
        Command::Help { command } => print_help(command.as_deref()),
    };
    match result {
        Ok(code) => code,
        // The reader of stdout went away: nothing more to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", text::shorten_quoted(&error_text(&e)));
            ExitCode::FAILURE
        }
    }
}

/// `canasta help [COMMAND]`: the command's long help, or the list.
fn print_help(name: Option<&str>) -> anyhow::Result<ExitCode> {
    let mut cmd = command();
    let help = match name {
        // As `canasta --help` shows it.
        None => cmd.render_help(),
        Some(name) => match cmd.find_subcommand_mut(name) {
            Some(sub) => sub.render_long_help(),
            None => {
                let known: Vec<String> = command()
                    .get_subcommands()
                    .map(|c| c.get_name().to_string())
                    .collect();
                anyhow::bail!(
                    "no command `{}` (the commands: {})",
                    text::excerpt(name),
                    known.join(", ")
                );
            }
        },
    };
    outln!("{}", help.to_string().trim_end());
    Ok(ExitCode::SUCCESS)
}

/// The error and its causes, as `{:#}` writes them, less the causes that
/// the message before already quotes (library errors often say their
/// source in their own words as well as giving it as their source).
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.ends_with(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn an_error_says_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::AddrInUse, "Address already in use");
        let quoted = anyhow::Error::new(io)
            .context("cannot listen on 127.0.0.1:8080: Address already in use");
        assert_eq!(
            error_text(&quoted),
            "cannot listen on 127.0.0.1:8080: Address already in use"
        );
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let plain = anyhow::Error::new(io).context("cannot read games.jsonl");
        assert_eq!(error_text(&plain), "cannot read games.jsonl: No such file");
    }
}
