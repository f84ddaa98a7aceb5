//! The full-screen game (ratatui over crossterm): keys select cards and
//! act, bots move one at a time at a pace the user sets, and every screen
//! is drawn by [`render`] from the acting human's view alone.

use super::line::{game_over_lines, hand_end_lines, seat_names};
use super::render::{Overlay, Screen, render};

mod keys;
use super::hand::{HandOrder, hand_groups_in};
use super::session::{Dealt, Next, Played, Session};
use super::view::TableView;
use canasta_ai::Hint;
use canasta_core::{Action, Card, CardCounts, Group};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) const KEYS: &str = "←→ move  space select  g group  d draw  p pile  m meld  a add  x discard  k ask  y/n answer  h hint  o sort  u undo  s save  : type  ? help  q quit";

/// The key bar where no one may ask partner (no partners, or the rules
/// leave asking out): keys that could only be refused are not offered.
pub(crate) const KEYS_WITHOUT_ASKING: &str = "←→ move  space select  g group  d draw  p pile  m meld  a add  x discard  h hint  o sort  u undo  s save  : type  ? help  q quit";

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
    "h          hint: what the strongest bot would play, and why; h again",
    "           shows the search's figures behind it",
    "o          sort your hand by suit (to see runs, for Samba) or by rank",
    "u          undo your last action (one human against bots)",
    "s          save the game record (to --save FILE, or canasta-save.jsonl;",
    "           quitting and the game's end then save there again)",
    "+ / -      bots play slower / faster   q  quit (Ctrl-C too)",
    "",
    "Melds on a small screen: Q×4+2H+JK is four queens, a two and a joker;",
    "Q×4+2 four queens and two wild cards; 8H-TH a run; * a canasta (red:",
    "natural or samba, black: mixed).",
    "",
    "[KS] is selected, <KS> is in a marked group, ++ under a card: it came",
    "to your hand this turn (^+ with the cursor on it). Beside the pile:",
    "what stops you taking it or what takes it. Canastas: natural, mixed,",
    "samba...; a run of one suit (Samba) is marked run or sequence.",
    "",
    "How to play, with the scoring: canasta rules VARIANT (-p, -o as for play).",
];

/// A line of the move list. Moves are worded for whoever is watching when
/// the screen is drawn: a card drawn shows only to the seat that drew it,
/// also after the keyboard has passed to another human.
enum LogLine {
    Text(String),
    Move(Box<Played>),
    /// A move of the saved record a resumed game starts from: its seat
    /// and action.
    Recorded(usize, String),
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
    /// saving on the way out failed (y then leaves without saving). A game
    /// with no save file offers one (s).
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
    /// The last hint and the state it was for: `h` again shows its figures.
    last_hint: Option<(u64, Hint)>,
    /// How the hand is sorted (`o`).
    order: HandOrder,
    /// Cards that came into the viewer's hand this turn (draw, pile).
    fresh: CardCounts,
    /// Where the game was saved on the way out, for the farewell.
    saved_at_exit: Option<PathBuf>,
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
    // Back on the plain terminal: where the game is, so it is not lost.
    for line in app.farewell() {
        println!("{line}");
    }
    result
}

