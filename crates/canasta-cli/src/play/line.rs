//! The line mode of `canasta play`: the position as text, one action per
//! line in the record notation. It is what `play` does without a terminal,
//! so a game can be scripted, piped and tested.

use super::session::{Next, Session};
use super::view::{TableView, position_lines};
use crate::check::{hand_lines, members};
use crate::text::{excerpt, shorten_quoted};
use canasta_core::Team;
use canasta_core::{Action, HandResult, Rules};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

/// How the line mode runs.
#[derive(Clone, Debug, Default)]
pub struct LineOptions {
    /// Wait this long before each bot move.
    pub pace: Duration,
    /// Where `save` writes when not given a file, and where the game is
    /// saved when it stops (end of input, `quit`, game over).
    pub save: Option<PathBuf>,
    /// Repeat each line read after the prompt (input from a file or a pipe
    /// is not shown by a terminal, and a transcript reads better with it).
    pub echo: bool,
    /// Clear the terminal before passing the keyboard to another human, so
    /// that the last hand is not left on the screen.
    pub clear_between_humans: bool,
}

const HELP: &str = "\
actions, in the record notation:
  draw                     take from the stock
  pickup                   take the pile onto your side's meld of its rank
  pickup C C [/ G ...]     take the pile with cards from hand (and new melds)
  meld G [/ G ...]         lay new melds, e.g. meld KS KH KD / 5C 5D 2H
  add M C [C ...]          add cards to your side's meld number M
  discard C                discard and end the turn
  ask / yes / no           ask partner to go out / answer
commands:
  legal       list every legal action      show    print the position again
  hint        what the strongest bot would play, and why
              (`hint numbers`: the search's figures too)
  undo        take back your last action (one human against bots)
  save [FILE] write the game record        quit    stop (saving if --save)
cards: rank then suit (7H, TS, JK); input is case-insensitive";

/// Seat labels for the table: `human` or the bot's name.
pub fn seat_names(session: &Session) -> Vec<String> {
    session
        .seats()
        .iter()
        .map(|s| s.name().to_string())
        .collect()
}

/// The legal actions in a few lines: all of them when few, else by kind
/// with a count and examples (every discard is listed).
pub fn legal_summary(legal: &[Action]) -> String {
    if legal.len() <= 12 {
        let all: Vec<String> = legal.iter().map(Action::to_string).collect();
        return format!("you can: {}", all.join(" | "));
    }
    let mut kinds: Vec<(String, Vec<String>)> = Vec::new();
    for a in legal {
        let text = a.to_string();
        let verb = text.split_whitespace().next().unwrap_or("").to_string();
        match kinds.iter_mut().find(|(v, _)| *v == verb) {
            Some((_, list)) => list.push(text),
            None => kinds.push((verb, vec![text])),
        }
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|(verb, list)| {
            if list.len() == 1 {
                list[0].clone()
            } else if verb == "discard" {
                let cards: Vec<&str> = list.iter().map(|t| &t[8..]).collect();
                format!("discard {}", cards.join("/"))
            } else {
                let examples: Vec<&str> = list.iter().take(3).map(String::as_str).collect();
                format!("{verb} ({} ways, e.g. {})", list.len(), examples.join(", "))
            }
        })
        .collect();
    format!(
        "you can: {}\n(`legal` lists all {})",
        parts.join(" | "),
        legal.len()
    )
}

/// The end of a game in words: totals and the winner.
pub fn game_over_lines(session: &Session) -> Vec<String> {
    game_over_text(
        session.rules(),
        session.hands_played(),
        session.scores(),
        session.winner().flatten(),
    )
}

/// The end of a game in words, from its facts.
pub fn game_over_text(
    rules: &Rules,
    hands: u32,
    scores: &[i32],
    winner: Option<Team>,
) -> Vec<String> {
    let totals: Vec<String> = scores.iter().map(i32::to_string).collect();
    let mut lines = vec![format!(
        "=== game over after {hands} hand{}; totals {}",
        if hands == 1 { "" } else { "s" },
        totals.join(", ")
    )];
    lines.push(match winner {
        Some(t) => format!("winner: team {t} ({})", members(rules, t)),
        None => "a tie".to_string(),
    });
    lines
}

/// The hand's itemised score, as `canasta check` prints it.
pub fn hand_end_lines(session: &Session, result: &HandResult) -> Vec<String> {
    hand_lines(session.rules(), session.hands_played(), result)
}

struct Lines<'a, R, W> {
    session: &'a mut Session,
    input: R,
    out: &'a mut W,
    opts: LineOptions,
}

