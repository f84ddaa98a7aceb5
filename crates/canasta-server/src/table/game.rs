//! One table's game without any I/O: the state, its record, and the
//! public log. Every change is worked out as a [`Step`] on a copy first,
//! so that the table can store the step's record lines and only then make
//! it the game (a change that failed to be stored never happened).

use crate::storage::{Quarantined, SeatMeta, StoredTable, TableMeta};
use canasta_core::record::{Replay, write};
use canasta_core::{
    Action, Card, DealOutcome, GameState, HandResult, IllegalReason, Phase, Rng, Rules,
    shuffled_deck,
};
use canasta_core::{Seat, Team};
use serde_json::{Value, json};
use std::collections::VecDeque;

/// Public log entries kept for a (re)connecting client.
pub const LOG_LIMIT: usize = 500;

/// A change worked out but not yet made: the state after it, the record
/// lines it adds and what happened, for the log and the players.
pub struct Step {
    state: GameState,
    stand_ins: StandIns,
    undo: UndoEffect,
    pub lines: Vec<String>,
    pub events: Vec<Event>,
}

/// Where the bot stood in for absent players: each seat's turns played by
/// it in the game, and the seats it played for in the hand under way.
///
/// The marks are kept in the record itself, as `"stand_in": true` on the
/// action lines the bot played for a player (an optional key, which the
/// record format allows and `canasta check` ignores): who made a move is
/// part of the game's history, like the header's `names`, so it survives
/// a restart with the line it belongs to, leaves with it when an undo
/// drops lines, and reaches whoever reads the record (an exported game
/// says which moves its player did not make). Settings outside the record
/// (the table's seats and tokens) could not say which line they meant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StandIns {
    turns: Vec<u32>,
    in_hand: Vec<bool>,
    /// Each seat's last action: its hand, whether the bot played it, and
    /// whether it ended the seat's turn (a discard, an answer).
    last: Vec<Option<(u32, bool, bool)>>,
}

impl StandIns {
    fn new(players: usize) -> StandIns {
        StandIns {
            turns: vec![0; players],
            in_hand: vec![false; players],
            last: vec![None; players],
        }
    }

    fn dealt(&mut self) {
        self.in_hand.fill(false);
    }

    /// Counts an action: a stand-in's action starts a stand-in turn unless
    /// it goes on one (the same hand, the seat's last action the bot's and
    /// not the end of a turn).
    fn acted(&mut self, hand: u32, seat: usize, action: &Action, stand_in: bool) {
        if stand_in {
            let goes_on =
                self.last[seat].is_some_and(|(h, by_bot, ended)| h == hand && by_bot && !ended);
            if !goes_on {
                self.turns[seat] += 1;
            }
            self.in_hand[seat] = true;
        }
        let ended = matches!(action, Action::Discard(_) | Action::Answer(_));
        self.last[seat] = Some((hand, stand_in, ended));
    }

    /// Turns the bot played for `seat` in the game.
    pub fn turns(&self, seat: usize) -> u32 {
        self.turns.get(seat).copied().unwrap_or(0)
    }

    /// Seats the bot stood in for in the hand under way (or just scored).
    pub fn in_hand(&self) -> Vec<usize> {
        (0..self.in_hand.len())
            .filter(|&s| self.in_hand[s])
            .collect()
    }

    /// Seats the bot stood in for at least once in the game.
    pub fn in_game(&self) -> Vec<usize> {
        (0..self.turns.len())
            .filter(|&s| self.turns[s] > 0)
            .collect()
    }
}

/// Something every seat may be told.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Dealt {
        hand: u32,
    },
    Acted {
        hand: u32,
        seat: usize,
        action: Action,
        /// Cards a pickup took from the pile (public: everyone saw its size).
        took: Option<usize>,
        /// The bot played it for the seat's absent player.
        stand_in: bool,
    },
    HandEnd {
        hand: u32,
        result: HandResult,
        hands: Vec<Vec<Card>>,
        feet: Vec<Vec<Card>>,
        /// Seats the bot stood in for during the hand.
        stand_ins: Vec<usize>,
    },
    GameEnd {
        totals: Vec<i32>,
        winner: Option<usize>,
        /// Seats the bot stood in for during the game.
        stand_ins: Vec<usize>,
    },
}

