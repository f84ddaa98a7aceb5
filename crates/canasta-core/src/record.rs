//! Game records (`docs/record-format.md`, version 1): JSON Lines
//! with a header, a `deal` per hand, the actions, and optional `hand_end`
//! and `game_end` lines. Reading replays the game through the engine, so
//! every action is checked and every score recomputed; writing produces
//! exactly what reading accepts. No I/O here: callers pass lines of text.

use crate::action::{Action, ParseActionError};
use crate::card::Card;
use crate::error::IllegalAction;
use crate::rules::{Rules, RulesError, StockEnd};
use crate::seat::{Seat, Team};
use crate::state::score::{HandEndReason, HandResult};
use crate::state::{DealError, GameState, Phase};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use thiserror::Error;

/// The record format version this engine reads and writes.
pub const RECORD_VERSION: u64 = 1;

/// The first line of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub canasta_record: u64,
    pub variant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    #[serde(default)]
    pub options: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
}

impl Header {
    /// The header for a game under `rules` (options are the differences
    /// from the preset).
    pub fn for_rules(rules: &Rules, seed: Option<u64>) -> Header {
        let options = rules.options_from_preset();
        Header {
            canasta_record: RECORD_VERSION,
            variant: rules.game.variant.clone(),
            players: Some(rules.game.players),
            options,
            seed,
            names: None,
            target: None,
        }
    }

    /// The rules this header names.
    ///
    /// # Errors
    /// Unknown variant, player count or options.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        let rules = Rules::from_header(&self.variant, self.players, &self.options)?;
        match self.target {
            Some(target) => {
                let mut spec = rules.into_spec();
                spec.game.target = target;
                Rules::new(spec)
            }
            None => Ok(rules),
        }
    }
}

/// What went wrong on one line of a record.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    #[error("not valid JSON: {0}")]
    Json(String),
    #[error("the first line must be a header with \"canasta_record\"")]
    MissingHeader,
    #[error("record version {0} is not supported (this engine reads version 1)")]
    Version(u64),
    #[error("bad header: {0}")]
    Header(String),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(
        "a line must hold one of \"canasta_record\", \"deal\", \"seat\"+\"action\", \"hand_end\" or \"game_end\""
    )]
    UnknownLine,
    #[error("bad deal line: {0}")]
    BadDeal(String),
    #[error(transparent)]
    Deal(#[from] DealError),
    #[error(
        "an action with no hand under way: a deal line must come first (before the first hand and after an annulled deal)"
    )]
    ActionBeforeDeal,
    /// An action after play ended, named by how it ended (a hand can end
    /// on a draw, where a record writer may not expect it): `how` and the
    /// seat that went out, if any; the rules' stock ending words the rest.
    #[error(
        "an action after the hand ended ({}): only a hand_end line or the next deal may follow",
        how_the_hand_ended(*how, *seat, *stock_end)
    )]
    ActionAfterHandEnd {
        how: HandEndReason,
        seat: Option<Seat>,
        stock_end: StockEnd,
    },
    #[error("bad action line: {0}")]
    BadActionLine(String),
    #[error("cannot read action `{text}`: {error}")]
    Parse {
        text: String,
        error: ParseActionError,
    },
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
    #[error("a deal while the hand is still being played (it waits for: {})", .0.expects())]
    DealMidHand(Phase),
    #[error("the game is over; no further deal or action is possible")]
    GameOver,
    #[error("the line is {0} bytes long; a record line holds at most {MAX_LINE_BYTES}")]
    LineTooLong(usize),
    #[error("not valid UTF-8 text")]
    NotText,
}

/// Longest record line read: far above any real one (a deal of Pennies'
/// 216 cards is about 1.5 KB), low enough that a broken or hostile file
/// cannot make the reader build a huge JSON value.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The text of a record file without a UTF-8 byte-order mark (some editors
/// write one; the contract's JSON Lines do not need it).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A record error with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    pub line: usize,
    pub kind: RecordErrorKind,
}

/// A `hand_end` or `game_end` line that disagrees with the replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub line: usize,
    pub message: String,
}

/// What replaying one game found.
#[derive(Debug, Clone, Default)]
pub struct GameReport {
    pub header_line: usize,
    pub rules: Option<Rules>,
    /// Scores of each finished hand.
    pub hands: Vec<HandResult>,
    /// Where the record's own `hand_end`/`game_end` lines differ.
    pub mismatches: Vec<Mismatch>,
    /// The position reached, if the record stops before the game ends.
    pub state: Option<GameState>,
    /// `Some(winner)` if the game ended.
    pub winner: Option<Option<Team>>,
}

