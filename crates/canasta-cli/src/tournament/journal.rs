//! A tournament's games kept as they end (`--save FILE`), so that a run of
//! many hours survives an interruption and goes on where it stopped.
//!
//! The file is JSON lines: a header naming the run (rules, seed, unit),
//! then one line a finished game. A game is found again by its pairing's
//! two bot names, its deal and its colouring: deal d of a seed is the same
//! cards whatever else the run holds, so a game read back is the game a
//! new run would play (for bots whose play depends on the seed alone).
//! Each line is written whole with one append, so stopping the run loses
//! only the games in progress (a machine that fails may lose more: the
//! file is not synced); a last line cut short is dropped when the file is
//! read again. A run locks its file: one run at a time.

use super::{GameResult, Job};
use crate::tournament::behaviour::Behaviour;
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// The file format's version, in every header.
const FORMAT: u32 = 1;

/// What makes two runs' games the same games: the rules, the seed that
/// draws every deal, and what a unit is.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RunHeader {
    pub canasta_tournament: u32,
    pub variant: String,
    pub players: u8,
    /// The house rules that differ from the preset's.
    pub options: Map<String, Value>,
    pub seed: u64,
    /// `game` (whole games) or `deal` (one hand a deal, `--one-hand`).
    pub unit: String,
    /// Hands after which a game stops unfinished (1 with one hand a deal).
    pub max_hands: u32,
    /// The build that began the file (version and commit): a resumed run
    /// of another build says so, since its bots may play otherwise.
    #[serde(default)]
    pub written_by: String,
}

impl RunHeader {
    pub fn new(
        rules: &canasta_core::Rules,
        seed: u64,
        one_hand: bool,
        max_hands: u32,
    ) -> RunHeader {
        RunHeader {
            canasta_tournament: FORMAT,
            variant: rules.game.variant.to_string(),
            players: rules.game.players,
            options: canasta_core::record::Header::for_rules(rules, None).options,
            seed,
            unit: if one_hand { "deal" } else { "game" }.to_string(),
            max_hands: if one_hand { 1 } else { max_hands.max(1) },
            written_by: concat!("canasta ", env!("CANASTA_VERSION")).to_string(),
        }
    }

    /// The first field in which `saved` differs from this run, in words.
    fn mismatch(&self, saved: &RunHeader) -> Option<String> {
        let differs = |what: &str, theirs: String, ours: String| {
            Some(format!("the file's {what} is {theirs}, this run's {ours}"))
        };
        if saved.canasta_tournament != self.canasta_tournament {
            return differs(
                "format",
                saved.canasta_tournament.to_string(),
                self.canasta_tournament.to_string(),
            );
        }
        if saved.variant != self.variant || saved.players != self.players {
            return differs(
                "variant",
                format!("{} for {}", saved.variant, saved.players),
                format!("{} for {}", self.variant, self.players),
            );
        }
        if saved.options != self.options {
            return differs(
                "house rules",
                Value::Object(saved.options.clone()).to_string(),
                Value::Object(self.options.clone()).to_string(),
            );
        }
        if saved.seed != self.seed {
            return differs("seed", saved.seed.to_string(), self.seed.to_string());
        }
        if saved.unit != self.unit {
            return differs("unit", saved.unit.clone(), self.unit.clone());
        }
        if saved.max_hands != self.max_hands {
            return differs(
                "--max-hands",
                saved.max_hands.to_string(),
                self.max_hands.to_string(),
            );
        }
        None
    }
}

/// Which game of a run: the pairing's bots by name, first and second,
/// the deal, and which teams the second bot played (bit t: team t).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    pub a: String,
    pub b: String,
    pub deal: u64,
    pub colouring: u32,
}

impl GameKey {
    pub fn of(job: &Job, names: &[String], pairs: &[(usize, usize)]) -> GameKey {
        let (a, b) = pairs[job.pair];
        GameKey {
            a: names[a].clone(),
            b: names[b].clone(),
            deal: job.deal,
            colouring: job.colouring,
        }
    }
}

/// One line of the file: a game and what it meant for the first bot.
#[derive(Serialize, Deserialize)]
struct Line {
    a: String,
    b: String,
    deal: u64,
    colouring: u32,
    /// 1 if the first bot won, 0 a tie (or unfinished), -1 a loss.
    result: i8,
    unfinished: bool,
    hands: u32,
    margin: f64,
    behaviour: [Behaviour; 2],
}

impl Line {
    fn of(key: &GameKey, r: &GameResult) -> Line {
        Line {
            a: key.a.clone(),
            b: key.b.clone(),
            deal: key.deal,
            colouring: key.colouring,
            result: r.result as i8,
            unfinished: r.unfinished,
            hands: r.hands,
            margin: r.margin,
            behaviour: r.behaviour,
        }
    }

