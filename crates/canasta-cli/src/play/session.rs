//! A game at a table of humans and bots, with no terminal in it: the line
//! mode and the full-screen game both drive this model, so what one can do
//! the other can, and tests reach all of it without a terminal.
//!
//! What the session keeps secret: bots get only `Decision::new(&state,
//! &legal)` (their seat's view and samples of the hidden cards), and a user
//! interface gets only a seat's [`Observation`] plus public facts — never
//! the game state, so no screen can show a card its player could not see.
//!
//! Randomness, so that a saved game resumes exactly as it would have gone
//! on: the random stream (seed, 0) gives each seat's bot seed (seat 0 first)
//! and then the first dealer, as in `canasta sim`; the k-th deal of the game
//! (counting from 0, annulled deals included) shuffles its deck, and draws
//! the first player where the variant draws one, from the stream
//! (seed, k + 1). A resumed game counts the `deal` lines of its record, so
//! its next deck is the one the unbroken game would have dealt. Bots' own
//! random choices start afresh after a resume; after an undo they go on
//! from where their streams stood, so the same move may meet other replies.
//!
//! Undo never takes back a card the player has seen: an action that turned
//! up hidden cards (a draw, a pickup with a face-down packet or a stock
//! card, a foot) cannot be undone, nor anything before it.

use crate::external::seat_bot;
use anyhow::{Context, bail};
use canasta_ai::{Bot, Decision, HINT_TIME, Hint};
use canasta_core::record::{Header, RecordError, RecordErrorKind, Replay, write};
use canasta_core::{
    Action, ActionList, CardCounts, CardStyle, DealOutcome, GameState, HandResult, IllegalAction,
    Observation, Phase, Rng, Rules, shuffled_deck,
};
use canasta_core::{Seat as SeatNumber, Team};
use serde_json::Value;

/// The name a record's header gives a seat played at the keyboard.
pub const HUMAN_NAME: &str = "human";

/// Who sits where: a human at the keyboard, or a bot by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Bot(String),
}

impl Seat {
    /// The seat's name in the record header (`human` or the bot's name).
    pub fn name(&self) -> &str {
        match self {
            Seat::Human => HUMAN_NAME,
            Seat::Bot(b) => b,
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The next hand must be dealt ([`Session::deal`]).
    Deal,
    /// A human at this seat must act ([`Session::play_human`]).
    Human(usize),
    /// The bot at this seat acts ([`Session::play_bot`]).
    Bot(usize),
    /// A team reached the target.
    GameOver,
    /// The game reached its hand limit short of the target.
    Stopped,
}

/// One action as it happened, with what the table saw of it.
#[derive(Clone, Debug)]
pub struct Played {
    pub seat: usize,
    pub action: Action,
    /// Cards drawn: for the acting seat's eyes only.
    drawn: CardCounts,
    /// Red threes laid out by the action (public).
    pub red_threes: usize,
    /// Cards taken with the pile (public).
    pub pile_taken: usize,
    /// Cards of the foot picked up when the hand ran out (Pennies; public).
    pub foot_taken: usize,
    /// The hand's score, when the action ended it.
    pub hand_end: Option<HandResult>,
}

impl Played {
    /// The action in words for `viewer`: the cards drawn are shown only to
    /// the seat that drew them.
    pub fn describe(&self, viewer: Option<usize>) -> String {
        format!("seat {}: {}", self.seat, self.what(viewer))
    }

    /// The same without the seat: `draw -> 7H`, `pickup 7S 7H (takes the
    /// pile: 9 cards)`.
    pub fn what(&self, viewer: Option<usize>) -> String {
        let mut text = self.action.to_string();
        if viewer == Some(self.seat) && !self.drawn.is_empty() {
            text.push_str(&format!(" -> {}", self.drawn));
        }
        if self.pile_taken > 0 {
            text.push_str(&format!(
                " (takes the pile: {})",
                super::view::plural(self.pile_taken, "card")
            ));
        }
        if self.red_threes > 0 {
            text.push_str(&format!(" (red threes laid out: {})", self.red_threes));
        }
        if self.foot_taken > 0 {
            text.push_str(&format!(
                " (picks up the foot: {})",
                super::view::plural(self.foot_taken, "card")
            ));
        }
        text
    }
}

/// A hand dealt: its number, dealer, and deals the rules annulled first.
#[derive(Clone, Copy, Debug)]
pub struct Dealt {
    pub hand: u32,
    pub dealer: usize,
    pub annulled: usize,
}

/// Why a human's input was not played.
#[derive(Debug)]
pub enum Refusal {
    /// Not a human's turn (a bot acts, or the hand is over).
    NotHumansTurn,
    /// The engine refused the action; its reason is in plain words.
    Illegal(IllegalAction),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotHumansTurn => f.write_str("it is not your turn"),
            Refusal::Illegal(e) => write!(f, "`{}` is refused: {}", e.action, e.reason),
        }
    }
}