impl Event {
    /// The entry in the public log (a deal is not logged).
    pub fn log_entry(&self) -> Option<Value> {
        match self {
            Event::Dealt { .. } => None,
            Event::Acted {
                hand,
                seat,
                action,
                took,
                stand_in,
            } => Some(acted_entry(
                *hand,
                *seat,
                &action.to_string(),
                *took,
                *stand_in,
            )),
            Event::HandEnd { hand, result, .. } => Some(json!({"hand": hand, "hand_end": result})),
            Event::GameEnd { totals, winner, .. } => {
                Some(json!({"game_end": {"totals": totals, "winner": winner}}))
            }
        }
    }
}

/// Who played an action: the seat's player, its bot, or the bot standing
/// in for the seat's absent player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Player,
    Bot,
    StandIn,
}

/// Why an undo was refused, in a player's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoRefusal {
    Nothing,
    SeenCards,
    StoodIn,
}

impl std::fmt::Display for UndoRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UndoRefusal::Nothing => "there is nothing of yours to undo in this hand",
            UndoRefusal::SeenCards => {
                "undo cannot go back past a card you have seen (a draw, or a pickup that turned up hidden cards)"
            }
            UndoRefusal::StoodIn => {
                "the bot played for you since your last move; undo cannot go back past it"
            }
        })
    }
}

/// The game as it stood before a player's action, to take the action back
/// with all that followed (the terminal's undo, `canasta play`).
#[derive(Clone)]
struct Mark {
    state: GameState,
    lines: usize,
    logged: u64,
    stand_ins: StandIns,
}

/// What a step does to the undo stack.
enum UndoEffect {
    /// A player's action that showed them nothing new: it may be undone.
    Push(Box<Mark>),
    /// Nothing before this step may be undone, for this reason.
    Seal(UndoRefusal),
    /// A bot's action: it goes with the player's action before it.
    Keep,
}

/// Why a seat's action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotStarted,
    GameOver,
    NotYourTurn { to_act: usize },
    Illegal(IllegalReason),
}

/// A table's game.
#[derive(Clone)]
pub struct TableGame {
    state: GameState,
    lines: Vec<String>,
    log: VecDeque<Value>,
    stand_ins: StandIns,
    /// Log entries ever made (the log keeps the last [`LOG_LIMIT`]).
    logged: u64,
    /// Marks before the player's actions that may be undone, the last on
    /// top: at most one turn's actions (a draw, a hand's end or a deal
    /// empties it), so an undo is bounded work.
    undo: Vec<Mark>,
    /// Why the stack is empty, when something sealed it.
    sealed: UndoRefusal,
    /// Added to the engine's state ids: an undo goes back to an earlier
    /// state, but every state sent has a new, higher id.
    id_offset: u64,
}

impl TableGame {
    /// A new game: its record is only the header.
    pub fn new(rules: &Rules) -> TableGame {
        TableGame {
            state: GameState::new(rules.clone()),
            lines: vec![write::header(rules, None)],
            log: VecDeque::new(),
            stand_ins: StandIns::new(rules.game.players as usize),
            logged: 0,
            undo: Vec::new(),
            sealed: UndoRefusal::Nothing,
            id_offset: 0,
        }
    }

    /// A stored table as a table's task needs it: its record replays and
    /// its settings fit its rules (one seat a player, every bot one the
    /// lobby offers). What the server resumes and what `canasta export
    /// --check` passes.
    ///
    /// # Errors
    /// Why the table cannot be played: the record's first bad line, or
    /// the settings that do not fit.
    pub fn of_stored(stored: StoredTable) -> Result<(TableMeta, TableGame), Quarantined> {
        let id = stored.meta.id.clone();
        let quarantined = |reason: String| Quarantined {
            id: id.clone(),
            reason,
        };
        let game = TableGame::resume(stored.lines)
            .map_err(|e| quarantined(format!("its record does not replay: {e}")))?;
        let players = game.rules().game.players as usize;
        if stored.meta.seats.len() != players {
            return Err(quarantined(format!(
                "its settings have {} seats for a game of {players} players",
                stored.meta.seats.len()
            )));
        }
        for (seat, s) in stored.meta.seats.iter().enumerate() {
            if let SeatMeta::Bot { bot } = s
                && (bot.starts_with("cmd:") || canasta_ai::bot_by_name(bot, 1).is_none())
            {
                let shown: String = bot.chars().take(40).collect();
                return Err(quarantined(format!(
                    "seat {seat} is the unknown bot `{shown}`"
                )));
            }
        }
        Ok((stored.meta, game))
    }