    fn split(self) -> anyhow::Result<(GameKey, GameResult)> {
        let result = match self.result {
            1 => Ordering::Greater,
            0 => Ordering::Equal,
            -1 => Ordering::Less,
            other => bail!("result {other} is not 1, 0 or -1"),
        };
        Ok((
            GameKey {
                a: self.a,
                b: self.b,
                deal: self.deal,
                colouring: self.colouring,
            },
            GameResult {
                result,
                unfinished: self.unfinished,
                hands: self.hands,
                margin: self.margin,
                behaviour: self.behaviour,
            },
        ))
    }
}

/// The open file, shared by the threads that finish games.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    /// A game could not be written.
    failed: AtomicBool,
}

impl Journal {
    /// Opens `path` for the run `header`, creating it if needed, and
    /// returns the games it already holds. A file of another run is
    /// refused with the field that differs, and one in use by another run
    /// is refused; a line that is not a game is refused with its number,
    /// but for a last line cut short by an interrupted write, which is
    /// dropped (said on stderr). The file is changed only once all of it
    /// has been read and accepted.
    pub fn open(
        path: &Path,
        header: &RunHeader,
    ) -> anyhow::Result<(Journal, HashMap<GameKey, GameResult>)> {
        let shown = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("cannot open {shown} to save the games"))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                bail!("{shown} is in use by another run (one run at a time on a file)")
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {shown}"));
            }
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {shown}"))?;
        let mut saved = HashMap::new();
        if bytes.is_empty() {
            let mut line = serde_json::to_string(header).expect("a header serializes");
            line.push('\n');
            file.write_all(line.as_bytes())
                .with_context(|| format!("cannot write to {shown}"))?;
            return Ok((Journal::new(path, file), saved));
        }
        // Whole lines, and what follows the last newline.
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let (lines, tail) = bytes.split_at(whole);
        let text = std::str::from_utf8(lines)
            .with_context(|| format!("{shown} is not text (is this a file of `--save`?)"))?;
        // Every line, the tail last (`None`: cut inside a character).
        let whole_lines = text.lines().count();
        let mut all: Vec<Option<&str>> = text.lines().map(Some).collect();
        if !tail.is_empty() {
            all.push(std::str::from_utf8(tail).ok());
        }
        // The header first: a file of something else is left untouched.
        let first = all.first().copied().flatten().unwrap_or_default();
        let theirs: RunHeader = serde_json::from_str(first).with_context(|| {
            format!("{shown}: line 1 is not a tournament's header (is this a file of `--save`?)")
        })?;
        if let Some(why) = header.mismatch(&theirs) {
            bail!("{shown} holds the games of another run: {why}");
        }
        if theirs.written_by != header.written_by {
            eprintln!(
                "{shown} was begun by {}, this is {}: its games stand only if the bots play as \
                 they did",
                theirs.written_by, header.written_by
            );
        }
        // What to do once every line is read and accepted: nothing, end
        // the last line (complete, its newline never written), or cut it
        // (cut short).
        let mut mend = (whole_lines == 0).then_some(true);
        for (i, line) in all.iter().enumerate().skip(1) {
            let number = i + 1;
            let at_tail = i == whole_lines;
            let Some(line) = line else {
                mend = Some(false);
                continue;
            };
            if line.trim().is_empty() {
                continue;
            }
            let parsed = serde_json::from_str::<Line>(line)
                .map_err(anyhow::Error::from)
                .and_then(Line::split);
            match parsed {
                Ok((key, result)) => {
                    if at_tail {
                        mend = Some(true);
                    }
                    // Two runs on one file (before it was locked) could
                    // write a game twice: the first stands.
                    saved.entry(key).or_insert(result);
                }
                Err(_) if at_tail => mend = Some(false),
                Err(e) => return Err(e.context(format!("{shown}: line {number} is not a game"))),
            }
        }
        match mend {
            Some(true) => file
                .write_all(b"\n")
                .with_context(|| format!("cannot write to {shown}"))?,
            Some(false) => {
                eprintln!(
                    "{shown}: its last line was cut short (an interrupted write) and is dropped"
                );
                file.set_len(whole as u64)
                    .with_context(|| format!("cannot mend {shown}"))?;
            }
            None => {}
        }
        Ok((Journal::new(path, file), saved))
    }

    fn new(path: &Path, file: File) -> Journal {
        Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            failed: AtomicBool::new(false),
        }
    }

    /// Appends one finished game, whole, in one write: it survives the
    /// program being stopped, not the machine failing.
    pub fn record(&self, key: &GameKey, result: &GameResult) -> Result<(), String> {
        let mut line = serde_json::to_string(&Line::of(key, result)).expect("a game serializes");
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes()).map_err(|e| {
            self.failed.store(true, AtomicOrdering::Relaxed);
            format!("cannot save a game to {}: {e}", self.path.display())
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A game could not be saved: the run stops rather than play on for
    /// hours with nowhere to keep its games.
    pub fn has_failed(&self) -> bool {
        self.failed.load(AtomicOrdering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(seed: u64) -> RunHeader {
        RunHeader::new(&canasta_core::Rules::classic(), seed, false, 500)
    }

    fn key(deal: u64) -> GameKey {
        GameKey {
            a: "heuristic".into(),
            b: "random".into(),
            deal,
            colouring: 1,
        }
    }

    fn result(margin: f64) -> GameResult {
        let mut behaviour = [Behaviour::default(); 2];
        behaviour[1].pickups = 3;
        behaviour[0]
            .thinking
            .add(std::time::Duration::from_nanos(1234));
        GameResult {
            result: Ordering::Less,
            unfinished: false,
            hands: 4,
            margin,
            behaviour,
        }
    }

    #[test]
    fn games_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (journal, saved) = Journal::open(&path, &header(7)).unwrap();
        assert!(saved.is_empty());
        journal.record(&key(0), &result(-12.375)).unwrap();
        journal.record(&key(1), &result(0.1 + 0.2)).unwrap();
        // A bot holding three teams' cards: a mean of three totals.
        journal.record(&key(2), &result(-1235.0 / 3.0)).unwrap();
        drop(journal);
        let (_, saved) = Journal::open(&path, &header(7)).unwrap();
        assert_eq!(saved.len(), 3);
        let r = &saved[&key(1)];
        assert_eq!(r.margin, 0.1 + 0.2, "a margin reads back exactly");
        assert_eq!(saved[&key(2)].margin, -1235.0 / 3.0);
        assert_eq!(r.result, Ordering::Less);
        assert_eq!(r.behaviour, result(0.0).behaviour);
    }

    #[test]
    fn another_runs_file_is_refused_with_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        drop(Journal::open(&path, &header(7)).unwrap());
        let err = Journal::open(&path, &header(8)).err().unwrap();
        assert!(
            format!("{err:#}").contains("the file's seed is 7, this run's 8"),
            "{err:#}"
        );
        let one_hand = RunHeader::new(&canasta_core::Rules::classic(), 7, true, 500);
        let err = Journal::open(&path, &one_hand).err().unwrap();
        assert!(format!("{err:#}").contains("unit is game"), "{err:#}");
    }

    #[test]
    fn a_line_cut_short_is_dropped_and_a_bad_line_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (journal, _) = Journal::open(&path, &header(7)).unwrap();
        journal.record(&key(0), &result(5.0)).unwrap();
        drop(journal);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"a":"heuristic","b":"ran"#).unwrap();
        drop(f);
        let (journal, saved) = Journal::open(&path, &header(7)).unwrap();
        assert_eq!(saved.len(), 1);
        journal.record(&key(1), &result(6.0)).unwrap();
        drop(journal);
        let (_, saved) = Journal::open(&path, &header(7)).unwrap();
        assert_eq!(saved.len(), 2, "the file was mended before the append");

        std::fs::write(&path, {
            let mut t = std::fs::read_to_string(&path).unwrap();
            t.push_str("not a game\n");
            t
        })
        .unwrap();
        let err = Journal::open(&path, &header(7)).err().unwrap();
        assert!(
            format!("{err:#}").contains("line 4 is not a game"),
            "{err:#}"
        );
    }

    #[test]
    fn a_complete_last_line_without_its_newline_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (journal, _) = Journal::open(&path, &header(7)).unwrap();
        journal.record(&key(0), &result(5.0)).unwrap();
        drop(journal);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.trim_end()).unwrap();
        let (journal, saved) = Journal::open(&path, &header(7)).unwrap();
        assert_eq!(saved.len(), 1, "the game stands");
        journal.record(&key(1), &result(6.0)).unwrap();
        drop(journal);
        assert_eq!(Journal::open(&path, &header(7)).unwrap().1.len(), 2);

        // The header alone, without its newline.
        let line = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, line.lines().next().unwrap()).unwrap();
        let (journal, saved) = Journal::open(&path, &header(7)).unwrap();
        assert!(saved.is_empty());
        journal.record(&key(3), &result(1.0)).unwrap();
        drop(journal);
        assert_eq!(Journal::open(&path, &header(7)).unwrap().1.len(), 1);
    }

    #[test]
    fn a_bad_line_leaves_the_file_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (journal, _) = Journal::open(&path, &header(7)).unwrap();
        journal.record(&key(0), &result(5.0)).unwrap();
        drop(journal);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("not a game\n{\"a\":\"cut sh");
        std::fs::write(&path, &text).unwrap();
        let err = Journal::open(&path, &header(7)).err().unwrap();
        assert!(
            format!("{err:#}").contains("line 3 is not a game"),
            "{err:#}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "not mended");
    }

    #[test]
    fn one_run_at_a_time_on_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (first, _) = Journal::open(&path, &header(7)).unwrap();
        let err = Journal::open(&path, &header(7)).err().unwrap();
        assert!(
            format!("{err:#}").contains("in use by another run"),
            "{err:#}"
        );
        drop(first);
        assert!(
            Journal::open(&path, &header(7)).is_ok(),
            "free once the first run ends"
        );
    }

    #[test]
    fn a_file_of_something_else_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "shopping list\n").unwrap();
        let err = Journal::open(&path, &header(7)).err().unwrap();
        assert!(
            format!("{err:#}").contains("line 1 is not a tournament's header"),
            "{err:#}"
        );
    }
}
