//! The full-screen game (ratatui over crossterm): keys select cards and
//! act, bots move one at a time at a pace the user sets, and every screen
//! is drawn by [`render`] from the acting human's view alone.

use super::line::{game_over_lines, hand_end_lines, seat_names};
use super::render::{Overlay, Screen, render};
use super::session::{Dealt, Next, Played, Session};
use super::view::{TableView, hand_groups};
use canasta_core::{Action, Card, CardCounts, Group, Groups};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const KEYS: &str = "←→ move  space select  g group  d draw  p pick up  m meld  a add  x discard  k ask  y/n answer  h hint  u undo  s save  : type  +/- pace  ? help  q quit";

const HELP: &[&str] = &[
    "←/→        move along your hand       space   select / unselect the card",
    "g          mark the selection as one group (for a meld of several groups)",
    "Esc        clear the selection and the groups",
    "d          draw from the stock",
    "p          pick up the pile: with the selected cards (and groups), or",
    "           with nothing selected onto your side's meld of its rank",
    "m          meld the groups and the selection (naturals split by rank)",
    "a          add the selection to a meld, then its number if asked: a digit",
    "           plays at once, or waits for a second one (1 then 2 for meld 12)",
    "           when the side has more than ten melds",
    "x          discard the card under the cursor (or the one selected)",
    "k          ask partner to go out      y / n   answer partner",
    ":          type an action in the record notation (meld 7H 7D 2C)",
    "h          hint: what the strongest bot would play, and why",
    "u          undo your last action (one human against bots)",
    "s          save the game record (to --save FILE, or canasta-save.jsonl;",
    "           quitting and the game's end then save there again)",
    "+ / -      bots play slower / faster   q  quit (Ctrl-C too)",
    "",
    "[KS] is selected, <KS> is in a marked group; the pile top shows FROZEN",
    "when it takes a natural pair; canastas are marked natural or mixed.",
];

/// A line of the move list. Moves are worded for whoever is watching when
/// the screen is drawn: a card drawn shows only to the seat that drew it,
/// also after the keyboard has passed to another human.
enum LogLine {
    Text(String),
    Move(Box<Played>),
}

/// What the keys do now.
enum Mode {
    Play,
    /// `a` was pressed with this group: waiting for the meld number,
    /// typed so far (several digits where the side has ten melds or more).
    ChooseMeld(Group, String),
    /// Typing an action after `:`.
    Typing(String),
    /// A box to read; Enter (or Esc) closes it.
    Reading(Overlay),
    /// The game is over (or stopped short of its target): q leaves.
    Ended(Overlay),
    /// Between two humans: the table is hidden until Enter.
    PassKeyboard(usize),
    /// Leave the game? `back` is what the keys did before; `failed` is why
    /// saving on the way out failed (y then leaves without saving).
    ConfirmQuit {
        back: Box<Mode>,
        failed: Option<String>,
    },
}

/// Where `s` saves when `--save` names no file.
const DEFAULT_SAVE: &str = "canasta-save.jsonl";

/// The line the move list gives a deal.
fn deal_line(d: &Dealt) -> String {
    let annulled = match d.annulled {
        0 => String::new(),
        1 => " (after an annulled deal)".into(),
        n => format!(" (after {n} annulled deals)"),
    };
    format!("--- hand {} dealt by seat {}{annulled}", d.hand, d.dealer)
}

struct App<'a> {
    session: &'a mut Session,
    names: Vec<String>,
    /// The human whose chair the screen shows.
    viewer: usize,
    hand: CardCounts,
    cards: Vec<Card>,
    selected: Vec<bool>,
    /// Groups marked with `g` (indexes into `cards`).
    groups: Vec<Vec<usize>>,
    cursor: usize,
    log: Vec<LogLine>,
    message: String,
    refused: bool,
    mode: Mode,
    pace: Duration,
    last_move: Instant,
    /// Where the game saves: --save's file, or the one `s` saved to.
    save: Option<PathBuf>,
    /// Where `s` saves when there is no such file yet.
    default_save: PathBuf,
    /// With several humans the table stays hidden until the first of them
    /// to act takes the keyboard.
    hidden: bool,
    /// A hint was asked for: computed after the next frame shows "thinking".
    hint_due: bool,
    quit: bool,
}

