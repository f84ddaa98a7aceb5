//! One table's game without any I/O: the state, its record, and the
//! public log. Every change is worked out as a [`Step`] on a copy first,
//! so that the table can store the step's record lines and only then make
//! it the game (a change that failed to be stored never happened).

use canasta_core::record::{Replay, write};
use canasta_core::{
    Action, Card, DealOutcome, GameState, HandResult, IllegalReason, Phase, Rng, Rules,
    shuffled_deck,
};
use serde_json::{Value, json};
use std::collections::VecDeque;

/// Public log entries kept for a (re)connecting client.
pub const LOG_LIMIT: usize = 500;

/// A change worked out but not yet made: the state after it, the record
/// lines it adds and what happened, for the log and the players.
pub struct Step {
    state: GameState,
    stand_ins: StandIns,
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
}

impl TableGame {
    /// A new game: its record is only the header.
    pub fn new(rules: &Rules) -> TableGame {
        TableGame {
            state: GameState::new(rules.clone()),
            lines: vec![write::header(rules, None)],
            log: VecDeque::new(),
            stand_ins: StandIns::new(rules.players() as usize),
        }
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
            }
        }
        Ok(TableGame {
            state: replay.state().clone(),
            lines,
            log,
            stand_ins,
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
        let n = rules.players() as usize;
        let dealer = if self.started() {
            (state.dealer() + 1) % n
        } else {
            rng.below(n)
        };
        let mut lines = Vec::new();
        loop {
            let deck = shuffled_deck(&rules, rng);
            let first = rules.random_first_player().then(|| rng.below(n));
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
            lines,
            events: vec![Event::Dealt { hand }],
        }
    }

    /// Plays `action` for `seat`, if the rules allow it now; `stand_in`
    /// when the bot plays it for the seat's absent player (the record line
    /// says so, see [`StandIns`]).
    ///
    /// # Errors
    /// Why not; the game is unchanged.
    pub fn act(&self, seat: usize, action: Action, stand_in: bool) -> Result<Step, Refusal> {
        if !self.started() {
            return Err(Refusal::NotStarted);
        }
        if self.state.is_over() {
            return Err(Refusal::GameOver);
        }
        if !self.in_hand() {
            return Err(Refusal::NotStarted);
        }
        if self.state.to_act() != seat {
            return Err(Refusal::NotYourTurn {
                to_act: self.state.to_act(),
            });
        }
        let hand = self.hand_number();
        let mut state = self.state.clone();
        state
            .apply(action)
            .map_err(|e| Refusal::Illegal(e.reason))?;
        let took = cards_taken(&self.state, &state, &action);
        let mut stand_ins = self.stand_ins.clone();
        stand_ins.acted(hand, seat, &action, stand_in);
        let line = if stand_in {
            json!({"seat": seat, "action": action.to_string(), "stand_in": true}).to_string()
        } else {
            write::action(seat, &action)
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
            let result = state
                .last_hand()
                .expect("a scored hand has a result")
                .clone();
            lines.push(write::hand_end(&result));
            let n = state.players();
            events.push(Event::HandEnd {
                hand,
                hands: (0..n).map(|s| state.hand(s).iter().collect()).collect(),
                feet: (0..n).map(|s| state.foot(s).iter().collect()).collect(),
                result,
                stand_ins: stand_ins.in_hand(),
            });
            if let Some(line) = write::game_end(&state) {
                lines.push(line);
                events.push(Event::GameEnd {
                    totals: state.scores().to_vec(),
                    winner: state.winner().flatten(),
                    stand_ins: stand_ins.in_game(),
                });
            }
        }
        Ok(Step {
            state,
            stand_ins,
            lines,
            events,
        })
    }

    /// Makes a stored step the game.
    pub fn commit(&mut self, step: Step) {
        self.state = step.state;
        self.stand_ins = step.stand_ins;
        self.lines.extend(step.lines);
        for event in &step.events {
            if let Some(entry) = event.log_entry() {
                push_log(&mut self.log, entry);
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
                    let seat = game.state().to_act();
                    // Now and then the bot stands in for a seat.
                    let stand_in = rng.below(7) == 0;
                    game.act(seat, legal[rng.below(legal.len())], stand_in)
                        .unwrap()
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
                    assert_eq!(back.state().observe(0), game.state().observe(0));
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
        assert_eq!(game.act(0, draw, false).err(), Some(Refusal::NotStarted));
        game.commit(game.deal(&mut Rng::new(3)));
        let to_act = game.state().to_act();
        let other = (to_act + 1) % 4;
        assert_eq!(
            game.act(other, draw, false).err(),
            Some(Refusal::NotYourTurn { to_act })
        );
        let discard: Action = "discard 4H".parse().unwrap();
        assert!(matches!(
            game.act(to_act, discard, false),
            Err(Refusal::Illegal(_))
        ));
        let lines = game.lines().len();
        assert!(game.act(to_act, draw, false).is_ok());
        assert_eq!(
            game.lines().len(),
            lines,
            "a step not committed changes nothing"
        );
    }
}
