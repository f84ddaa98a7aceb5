//! What the keys do: selecting cards, grouping them, acting, and the
//! boxes that wait for a key (a meld number, a typed action, quitting).

use super::{App, HELP, LogLine, Mode};
use crate::play::hand::{HandOrder, cards_text};
use crate::play::render::Overlay;
use crate::play::session::Next;
use crate::text::excerpt;
use canasta_core::MeldId;
use canasta_core::{Action, Card, CardCounts, Group, Groups};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::Duration;

impl App<'_> {
    pub(super) fn key(&mut self, key: KeyEvent) {
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        match std::mem::replace(&mut self.mode, Mode::Play) {
            // A second Ctrl-C leaves as y does.
            Mode::ConfirmQuit { back, failed } => match key.code {
                KeyCode::Char('y') => self.leave(back, failed),
                // No save file yet: save to the default one and leave.
                KeyCode::Char('s') if self.save.is_none() && failed.is_none() => {
                    self.save = Some(self.default_save.clone());
                    self.leave(back, None);
                }
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
                    Err(e) => self.say(format!("cannot read `{}`: {e}", excerpt(&text)), true),
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
                    self.fresh = CardCounts::new();
                    self.last_hint = None;
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
                    let marked = match self.groups.len() {
                        1 => "1 group marked".to_string(),
                        n => format!("{n} groups marked"),
                    };
                    self.say(
                        format!(
                            "{marked}: select the next group, or m (meld) / p (pick up) with them"
                        ),
                        false,
                    );
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
            KeyCode::Char('o') => {
                self.order = self.order.toggled();
                // Re-sorted from scratch: a selection would point elsewhere.
                self.hand = CardCounts::new();
                self.clear_selection();
                self.say(
                    match self.order {
                        HandOrder::BySuit => "your hand by suit (o: by rank)",
                        HandOrder::ByRank => "your hand by rank (o: by suit)",
                    },
                    false,
                );
            }
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

    pub(super) fn clear_selection(&mut self) {
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
    pub(super) fn groups_from_selection(&self) -> Result<Vec<Group>, String> {
        let group = |idx: &[usize]| {
            let cards: Vec<Card> = idx.iter().map(|&i| self.cards[i]).collect();
            Group::from_cards(&cards).map_err(|_| {
                format!(
                    "{} is not one group: mark groups one at a time with g",
                    cards_text(&cards)
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
            let words = if self.session.rules().melds.sequences_allowed() {
                "cards added together must be of one rank (and wild cards), or of one suit, extending a sequence"
            } else {
                "cards added together must be of one rank (and wild cards)"
            };
            self.say(words, true);
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
                meld: MeldId::new(*m),
                cards: group,
            }),
            _ => self.mode = Mode::ChooseMeld(group, String::new()),
        }
    }

    /// Melds the viewer's side has on the table.
    pub(super) fn own_meld_count(&self) -> usize {
        let obs = self.session.observe(self.viewer);
        obs.melds[obs.side_of[self.viewer]].len()
    }

    /// Adds `group` to the meld numbered `typed`.
    fn add_to(&mut self, cards: Group, typed: &str) {
        match typed.parse::<u8>() {
            Ok(meld) => self.act(Action::Add {
                meld: MeldId::new(meld.into()),
                cards,
            }),
            Err(_) => self.say(format!("`{typed}` is not a meld number"), true),
        }
    }
}