/// The state before a human's action, to undo it and all that followed.
struct Snapshot {
    state: GameState,
    record_len: usize,
    deals: u64,
    next_dealer: usize,
}

/// A game in progress.
pub struct Session {
    state: GameState,
    seed: u64,
    seats: Vec<Seat>,
    bots: SeatBots,
    /// The record so far, one line each, exactly as saved.
    record: Vec<String>,
    /// `deal` lines in the record (annulled deals included).
    deals: u64,
    next_dealer: usize,
    undo: Vec<Snapshot>,
    /// A human's action turned up hidden cards: undo stops there.
    sealed: bool,
    /// The seed was chosen from the clock: not shown before the game ends.
    seed_secret: bool,
    max_hands: u32,
    legal: ActionList,
}

/// Each seat's bot (`None` for a human).
type SeatBots = Vec<Option<Box<dyn Bot>>>;

/// The bots' seeds and the first dealer, from the stream (seed, 0).
fn bots_and_dealer(rules: &Rules, seats: &[Seat], seed: u64) -> anyhow::Result<(SeatBots, usize)> {
    let n = rules.game.players as usize;
    let mut rng = Rng::stream(seed, 0);
    let seeds: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    let mut bots = Vec::with_capacity(n);
    for (seat, kind) in seats.iter().enumerate() {
        bots.push(match kind {
            Seat::Human => None,
            Seat::Bot(name) => {
                Some(seat_bot(name, rules, seat, seeds[seat]).map_err(anyhow::Error::msg)?)
            }
        });
    }
    Ok((bots, rng.below(n)))
}

impl Session {
    /// A new game under `rules`, waiting for its first deal.
    ///
    /// # Errors
    /// A seat list of the wrong length, or a bot that cannot be set up.
    pub fn new(rules: Rules, seats: Vec<Seat>, seed: u64, max_hands: u32) -> anyhow::Result<Self> {
        if seats.len() != rules.game.players as usize {
            bail!("{} seats for {} players", seats.len(), rules.game.players);
        }
        let (bots, dealer) = bots_and_dealer(&rules, &seats, seed)?;
        let mut header = Header::for_rules(&rules, Some(seed));
        header.names = Some(seats.iter().map(|s| s.name().to_string()).collect());
        let record = vec![serde_json::to_string(&header)?];
        Ok(Session {
            state: GameState::new(rules),
            seed,
            seats,
            bots,
            record,
            deals: 0,
            next_dealer: dealer,
            undo: Vec::new(),
            sealed: false,
            seed_secret: false,
            max_hands: max_hands.max(1),
            legal: ActionList::new(),
        })
    }

    /// The header of a record (its first non-blank line): for choosing the
    /// seats before [`Session::resume`].
    ///
    /// # Errors
    /// No header on the first line.
    pub fn record_header(text: &str) -> Result<Header, RecordError> {
        let (i, first) = text
            .lines()
            .enumerate()
            .find(|(_, l)| !l.trim().is_empty())
            .unwrap_or((0, ""));
        let err = |kind| RecordError { line: i + 1, kind };
        let value: Value =
            serde_json::from_str(first).map_err(|e| err(RecordErrorKind::Json(e.to_string())))?;
        if value.get("canasta_record").is_none() {
            return Err(err(RecordErrorKind::MissingHeader));
        }
        serde_json::from_value(value).map_err(|e| err(RecordErrorKind::Header(e.to_string())))
    }

