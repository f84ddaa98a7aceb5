//! One game (or one hand) as a learning environment sees it: chance,
//! decisions spelled in steps, returns at the end, and the game record.
//!
//! Chance is drawn by the episode itself from a seeded stream (the same
//! stream and order as `canasta sim`, so `seed` and `index` deal the same
//! cards as game `index` of `canasta sim --seed seed`), or left to the
//! caller as explicit chance steps (OpenSpiel's chance nodes): the first
//! dealer, then every card of the deck from the top, each with its
//! probability, then the first player where the rules draw one.

mod from_record;
mod serial;

use crate::encoding::{IllegalStep, Speller};
use crate::tensor::{self, Layout};
use canasta_core::Seat;
use canasta_core::record::write;
use canasta_core::{
    Action, ActionList, Card, CardCounts, DealOutcome, GameState, IllegalAction, Phase, Rng, Rules,
    shuffled_deck,
};
use std::fmt;

/// What ends an episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// The whole game, to the target (or `max_hands`).
    Game,
    /// One hand.
    Hand,
}

/// What the returns measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// Winning: the leading side (or sides, sharing) against the rest,
    /// +1 for a lone winner, zero-sum over sides.
    Win,
    /// Points: each side's score less the mean of all sides, in thousands.
    Points,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub length: Length,
    pub reward: Reward,
    /// A game still short of the target after this many hands ends there
    /// (as `canasta sim --max-hands`).
    pub max_hands: u32,
    /// Keep the game record (costs a string per action).
    pub record: bool,
    /// Leave chance to the caller (OpenSpiel) instead of the seeded stream.
    pub explicit_chance: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            length: Length::Game,
            reward: Reward::Win,
            max_hands: 500,
            record: true,
            explicit_chance: false,
        }
    }
}

/// Who moves now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    Chance,
    Seat(usize),
    Terminal,
}

/// Which chance event is next (explicit chance only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChanceEvent {
    FirstDealer,
    /// The next card of the deck, from the top.
    Card,
    FirstPlayer,
}