/// The outcome of checking a record: a report for every game reached, and
/// the first line that could not be read or replayed, if any.
#[derive(Debug)]
pub struct RecordCheck {
    pub games: Vec<GameReport>,
    pub error: Option<RecordError>,
}

/// Splits a record into its lines and replays every game in it. Stops at
/// the first illegal or malformed line (reported with its line number).
pub fn check_record(text: &str) -> RecordCheck {
    let mut games = Vec::new();
    let error = check_lines(text, &mut games).err();
    RecordCheck { games, error }
}

fn check_lines(text: &str, reports: &mut Vec<GameReport>) -> Result<(), RecordError> {
    let mut checker = RecordChecker::new();
    let mut result = Ok(());
    for raw in text.lines() {
        if let Err(e) = checker.feed(raw) {
            result = Err(e);
            break;
        }
    }
    let outcome = checker.finish();
    reports.extend(outcome.games);
    match (result, outcome.error) {
        (Err(e), _) | (Ok(()), Some(e)) => Err(e),
        (Ok(()), None) => Ok(()),
    }
}

/// Checks a record one line at a time, so that a reader need not hold the
/// whole file: feed each line (without its newline) in order, then
/// `finish`. The first error ends the check; later lines are ignored.
#[derive(Default)]
pub struct RecordChecker {
    replay: Option<Replay>,
    reports: Vec<GameReport>,
    line: usize,
    failed: bool,
}

impl RecordChecker {
    pub fn new() -> RecordChecker {
        RecordChecker::default()
    }

    /// Lines fed so far (the number of the last one).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The game being replayed, if any.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref()
    }

    /// Checks the next line.
    ///
    /// # Errors
    /// The line's error, with its number; the check is over.
    pub fn feed(&mut self, raw: &str) -> Result<(), RecordError> {
        self.line += 1;
        let line = self.line;
        if self.failed {
            return Ok(());
        }
        let raw = if line == 1 { without_bom(raw) } else { raw };
        let result = self.feed_line(line, raw);
        self.failed = result.is_err();
        result
    }

    /// Refuses the next line without reading it as text: a reader that did
    /// not keep a line longer than [`MAX_LINE_BYTES`], or found bytes that
    /// are not UTF-8. The check is over.
    pub fn refuse(&mut self, kind: RecordErrorKind) -> RecordError {
        self.line += 1;
        self.failed = true;
        RecordError {
            line: self.line,
            kind,
        }
    }

    fn feed_line(&mut self, line: usize, raw: &str) -> Result<(), RecordError> {
        if raw.len() > MAX_LINE_BYTES {
            return Err(RecordError {
                line,
                kind: RecordErrorKind::LineTooLong(raw.len()),
            });
        }
        if raw.trim().is_empty() {
            return Ok(());
        }
        let value: Value = serde_json::from_str(raw).map_err(|e| RecordError {
            line,
            kind: RecordErrorKind::Json(e.to_string()),
        })?;
        if value.get("canasta_record").is_some() {
            if let Some(r) = self.replay.take() {
                self.reports.push(r.finish());
            }
            self.replay = Some(Replay::start(&value, line)?);
            return Ok(());
        }
        let r = self.replay.as_mut().ok_or(RecordError {
            line,
            kind: RecordErrorKind::MissingHeader,
        })?;
        r.feed(&value, line)
            .map_err(|kind| RecordError { line, kind })
    }

    /// Every game replayed, and (if no line failed) an error when the
    /// record held no game at all.
    pub fn finish(mut self) -> RecordCheck {
        if let Some(r) = self.replay.take() {
            self.reports.push(r.finish());
        }
        let error = (self.reports.is_empty() && !self.failed).then_some(RecordError {
            line: 1,
            kind: RecordErrorKind::MissingHeader,
        });
        RecordCheck {
            games: self.reports,
            error,
        }
    }
}

/// Replays one game line by line.
pub struct Replay {
    state: GameState,
    report: GameReport,
}