    /// The game a record holds, continued from where it stops (in the
    /// middle of a hand, between hands, or over). The record is checked as
    /// `canasta check` does; it must hold one game.
    ///
    /// # Errors
    /// The first bad line as `line N: reason`, a `hand_end`/`game_end` that
    /// disagrees with the replay, a second game, or a bot that cannot start.
    pub fn resume(text: &str, seats: Vec<Seat>, max_hands: u32) -> anyhow::Result<Self> {
        let mut replay: Option<Replay> = None;
        let mut record = Vec::new();
        let (mut deals, mut last_dealer, mut actions_since_deal) = (0u64, None, 0usize);
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = raw.trim();
            if raw.is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(raw).map_err(|e| RecordError {
                line,
                kind: RecordErrorKind::Json(e.to_string()),
            })?;
            match replay.as_mut() {
                None => replay = Some(Replay::start(&value, line)?),
                Some(_) if value.get("canasta_record").is_some() => {
                    bail!("line {line}: a second game; a saved game holds one")
                }
                Some(r) => {
                    r.feed(&value, line)
                        .map_err(|kind| RecordError { line, kind })?;
                    if let Some(d) = value.get("dealer").and_then(Value::as_u64) {
                        deals += 1;
                        last_dealer = Some(d as usize);
                        actions_since_deal = 0;
                    } else if value.get("action").is_some() {
                        actions_since_deal += 1;
                    }
                }
            }
            record.push(raw.to_string());
        }
        let replay = replay.context("the record is empty")?;
        let state = replay.state().clone();
        let report = replay.finish();
        if let Some(m) = report.mismatches.first() {
            bail!("line {}: {}", m.line, m.message);
        }
        let header = Session::record_header(text)?;
        let seed = header.seed.unwrap_or_else(crate::game::clock_seed);
        let rules = state.rules().clone();
        if seats.len() != rules.game.players as usize {
            bail!("{} seats for {} players", seats.len(), rules.game.players);
        }
        let (bots, first_dealer) = bots_and_dealer(&rules, &seats, seed)?;
        // The header names who sits where now: the seats may have changed
        // on resuming.
        let names: Vec<String> = seats.iter().map(|s| s.name().to_string()).collect();
        if header.names.as_ref() != Some(&names) {
            let mut header = header;
            header.names = Some(names);
            record[0] = serde_json::to_string(&header)?;
        }
        let n = rules.game.players as usize;
        let next_dealer = match last_dealer {
            None => first_dealer,
            // The last deal was annulled: the same dealer deals again.
            Some(d) if actions_since_deal == 0 => d,
            Some(d) => (d + 1) % n,
        };
        Ok(Session {
            state,
            seed,
            seats,
            bots,
            record,
            deals,
            next_dealer,
            undo: Vec::new(),
            sealed: false,
            seed_secret: false,
            max_hands: max_hands.max(1),
            legal: ActionList::new(),
        })
    }

    pub fn rules(&self) -> &Rules {
        self.state.rules()
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Keeps the seed from the players until the game is over: the decks
    /// follow from it, so a player who knew a clock-chosen seed could
    /// recompute every hand.
    pub fn keep_seed_secret(&mut self) {
        self.seed_secret = true;
    }

    /// The seed, when the players may know it.
    pub fn shown_seed(&self) -> Option<u64> {
        (!self.seed_secret || self.next() == Next::GameOver).then_some(self.seed)
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Seats played at the keyboard.
    pub fn humans(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats.len()).filter(|&s| self.seats[s] == Seat::Human)
    }

    /// What `seat` sees: its hand and the table.
    pub fn observe(&self, seat: usize) -> Observation {
        self.state.observe(SeatNumber::new(seat))
    }

    /// The command that deals this game's cards again: the variant, the
    /// players and the seed (and a word when house rules changed it).
    pub fn same_cards_command(&self) -> String {
        let rules = self.rules();
        let mut cmd = format!(
            "canasta play -v {} -p {} -s {}",
            &rules.game.variant, rules.game.players, self.seed
        );
        let preset = Rules::preset(
            &rules.game.variant,
            Some(rules.game.players),
            Some(rules.game.teams),
        );
        if preset.as_ref().ok() != Some(rules) {
            cmd.push_str(" with the same -o house rules");
        }
        cmd
    }

    /// The position's id: it changes with every action and deal.
    pub fn state_id(&self) -> u64 {
        self.state.state_id()
    }

    pub fn hands_played(&self) -> u32 {
        self.state.hands_played()
    }

    /// Team scores.
    pub fn scores(&self) -> &[i32] {
        self.state.scores()
    }

    /// `Some(winner)` once the game is over (`None` inside: a tie).
    pub fn winner(&self) -> Option<Option<Team>> {
        self.state.winner()
    }

    /// What the game waits for.
    pub fn next(&self) -> Next {
        match self.state.phase() {
            Phase::GameOver => Next::GameOver,
            Phase::Deal | Phase::HandOver if self.state.hands_played() >= self.max_hands => {
                Next::Stopped
            }
            Phase::Deal | Phase::HandOver => Next::Deal,
            Phase::Draw | Phase::Play | Phase::Answer => {
                let seat = self.state.to_act().index();
                match self.seats[seat] {
                    Seat::Human => Next::Human(seat),
                    Seat::Bot(_) => Next::Bot(seat),
                }
            }
        }
    }

    /// Deals the next hand (again, while the rules annul the deal).
    ///
    /// # Errors
    /// Not the time for a deal, or the engine refusing its own deck (a bug).
    pub fn deal(&mut self) -> anyhow::Result<Dealt> {
        if self.next() != Next::Deal {
            bail!("no deal is due now");
        }
        let n = self.state.players();
        let mut annulled = 0;
        loop {
            let rules = self.state.rules();
            let mut rng = Rng::stream(self.seed, self.deals + 1);
            let deck = shuffled_deck(rules, &mut rng);
            let first = rules
                .deal
                .random_first_player
                .then(|| SeatNumber::new(rng.below(n)));
            let dealer = SeatNumber::new(self.next_dealer);
            let outcome = self
                .state
                .deal_with_first(&deck, dealer, first)
                .map_err(|e| anyhow::anyhow!("the engine refused its own deck: {e}"))?;
            self.deals += 1;
            let first = first.filter(|_| outcome == DealOutcome::Dealt);
            self.record
                .push(write::deal_with_first(&deck, dealer, first));
            if outcome == DealOutcome::Dealt {
                return Ok(Dealt {
                    hand: self.state.hands_played() + 1,
                    dealer: dealer.index(),
                    annulled,
                });
            }
            annulled += 1;
        }
    }

    /// Applies `action` for `seat` through the engine's checked apply, and
    /// records it (and the hand's and game's end when it brings them).
    fn apply(&mut self, seat: usize, action: Action) -> Result<Played, IllegalAction> {
        let at = SeatNumber::new(seat);
        let hand_before = *self.state.hand(at);
        let reds_before = self.state.red_threes(at);
        let pile_before = self.state.pile().len();
        let foot_before = self.state.foot_size(at);
        self.state.apply_for(at, action)?;
        let foot_taken = foot_before.saturating_sub(self.state.foot_size(at));
        self.record.push(write::action(at, &action));
        let mut drawn = CardCounts::new();
        if action == Action::Draw {
            drawn = *self.state.hand(at);
            drawn.remove_all(&hand_before);
        }
        let pile_taken = if matches!(action, Action::Pickup { .. } | Action::PickupOnto) {
            // Dutch Samba takes the top card alone.
            pile_before.saturating_sub(self.state.pile().len())
        } else {
            0
        };
        let mut hand_end = None;
        if matches!(self.state.phase(), Phase::HandOver | Phase::GameOver) {
            let result = self.state.last_hand().expect("a finished hand").clone();
            self.record.push(write::hand_end(&result));
            self.record.extend(write::game_end(&self.state));
            self.next_dealer = self.state.dealer().after(1, self.state.players()).index();
            hand_end = Some(result);
        }
        Ok(Played {
            seat,
            action,
            drawn,
            red_threes: self.state.red_threes(at).saturating_sub(reds_before),
            pile_taken,
            foot_taken,
            hand_end,
        })
    }

    /// The bot to act plays.
    ///
    /// # Errors
    /// No bot to act, a bot that fails (an external program), or a bot
    /// choosing outside the legal list.
    pub fn play_bot(&mut self) -> anyhow::Result<Played> {
        let Next::Bot(seat) = self.next() else {
            bail!("no bot is to act");
        };
        self.state.legal_actions_into(&mut self.legal);
        let bot = self.bots[seat].as_mut().expect("a bot seat has a bot");
        let action = bot
            .try_choose(&Decision::new(&self.state, &self.legal))
            .map_err(|e| anyhow::anyhow!("seat {seat}: {e}"))?;
        self.apply(seat, action)
            .map_err(|e| anyhow::anyhow!("bot `{}` at seat {seat}: {e}", self.seats[seat].name()))
    }

    /// The human to act plays `action`; an illegal one changes nothing and
    /// comes back with the engine's reason.
    ///
    /// # Errors
    /// Not a human's turn, or the engine's refusal.
    pub fn play_human(&mut self, action: Action) -> Result<Played, Refusal> {
        let Next::Human(seat) = self.next() else {
            return Err(Refusal::NotHumansTurn);
        };
        let snapshot = Snapshot {
            state: self.state.clone(),
            record_len: self.record.len(),
            deals: self.deals,
            next_dealer: self.next_dealer,
        };
        let unseen_before = self.unseen_by(seat);
        let played = self.apply(seat, action).map_err(Refusal::Illegal)?;
        if self.unseen_by(seat) < unseen_before {
            // Cards came to light: taking the action back would let the
            // player play the turn again knowing them.
            self.undo.clear();
            self.sealed = true;
        } else {
            self.undo.push(snapshot);
        }
        Ok(played)
    }

    /// Takes back the human's last action and everything after it (bots'
    /// moves, deals).
    ///
    /// # Errors
    /// Nothing to undo, or a game with several humans.
    pub fn undo(&mut self) -> Result<(), &'static str> {
        if self.humans().count() != 1 {
            return Err("undo is for games of one human against bots");
        }
        let s = self.undo.pop().ok_or(if self.sealed {
            "undo cannot go back past a card you have seen (a draw, or a pickup that turned up hidden cards)"
        } else {
            "there is nothing of yours to undo"
        })?;
        self.state = s.state;
        self.record.truncate(s.record_len);
        self.deals = s.deals;
        self.next_dealer = s.next_dealer;
        Ok(())
    }

    /// How many cards `seat` has not seen.
    fn unseen_by(&self, seat: usize) -> usize {
        self.state
            .observe(SeatNumber::new(seat))
            .unseen(self.state.rules())
            .total()
    }

    /// The legal actions of the human to act (empty on a bot's turn): the
    /// engine's list, which depends only on what that seat can see.
    pub fn human_legal(&self) -> ActionList {
        match self.next() {
            Next::Human(_) => self.state.legal_actions(),
            _ => ActionList::new(),
        }
    }

    /// What the strongest bot (IS-MCTS expert, thinking at most about a
    /// second) would play for the human to act, and why in one line (see
    /// [`canasta_ai::hint`]).
    pub fn hint(&self) -> Option<Hint> {
        let Next::Human(_) = self.next() else {
            return None;
        };
        canasta_ai::hint(&self.state, HINT_TIME, self.seed, CardStyle::Notation)
    }

    /// The moves of the record so far as `(seat, action)`, with a `None`
    /// seat for each hand's deal (`--- hand N dealt by seat D`), oldest
    /// first: the move list of a resumed game starts with them. Deals the
    /// rules annulled (no action follows them) are left out.
    pub fn recorded_moves(&self) -> Vec<(Option<usize>, String)> {
        let mut out = Vec::new();
        let (mut hands, mut dealt) = (0, None);
        for line in &self.record {
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if let Some(d) = value.get("dealer").and_then(Value::as_u64) {
                dealt = Some(d);
            } else if let (Some(seat), Some(action)) = (
                value.get("seat").and_then(Value::as_u64),
                value.get("action").and_then(Value::as_str),
            ) {
                if let Some(d) = dealt.take() {
                    hands += 1;
                    out.push((None, format!("--- hand {hands} dealt by seat {d}")));
                }
                out.push((Some(seat as usize), action.to_string()));
            }
        }
        out
    }

    /// The record so far, as a file holds it.
    pub fn record_text(&self) -> String {
        let mut text = self.record.join("\n");
        text.push('\n');
        text
    }

    /// Writes the record so far to `path`.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &std::path::Path) -> anyhow::Result<()> {
        std::fs::write(path, self.record_text())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