/// Why an episode refused something; nothing changed.
#[derive(Clone, Debug, PartialEq)]
pub enum EpisodeError {
    Step(IllegalStep),
    Action(IllegalAction),
    /// An action given whole while one is being spelled in steps.
    Spelling,
    NotChance,
    BadOutcome {
        outcome: usize,
    },
    NoDecision(&'static str),
    Record(String),
}

impl fmt::Display for EpisodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpisodeError::Step(e) => e.fmt(f),
            EpisodeError::Action(e) => e.fmt(f),
            EpisodeError::Spelling => f.write_str(
                "an action is being spelled in steps; finish it (or play whole actions only)",
            ),
            EpisodeError::NotChance => f.write_str("this is not a chance node"),
            EpisodeError::BadOutcome { outcome } => {
                write!(f, "chance outcome {outcome} is not possible here")
            }
            EpisodeError::NoDecision(why) => write!(f, "no decision now: {why}"),
            EpisodeError::Record(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for EpisodeError {}

#[derive(Clone)]
pub struct Episode {
    state: GameState,
    config: Config,
    layout: Layout,
    rng: Rng,
    seed: Option<u64>,
    dealer: usize,
    chance: Option<ChanceEvent>,
    deck: Vec<Card>,
    deck_left: CardCounts,
    legal: ActionList,
    speller: Speller,
    record: Vec<String>,
    terminal: bool,
    returns: Vec<f64>,
    decisions: u64,
}

impl Episode {
    /// A new game under `rules`. With the seeded stream, the first hand is
    /// dealt at once; with explicit chance the first dealer is awaited.
    pub fn new(rules: Rules, config: Config, seed: u64, index: u64) -> Episode {
        let n = rules.game.players as usize;
        let mut rng = Rng::stream(seed, index);
        // `canasta sim` draws a seed for each seat's bot first.
        for _ in 0..n {
            rng.next_u64();
        }
        let layout = Layout::of(&rules);
        let mut ep = Episode {
            record: Vec::new(),
            state: GameState::new(rules),
            config,
            layout,
            rng,
            seed: (!config.explicit_chance).then_some(seed),
            dealer: 0,
            chance: None,
            deck: Vec::new(),
            deck_left: CardCounts::new(),
            legal: ActionList::new(),
            speller: Speller::new(),
            terminal: false,
            returns: vec![0.0; n],
            decisions: 0,
        };
        if config.record {
            ep.record.push(write::header(ep.state.rules(), ep.seed));
        }
        if config.explicit_chance {
            ep.chance = Some(ChanceEvent::FirstDealer);
        } else {
            ep.dealer = ep.rng.below(n);
            ep.deal_from_stream();
        }
        ep
    }

    /// An episode at a decision of `state` whose legal actions are `legal`
    /// (as a host lists them to a bot): for agents served over the bot
    /// protocol. It keeps no record and ends when the hand does.
    pub fn at_decision(state: GameState, legal: &[Action]) -> Episode {
        let rules = state.rules().clone();
        let config = Config {
            length: Length::Hand,
            record: false,
            explicit_chance: true,
            ..Config::default()
        };
        let mut ep = Episode::new(rules, config, 0, 0);
        ep.dealer = state.dealer().index();
        ep.state = state;
        ep.chance = None;
        ep.legal.clear();
        ep.legal.extend(legal.iter().copied());
        ep.speller.reset(legal);
        ep
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    pub fn rules(&self) -> &Rules {
        self.state.rules()
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    pub fn players(&self) -> usize {
        self.state.players()
    }

    pub fn dealer(&self) -> usize {
        self.dealer
    }

    /// What the chance node at hand draws: `dealer`, `card` or `first`
    /// (the first player), or `None` off chance nodes.
    pub fn chance_kind(&self) -> Option<&'static str> {
        self.chance.map(|c| match c {
            ChanceEvent::FirstDealer => "dealer",
            ChanceEvent::Card => "card",
            ChanceEvent::FirstPlayer => "first",
        })
    }

    pub fn mover(&self) -> Mover {
        if self.terminal {
            Mover::Terminal
        } else if self.chance.is_some() {
            Mover::Chance
        } else {
            Mover::Seat(self.state.to_act().index())
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// Whether the episode ended because a whole game reached `max_hands`
    /// short of the target: cut off, not played out (gymnasium's
    /// truncation).
    pub fn is_truncated(&self) -> bool {
        self.terminal && self.config.length == Length::Game && !self.state.is_over()
    }

    /// Returns by seat: zero until the end.
    pub fn returns(&self) -> &[f64] {
        &self.returns
    }

    /// Whole actions taken so far (not steps).
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// The generated actions of the decision at hand.
    pub fn legal_actions(&self) -> &[Action] {
        if self.chance.is_some() || self.terminal {
            &[]
        } else {
            &self.legal
        }
    }

    pub fn speller(&self) -> &Speller {
        &self.speller
    }

    /// The legal step ids, ascending (empty at chance and terminal nodes).
    pub fn legal_ids(&self) -> Vec<u16> {
        if self.chance.is_some() || self.terminal {
            Vec::new()
        } else {
            self.speller.legal_ids()
        }
    }

    /// Sets `mask[id]` for every legal id, clearing the rest (`mask` holds
    /// `NUM_ACTIONS` entries; all false at chance and terminal nodes).
    pub fn write_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.chance.is_none() && !self.terminal {
            for &id in self.speller.legal() {
                mask[usize::from(id)] = true;
            }
        }
    }

    /// The observation tensor of `seat` (its length is the layout's size).
    pub fn observe_into(&self, seat: usize, out: &mut [f32]) {
        let prefix = if self.mover() == Mover::Seat(seat) {
            self.speller.prefix()
        } else {
            &[]
        };
        tensor::write(&self.state, seat, prefix, self.layout, out);
    }

    /// The record so far, one JSON line each (empty if not kept).
    pub fn record_lines(&self) -> &[String] {
        &self.record
    }

    /// Takes one step of the decision at hand.
    ///
    /// # Errors
    /// A step that is not legal here; nothing changes.
    pub fn step(&mut self, id: usize) -> Result<Option<Action>, EpisodeError> {
        if let Some(why) = self.no_decision() {
            return Err(EpisodeError::NoDecision(why));
        }
        let done = self.speller.step(id).map_err(EpisodeError::Step)?;
        if let Some(action) = done {
            self.play(action);
        }
        Ok(done)
    }

    /// Plays a whole action, judged by the engine (any size the record
    /// notation allows, not only the generated ones).
    ///
    /// # Errors
    /// An illegal action, or one given while another is half spelled.
    pub fn apply_action(&mut self, action: Action) -> Result<(), EpisodeError> {
        if let Some(why) = self.no_decision() {
            return Err(EpisodeError::NoDecision(why));
        }
        if !self.speller.prefix().is_empty() {
            return Err(EpisodeError::Spelling);
        }
        let seat = self.state.to_act().index();
        let mut next = self.state.clone();
        next.apply(action).map_err(EpisodeError::Action)?;
        self.state = next;
        self.after_action(seat, action);
        Ok(())
    }

    fn no_decision(&self) -> Option<&'static str> {
        if self.terminal {
            Some("the episode is over")
        } else if self.chance.is_some() {
            Some("a chance event comes first")
        } else {
            None
        }
    }

    /// Plays a generated action (no judgement: it came from the list).
    fn play(&mut self, action: Action) {
        let seat = self.state.to_act().index();
        self.state.apply_unchecked(action);
        self.after_action(seat, action);
    }

    fn after_action(&mut self, seat: usize, action: Action) {
        self.decisions += 1;
        if self.config.record {
            self.record.push(write::action(Seat::new(seat), &action));
        }
        match self.state.phase() {
            Phase::Draw | Phase::Play | Phase::Answer => self.prepare_decision(),
            Phase::HandOver | Phase::GameOver => self.hand_over(),
            Phase::Deal => unreachable!("an action never leads back to the deal"),
        }
    }

    /// The generated list of the new decision, spelled.
    fn prepare_decision(&mut self) {
        self.state.legal_actions_into(&mut self.legal);
        self.speller.reset(&self.legal);
    }

    /// A hand ended: record it, then end the episode or deal the next.
    fn hand_over(&mut self) {
        let result = self
            .state
            .last_hand()
            .expect("a hand that ended has a result")
            .clone();
        if self.config.record {
            self.record.push(write::hand_end(&result));
            if let Some(line) = write::game_end(&self.state) {
                self.record.push(line);
            }
        }
        let over = self.state.is_over()
            || self.config.length == Length::Hand
            || self.state.hands_played() >= self.config.max_hands;
        if over {
            let sides: Vec<f64> = match self.config.length {
                Length::Hand => result.teams.iter().map(|t| f64::from(t.total)).collect(),
                // A game stopped short of the target has no winner (as
                // `canasta sim` and `tournament` count it): a tie.
                Length::Game if !self.state.is_over() && self.config.reward == Reward::Win => {
                    vec![0.0; self.state.scores().len()]
                }
                Length::Game => self.state.scores().iter().map(|&s| f64::from(s)).collect(),
            };
            self.finish(&sides);
            return;
        }
        self.dealer = (self.dealer + 1) % self.players();
        if self.config.explicit_chance {
            self.start_deck();
        } else {
            self.deal_from_stream();
        }
    }

    /// Ends the episode with returns from the sides' scores.
    fn finish(&mut self, side_scores: &[f64]) {
        self.terminal = true;
        self.legal.clear();
        self.speller.reset(&[]);
        let per_side = side_returns(side_scores, self.config.reward);
        // Scores are kept by the side a seat starts the hand on: its team,
        // or the seat itself where partnerships are temporary (Classic 3).
        let rules = self.state.rules();
        for seat in 0..self.players() {
            self.returns[seat] = per_side[rules.game.starting_side(Seat::new(seat)).index()];
        }
    }

    /// Deals hands from the seeded stream until one stands.
    fn deal_from_stream(&mut self) {
        let rules = self.state.rules().clone();
        let n = self.players();
        loop {
            let deck = shuffled_deck(&rules, &mut self.rng);
            let first = rules.deal.random_first_player.then(|| self.rng.below(n));
            if self.deal(&deck, first) == DealOutcome::Dealt {
                return;
            }
        }
    }

    fn deal(&mut self, deck: &[Card], first: Option<usize>) -> DealOutcome {
        let (dealer, first) = (Seat::new(self.dealer), first.map(Seat::new));
        let outcome = self
            .state
            .deal_with_first(deck, dealer, first)
            .expect("a whole preset deck deals");
        if self.config.record {
            self.record
                .push(write::deal_with_first(deck, dealer, first));
        }
        if outcome == DealOutcome::Dealt {
            self.prepare_decision();
        }
        outcome
    }

    fn start_deck(&mut self) {
        self.deck.clear();
        self.deck_left = self.state.rules().deal.deck();
        self.chance = Some(ChanceEvent::Card);
    }

    /// The chance outcomes and their probabilities (empty off chance nodes):
    /// seats for the first dealer and first player, faces for cards.
    pub fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        let n = self.players();
        match self.chance {
            None => Vec::new(),
            Some(ChanceEvent::FirstDealer | ChanceEvent::FirstPlayer) => {
                (0..n).map(|s| (s, 1.0 / n as f64)).collect()
            }
            Some(ChanceEvent::Card) => {
                let total = self.deck_left.total() as f64;
                self.deck_left
                    .faces()
                    .map(|(c, k)| (c.index(), f64::from(k) / total))
                    .collect()
            }
        }
    }

    /// Applies a chance outcome.
    ///
    /// # Errors
    /// Not a chance node, or an outcome that is not possible here.
    pub fn apply_chance(&mut self, outcome: usize) -> Result<(), EpisodeError> {
        let n = self.players();
        let bad = EpisodeError::BadOutcome { outcome };
        match self.chance {
            None => Err(EpisodeError::NotChance),
            Some(ChanceEvent::FirstDealer) => {
                if outcome >= n {
                    return Err(bad);
                }
                self.dealer = outcome;
                self.start_deck();
                Ok(())
            }
            Some(ChanceEvent::Card) => {
                if outcome >= crate::encoding::FACES {
                    return Err(bad);
                }
                let card = Card::from_index(outcome);
                if !self.deck_left.remove(card) {
                    return Err(bad);
                }
                self.deck.push(card);
                if self.deck_left.is_empty() {
                    if self.state.rules().deal.random_first_player {
                        self.chance = Some(ChanceEvent::FirstPlayer);
                    } else {
                        self.finish_deal(None);
                    }
                }
                Ok(())
            }
            Some(ChanceEvent::FirstPlayer) => {
                if outcome >= n {
                    return Err(bad);
                }
                self.finish_deal(Some(outcome));
                Ok(())
            }
        }
    }

    fn finish_deal(&mut self, first: Option<usize>) {
        self.chance = None;
        let deck = std::mem::take(&mut self.deck);
        if self.deal(&deck, first) == DealOutcome::Annulled {
            self.start_deck();
        }
    }

    /// The same episode with the cards `seat` cannot see dealt anew,
    /// consistently with everything it knows (the engine's determinizer).
    /// The action being spelled, if any, stays.
    pub fn resample(&self, seat: usize, rng: &mut Rng) -> Episode {
        let mut out = self.clone();
        if self.chance.is_none() && !self.terminal {
            out.state = self.state.determinize(Seat::new(seat), rng);
        }
        // The record holds the real deal: a determinization keeps none.
        out.record.clear();
        out.config.record = false;
        out
    }
}

/// Zero-sum returns by side from the sides' scores.
pub fn side_returns(scores: &[f64], reward: Reward) -> Vec<f64> {
    let k = scores.len() as f64;
    match reward {
        Reward::Points => {
            let mean = scores.iter().sum::<f64>() / k;
            scores.iter().map(|s| (s - mean) / 1000.0).collect()
        }
        Reward::Win => {
            let best = scores.iter().copied().fold(f64::MIN, f64::max);
            let leaders = scores.iter().filter(|&&s| s == best).count() as f64;
            scores
                .iter()
                .map(|&s| {
                    let w = if s == best { 1.0 / leaders } else { 0.0 };
                    (w - 1.0 / k) * k / (k - 1.0)
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests;
