//! `canasta tournament`: bots against each other on duplicate deals.
//!
//! Every pairing plays the same deals: deal d of the run draws its decks
//! (and the bots' seeds) from the stream (seed, d), so luck of the cards
//! cancels when the deal is played again with the sides swapped. With two
//! teams a deal is played twice; with k teams it is played once for every
//! way of giving the teams to the two bots that seats both (2^k - 2 ways),
//! so each bot holds every team's cards equally often. Games run in
//! parallel; results are gathered in job order, so they do not depend on the
//! thread count.

mod behaviour;
mod journal;

use crate::game::{Outcome, Setup, clock_seed, play_game, rules_from};
use crate::progress::Progress;
use crate::stats::{MarginSums, elo, wilson95};
use crate::text::{count, wrap};
use anyhow::{Context, bail};
use behaviour::{Behaviour, Watcher};
use canasta_core::Rules;
use canasta_core::Seat;
use clap::Args;
use journal::{GameKey, Journal, RunHeader};
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Rule preset (`canasta variants` lists them).
    #[arg(long, short = 'v', default_value = "classic", value_name = "V")]
    pub variant: String,
    /// Number of players [default: the preset's].
    #[arg(long, short = 'p', value_name = "N")]
    pub players: Option<u8>,
    /// The competitors, comma-separated (at least two).
    ///
    /// Built-in bots (random, heuristic, ismcts, ismcts-easy, ismcts-hard,
    /// ismcts-expert, ismcts@250ms, ...; see `canasta sim --help`) or
    /// `cmd:PROGRAM ARGS`, a program speaking the bot protocol
    /// (docs/bot-protocol.md). A name given twice plays as two bots.
    #[arg(long, short = 'b', value_delimiter = ',', required = true, num_args = 1.., value_name = "A,B,...")]
    pub bots: Vec<String>,
    /// Deals per pairing.
    ///
    /// Each deal is played once for every way of giving the teams to the
    /// two bots: twice with two teams (the sides swapped), six times with
    /// three teams.
    #[arg(long, short = 'n', default_value_t = 100, value_name = "N")]
    pub games: u64,
    /// Seed of the run [default: from the clock].
    ///
    /// The report shows the seed, so that a run can be played again.
    #[arg(long, short = 's', value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads [default: every core].
    ///
    /// At most 256. Results do not depend on it.
    #[arg(long, short = 't', value_name = "T")]
    pub threads: Option<usize>,
    /// The first bot against each other one (not every pair).
    #[arg(long, conflicts_with = "ladder")]
    pub gauntlet: bool,
    /// Each bot against the next one in the list only: the rungs of a
    /// ladder of levels, weakest first (Elo is fitted to the chain).
    ///
    /// Strong bots cost minutes a pairing; a ladder measures what a
    /// ladder claims (each level beats the one below) at a fraction of a
    /// round robin's cost.
    #[arg(long)]
    pub ladder: bool,
    /// A house rule, KEY=VALUE (repeatable).
    ///
    /// The value is read as JSON, else as text. `canasta variants V` lists
    /// the preset's options with their defaults and the values they take.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Stop a game unfinished after N hands (a tie).
    ///
    /// Games still short of the target after this many hands stop and
    /// count as ties.
    #[arg(long, default_value_t = 500, value_name = "N")]
    pub max_hands: u32,
    /// Each deal is one hand, not a whole game, played on every seating:
    /// the bot whose sides score more over its seatings wins the deal.
    ///
    /// A hand is the unit of duplicate play in clubs, and strong bots take
    /// minutes a game: hands give a ladder of many deals in hours. The
    /// seatings' points are summed as duplicate clubs compare the tables
    /// of a board, so the luck of the cards cancels out.
    #[arg(long, conflicts_with = "max_hands")]
    pub one_hand: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Keep every game in FILE as it ends, and go on from the games FILE
    /// already holds.
    ///
    /// A run of many hours survives an interruption: run the same command
    /// again (or with more --games, or more bots) and the games FILE holds
    /// are not played again; the report counts them with the new ones.
    /// FILE must be of the same rules, seed and --one-hand or --max-hands.
    /// A game is found in it by its two bots' names, its deal and its
    /// seating, so keep a FILE only while those bots play as they did (a
    /// bot with a time budget plays by the machine's speed).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

/// One game of the run: which pairing, which deal, which team colouring.
#[derive(Clone, Copy)]
struct Job {
    pair: usize,
    deal: u64,
    /// Bit t set: team t is played by the pairing's second bot.
    colouring: u32,
}