#[cfg(test)]
impl Session {
    /// The whole truth, for tests that compare it with what a seat is shown.
    pub(crate) fn state(&self) -> &GameState {
        &self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heuristic_table(humans: &[usize], seed: u64) -> Session {
        let rules = Rules::classic();
        let seats = (0..4)
            .map(|s| match humans.contains(&s) {
                true => Seat::Human,
                false => Seat::Bot("heuristic".into()),
            })
            .collect();
        Session::new(rules, seats, seed, 50).unwrap()
    }

    /// Plays bots and deals until a human must act; the human plays the
    /// first legal action `turns` times.
    fn play_on(s: &mut Session, turns: usize) {
        let mut done = 0;
        loop {
            match s.next() {
                Next::Deal => {
                    s.deal().unwrap();
                }
                Next::Bot(_) => {
                    s.play_bot().unwrap();
                }
                Next::Human(_) if done < turns => {
                    let a = s.human_legal()[0];
                    s.play_human(a).unwrap();
                    done += 1;
                }
                _ => return,
            }
        }
    }

    #[test]
    fn an_illegal_action_is_refused_with_the_engines_reason_and_changes_nothing() {
        let mut s = heuristic_table(&[0], 3);
        play_on(&mut s, 0);
        let (record, state) = (s.record_text(), s.state().clone());
        let Err(Refusal::Illegal(e)) = s.play_human("discard 4H".parse().unwrap()) else {
            panic!("a discard before drawing is refused")
        };
        assert_eq!(
            e.reason,
            canasta_core::IllegalReason::WrongPhase(Phase::Draw)
        );
        assert!(
            Refusal::Illegal(e)
                .to_string()
                .contains("draw (or take the pile) first"),
            "plain words"
        );
        assert_eq!(s.record_text(), record);
        assert_eq!(s.state().state_id(), state.state_id());
        assert!(s.undo().is_err(), "a refusal leaves nothing to undo");
    }

    #[test]
    fn undo_takes_back_the_humans_action_and_the_bots_moves_after_it() {
        let mut s = heuristic_table(&[0], 4);
        play_on(&mut s, 0);
        let before = s.record_text();
        assert_eq!(s.undo(), Err("there is nothing of yours to undo"));
        play_on(&mut s, 1); // the draw
        let drawn = s.record_text();
        assert_ne!(drawn, before);
        play_on(&mut s, 1); // a discard; the bots answer
        assert_ne!(s.record_text(), drawn);
        s.undo().unwrap();
        assert_eq!(s.record_text(), drawn);
        // The draw showed a card: it stays played.
        let refusal = s.undo().unwrap_err();
        assert!(refusal.contains("a card you have seen"), "{refusal}");
        assert_eq!(s.record_text(), drawn);
        // Played again, the same actions give the same game (heuristic bots).
        play_on(&mut s, 1);
        let mut t = heuristic_table(&[0], 4);
        play_on(&mut t, 2);
        assert_eq!(s.record_text(), t.record_text());
    }

    /// Resumed with other seats, the saved header names the new ones.
    #[test]
    fn a_resumed_game_names_its_new_seats() {
        let mut first = heuristic_table(&[0], 6);
        play_on(&mut first, 3);
        let seats = vec![
            Seat::Bot("random".into()),
            Seat::Human,
            Seat::Bot("heuristic".into()),
            Seat::Bot("heuristic".into()),
        ];
        let resumed = Session::resume(&first.record_text(), seats, 50).unwrap();
        let header = Session::record_header(&resumed.record_text()).unwrap();
        assert_eq!(
            header.names.unwrap(),
            ["random", "human", "heuristic", "heuristic"]
        );
        assert_eq!(header.seed, Some(6));
    }

    #[test]
    fn undo_is_refused_with_two_humans() {
        let mut s = heuristic_table(&[0, 2], 5);
        play_on(&mut s, 1);
        assert!(s.undo().is_err());
    }

    /// A game saved at any point and resumed goes on exactly as the
    /// unbroken game (same decks, same bots), across hands.
    #[test]
    fn a_resumed_game_goes_on_as_the_unbroken_one() {
        let mut whole = heuristic_table(&[0], 6);
        play_on(&mut whole, 60);
        for cut in [10, 35] {
            let mut first = heuristic_table(&[0], 6);
            play_on(&mut first, cut);
            let seats = first.seats().to_vec();
            let mut resumed = Session::resume(&first.record_text(), seats, 50).unwrap();
            assert_eq!(resumed.record_text(), first.record_text());
            play_on(&mut resumed, 60 - cut);
            assert_eq!(resumed.record_text(), whole.record_text(), "cut at {cut}");
        }
        assert!(whole.hands_played() >= 1, "the test crosses a hand's end");
    }

    #[test]
    fn a_resumed_record_must_agree_with_itself() {
        let mut s = heuristic_table(&[0], 7);
        play_on(&mut s, 3);
        let text = s.record_text().replace("\"seat\":0", "\"seat\":1");
        let Err(err) = Session::resume(&text, s.seats().to_vec(), 50) else {
            panic!("a record whose seats do not match its turns resumes")
        };
        assert!(err.to_string().starts_with("line "), "{err}");
    }

    #[test]
    fn the_hint_is_a_legal_action_with_a_reason() {
        let mut s = heuristic_table(&[0], 8);
        play_on(&mut s, 1);
        let hint = s.hint().expect("the human is to act");
        assert!(s.human_legal().contains(&hint.action));
        assert!(!hint.advice.is_empty());
        assert!(!hint.figures.is_empty());
    }

    /// Drawn cards are shown to the seat that drew them, no one else.
    #[test]
    fn a_draw_is_seen_only_by_its_player() {
        let mut s = heuristic_table(&[0], 9);
        play_on(&mut s, 0);
        let played = s.play_human(Action::Draw).unwrap();
        assert!(played.describe(Some(0)).contains(" -> "));
        assert!(!played.describe(Some(1)).contains(" -> "));
        assert!(!played.describe(None).contains(" -> "));
    }

    /// Pennies: the move that empties a hand says the foot came (it leaves
    /// the count on screen, so the log must tell).
    #[test]
    fn a_foot_picked_up_is_announced() {
        let rules = Rules::preset("pennies", Some(6), None).unwrap();
        let seats = (0..6).map(|_| Seat::Bot("heuristic".into())).collect();
        let mut s = Session::new(rules, seats, 3, 1).unwrap();
        let mut seen = None;
        while seen.is_none() {
            match s.next() {
                Next::Deal => {
                    s.deal().unwrap();
                }
                Next::Bot(_) => {
                    let p = s.play_bot().unwrap();
                    if p.foot_taken > 0 {
                        seen = Some(p);
                    }
                }
                other => panic!("the hand ended with no foot picked up: {other:?}"),
            }
        }
        let p = seen.unwrap();
        assert!(
            p.describe(None)
                .ends_with(&format!("(picks up the foot: {} cards)", p.foot_taken)),
            "{}",
            p.describe(None)
        );
    }
}