/// Plays `session` full screen until the user quits.
///
/// # Errors
/// The terminal fails, or a bot does.
pub fn run(session: &mut Session, pace: Duration, save: Option<PathBuf>) -> anyhow::Result<()> {
    let mut app = App::new(session, pace, save);
    let mut terminal = ratatui::init();
    let result = app.main_loop(&mut terminal);
    ratatui::restore();
    result
}

impl<'a> App<'a> {
    fn new(session: &'a mut Session, pace: Duration, save: Option<PathBuf>) -> App<'a> {
        let viewer = session.humans().next().unwrap_or(0);
        let hidden = session.humans().count() > 1;
        let names = seat_names(session);
        App {
            session,
            names,
            viewer,
            hand: CardCounts::new(),
            cards: Vec::new(),
            selected: Vec::new(),
            groups: Vec::new(),
            cursor: 0,
            log: Vec::new(),
            message: if hidden {
                "hot seat: the table shows when the first of you to act takes the keyboard".into()
            } else {
                "your game: press ? for the keys".into()
            },
            refused: false,
            mode: Mode::Play,
            pace,
            last_move: Instant::now(),
            save,
            default_save: PathBuf::from(DEFAULT_SAVE),
            hidden,
            hint_due: false,
            quit: false,
        }
    }
}

impl App<'_> {
    fn main_loop(&mut self, terminal: &mut DefaultTerminal) -> anyhow::Result<()> {
        while !self.quit {
            self.advance()?;
            self.sync_hand();
            let view = self.view();
            let overlay = self.overlay();
            let grouped = self.grouped_flags();
            let log = self.log_lines();
            terminal.draw(|f| {
                render(
                    f,
                    &self.screen(view.as_ref(), overlay.as_ref(), &grouped, &log),
                )
            })?;
            if self.hint_due {
                self.hint_due = false;
                self.hint();
                continue;
            }
            let wait = match (self.session.next(), &self.mode) {
                (Next::Bot(_), Mode::Play) => self.pace.saturating_sub(self.last_move.elapsed()),
                _ => Duration::from_millis(250),
            };
            if event::poll(wait)? {
                if let Event::Key(key) = event::read()?
                    && key.kind == KeyEventKind::Press
                {
                    self.key(key);
                }
            } else if matches!(self.session.next(), Next::Bot(_)) && matches!(self.mode, Mode::Play)
            {
                let played = self.session.play_bot()?;
                self.after(played);
            }
        }
        Ok(())
    }