/// What one game meant for its pairing's first bot (with `--one-hand`,
/// the seatings of one deal summed: see [`GameResult::merge_seating`]).
#[derive(Clone)]
struct GameResult {
    /// Win, tie (or unfinished) or loss.
    result: std::cmp::Ordering,
    unfinished: bool,
    hands: u32,
    /// First bot's mean team total less the second's.
    margin: f64,
    /// What each bot did (first, second).
    behaviour: [Behaviour; 2],
}

/// Totals of one pairing, from its first bot's side.
#[derive(Default, Clone)]
struct PairTotals {
    games: u64,
    wins: u64,
    ties: u64,
    losses: u64,
    unfinished: u64,
    hands: u64,
    /// The first bot's score margins, unit by unit.
    margins: MarginSums,
    /// First bot's habits, second bot's.
    behaviour: [Behaviour; 2],
}

impl GameResult {
    /// Adds another seating of the same deal. With one hand a deal, the
    /// deal is scored as duplicate clubs score a board: each bot's sides
    /// are compared on the same cards, by the points they made, so the
    /// luck of the deal cancels. Counting each seating's hand as a win or
    /// a loss throws that away: most deals split one each, won by whoever
    /// held the cards, and a bot that makes more of the same cards wins
    /// no more of them (ismcts-hard against -medium, Classic 4, 400
    /// hands: +115 points a hand, yet 53.6% of hands).
    fn merge_seating(&mut self, other: &GameResult) {
        self.margin += other.margin;
        self.hands += other.hands;
        self.unfinished |= other.unfinished;
        self.behaviour[0].merge(&other.behaviour[0]);
        self.behaviour[1].merge(&other.behaviour[1]);
    }

    /// The deal's result: the first bot wins it when its sides scored more
    /// over the seatings.
    fn decided_by_margin(mut self) -> GameResult {
        self.result = self.margin.total_cmp(&0.0);
        self
    }
}

impl PairTotals {
    fn add(&mut self, r: &GameResult) {
        self.behaviour[0].merge(&r.behaviour[0]);
        self.behaviour[1].merge(&r.behaviour[1]);
        self.games += 1;
        match r.result {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Less => self.losses += 1,
            std::cmp::Ordering::Equal => self.ties += 1,
        }
        self.unfinished += u64::from(r.unfinished);
        self.hands += u64::from(r.hands);
        self.margins.add(r.margin, f64::from(r.hands));
    }

    fn score(&self) -> f64 {
        self.wins as f64 + 0.5 * self.ties as f64
    }

    fn swapped(&self) -> PairTotals {
        PairTotals {
            wins: self.losses,
            losses: self.wins,
            margins: self.margins.negated(),
            behaviour: [self.behaviour[1], self.behaviour[0]],
            ..self.clone()
        }
    }

    fn merge(&mut self, o: &PairTotals) {
        self.games += o.games;
        self.wins += o.wins;
        self.ties += o.ties;
        self.losses += o.losses;
        self.unfinished += o.unfinished;
        self.hands += o.hands;
        self.margins.merge(&o.margins);
        self.behaviour[0].merge(&o.behaviour[0]);
        self.behaviour[1].merge(&o.behaviour[1]);
    }

    fn per_hand(&self) -> f64 {
        self.margins.per_hand()
    }

    fn rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.score() / self.games as f64
        }
    }
}

/// A 95% interval as `55.2-95.3%`.
fn interval((lo, hi): (f64, f64)) -> String {
    format!("{:.1}-{:.1}%", 100.0 * lo, 100.0 * hi)
}

/// A margin's 95% interval as `-120.3 to -19.7` (`unbounded` from one unit).
fn margin_interval(ci: Option<(f64, f64)>) -> String {
    ci.map_or("unbounded".to_string(), |(lo, hi)| {
        format!("{lo:+.1} to {hi:+.1}")
    })
}

/// Distinct labels for the competitors (a name given twice gets `#2`).
fn labels(bots: &[String]) -> Vec<String> {
    bots.iter()
        .enumerate()
        .map(|(i, b)| {
            let k = bots[..i].iter().filter(|x| *x == b).count();
            if k == 0 {
                b.clone()
            } else {
                format!("{b}#{}", k + 1)
            }
        })
        .collect()
}