impl Replay {
    /// Starts from a header line.
    ///
    /// # Errors
    /// A header that names no valid rules.
    pub fn start(value: &Value, line: usize) -> Result<Replay, RecordError> {
        let err = |kind| RecordError { line, kind };
        let version = value
            .get("canasta_record")
            .and_then(Value::as_u64)
            .ok_or_else(|| err(RecordErrorKind::MissingHeader))?;
        if version != RECORD_VERSION {
            return Err(err(RecordErrorKind::Version(version)));
        }
        let header: Header = serde_json::from_value(value.clone())
            .map_err(|e| err(RecordErrorKind::Header(e.to_string())))?;
        let rules = header.rules().map_err(|e| err(RecordErrorKind::Rules(e)))?;
        Ok(Replay {
            state: GameState::new(rules.clone()),
            report: GameReport {
                header_line: line,
                rules: Some(rules),
                ..GameReport::default()
            },
        })
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Feeds one non-header line.
    ///
    /// # Errors
    /// What is wrong with the line; the replay stays where it was.
    pub fn feed(&mut self, value: &Value, line: usize) -> Result<(), RecordErrorKind> {
        let obj = value.as_object().ok_or(RecordErrorKind::UnknownLine)?;
        if let Some(deck) = obj.get("deal") {
            return self.deal(obj, deck);
        }
        if obj.contains_key("action") || obj.contains_key("seat") {
            return self.action(obj);
        }
        if let Some(h) = obj.get("hand_end") {
            self.compare_hand_end(h, line);
            return Ok(());
        }
        if let Some(g) = obj.get("game_end") {
            self.compare_game_end(g, line);
            return Ok(());
        }
        Err(RecordErrorKind::UnknownLine)
    }

    fn deal(&mut self, obj: &Map<String, Value>, deck: &Value) -> Result<(), RecordErrorKind> {
        match self.state.phase() {
            Phase::Deal | Phase::HandOver => {}
            Phase::GameOver => return Err(RecordErrorKind::GameOver),
            p => return Err(RecordErrorKind::DealMidHand(p)),
        }
        let cards: Vec<String> = serde_json::from_value(deck.clone())
            .map_err(|_| RecordErrorKind::BadDeal("`deal` must be a list of card texts".into()))?;
        let cards = cards
            .iter()
            .map(|t| t.parse::<Card>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| RecordErrorKind::BadDeal(e.to_string()))?;
        let dealer = obj
            .get("dealer")
            .and_then(Value::as_u64)
            .ok_or_else(|| RecordErrorKind::BadDeal("`dealer` must be a seat number".into()))?
            as usize;
        let players = self.state.players();
        if dealer >= players {
            return Err(RecordErrorKind::Deal(DealError::BadDealer {
                dealer,
                players,
            }));
        }
        let dealer = Seat::new(dealer);
        if let Some(expected) = self.state.next_dealer()
            && dealer != expected
        {
            return Err(RecordErrorKind::Deal(DealError::DealerOutOfTurn {
                dealer,
                expected,
            }));
        }
        let first = match obj.get("first") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let first = v.as_u64().ok_or_else(|| {
                    RecordErrorKind::BadDeal("`first` must be a seat number".into())
                })? as usize;
                if first >= players {
                    return Err(RecordErrorKind::Deal(DealError::BadFirst { first }));
                }
                Some(Seat::new(first))
            }
        };
        self.state.deal_with_first(&cards, dealer, first)?;
        Ok(())
    }

    fn action(&mut self, obj: &Map<String, Value>) -> Result<(), RecordErrorKind> {
        if self.state.phase() == Phase::GameOver {
            return Err(RecordErrorKind::GameOver);
        }
        match self.state.phase() {
            Phase::Deal => return Err(RecordErrorKind::ActionBeforeDeal),
            Phase::HandOver => {
                let hand = self.state.last_hand().expect("a hand that ended is kept");
                return Err(RecordErrorKind::ActionAfterHandEnd {
                    how: hand.reason,
                    seat: hand.seat,
                    stock_end: self.state.rules().going_out.stock_end,
                });
            }
            _ => {}
        }
        let seat =
            obj.get("seat").and_then(Value::as_u64).ok_or_else(|| {
                RecordErrorKind::BadActionLine("`seat` must be a seat number".into())
            })? as usize;
        let players = self.state.players();
        if seat >= players {
            return Err(RecordErrorKind::BadActionLine(format!(
                "`seat` {seat} is not a seat: the table has {players}, numbered from 0"
            )));
        }
        let seat = Seat::new(seat);
        let text = obj
            .get("action")
            .and_then(Value::as_str)
            .ok_or_else(|| RecordErrorKind::BadActionLine("`action` must be a text".into()))?;
        match text.parse::<Action>() {
            Ok(action) => self.state.apply_for(seat, action)?,
            Err(ParseActionError::TooManyGroups) => self.apply_long_meld(seat, text)?,
            Err(error) => {
                return Err(RecordErrorKind::Parse {
                    text: text.to_string(),
                    error,
                });
            }
        }
        if matches!(self.state.phase(), Phase::HandOver | Phase::GameOver) {
            self.report
                .hands
                .push(self.state.last_hand().unwrap().clone());
        }
        Ok(())
    }

    /// A `meld` of more groups than one action holds (possible after a big
    /// pile): applied as consecutive melds, all or nothing. An opening can
    /// never need this many groups.
    fn apply_long_meld(&mut self, seat: Seat, text: &str) -> Result<(), RecordErrorKind> {
        let parse_err = |error| RecordErrorKind::Parse {
            text: text.to_string(),
            error,
        };
        let body = text.trim_start();
        let Some(rest) = body
            .get(4..)
            .filter(|_| body[..4].eq_ignore_ascii_case("meld"))
        else {
            return Err(parse_err(ParseActionError::TooManyGroups));
        };
        let groups: Vec<&str> = rest.split('/').collect();
        let mut state = self.state.clone();
        for chunk in groups.chunks(crate::action::MAX_GROUPS) {
            let action: Action = format!("meld {}", chunk.join("/"))
                .parse()
                .map_err(parse_err)?;
            state.apply_for(seat, action)?;
        }
        self.state = state;
        Ok(())
    }

    fn compare_hand_end(&mut self, given: &Value, line: usize) {
        let mut problems = Vec::new();
        match self.state.phase() {
            Phase::HandOver | Phase::GameOver
                if self.report.hands.len() == self.state.hands_played() as usize =>
            {
                let ours = serde_json::to_value(self.state.last_hand().unwrap()).unwrap();
                compare_json("", given, &ours, &mut problems);
                note_split_totals(given, &ours, &mut problems);
            }
            Phase::HandOver | Phase::GameOver => {
                problems.push("hand_end given, but no hand result is due here".into())
            }
            p => problems.push(format!(
                "hand_end given, but the hand is not over (it waits for: {})",
                p.expects()
            )),
        }
        for message in problems {
            self.report.mismatches.push(Mismatch { line, message });
        }
    }

    fn compare_game_end(&mut self, given: &Value, line: usize) {
        let mut problems = Vec::new();
        match self.state.winner() {
            Some(w) => {
                let ours = json!({"totals": self.state.scores(), "winner": w});
                compare_json("", given, &ours, &mut problems);
            }
            None => problems.push(format!(
                "game_end given, but the game is not over: {}",
                self.why_the_game_goes_on()
            )),
        }
        for message in problems {
            self.report.mismatches.push(Mismatch { line, message });
        }
    }

    /// Why a game that a record says has ended has not, in the engine's
    /// words: a hand still in play, no team at the target, or (P-PEN's
    /// `tie_plays_on`) teams tied for the lead at or over it.
    fn why_the_game_goes_on(&self) -> String {
        let state = &self.state;
        if !matches!(state.phase(), Phase::Deal | Phase::HandOver) {
            return format!(
                "the hand is still in play (it waits for: {})",
                state.phase().expects()
            );
        }
        let target = state.rules().game.target;
        let scores = state.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        if best < target {
            return format!("no team has reached the target ({target})");
        }
        let leaders: Vec<String> = (0..scores.len())
            .filter(|&t| scores[t] == best)
            .map(|t| t.to_string())
            .collect();
        format!(
            "teams {} are tied for the lead at {best}, past the target ({target}), and these \
             rules play another hand to break a tie",
            leaders.join(" and ")
        )
    }

    /// The report, with the position if the game did not end.
    pub fn finish(self) -> GameReport {
        let mut report = self.report;
        report.winner = self.state.winner();
        if !self.state.is_over() {
            report.state = Some(self.state);
        }
        report
    }
}