impl<R: BufRead, W: Write> Lines<'_, R, W> {
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn read(&mut self) -> anyhow::Result<Option<String>> {
        self.out.flush()?;
        let mut bytes = Vec::new();
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        // Bytes that are not UTF-8 become a line no action matches, and are
        // answered like any other unreadable line.
        let line = String::from_utf8_lossy(&bytes);
        if self.opts.echo {
            writeln!(self.out, "{}", excerpt(line.trim_end()))?;
        }
        Ok(Some(line.trim().to_string()))
    }

    /// Saves where --save says, when it says.
    fn save_on_stop(&mut self) -> anyhow::Result<()> {
        if let Some(path) = self.opts.save.clone() {
            self.session.save(&path)?;
            self.say(&format!("saved to {}", path.display()))?;
        }
        Ok(())
    }

    fn show(&mut self, seat: usize) -> anyhow::Result<()> {
        let view = TableView::new(
            &self.session.observe(seat),
            self.session.rules(),
            &seat_names(self.session),
        );
        for line in position_lines(&view) {
            self.say(&line)?;
        }
        let legal = self.session.human_legal();
        self.say(&legal_summary(&legal))
    }

    fn run(&mut self) -> anyhow::Result<()> {
        let humans: Vec<usize> = self.session.humans().collect();
        let names = seat_names(self.session);
        let seats: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{i} {n}"))
            .collect();
        let rules = self.session.rules();
        self.say(&format!(
            "{}, {}, target {}; seed {}; seats: {}; type `help` for commands",
            rules.variant_name(),
            super::view::players_words(rules),
            rules.game.target,
            self.session
                .shown_seed()
                .map_or("from the clock, shown at the end".to_string(), |s| s
                    .to_string()),
            seats.join(", ")
        ))?;
        let mut dirty = true;
        let mut last_human: Option<usize> = None;
        loop {
            match self.session.next() {
                Next::Deal => {
                    let d = self.session.deal()?;
                    let again = match d.annulled {
                        0 => String::new(),
                        1 => " (after an annulled deal)".into(),
                        n => format!(" (after {n} annulled deals)"),
                    };
                    self.say(&format!(
                        "\n=== hand {}: dealer seat {}{again}",
                        d.hand, d.dealer
                    ))?;
                    dirty = true;
                }
                Next::Bot(_) => {
                    std::thread::sleep(self.opts.pace);
                    let played = self.session.play_bot()?;
                    self.say(&played.describe(None))?;
                    if let Some(result) = &played.hand_end {
                        self.say("")?;
                        for line in hand_end_lines(self.session, result) {
                            self.say(&line)?;
                        }
                    }
                    dirty = true;
                }
                Next::Human(seat) => {
                    if humans.len() > 1 && last_human.is_some_and(|h| h != seat) {
                        if self.opts.clear_between_humans {
                            // Clear the screen and its scrollback, cursor home.
                            write!(self.out, "\x1b[2J\x1b[3J\x1b[H")?;
                        }
                        self.say(&format!("\npass the keyboard to seat {seat}, press Enter"))?;
                        if self.read()?.is_none() {
                            return self.end_of_input();
                        }
                        dirty = true;
                    }
                    last_human = Some(seat);
                    if dirty {
                        self.show(seat)?;
                        dirty = false;
                    }
                    write!(self.out, "seat {seat}> ")?;
                    let Some(line) = self.read()? else {
                        return self.end_of_input();
                    };
                    match self.command(seat, &line)? {
                        Step::Stay => {}
                        Step::Changed => dirty = true,
                        Step::Quit => {
                            let saved = match self.opts.save {
                                Some(_) => String::new(),
                                None => format!(
                                    " (not saved; `{}` deals the same cards again)",
                                    self.session.same_cards_command()
                                ),
                            };
                            self.say(&format!("you left the table; the game stops here{saved}"))?;
                            return self.save_on_stop();
                        }
                    }
                }
                Next::GameOver => {
                    self.say("")?;
                    for line in game_over_lines(self.session) {
                        self.say(&line)?;
                    }
                    self.say(&format!("seed {}", self.session.seed()))?;
                    return self.save_on_stop();
                }
                Next::Stopped => {
                    let totals: Vec<String> =
                        self.session.scores().iter().map(i32::to_string).collect();
                    self.say(&format!(
                        "\n=== stopped after {}, short of the target; totals {}",
                        super::view::plural(self.session.hands_played() as usize, "hand"),
                        totals.join(", ")
                    ))?;
                    return self.save_on_stop();
                }
            }
        }
    }

    fn end_of_input(&mut self) -> anyhow::Result<()> {
        self.say("\nend of input: the game stops here")?;
        self.save_on_stop()
    }

    /// One line typed by the human at `seat`.
    fn command(&mut self, seat: usize, line: &str) -> anyhow::Result<Step> {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("").to_ascii_lowercase();
        match first.as_str() {
            "" => Ok(Step::Stay),
            "help" | "?" => {
                self.say(HELP)?;
                Ok(Step::Stay)
            }
            "show" | "position" => Ok(Step::Changed),
            "legal" => {
                for a in self.session.human_legal() {
                    self.say(&format!("  {a}"))?;
                }
                Ok(Step::Stay)
            }
            "hint" => {
                // `hint numbers`: the search's figures behind the advice.
                let numbers = words
                    .next()
                    .is_some_and(|w| w.starts_with("num") || w == "why");
                match self.session.hint() {
                    Some(h) if numbers => {
                        self.say(&format!("hint: {}\n  {}", h.advice, h.figures))?
                    }
                    Some(h) => {
                        self.say(&format!("hint: {} (`hint numbers`: the figures)", h.advice))?
                    }
                    None => self.say("no hint: it is not your turn")?,
                }
                Ok(Step::Stay)
            }
            "undo" => match self.session.undo() {
                Ok(()) => {
                    self.say("undone: back to before your last action")?;
                    Ok(Step::Changed)
                }
                Err(why) => {
                    self.say(&format!("cannot undo: {why}"))?;
                    Ok(Step::Stay)
                }
            },
            "save" => {
                let path = words.next().map(PathBuf::from).or(self.opts.save.clone());
                match path {
                    None => {
                        self.say("save needs a file name: save FILE (or start with --save FILE)")?
                    }
                    Some(path) => match self.session.save(&path) {
                        Ok(()) => {
                            self.say(&format!("saved to {}", path.display()))?;
                            // Where the game is saved again when it stops.
                            self.opts.save = Some(path);
                        }
                        Err(e) => self.say(&format!("cannot save: {e:#}"))?,
                    },
                }
                Ok(Step::Stay)
            }
            "quit" | "exit" => Ok(Step::Quit),
            _ => {
                let action: Action = match line.parse() {
                    Ok(a) => a,
                    Err(e) => {
                        let e = shorten_quoted(&e.to_string());
                        self.say(&format!(
                            "cannot read `{}`: {e} (type `help`)",
                            excerpt(line)
                        ))?;
                        return Ok(Step::Stay);
                    }
                };
                match self.session.play_human(action) {
                    Ok(played) => {
                        self.say(&played.describe(Some(seat)))?;
                        if let Some(result) = &played.hand_end {
                            self.say("")?;
                            for line in hand_end_lines(self.session, result) {
                                self.say(&line)?;
                            }
                        }
                        Ok(Step::Changed)
                    }
                    Err(refusal) => {
                        self.say(&refusal.to_string())?;
                        Ok(Step::Stay)
                    }
                }
            }
        }
    }
}

/// What a typed line did.
enum Step {
    Stay,
    Changed,
    Quit,
}

/// Plays `session` reading `input` and writing `out` until the game ends,
/// the input ends or the human quits.
///
/// # Errors
/// Output that cannot be written, a bot that fails, a save that fails at
/// the end.
pub fn run<R: BufRead, W: Write>(
    session: &mut Session,
    input: R,
    out: &mut W,
    opts: LineOptions,
) -> anyhow::Result<()> {
    let mut lines = Lines {
        session,
        input,
        out,
        opts,
    };
    let result = lines.run();
    if result.is_err() {
        // A failed bot, a closed output: the game so far is still saved
        // where --save says (the error is the one reported).
        if let Some(path) = lines.opts.save.clone() {
            let _ = lines.session.save(&path);
        }
    }
    let _ = lines.out.flush();
    result
}