    /// The game a stored record reaches, replayed line by line.
    ///
    /// # Errors
    /// The record's first bad line, as `canasta check` names it.
    pub fn resume(lines: Vec<String>) -> Result<TableGame, String> {
        let parse = |i: usize, line: &str| {
            serde_json::from_str::<Value>(line).map_err(|e| format!("line {}: {e}", i + 1))
        };
        let first = lines.first().ok_or("the record is empty")?;
        let mut replay = Replay::start(&parse(0, first)?, 1).map_err(|e| e.to_string())?;
        let mut log = VecDeque::new();
        let mut hand = 0u32;
        let mut stand_ins = StandIns::new(replay.state().players());
        let mut logged = 0u64;
        for (i, line) in lines.iter().enumerate().skip(1) {
            let value = parse(i, line)?;
            let before = replay.state().clone();
            replay
                .feed(&value, i + 1)
                .map_err(|e| format!("line {}: {e}", i + 1))?;
            let entry = if value.get("deal").is_some() {
                hand = replay.state().hands_played() + 1;
                stand_ins.dealt();
                None
            } else if let (Some(seat), Some(text)) = (
                value.get("seat").and_then(Value::as_u64),
                value.get("action").and_then(Value::as_str),
            ) {
                let action = text
                    .parse::<Action>()
                    .map_err(|e| format!("line {}: {e}", i + 1))?;
                let took = cards_taken(&before, replay.state(), &action);
                let stand_in = value.get("stand_in") == Some(&Value::Bool(true));
                stand_ins.acted(hand, seat as usize, &action, stand_in);
                Some(acted_entry(hand, seat as usize, text, took, stand_in))
            } else if let Some(result) = value.get("hand_end") {
                Some(json!({"hand": hand, "hand_end": result}))
            } else {
                value.get("game_end").map(|g| json!({ "game_end": g }))
            };
            if let Some(entry) = entry {
                push_log(&mut log, entry);
                logged += 1;
            }
        }
        Ok(TableGame {
            state: replay.state().clone(),
            lines,
            log,
            stand_ins,
            logged,
            undo: Vec::new(),
            sealed: UndoRefusal::Nothing,
            id_offset: 0,
        })
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    pub fn rules(&self) -> &Rules {
        self.state.rules()
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    pub fn log(&self) -> impl Iterator<Item = &Value> {
        self.log.iter()
    }

    pub fn stand_ins(&self) -> &StandIns {
        &self.stand_ins
    }

    /// The id of the state as clients know it: the engine's, moved up past
    /// every id sent before an undo.
    pub fn state_id(&self) -> u64 {
        self.state.state_id() + self.id_offset
    }

    /// Whether a player's action can be taken back now.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// The record's length an undo would leave (the lines after it go),
    /// or why there is nothing to undo.
    ///
    /// # Errors
    /// Nothing of the player's to undo, or a card seen since.
    pub fn undo_keeps(&self) -> Result<usize, UndoRefusal> {
        self.undo.last().map(|m| m.lines).ok_or(self.sealed)
    }

    /// Takes back the player's last action and everything after it, once
    /// the record has been cut to [`TableGame::undo_keeps`]; returns how
    /// many entries left the end of the public log.
    pub fn undo(&mut self) -> usize {
        let Some(mark) = self.undo.pop() else {
            return 0;
        };
        let next_id = self.state_id() + 1;
        let removed = (self.logged - mark.logged) as usize;
        for _ in 0..removed.min(self.log.len()) {
            self.log.pop_back();
        }
        self.logged = mark.logged;
        self.lines.truncate(mark.lines);
        self.stand_ins = mark.stand_ins;
        self.state = mark.state;
        self.id_offset = next_id - self.state.state_id();
        removed
    }

    /// Whether a hand has been dealt.
    pub fn started(&self) -> bool {
        self.lines.len() > 1
    }

    /// The number of the hand being played, or just finished (from 1).
    pub fn hand_number(&self) -> u32 {
        match self.state.phase() {
            Phase::Deal | Phase::HandOver | Phase::GameOver => self.state.hands_played(),
            _ => self.state.hands_played() + 1,
        }
    }

    /// Whether a hand is due: before the first, or after a scored one.
    pub fn needs_deal(&self) -> bool {
        matches!(self.state.phase(), Phase::Deal | Phase::HandOver)
    }

    /// Whether a seat must act now.
    pub fn in_hand(&self) -> bool {
        matches!(
            self.state.phase(),
            Phase::Draw | Phase::Play | Phase::Answer
        )
    }

    /// Deals the next hand from decks shuffled by `rng` (again, by the
    /// same dealer, while the rules void a deal). The first dealer is drawn
    /// from `rng`; after that the deal passes to the left.
    pub fn deal(&self, rng: &mut Rng) -> Step {
        let mut state = self.state.clone();
        let rules = state.rules().clone();
        let n = rules.game.players as usize;
        let dealer = if self.started() {
            state.dealer().after(1, n)
        } else {
            Seat::new(rng.below(n))
        };
        let mut lines = Vec::new();
        loop {
            let deck = shuffled_deck(&rules, rng);
            let first = rules
                .deal
                .random_first_player
                .then(|| Seat::new(rng.below(n)));
            let outcome = state
                .deal_with_first(&deck, dealer, first)
                .expect("a shuffled deck of the rules' own cards deals");
            lines.push(write::deal_with_first(&deck, dealer, first));
            if outcome == DealOutcome::Dealt {
                break;
            }
        }
        let hand = state.hands_played() + 1;
        let mut stand_ins = self.stand_ins.clone();
        stand_ins.dealt();
        Step {
            state,
            stand_ins,
            undo: UndoEffect::Seal(UndoRefusal::Nothing),
            lines,
            events: vec![Event::Dealt { hand }],
        }
    }

    /// Plays `action` for `seat`, if the rules allow it now, played `by`
    /// its player, its bot, or the bot standing in for its absent player
    /// (the record line says so, see [`StandIns`]).
    ///
    /// # Errors
    /// Why not; the game is unchanged.
    pub fn act(&self, seat: usize, action: Action, by: By) -> Result<Step, Refusal> {
        let stand_in = by == By::StandIn;
        if !self.started() {
            return Err(Refusal::NotStarted);
        }
        if self.state.is_over() {
            return Err(Refusal::GameOver);
        }
        if !self.in_hand() {
            return Err(Refusal::NotStarted);
        }
        if self.state.to_act().index() != seat {
            return Err(Refusal::NotYourTurn {
                to_act: self.state.to_act().index(),
            });
        }
        let at = Seat::new(seat);
        let hand = self.hand_number();
        let mut state = self.state.clone();
        state
            .apply(action)
            .map_err(|e| Refusal::Illegal(e.reason))?;
        let took = cards_taken(&self.state, &state, &action);
        let rules = self.state.rules();
        let mut undo = match by {
            By::Bot => UndoEffect::Keep,
            By::StandIn => UndoEffect::Seal(UndoRefusal::StoodIn),
            // Cards came to light: taking the action back would let the
            // player play the turn again knowing them.
            By::Player
                if state.observe(at).unseen(rules).total()
                    < self.state.observe(at).unseen(rules).total() =>
            {
                UndoEffect::Seal(UndoRefusal::SeenCards)
            }
            By::Player => UndoEffect::Push(Box::new(Mark {
                state: self.state.clone(),
                lines: self.lines.len(),
                logged: self.logged,
                stand_ins: self.stand_ins.clone(),
            })),
        };
        let mut stand_ins = self.stand_ins.clone();
        stand_ins.acted(hand, seat, &action, stand_in);
        let line = if stand_in {
            json!({"seat": seat, "action": action.to_string(), "stand_in": true}).to_string()
        } else {
            write::action(at, &action)
        };
        let mut lines = vec![line];
        let mut events = vec![Event::Acted {
            hand,
            seat,
            action,
            took,
            stand_in,
        }];
        if state.phase() == Phase::HandOver || state.is_over() {
            // Every hand was shown: never back into a counted hand.
            undo = UndoEffect::Seal(UndoRefusal::Nothing);
            let result = state
                .last_hand()
                .expect("a scored hand has a result")
                .clone();
            lines.push(write::hand_end(&result));
            let n = state.players();
            events.push(Event::HandEnd {
                hand,
                hands: Seat::all(n)
                    .map(|s| state.hand(s).iter().collect())
                    .collect(),
                feet: Seat::all(n)
                    .map(|s| state.foot(s).iter().collect())
                    .collect(),
                result,
                stand_ins: stand_ins.in_hand(),
            });
            if let Some(line) = write::game_end(&state) {
                lines.push(line);
                events.push(Event::GameEnd {
                    totals: state.scores().to_vec(),
                    winner: state.winner().flatten().map(Team::index),
                    stand_ins: stand_ins.in_game(),
                });
            }
        }
        Ok(Step {
            state,
            stand_ins,
            undo,
            lines,
            events,
        })
    }

    /// Makes a stored step the game.
    pub fn commit(&mut self, step: Step) {
        self.state = step.state;
        self.stand_ins = step.stand_ins;
        match step.undo {
            UndoEffect::Push(mark) => self.undo.push(*mark),
            UndoEffect::Seal(why) => {
                self.undo.clear();
                self.sealed = why;
            }
            UndoEffect::Keep => {}
        }
        self.lines.extend(step.lines);
        for event in &step.events {
            if let Some(entry) = event.log_entry() {
                push_log(&mut self.log, entry);
                self.logged += 1;
            }
        }
    }
}

/// A move as the log shows it; a pickup says how many cards it took, and
/// a move the bot made for an absent player says so.
fn acted_entry(hand: u32, seat: usize, action: &str, took: Option<usize>, stand_in: bool) -> Value {
    let mut entry = json!({"hand": hand, "seat": seat, "action": action});
    if let Some(n) = took {
        entry["took"] = json!(n);
    }
    if stand_in {
        entry["stand_in"] = json!(true);
    }
    entry
}

/// The cards a pickup took from the pile (`None` for other actions).
fn cards_taken(before: &GameState, after: &GameState, action: &Action) -> Option<usize> {
    matches!(action, Action::Pickup { .. } | Action::PickupOnto)
        .then(|| before.pile().len().saturating_sub(after.pile().len()))
}

fn push_log(log: &mut VecDeque<Value>, entry: Value) {
    if log.len() == LOG_LIMIT {
        log.pop_front();
    }
    log.push_back(entry);
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::record::check_record;

    /// A game played through steps has a record `canasta check` accepts,
    /// and resuming from any prefix of it gives the same game.
    #[test]
    fn steps_make_a_record_that_checks_and_resumes() {
        let mut pickups = 0;
        for (variant, players) in [
            ("classic", 4),
            ("samba", 2),
            ("canastia", 3),
            ("pennies", 6),
        ] {
            let rules = Rules::preset(variant, Some(players), None).unwrap();
            let mut game = TableGame::new(&rules);
            let mut rng = Rng::new(7);
            let mut steps = 0;
            while !game.state().is_over() && steps < 3000 {
                let step = if game.needs_deal() {
                    game.deal(&mut rng)
                } else {
                    let legal = game.state().legal_actions();
                    let seat = game.state().to_act().index();
                    // Now and then the bot stands in for a seat.
                    let by = if rng.below(7) == 0 {
                        By::StandIn
                    } else {
                        By::Player
                    };
                    game.act(seat, legal[rng.below(legal.len())], by).unwrap()
                };
                for event in &step.events {
                    if let Event::Acted { took, action, .. } = event {
                        let is_pickup =
                            matches!(action, Action::Pickup { .. } | Action::PickupOnto);
                        assert_eq!(took.is_some(), is_pickup, "{action}");
                        if let Some(n) = took {
                            assert!(
                                *n >= 1 && *n <= game.state().pile().len(),
                                "{action} took {n}"
                            );
                            pickups += 1;
                        }
                    }
                }
                game.commit(step);
                steps += 1;
                if steps % 97 == 0 {
                    let back = TableGame::resume(game.lines().to_vec()).unwrap();
                    assert_eq!(back.state().state_id(), game.state().state_id());
                    assert_eq!(
                        back.state().observe(Seat::new(0)),
                        game.state().observe(Seat::new(0))
                    );
                    assert!(back.log().eq(game.log()), "the log resumes as it was");
                    assert_eq!(back.stand_ins(), game.stand_ins(), "and the stand-ins");
                }
            }
            let text = game.lines().join("\n");
            assert!(
                text.contains(r#""stand_in":true"#),
                "{variant}: marks stored"
            );
            let check = check_record(&text);
            assert!(check.error.is_none(), "{variant}: {:?}", check.error);
            assert!(
                check.games.iter().all(|g| g.mismatches.is_empty()),
                "{variant}: the record agrees with itself"
            );
        }
        assert!(pickups > 0, "random play took the pile");
    }

    #[test]
    fn refusals_change_nothing() {
        let rules = Rules::classic();
        let mut game = TableGame::new(&rules);
        let draw: Action = "draw".parse().unwrap();
        assert_eq!(
            game.act(0, draw, By::Player).err(),
            Some(Refusal::NotStarted)
        );
        game.commit(game.deal(&mut Rng::new(3)));
        let to_act = game.state().to_act().index();
        let other = (to_act + 1) % 4;
        assert_eq!(
            game.act(other, draw, By::Player).err(),
            Some(Refusal::NotYourTurn { to_act })
        );
        let discard: Action = "discard 4H".parse().unwrap();
        assert!(matches!(
            game.act(to_act, discard, By::Player),
            Err(Refusal::Illegal(_))
        ));
        let lines = game.lines().len();
        assert!(game.act(to_act, draw, By::Player).is_ok());
        assert_eq!(
            game.lines().len(),
            lines,
            "a step not committed changes nothing"
        );
    }
}

#[cfg(test)]
mod undo_tests {
    use super::*;
    use canasta_core::record::check_record;

    /// Deals and plays random legal actions (the player at seat 0, bots
    /// elsewhere) until seat 0 has drawn and may lay or discard.
    fn to_players_play(game: &mut TableGame, rng: &mut Rng) {
        loop {
            if game.needs_deal() {
                game.commit(game.deal(rng));
                continue;
            }
            let seat = game.state().to_act().index();
            let legal = game.state().legal_actions();
            if seat == 0 && !legal.contains(&Action::Draw) && game.state().phase() == Phase::Play {
                return;
            }
            let action = if legal.contains(&Action::Draw) {
                Action::Draw
            } else {
                legal[rng.below(legal.len())]
            };
            let by = if seat == 0 { By::Player } else { By::Bot };
            game.commit(game.act(seat, action, by).unwrap());
        }
    }

    #[test]
    fn undo_takes_back_the_players_action_and_the_bots_after_it() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let mut game = TableGame::new(&rules);
        let mut rng = Rng::new(11);
        to_players_play(&mut game, &mut rng);
        // The draw showed a card: nothing before it comes back.
        assert_eq!(game.undo_keeps(), Err(UndoRefusal::SeenCards));
        let before = (
            game.lines().to_vec(),
            game.log().cloned().collect::<Vec<_>>(),
        );
        let observed = game.state().observe(Seat::new(0));
        let id_before = game.state_id();
        let discard = *game
            .state()
            .legal_actions()
            .iter()
            .find(|a| matches!(a, Action::Discard(_)))
            .unwrap();
        game.commit(game.act(0, discard, By::Player).unwrap());
        // The bot answers (its draw and discard follow the player's move).
        let bot = game.state().to_act().index();
        assert_eq!(bot, 1);
        game.commit(game.act(1, Action::Draw, By::Bot).unwrap());
        assert!(game.can_undo());
        let id_after = game.state_id();
        assert_eq!(game.undo_keeps(), Ok(before.0.len()));
        assert_eq!(game.undo(), 2, "two log entries went");
        assert_eq!(game.lines(), &before.0[..]);
        assert!(game.log().cloned().eq(before.1.iter().cloned()));
        assert_eq!(game.state().observe(Seat::new(0)).hand, observed.hand);
        assert!(
            game.state_id() > id_after,
            "{} after {id_after}",
            game.state_id()
        );
        assert!(game.state_id() > id_before);
        assert_eq!(game.undo_keeps(), Err(UndoRefusal::SeenCards));
        let check = check_record(&game.lines().join("\n"));
        assert!(check.error.is_none(), "{:?}", check.error);
        // A stand-in's move seals what came before it.
        let discard = *game
            .state()
            .legal_actions()
            .iter()
            .find(|a| matches!(a, Action::Discard(_)))
            .unwrap();
        game.commit(game.act(0, discard, By::Player).unwrap());
        game.commit(game.act(1, Action::Draw, By::StandIn).unwrap());
        assert_eq!(game.undo_keeps(), Err(UndoRefusal::StoodIn));
    }
}