impl<'a> App<'a> {
    fn new(session: &'a mut Session, pace: Duration, save: Option<PathBuf>) -> App<'a> {
        let viewer = session.humans().next().unwrap_or(0);
        let hidden = session.humans().count() > 1;
        let names = seat_names(session);
        // A resumed game's list starts with the moves played before.
        let log = session
            .recorded_moves()
            .into_iter()
            .map(|(seat, text)| match seat {
                Some(seat) => LogLine::Recorded(seat, text),
                None => LogLine::Text(text),
            })
            .collect();
        App {
            session,
            names,
            viewer,
            hand: CardCounts::new(),
            cards: Vec::new(),
            selected: Vec::new(),
            groups: Vec::new(),
            cursor: 0,
            log,
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
            last_hint: None,
            order: HandOrder::ByRank,
            fresh: CardCounts::new(),
            saved_at_exit: None,
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
            let flags = (self.grouped_flags(), self.fresh_flags());
            let log = self.log_lines();
            terminal.draw(|f| {
                render(
                    f,
                    &self.screen(view.as_ref(), overlay.as_ref(), &flags, &log),
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
                    (None, None) => vec![
                        "leave the game? It is not saved:".into(),
                        format!("s saves it to {} and leaves", self.default_save.display()),
                        "y leaves without saving, n stays".into(),
                    ],
                },
            }),
            _ => None,
        }
    }

    fn screen<'s>(
        &'s self,
        view: Option<&'s TableView>,
        overlay: Option<&'s Overlay>,
        flags: &'s (Vec<bool>, Vec<bool>),
        log: &'s [String],
    ) -> Screen<'s> {
        let (grouped, fresh) = (&flags.0, &flags.1);
        let rules = self.session.rules();
        let keys_bar = if rules.going_out.asking_allowed && rules.game.may_have_partner() {
            KEYS
        } else {
            KEYS_WITHOUT_ASKING
        };
        let (message, keys): (&str, &str) = match &self.mode {
            Mode::ChooseMeld(_, typed) if typed.is_empty() => {
                if self.own_meld_count() > 10 {
                    (
                        "add to which meld? Type its number (two digits, or one and Enter); Esc cancels",
                        keys_bar,
                    )
                } else {
                    ("add to which meld? Type its number; Esc cancels", keys_bar)
                }
            }
            Mode::ChooseMeld(_, _) => (
                "meld number: a second digit, or Enter for this one; Esc cancels",
                keys_bar,
            ),
            Mode::Typing(text) => (
                text.as_str(),
                "type an action (draw, meld 7H 7D 2C, add 0 KS, discard 4H); Enter plays it, Esc cancels",
            ),
            _ => (self.message.as_str(), keys_bar),
        };
        Screen {
            view,
            cards: &self.cards,
            order: self.order,
            cursor: self.cursor,
            selected: &self.selected,
            grouped,
            fresh,
            log,
            message,
            refused: self.refused,
            keys,
            overlay,
        }
    }

    /// The move list as the viewer may read it: one line a turn (a seat's
    /// moves in a row: `seat 1: draw; meld 8S 8S 8D; discard 3S`), so
    /// that the last round fits a small screen.
    fn log_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut turn_of = None;
        for l in &self.log {
            let (seat, what) = match l {
                LogLine::Text(t) => (None, t.clone()),
                LogLine::Move(p) => (Some(p.seat), p.what(Some(self.viewer))),
                LogLine::Recorded(seat, action) => (Some(*seat), action.clone()),
            };
            match (seat, lines.last_mut()) {
                (Some(s), Some(last)) if turn_of == Some(s) => {
                    last.push_str("; ");
                    last.push_str(&what);
                }
                (Some(s), _) => lines.push(format!("seat {s}: {what}")),
                (None, _) => lines.push(what),
            }
            turn_of = seat;
        }
        lines
    }

    /// Which cards are in a marked group.
    fn grouped_flags(&self) -> Vec<bool> {
        let mut flags = vec![false; self.cards.len()];
        for &i in self.groups.iter().flatten() {
            flags[i] = true;
        }
        flags
    }

    /// Which cards came into the hand this turn (one of two identical
    /// cards is marked when one of them came).
    fn fresh_flags(&self) -> Vec<bool> {
        let mut left = self.fresh;
        self.cards.iter().map(|&c| left.remove(c)).collect()
    }

    /// Rebuilds the card list when the viewer's hand changed.
    fn sync_hand(&mut self) {
        let hand = self.session.observe(self.viewer).hand;
        if hand == self.hand && self.cards.len() == hand.total() {
            return;
        }
        self.hand = hand;
        let (groups, wilds) = hand_groups_in(&hand, self.order);
        self.cards = groups.into_iter().flatten().chain(wilds).collect();
        self.selected = vec![false; self.cards.len()];
        self.groups.clear();
        self.cursor = self.cursor.min(self.cards.len().saturating_sub(1));
    }

    fn say(&mut self, text: impl Into<String>, refused: bool) {
        self.message = text.into();
        self.refused = refused;
    }

    /// Plays the human's action; a refusal shows the engine's reason.
    fn act(&mut self, action: Action) {
        let before = self.session.observe(self.viewer).hand;
        match self.session.play_human(action) {
            Ok(played) => {
                self.say("", false);
                self.clear_selection();
                if matches!(
                    action,
                    Action::Draw | Action::Pickup { .. } | Action::PickupOnto
                ) {
                    // What is in the hand now and was not before (a hand
                    // that ended with the draw has gone to the score).
                    let mut came = self.session.observe(self.viewer).hand;
                    for (card, n) in before.faces() {
                        came.remove_up_to(card, n);
                    }
                    self.fresh = came;
                }
                self.after(played);
            }
            Err(refusal) => self.say(refusal.to_string(), true),
        }
    }

    /// Logs a move and shows the hand's score when it ended the hand.
    fn after(&mut self, played: Played) {
        if played.seat == self.viewer && matches!(played.action, Action::Discard(_))
            || played.hand_end.is_some()
        {
            self.fresh = CardCounts::new();
        }
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

    /// The advice in words; asked again for the same position, the
    /// search's figures behind it.
    fn hint(&mut self) {
        let now = self.session.state_id();
        if let Some((at, h)) = &self.last_hint
            && *at == now
        {
            let text = format!("hint `{}`: {}", h.action, h.figures);
            self.say(text, false);
            return;
        }
        match self.session.hint() {
            Some(h) => {
                self.say(format!("hint: {} (h again: the figures)", h.advice), false);
                self.last_hint = Some((now, h));
            }
            None => self.say("a hint is for your turn", true),
        }
    }

    /// What the terminal says once the screen is gone: where the game is
    /// saved and how to go on, or that it was not saved.
    fn farewell(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let over = matches!(self.session.next(), Next::GameOver | Next::Stopped);
        if over {
            lines.extend(
                game_over_lines(self.session)
                    .into_iter()
                    .map(|l| l.trim_start_matches("=== ").to_string()),
            );
        }
        match (&self.saved_at_exit, over) {
            (Some(path), true) => lines.push(format!("the record is in {}", shown(path))),
            (Some(path), false) => {
                lines.push(format!("the game is saved in {}", shown(path)));
                lines.push(format!("go on with: canasta play --resume {}", shown(path)));
            }
            (None, true) => {}
            (None, false) => {
                lines.push("the game was not saved.".into());
                lines.push(format!(
                    "`{}` deals the same cards again",
                    self.session.same_cards_command()
                ));
            }
        }
        lines
    }

    /// Saves where the game saves, when it has such a file: the file, or
    /// why it could not be written.
    fn autosave(&mut self) -> Option<Result<PathBuf, String>> {
        let path = self.save.clone()?;
        Some(match self.session.save(&path) {
            Ok(()) => {
                self.saved_at_exit = Some(path.clone());
                Ok(path)
            }
            Err(e) => Err(format!("{e:#}")),
        })
    }
}

/// A path as the player can type it back: absolute.
fn shown(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or(path.to_path_buf())
        .display()
        .to_string()
}

#[cfg(test)]
mod tests;