/// Where a team's breakdown items differ but add up to its `total`, which
/// agrees, says so on each of those items: the contract only recommends the keys, so another
/// writer may file a bonus under another one (the concealed bonus under
/// `other`, where this engine counts it in `going_out`).
fn note_split_totals(given: &Value, ours: &Value, problems: &mut [String]) {
    let (Some(given), Some(ours)) = (given["teams"].as_array(), ours["teams"].as_array()) else {
        return;
    };
    for (t, (g, o)) in given.iter().zip(ours).enumerate() {
        let items: Option<i64> = g
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != "total")
            .map(|(_, v)| v.as_i64())
            .sum();
        let total = g.get("total").and_then(Value::as_i64);
        if total.is_none() || items != total || g.get("total") != o.get("total") {
            continue;
        }
        let prefix = format!("teams[{t}].");
        for message in problems.iter_mut() {
            if message.starts_with(&prefix) {
                message.push_str(&format!(
                    " (teams[{t}].total agrees: only the split between breakdown items differs)"
                ));
            }
        }
    }
}

/// Whether `path` is a team's breakdown in a `hand_end` (`teams[N]`).
fn is_team_item(path: &str) -> bool {
    path.strip_prefix("teams[")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Compares the keys present in `given` with `ours`, recursively.
fn compare_json(path: &str, given: &Value, ours: &Value, out: &mut Vec<String>) {
    match (given, ours) {
        (Value::Object(g), Value::Object(o)) => {
            for (k, gv) in g {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match o.get(k) {
                    Some(ov) => compare_json(&p, gv, ov, out),
                    None if gv.is_null() => {}
                    // A breakdown item of a team's score that this variant
                    // does not score (the spec lets a variant add its own,
                    // e.g. `foot`) agrees when it is zero: the engine scores
                    // nothing there. Elsewhere (`seat`, an invented key) it
                    // is a disagreement.
                    None if is_team_item(path) && gv.as_f64() == Some(0.0) => {}
                    None => out.push(format!(
                        "{p}: record says {gv}, the engine has no such item"
                    )),
                }
            }
        }
        (Value::Array(g), Value::Array(o)) if g.len() == o.len() => {
            for (i, (gv, ov)) in g.iter().zip(o).enumerate() {
                compare_json(&format!("{path}[{i}]"), gv, ov, out);
            }
        }
        _ if given != ours => out.push(format!(
            "{path}: record says {given}, the engine computes {ours}"
        )),
        _ => {}
    }
}

/// Writes records line by line.
pub mod write {
    use super::*;

    pub fn header(rules: &Rules, seed: Option<u64>) -> String {
        serde_json::to_string(&Header::for_rules(rules, seed)).expect("header serializes")
    }

    pub fn deal(deck: &[Card], dealer: Seat) -> String {
        deal_with_first(deck, dealer, None)
    }

    /// A deal line naming the first player, for variants that choose it.
    pub fn deal_with_first(deck: &[Card], dealer: Seat, first: Option<Seat>) -> String {
        let cards: Vec<String> = deck.iter().map(|c| c.to_string()).collect();
        let mut line = json!({"deal": cards, "dealer": dealer});
        if let Some(f) = first {
            line["first"] = json!(f);
        }
        serde_json::to_string(&line).unwrap()
    }

    pub fn action(seat: Seat, action: &Action) -> String {
        serde_json::to_string(&json!({"seat": seat, "action": action.to_string()})).unwrap()
    }

    pub fn hand_end(result: &HandResult) -> String {
        serde_json::to_string(&json!({ "hand_end": result })).unwrap()
    }

    pub fn game_end(state: &GameState) -> Option<String> {
        let winner = state.winner()?;
        Some(
            serde_json::to_string(
                &json!({"game_end": {"totals": state.scores(), "winner": winner}}),
            )
            .unwrap(),
        )
    }
}

/// How the hand that just ended ended, in words for a refusal.
fn how_the_hand_ended(how: HandEndReason, seat: Option<Seat>, stock_end: StockEnd) -> String {
    match how {
        HandEndReason::Out => match seat {
            Some(seat) => format!("seat {seat} went out"),
            None => "a player went out".into(),
        },
        HandEndReason::Blocked => {
            "the player to act held only sevens, which may not be discarded".into()
        }
        HandEndReason::Stock => match stock_end {
            StockEnd::TakePile => "the stock ran out: nothing was left to draw but a red three, or nothing at all",
            StockEnd::ShortStock => {
                "play ended at the stock: too few cards for the next draw, or a red three among the last cards drawn"
            }
            StockEnd::Emptied => "a draw emptied the stock, which ends play",
        }
        .into(),
    }
}