fn play(
    rules: &Rules,
    args: &TournamentArgs,
    pair: (usize, usize),
    job: Job,
    seed: u64,
    progress: &Progress,
) -> Result<GameResult, String> {
    let n = rules.game.players as usize;
    let teams = rules.game.teams as usize;
    let second = |t: usize| job.colouring & (1 << t) != 0;
    let bots = Seat::all(n)
        .map(|s| {
            let b = if second(rules.game.team_of(s).index()) {
                pair.1
            } else {
                pair.0
            };
            args.bots[b].clone()
        })
        .collect();
    let setup = Setup {
        rules: rules.clone(),
        bots,
        max_hands: if args.one_hand {
            1
        } else {
            args.max_hands.max(1)
        },
    };
    let mut second_seats = [false; canasta_core::state::MAX_SEATS];
    for (seat, is_second) in Seat::all(n).zip(second_seats.iter_mut()) {
        *is_second = second(rules.game.team_of(seat).index());
    }
    let mut watcher = Watcher::new(rules, second_seats);
    let played = play_game(&setup, seed, job.deal, &mut progress.observer(&mut watcher));
    progress.game_done(played.as_ref().map_or(0, |o| o.hands));
    let o: Outcome = played.map_err(|e| {
        let teams: Vec<String> = (0..teams)
            .filter(|&t| second(t))
            .map(|t| t.to_string())
            .collect();
        format!(
            "deal {} with `{}` at team{} {}: {e}",
            job.deal,
            args.bots[pair.1],
            if teams.len() == 1 { "" } else { "s" },
            teams.join(", ")
        )
    })?;
    let mean = |want_second: bool| {
        let xs: Vec<f64> = (0..teams)
            .filter(|&t| second(t) == want_second)
            .map(|t| f64::from(o.totals[t]))
            .collect();
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    let margin = mean(false) - mean(true);
    let result = match (o.finished, o.winner) {
        (true, Some(t)) if second(t) => std::cmp::Ordering::Less,
        (true, Some(_)) => std::cmp::Ordering::Greater,
        // One hand a deal: its points decide.
        (false, _) if args.one_hand => margin.total_cmp(&0.0),
        _ => std::cmp::Ordering::Equal,
    };
    Ok(GameResult {
        result,
        unfinished: !o.finished && !args.one_hand,
        hands: o.hands,
        margin,
        behaviour: watcher.counts,
    })
}

pub fn run(args: &TournamentArgs) -> anyhow::Result<ExitCode> {
    let rules = rules_from(&args.variant, args.players, &args.options)?;
    if args.bots.len() < 2 {
        bail!("a tournament needs at least two bots");
    }
    for name in &args.bots {
        crate::external::check_seat_name(name).map_err(anyhow::Error::msg)?;
    }
    let teams = rules.game.teams as usize;
    if !(2..=6).contains(&teams) {
        bail!("a tournament needs 2 to 6 teams, the rules have {teams}");
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let k = args.bots.len();
    let pairs: Vec<(usize, usize)> = if args.gauntlet {
        (1..k).map(|j| (0, j)).collect()
    } else if args.ladder {
        (1..k).map(|j| (j - 1, j)).collect()
    } else {
        (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect()
    };
    let colourings: Vec<u32> = (1..(1u32 << teams) - 1).collect();
    let jobs: Vec<Job> = (0..pairs.len())
        .flat_map(|pair| {
            let colourings = &colourings;
            (0..args.games).flat_map(move |deal| {
                colourings.iter().map(move |&colouring| Job {
                    pair,
                    deal,
                    colouring,
                })
            })
        })
        .collect();

    let names = labels(&args.bots);
    let (journal, saved) = match &args.save {
        Some(path) => {
            let header = RunHeader::new(&rules, seed, args.one_hand, args.max_hands);
            let (journal, saved) = Journal::open(path, &header)?;
            (Some(journal), saved)
        }
        None => Default::default(),
    };
    let key = |job: &Job| GameKey::of(job, &names, &pairs);
    let from_file = jobs.iter().filter(|j| saved.contains_key(&key(j))).count();

    let pool = crate::sim::thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let progress = Progress::new((jobs.len() - from_file) as u64);
    let start = Instant::now();
    let results: Vec<Result<GameResult, String>> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                if let Some(r) = saved.get(&key(job)) {
                    return Ok(r.clone());
                }
                if let Some(j) = journal.as_ref().filter(|j| j.has_failed()) {
                    // Saving failed: stop rather than play on, unsaved.
                    return Err(format!(
                        "not played: an earlier game could not be saved to {}",
                        j.path().display()
                    ));
                }
                let r = play(&rules, args, pairs[job.pair], *job, seed, &progress)?;
                if let Some(journal) = &journal {
                    journal.record(&key(job), &r)?;
                }
                Ok(r)
            })
            .collect()
    });
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    let played = jobs.len() - from_file;

    let mut per_pair = vec![PairTotals::default(); pairs.len()];
    // The unit of a pairing's record: a game, or with one hand a deal, a
    // deal on all its seatings (consecutive jobs), scored by its points.
    let unit_jobs = if args.one_hand { colourings.len() } else { 1 };
    for (unit, outcomes) in jobs.chunks(unit_jobs).zip(results.chunks(unit_jobs)) {
        let mut sum: Option<GameResult> = None;
        for (job, r) in unit.iter().zip(outcomes) {
            let r = r
                .as_ref()
                .map_err(|e| anyhow::anyhow!("{e}"))
                .with_context(|| {
                    let (a, b) = pairs[job.pair];
                    format!(
                        "`{}` against `{}` (seed {seed}) failed",
                        args.bots[a], args.bots[b]
                    )
                })?;
            match &mut sum {
                Some(s) => s.merge_seating(r),
                None => sum = Some(r.clone()),
            }
        }
        let sum = sum.expect("a unit has a job");
        per_pair[unit[0].pair].add(&if args.one_hand {
            sum.decided_by_margin()
        } else {
            sum
        });
    }
    let mut per_bot = vec![PairTotals::default(); k];
    let mut games = vec![vec![0.0; k]; k];
    let mut score = vec![vec![0.0; k]; k];
    for (&(a, b), t) in pairs.iter().zip(&per_pair) {
        per_bot[a].merge(t);
        per_bot[b].merge(&t.swapped());
        games[a][b] += t.games as f64;
        games[b][a] += t.games as f64;
        score[a][b] += t.score();
        score[b][a] += t.swapped().score();
    }
    let ratings = elo(&games, &score);
    let ci = |t: &PairTotals| wilson95(t.score(), t.games as f64);
    let per_deal = colourings.len();

    if args.json {
        let bots: Vec<_> = (0..k)
            .map(|i| {
                let t = &per_bot[i];
                let (lo, hi) = ci(t);
                json!({
                    "name": names[i],
                    "games": t.games,
                    "wins": t.wins,
                    "ties": t.ties,
                    "losses": t.losses,
                    "win_rate": t.rate(),
                    "ci95": [lo, hi],
                    "margin_per_hand": t.per_hand(),
                    "margin_ci95": t.margins.ci95().map(|(lo, hi)| [lo, hi]),
                    "elo": ratings[i],
                    "behaviour": t.behaviour[0].to_json(),
                    "thinking": t.behaviour[0].thinking.to_json(),
                })
            })
            .collect();
        let pairings: Vec<_> = pairs
            .iter()
            .zip(&per_pair)
            .map(|(&(a, b), t)| {
                let (lo, hi) = ci(t);
                json!({
                    "a": names[a],
                    "b": names[b],
                    "games": t.games,
                    "a_wins": t.wins,
                    "ties": t.ties,
                    "b_wins": t.losses,
                    "unfinished": t.unfinished,
                    "a_win_rate": t.rate(),
                    "ci95": [lo, hi],
                    "a_margin_per_hand": t.per_hand(),
                    "a_margin_ci95": t.margins.ci95().map(|(lo, hi)| [lo, hi]),
                })
            })
            .collect();
        let summary = json!({
            "variant": &rules.game.variant,
            "players": rules.game.players,
            "teams": rules.game.teams,
            "options": canasta_core::record::Header::for_rules(&rules, None).options,
            "seed": seed,
            "mode": if args.gauntlet {
                "gauntlet"
            } else if args.ladder {
                "ladder"
            } else {
                "round_robin"
            },
            "unit": if args.one_hand { "deal" } else { "game" },
            "deals_per_pairing": args.games,
            "games_per_deal": per_deal,
            "bots": bots,
            "pairings": pairings,
            "threads": threads,
            "seconds": seconds,
            "played_games": played,
            "saved_games": from_file,
        });
        outln!("{summary}");
        return Ok(ExitCode::SUCCESS);
    }

    let unit = if args.one_hand { "deal" } else { "game" };
    let how = if per_deal == 2 {
        "each played twice, the sides swapped".to_string()
    } else {
        format!(
            "each played {per_deal} times, every way of giving the {} teams to the two bots",
            rules.game.teams
        )
    };
    outln!(
        "{} tournament of {}",
        if args.gauntlet {
            "gauntlet"
        } else if args.ladder {
            "ladder"
        } else {
            "round-robin"
        },
        names.join(", ")
    );
    outln!(
        "{}",
        wrap(
            &format!(
                "{}, {} players {}; {} a pairing{}, {how}; seed {seed}",
                &rules.game.variant,
                rules.game.players,
                if rules.game.teams == rules.game.players {
                    "each for themselves".to_string()
                } else {
                    format!("in {} teams", rules.game.teams)
                },
                count(args.games, "deal"),
                if args.one_hand {
                    " (one hand each)"
                } else {
                    ""
                },
            ),
            80
        )
    );
    outln!();
    let width = names.iter().map(String::len).max().unwrap_or(3).max(3);
    outln!(
        "{:<width$}  {:>6} {:>6} {:>5} {:>6}  {:>6}  {:>12}  {:>8}  {:>5}",
        "bot",
        if args.one_hand { "deals" } else { "games" },
        "wins",
        "ties",
        "losses",
        "win %",
        "95% CI",
        "margin",
        "Elo"
    );
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
    for &i in &order {
        let t = &per_bot[i];
        outln!(
            "{:<width$}  {:>6} {:>6} {:>5} {:>6}  {:>5.1}%  {:>12}  {:>+8.1}  {:>5.0}",
            names[i],
            t.games,
            t.wins,
            t.ties,
            t.losses,
            100.0 * t.rate(),
            interval(ci(t)),
            t.per_hand(),
            ratings[i]
        );
    }
    outln!();
    let habits: Vec<Behaviour> = per_bot.iter().map(|t| t.behaviour[0]).collect();
    for line in behaviour::table(&names, &order, &habits) {
        outln!("{line}");
    }
    outln!();
    for line in behaviour::thinking_table(&names, &order, &habits) {
        outln!("{line}");
    }
    outln!();
    for (&(a, b), t) in pairs.iter().zip(&per_pair) {
        outln!(
            "{} vs {}: {}, {} wins, {} ties, {} losses{}",
            names[a],
            names[b],
            count(t.games, unit),
            t.wins,
            t.ties,
            t.losses,
            if t.unfinished > 0 {
                format!(" ({} unfinished, counted as ties)", t.unfinished)
            } else {
                String::new()
            }
        );
        outln!(
            "  {} wins {:.1}% (95% CI {}),\n  margin {:+.1} a hand (95% CI {})",
            names[a],
            100.0 * t.rate(),
            interval(ci(t)),
            t.per_hand(),
            margin_interval(t.margins.ci95())
        );
    }
    outln!();
    let what = if args.one_hand { "hand" } else { "game" };
    if played > 0 || from_file == 0 {
        outln!(
            "{} in {seconds:.2} s ({:.1} a second, {})",
            count(played as u64, what),
            if seconds > 0.0 {
                played as f64 / seconds
            } else {
                0.0
            },
            count(threads as u64, "thread")
        );
    }
    if let Some(path) = &args.save
        && played == 0
        && from_file > 0
    {
        outln!(
            "{}",
            wrap(
                &format!(
                    "nothing left to play: every {what} read back from {}, where an earlier \
                     run saved it ({} in all)",
                    path.display(),
                    count(jobs.len() as u64, what)
                ),
                80
            )
        );
    } else if let Some(path) = &args.save {
        outln!(
            "{}",
            wrap(
                &if from_file == 0 {
                    format!("each saved to {} as it ended", path.display())
                } else {
                    format!(
                        "each saved to {} as it ended, where an earlier run had saved {} more: \
                         {} in all",
                        path.display(),
                        count(from_file as u64, what),
                        count(jobs.len() as u64, what)
                    )
                },
                80
            )
        );
    }
    outln!("win %: ties count half; margin: mean score margin a hand; Elo: mean 1500");
    if args.one_hand {
        outln!(
            "{}",
            wrap(
                "a deal is won by the bot whose sides scored more over its seatings \
                 (duplicate scoring: the same cards, compared by points)",
                80
            )
        );
    }
    outln!(
        "{}",
        wrap(
            "went out behind: hands it ended while its side scored less in them; \
             takes: pile takes; fed: its discards an opponent took the pile with",
            80
        )
    );
    outln!(
        "{}",
        wrap(
            &format!(
                "thinking: wall-clock time of the decisions with a choice, {} running \
                 at once",
                count(threads as u64, "game")
            ),
            80
        )
    );
    Ok(ExitCode::SUCCESS)
}