    /// Deals, ends and hands over where nobody needs to press a key.
    fn advance(&mut self) -> anyhow::Result<()> {
        if !matches!(self.mode, Mode::Play) {
            return Ok(());
        }
        match self.session.next() {
            Next::Deal => {
                let d = self.session.deal()?;
                self.log.push(LogLine::Text(deal_line(&d)));
                self.last_move = Instant::now();
            }
            Next::Human(seat) if seat != self.viewer || self.hidden => {
                // Nothing of the last player's may stay on screen.
                self.say("", false);
                self.mode = Mode::PassKeyboard(seat);
            }
            Next::GameOver => {
                let lines = game_over_lines(self.session);
                self.end("game over", lines);
            }
            Next::Stopped => {
                let lines = vec![format!(
                    "the game stopped after {} hands, short of the target; totals {}",
                    self.session.hands_played(),
                    self.session
                        .scores()
                        .iter()
                        .map(i32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )];
                self.end("stopped", lines);
            }
            _ => {}
        }
        Ok(())
    }

    /// The box at the game's end, which saves the game where it saves
    /// and may now show the seed (from the clock, it would have let a
    /// player recompute every deal).
    fn end(&mut self, title: &str, mut lines: Vec<String>) {
        lines.push(format!("seed {}", self.session.seed()));
        match self.autosave() {
            Some(Ok(path)) => lines.push(format!("saved to {}", path.display())),
            Some(Err(e)) => lines.push(format!("not saved: {e}")),
            None => {}
        }
        lines.push(String::new());
        lines.push("press q to leave".into());
        self.mode = Mode::Ended(Overlay {
            title: title.into(),
            lines,
        });
    }

    /// The table is hidden: between two humans, or before the first of
    /// several takes the keyboard.
    fn table_hidden(&self) -> bool {
        self.hidden
            || match &self.mode {
                Mode::PassKeyboard(_) => true,
                Mode::ConfirmQuit { back, .. } => matches!(**back, Mode::PassKeyboard(_)),
                _ => false,
            }
    }

    fn view(&self) -> Option<TableView> {
        if self.table_hidden() {
            return None;
        }
        let obs = self.session.observe(self.viewer);
        Some(TableView::new(&obs, self.session.rules(), &self.names))
    }

    fn overlay(&self) -> Option<Overlay> {
        match &self.mode {
            Mode::Reading(o) | Mode::Ended(o) => Some(o.clone()),
            Mode::PassKeyboard(seat) => Some(Overlay {
                title: "hot seat".into(),
                lines: vec![format!(
                    "pass the keyboard to seat {seat}, then press Enter"
                )],
            }),
            Mode::ConfirmQuit { failed, .. } => Some(Overlay {
                title: "quit?".into(),
                lines: match (failed, &self.save) {
                    (Some(e), _) => vec![
                        format!("not saved: {e}"),
                        "leave without saving? y / n".into(),
                    ],
                    (None, Some(p)) => vec![format!(
                        "leave the game (it saves to {})? y / n",
                        p.display()
                    )],
                    (None, None) => vec!["leave the game (not saved: s saves first)? y / n".into()],
                },
            }),
            _ => None,
        }
    }

    fn screen<'s>(
        &'s self,
        view: Option<&'s TableView>,
        overlay: Option<&'s Overlay>,
        grouped: &'s [bool],
        log: &'s [String],
    ) -> Screen<'s> {
        let (message, keys): (&str, &str) = match &self.mode {
            Mode::ChooseMeld(_, _) => (
                "add to which meld? type its number, Enter if it could go on (Esc cancels)",
                KEYS,
            ),
            Mode::Typing(text) => (
                text.as_str(),
                "type an action (draw, meld 7H 7D 2C, add 0 KS, discard 4H); Enter plays it, Esc cancels",
            ),
            _ => (self.message.as_str(), KEYS),
        };
        Screen {
            view,
            cards: &self.cards,
            cursor: self.cursor,
            selected: &self.selected,
            grouped,
            log,
            message,
            refused: self.refused,
            keys,
            overlay,
        }
    }

    /// The move list as the viewer may read it.
    fn log_lines(&self) -> Vec<String> {
        self.log
            .iter()
            .map(|l| match l {
                LogLine::Text(t) => t.clone(),
                LogLine::Move(p) => p.describe(Some(self.viewer)),
            })
            .collect()
    }

    /// Which cards are in a marked group.
    fn grouped_flags(&self) -> Vec<bool> {
        let mut flags = vec![false; self.cards.len()];
        for &i in self.groups.iter().flatten() {
            flags[i] = true;
        }
        flags
    }

    /// Rebuilds the card list when the viewer's hand changed.
    fn sync_hand(&mut self) {
        let hand = self.session.observe(self.viewer).hand;
        if hand == self.hand && self.cards.len() == hand.total() {
            return;
        }
        self.hand = hand;
        let (groups, wilds) = hand_groups(&hand);
        self.cards = groups.into_iter().flatten().chain(wilds).collect();
        self.selected = vec![false; self.cards.len()];
        self.groups.clear();
        self.cursor = self.cursor.min(self.cards.len().saturating_sub(1));
    }

    fn say(&mut self, text: impl Into<String>, refused: bool) {
        self.message = text.into();
        self.refused = refused;
    }

    fn key(&mut self, key: KeyEvent) {
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        match std::mem::replace(&mut self.mode, Mode::Play) {
            // A second Ctrl-C leaves as y does.
            Mode::ConfirmQuit { back, failed } => match key.code {
                KeyCode::Char('y') => self.leave(back, failed),
                _ if ctrl_c => self.leave(back, failed),
                _ => self.mode = *back,
            },
            mode if ctrl_c => self.confirm_quit(mode),
            Mode::Play => self.play_key(key.code),
            Mode::ChooseMeld(group, mut typed) => match key.code {
                KeyCode::Char(c) if c.is_ascii_digit() && typed.len() < 2 => {
                    typed.push(c);
                    // Played at once unless another digit could still
                    // name one of the side's melds.
                    let number: usize = typed.parse().unwrap_or(0);
                    if number == 0 || number * 10 >= self.own_meld_count() {
                        self.add_to(group, &typed);
                    } else {
                        self.mode = Mode::ChooseMeld(group, typed);
                    }
                }
                KeyCode::Enter if !typed.is_empty() => self.add_to(group, &typed),
                KeyCode::Backspace => {
                    typed.pop();
                    self.mode = Mode::ChooseMeld(group, typed);
                }
                KeyCode::Esc => {}
                _ => self.mode = Mode::ChooseMeld(group, typed),
            },
            Mode::Typing(mut text) => match key.code {
                KeyCode::Enter => match text.parse::<Action>() {
                    Ok(a) => self.act(a),
                    Err(e) => self.say(format!("cannot read `{text}`: {e}"), true),
                },
                KeyCode::Esc => {}
                KeyCode::Backspace => {
                    text.pop();
                    self.mode = Mode::Typing(text);
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    self.mode = Mode::Typing(text);
                }
                _ => self.mode = Mode::Typing(text),
            },
            // Closed, the last hand's box gives way to the game's end.
            Mode::Reading(o) => match key.code {
                KeyCode::Enter | KeyCode::Esc | KeyCode::Char(' ') => {}
                KeyCode::Char('q') => self.confirm_quit(Mode::Reading(o)),
                _ => self.mode = Mode::Reading(o),
            },
            Mode::Ended(o) => match key.code {
                KeyCode::Char('q') => self.leave(Box::new(Mode::Ended(o)), None),
                _ => self.mode = Mode::Ended(o),
            },
            Mode::PassKeyboard(seat) => match key.code {
                KeyCode::Enter => {
                    self.viewer = seat;
                    self.hidden = false;
                    self.hand = CardCounts::new();
                    self.cards.clear();
                    self.say(format!("seat {seat}, your turn"), false);
                }
                KeyCode::Char('q') => self.confirm_quit(Mode::PassKeyboard(seat)),
                _ => self.mode = Mode::PassKeyboard(seat),
            },
        }
    }

    /// Asks whether to leave; any answer but y goes back to `back`.
    fn confirm_quit(&mut self, back: Mode) {
        self.mode = Mode::ConfirmQuit {
            back: Box::new(back),
            failed: None,
        };
    }

    /// Leaves, saving first where the game saves; a save that fails keeps
    /// the game open and says why (leaving then takes another y).
    fn leave(&mut self, back: Box<Mode>, failed: Option<String>) {
        if failed.is_none()
            && let Some(Err(e)) = self.autosave()
        {
            self.say(format!("not saved: {e}"), true);
            self.mode = Mode::ConfirmQuit {
                back,
                failed: Some(e),
            };
            return;
        }
        self.quit = true;
    }

    fn play_key(&mut self, code: KeyCode) {
        let n = self.cards.len();
        match code {
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(n.saturating_sub(1)),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = n.saturating_sub(1),
            KeyCode::Char(' ') if self.cursor < n => {
                let i = self.cursor;
                if !self.groups.iter().flatten().any(|&g| g == i) {
                    self.selected[i] = !self.selected[i];
                }
            }
            KeyCode::Esc => {
                self.clear_selection();
                self.say("", false);
            }
            KeyCode::Char('g') => {
                let picked = self.picked();
                if picked.is_empty() {
                    self.say("select the cards of a group first (space)", true);
                } else {
                    self.groups.push(picked);
                    self.selected.iter_mut().for_each(|s| *s = false);
                    self.say(format!("{} group(s) marked", self.groups.len()), false);
                }
            }
            KeyCode::Char('d') => self.act(Action::Draw),
            KeyCode::Char('p') => match self.groups_from_selection() {
                Ok(groups) if groups.is_empty() => self.act(Action::PickupOnto),
                Ok(groups) => {
                    let mut also = Groups::new();
                    for g in &groups[1..] {
                        also.push(*g);
                    }
                    self.act(Action::Pickup {
                        with: groups[0],
                        also,
                    });
                }
                Err(e) => self.say(e, true),
            },
            KeyCode::Char('m') => match self.groups_from_selection() {
                Ok(groups) if groups.is_empty() => {
                    self.say("select the cards to meld first (space)", true)
                }
                Ok(groups) => self.act(Action::Meld(groups.into_iter().collect())),
                Err(e) => self.say(e, true),
            },
            KeyCode::Char('a') => self.add(),
            KeyCode::Char('x') => {
                let picked = self.picked();
                let card = match picked.as_slice() {
                    [] if self.cursor < n => Some(self.cards[self.cursor]),
                    [i] => Some(self.cards[*i]),
                    _ => None,
                };
                match card {
                    Some(c) => self.act(Action::Discard(c)),
                    None => self.say("a discard is one card: select one, or none", true),
                }
            }
            KeyCode::Char('k') => self.act(Action::Ask),
            KeyCode::Char('y') => self.act(Action::Answer(true)),
            KeyCode::Char('n') => self.act(Action::Answer(false)),
            KeyCode::Char(':') => self.mode = Mode::Typing(String::new()),
            KeyCode::Char('h') => {
                if matches!(self.session.next(), Next::Human(_)) {
                    self.say("thinking...", false);
                    self.hint_due = true;
                } else {
                    self.say("a hint is for your turn", true);
                }
            }
            KeyCode::Char('u') => match self.session.undo() {
                Ok(()) => {
                    self.clear_selection();
                    self.log
                        .push(LogLine::Text("(you took back your last action)".into()));
                    self.say("undone: back to before your last action", false);
                }
                Err(why) => self.say(format!("cannot undo: {why}"), true),
            },
            KeyCode::Char('s') => {
                let path = self.save.clone().unwrap_or(self.default_save.clone());
                match self.session.save(&path) {
                    Ok(()) => {
                        let shown = std::path::absolute(&path).unwrap_or(path.clone());
                        self.say(
                            format!(
                                "saved to {} (canasta play --resume FILE); quitting saves there too",
                                shown.display()
                            ),
                            false,
                        );
                        self.save = Some(path);
                    }
                    Err(e) => self.say(format!("{e:#}"), true),
                }
            }
            KeyCode::Char('+') => {
                self.pace = (self.pace + Duration::from_millis(100)).min(Duration::from_secs(5));
                self.say(
                    format!("bots' pace: {} ms a move", self.pace.as_millis()),
                    false,
                );
            }
            KeyCode::Char('-') => {
                self.pace = self.pace.saturating_sub(Duration::from_millis(100));
                self.say(
                    format!("bots' pace: {} ms a move", self.pace.as_millis()),
                    false,
                );
            }
            KeyCode::Char('?') => {
                self.mode = Mode::Reading(Overlay {
                    title: "keys (Enter closes)".into(),
                    lines: HELP.iter().map(|l| l.to_string()).collect(),
                });
            }
            KeyCode::Char('q') => self.confirm_quit(Mode::Play),
            _ => {}
        }
    }

    fn clear_selection(&mut self) {
        self.selected.iter_mut().for_each(|s| *s = false);
        self.groups.clear();
    }

    /// Indexes of the selected cards.
    fn picked(&self) -> Vec<usize> {
        (0..self.cards.len())
            .filter(|&i| self.selected[i])
            .collect()
    }

    /// The marked groups, then the selection: as one group when it makes
    /// one (a rank with wild cards, a sequence), else split by rank.
    fn groups_from_selection(&self) -> Result<Vec<Group>, String> {
        let group = |idx: &[usize]| {
            let cards: Vec<Card> = idx.iter().map(|&i| self.cards[i]).collect();
            Group::from_cards(&cards).map_err(|_| {
                format!(
                    "{} is not one group: mark groups one at a time with g",
                    super::view::cards_text(&cards)
                )
            })
        };
        let mut out = Vec::new();
        for g in &self.groups {
            out.push(group(g)?);
        }
        let picked = self.picked();
        if picked.is_empty() {
            return Ok(out);
        }
        if let Ok(g) = group(&picked) {
            out.push(g);
            return Ok(out);
        }
        if picked.iter().any(|&i| self.cards[i].is_wild()) {
            return Err("with wild cards in several ranks, mark each group with g".into());
        }
        let mut start = 0;
        for k in 1..=picked.len() {
            if k == picked.len() || self.cards[picked[k]].rank() != self.cards[picked[start]].rank()
            {
                out.push(group(&picked[start..k])?);
                start = k;
            }
        }
        Ok(out)
    }

    /// `a`: the selection onto a meld, asking which unless one meld of the
    /// side has the rank.
    fn add(&mut self) {
        let picked = self.picked();
        if picked.is_empty() {
            self.say("select the cards to add first (space)", true);
            return;
        }
        let cards: Vec<Card> = picked.iter().map(|&i| self.cards[i]).collect();
        let Ok(group) = Group::from_cards(&cards) else {
            self.say(
                "cards added together must be of one rank (and wild cards)",
                true,
            );
            return;
        };
        let obs = self.session.observe(self.viewer);
        let own = &obs.melds[obs.side_of[self.viewer]];
        let rank = cards
            .iter()
            .find_map(|c| (!c.is_wild()).then(|| c.rank()).flatten());
        let matching: Vec<usize> = (0..own.len())
            .filter(|&m| rank.is_some() && own[m].rank() == rank && !own[m].cards.is_sequence())
            .collect();
        match matching.as_slice() {
            [m] => self.act(Action::Add {
                meld: *m as u8,
                cards: group,
            }),
            _ => self.mode = Mode::ChooseMeld(group, String::new()),
        }
    }

    /// Melds the viewer's side has on the table.
    fn own_meld_count(&self) -> usize {
        let obs = self.session.observe(self.viewer);
        obs.melds[obs.side_of[self.viewer]].len()
    }

    /// Adds `group` to the meld numbered `typed`.
    fn add_to(&mut self, cards: Group, typed: &str) {
        match typed.parse::<u8>() {
            Ok(meld) => self.act(Action::Add { meld, cards }),
            Err(_) => self.say(format!("`{typed}` is not a meld number"), true),
        }
    }

    /// Plays the human's action; a refusal shows the engine's reason.
    fn act(&mut self, action: Action) {
        match self.session.play_human(action) {
            Ok(played) => {
                self.say("", false);
                self.clear_selection();
                self.after(played);
            }
            Err(refusal) => self.say(refusal.to_string(), true),
        }
    }

    /// Logs a move and shows the hand's score when it ended the hand.
    fn after(&mut self, played: Played) {
        self.log.push(LogLine::Move(Box::new(played.clone())));
        self.last_move = Instant::now();
        if let Some(result) = &played.hand_end {
            let mut lines = hand_end_lines(self.session, result);
            lines.push(String::new());
            lines.push(
                match self.session.next() {
                    Next::GameOver => "Enter: the final totals",
                    Next::Stopped => "Enter: the end (the game's hand limit)",
                    _ => "Enter: the next hand",
                }
                .into(),
            );
            self.mode = Mode::Reading(Overlay {
                title: format!("hand {} is over", self.session.hands_played()),
                lines,
            });
        }
    }

    fn hint(&mut self) {
        match self.session.hint() {
            Some(h) => self.say(format!("hint: {} ({})", h.action, h.why), false),
            None => self.say("a hint is for your turn", true),
        }
    }

    /// Saves where the game saves, when it has such a file: the file, or
    /// why it could not be written.
    fn autosave(&self) -> Option<Result<PathBuf, String>> {
        let path = self.save.clone()?;
        Some(match self.session.save(&path) {
            Ok(()) => Ok(path),
            Err(e) => Err(format!("{e:#}")),
        })
    }
}

#[cfg(test)]
#[path = "tui_tests.rs"]
mod tests;
