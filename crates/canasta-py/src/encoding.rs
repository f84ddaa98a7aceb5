//! The flat action space for learning agents: one fixed set of integer ids
//! for every form of the game, and the steps that spell one engine action.
//!
//! The engine's generator lists whole actions, some of them compound (an
//! opening of three melds, taking the pile with a pair and two more melds).
//! No fixed-size space can hold every compound action, so a compound action
//! is spelled in *steps*: `meld`, then its cards one by one, `/` between
//! groups; `pickup with`, the cards from hand, `/`, more groups. The legal
//! steps at any point are exactly the next steps of the generated actions
//! that agree with what has been spelled so far, so every sequence of legal
//! steps ends in one generated action, and every generated action has one
//! spelling: a bijection between step sequences and the generator's list
//! (and through it the record notation). Simple actions (draw, discard,
//! add one card, close a canasta, ask, answer) are one step each; an add
//! of several wild cards (Canastone's and Italian's adds past a canasta)
//! is its add step and then card steps, and a one-card add that such an
//! add extends ends with `end`.
//!
//! The layout is in `docs/python.md`; changing it changes every trained
//! agent's meaning of its outputs, so it is fixed by tests.

use canasta_core::{Action, Card};
use std::fmt;

/// Faces: 52 naturals and the joker, in the engine's order
/// (`(rank - 2) * 4 + suit`, suits S H D C; the joker is 52).
pub const FACES: usize = 53;
/// Meld numbers an `add` or `canasta` step can name (the engine's limit of
/// melds a side).
pub const MELD_SLOTS: usize = canasta_core::state::MAX_MELDS;

pub const DRAW: u16 = 0;
/// `pickup`: the pile's top card onto a meld (where the rules allow it).
pub const PICKUP_ONTO: u16 = 1;
pub const ASK: u16 = 2;
pub const YES: u16 = 3;
pub const NO: u16 = 4;
/// Starts spelling a `meld` of new groups from hand.
pub const MELD: u16 = 5;
/// Starts spelling `pickup C C / G ...`: take the pile with cards from hand.
pub const PICKUP_WITH: u16 = 6;
/// Ends one group of a compound action and starts the next.
pub const NEXT_GROUP: u16 = 7;
/// Ends a compound action that could also go on (offered only then).
pub const END: u16 = 8;
/// `CARD + face`: the next card of the action being spelled.
pub const CARD: u16 = 9;
/// `DISCARD + face`.
pub const DISCARD: u16 = CARD + FACES as u16;
/// `CANASTA + meld`: close that meld as a canasta (Canastia).
pub const CANASTA: u16 = DISCARD + FACES as u16;
/// `ADD + meld * 53 + face`: add one card to the side's meld.
pub const ADD: u16 = CANASTA + MELD_SLOTS as u16;
/// Number of action ids; every id is below this.
pub const NUM_ACTIONS: usize = ADD as usize + MELD_SLOTS * FACES;

/// The longest spelling of any action: a start step, every card of the
/// largest hand, and a separator per group.
pub const MAX_STEPS: usize = 1 + canasta_core::state::MAX_CARDS + 8;

/// What one id means, for names and for the observation of a spelling in
/// progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Draw,
    PickupOnto,
    Ask,
    Yes,
    No,
    Meld,
    PickupWith,
    NextGroup,
    End,
    Card(Card),
    Discard(Card),
    Canasta(usize),
    Add { meld: usize, card: Card },
}

impl Step {
    /// The step an id names, or `None` past [`NUM_ACTIONS`].
    pub fn of_id(id: usize) -> Option<Step> {
        let card = |i: usize| Card::from_index(i);
        Some(match id {
            0 => Step::Draw,
            1 => Step::PickupOnto,
            2 => Step::Ask,
            3 => Step::Yes,
            4 => Step::No,
            5 => Step::Meld,
            6 => Step::PickupWith,
            7 => Step::NextGroup,
            8 => Step::End,
            i if i < DISCARD as usize => Step::Card(card(i - CARD as usize)),
            i if i < CANASTA as usize => Step::Discard(card(i - DISCARD as usize)),
            i if i < ADD as usize => Step::Canasta(i - CANASTA as usize),
            i if i < NUM_ACTIONS => {
                let k = i - ADD as usize;
                Step::Add {
                    meld: k / FACES,
                    card: card(k % FACES),
                }
            }
            _ => return None,
        })
    }

    pub fn id(self) -> u16 {
        match self {
            Step::Draw => DRAW,
            Step::PickupOnto => PICKUP_ONTO,
            Step::Ask => ASK,
            Step::Yes => YES,
            Step::No => NO,
            Step::Meld => MELD,
            Step::PickupWith => PICKUP_WITH,
            Step::NextGroup => NEXT_GROUP,
            Step::End => END,
            Step::Card(c) => CARD + c.index() as u16,
            Step::Discard(c) => DISCARD + c.index() as u16,
            Step::Canasta(m) => CANASTA + m as u16,
            Step::Add { meld, card } => ADD + (meld * FACES + card.index()) as u16,
        }
    }
}

/// The name of a step: the record's words where a step is a whole action
/// (`draw`, `discard 7S`, `add 3 7S`, `canasta 2`), else `meld`,
/// `pickup with`, `card 7S`, `/`, `end`.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Draw => f.write_str("draw"),
            Step::PickupOnto => f.write_str("pickup"),
            Step::Ask => f.write_str("ask"),
            Step::Yes => f.write_str("yes"),
            Step::No => f.write_str("no"),
            Step::Meld => f.write_str("meld"),
            Step::PickupWith => f.write_str("pickup with"),
            Step::NextGroup => f.write_str("/"),
            Step::End => f.write_str("end"),
            Step::Card(c) => write!(f, "card {c}"),
            Step::Discard(c) => write!(f, "discard {c}"),
            Step::Canasta(m) => write!(f, "canasta {m}"),
            Step::Add { meld, card } => write!(f, "add {meld} {card}"),
        }
    }
}

/// The id a step's name names (the inverse of its `Display`).
pub fn id_of_name(text: &str) -> Option<u16> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let card = |w: &str| w.parse::<Card>().ok();
    let meld = |w: &str| w.parse::<usize>().ok().filter(|&m| m < MELD_SLOTS);
    let step = match words.as_slice() {
        ["draw"] => Step::Draw,
        ["pickup"] => Step::PickupOnto,
        ["ask"] => Step::Ask,
        ["yes"] => Step::Yes,
        ["no"] => Step::No,
        ["meld"] => Step::Meld,
        ["pickup", "with"] => Step::PickupWith,
        ["/"] => Step::NextGroup,
        ["end"] => Step::End,
        ["card", c] => Step::Card(card(c)?),
        ["discard", c] => Step::Discard(card(c)?),
        ["canasta", m] => Step::Canasta(meld(m)?),
        ["add", m, c] => Step::Add {
            meld: meld(m)?,
            card: card(c)?,
        },
        _ => return None,
    };
    Some(step.id())
}

/// Appends the spelling of `action` to `out`.
pub fn spell(action: &Action, out: &mut Vec<u16>) {
    let groups = |out: &mut Vec<u16>, groups: &[canasta_core::Group]| {
        for (i, g) in groups.iter().enumerate() {
            if i > 0 {
                out.push(NEXT_GROUP);
            }
            out.extend(g.cards().map(|c| Step::Card(c).id()));
        }
    };
    match *action {
        Action::Draw => out.push(DRAW),
        Action::PickupOnto => out.push(PICKUP_ONTO),
        Action::Ask => out.push(ASK),
        Action::Answer(true) => out.push(YES),
        Action::Answer(false) => out.push(NO),
        Action::Discard(c) => out.push(Step::Discard(c).id()),
        Action::CloseCanasta(m) => out.push(Step::Canasta(m.index()).id()),
        Action::Add { meld, cards } => {
            // The first card names the meld; the rest (wild cards that
            // carry a meld past a canasta, or any a record holds) are
            // spelled as further cards.
            let mut cards = cards.cards();
            if let Some(first) = cards.next() {
                out.push(
                    Step::Add {
                        meld: meld.index(),
                        card: first,
                    }
                    .id(),
                );
            }
            out.extend(cards.map(|c| Step::Card(c).id()));
        }
        Action::Meld(gs) => {
            out.push(MELD);
            groups(out, gs.as_slice());
        }
        Action::Pickup { with, also } => {
            out.push(PICKUP_WITH);
            groups(out, &[with]);
            if !also.is_empty() {
                out.push(NEXT_GROUP);
                groups(out, also.as_slice());
            }
        }
    }
}

/// A step that is not legal where it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalStep {
    pub id: usize,
    /// The legal ids at that point.
    pub legal: Vec<u16>,
}

impl fmt::Display for IllegalStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Step::of_id(self.id) {
            Some(step) => write!(f, "action {} (`{step}`) is not legal here", self.id)?,
            None => write!(
                f,
                "action {} is not an action id (they run from 0 to {})",
                self.id,
                NUM_ACTIONS - 1
            )?,
        }
        let names: Vec<String> = self
            .legal
            .iter()
            .take(12)
            .map(|&i| format!("{i} `{}`", Step::of_id(i as usize).unwrap()))
            .collect();
        write!(f, "; legal: {}", names.join(", "))?;
        if self.legal.len() > 12 {
            write!(f, " and {} more", self.legal.len() - 12)?;
        }
        Ok(())
    }
}

impl std::error::Error for IllegalStep {}

/// One decision spelled in steps: the generated actions, their spellings,
/// and what has been spelled so far. Buffers are reused from decision to
/// decision, so stepping allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct Speller {
    actions: Vec<Action>,
    /// Spellings of `actions`, end to end; `ends[i]` is where the i-th ends.
    steps: Vec<u16>,
    ends: Vec<u32>,
    /// Actions that agree with the prefix.
    alive: Vec<u32>,
    prefix: Vec<u16>,
    /// The legal ids now, ascending and distinct: computed once per step,
    /// read by the mask, the sampler and the legality check.
    legal: Vec<u16>,
}

impl Speller {
    pub fn new() -> Speller {
        Speller::default()
    }

    /// Starts a decision among `legal` (the generator's list).
    pub fn reset(&mut self, legal: &[Action]) {
        self.actions.clear();
        self.actions.extend_from_slice(legal);
        self.steps.clear();
        self.ends.clear();
        for a in legal {
            spell(a, &mut self.steps);
            self.ends.push(self.steps.len() as u32);
        }
        self.alive.clear();
        self.alive.extend(0..legal.len() as u32);
        self.prefix.clear();
        self.update_legal();
    }

    fn update_legal(&mut self) {
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        let k = self.prefix.len();
        let mut complete = false;
        for &i in &self.alive {
            let s = self.spelling(i as usize);
            if s.len() > k {
                legal.push(s[k]);
            } else {
                complete = true;
            }
        }
        // An action that is complete but could go on: `end` takes it.
        if complete && self.alive.len() > 1 {
            legal.push(END);
        }
        legal.sort_unstable();
        legal.dedup();
        self.legal = legal;
    }

    /// The generated actions of this decision.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The spelling of action `i`.
    pub fn spelling(&self, i: usize) -> &[u16] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.steps[start..self.ends[i] as usize]
    }

    /// Steps taken in this decision so far.
    pub fn prefix(&self) -> &[u16] {
        &self.prefix
    }

    /// The legal step ids, ascending, without repeats.
    pub fn legal(&self) -> &[u16] {
        &self.legal
    }

    /// The legal step ids, ascending, without repeats (a copy).
    pub fn legal_ids(&self) -> Vec<u16> {
        self.legal.clone()
    }

    /// Takes one step; returns the action when the spelling is complete.
    ///
    /// # Errors
    /// A step that no generated action takes here; nothing changes.
    pub fn step(&mut self, id: usize) -> Result<Option<Action>, IllegalStep> {
        let k = self.prefix.len();
        let refuse = |this: &Speller| IllegalStep {
            id,
            legal: this.legal_ids(),
        };
        if id >= NUM_ACTIONS {
            return Err(refuse(self));
        }
        let id16 = id as u16;
        if self.legal.binary_search(&id16).is_err() {
            return Err(refuse(self));
        }
        if id16 == END {
            // Legal only where a complete action could also go on.
            let done = self
                .alive
                .iter()
                .copied()
                .find(|&i| self.spelling(i as usize).len() == k);
            return match done {
                Some(i) if self.alive.len() > 1 => Ok(Some(self.actions[i as usize])),
                _ => Err(refuse(self)),
            };
        }
        let before = self.alive.len();
        let mut kept = 0;
        for j in 0..before {
            let i = self.alive[j];
            let s = self.spelling(i as usize);
            if s.len() > k && s[k] == id16 {
                self.alive[kept] = i;
                kept += 1;
            }
        }
        if kept == 0 {
            return Err(refuse(self));
        }
        // Only now is the step taken: a refusal leaves the alive set whole.
        self.alive.truncate(kept);
        self.prefix.push(id16);
        self.update_legal();
        let k = k + 1;
        let complete = self
            .alive
            .iter()
            .copied()
            .find(|&i| self.spelling(i as usize).len() == k);
        match complete {
            Some(i) if self.alive.len() == 1 => Ok(Some(self.actions[i as usize])),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{GameState, Phase, Rng, Seat, rules::all_forms};

    #[test]
    fn the_layout_is_fixed() {
        // docs/python.md documents these numbers; trained agents rely on them.
        assert_eq!((CARD, DISCARD, CANASTA, ADD), (9, 62, 115, 147));
        assert_eq!(NUM_ACTIONS, 1843);
        for id in 0..NUM_ACTIONS {
            let step = Step::of_id(id).unwrap();
            assert_eq!(step.id() as usize, id);
            assert_eq!(id_of_name(&step.to_string()), Some(id as u16), "{step}");
        }
        assert_eq!(Step::of_id(NUM_ACTIONS), None);
        // 7S is face (7 - 2) * 4 + 0 = 20.
        assert_eq!(id_of_name("add 3 7S"), Some(ADD + 3 * 53 + 20));
    }

    /// Every generated action of random positions of every form is spelled
    /// once, the legal steps lead to exactly the generated actions, and a
    /// refused step changes nothing.
    #[test]
    fn spellings_are_a_bijection_with_the_generated_actions() {
        for (f, rules) in all_forms().into_iter().enumerate() {
            let mut rng = Rng::new(f as u64 + 7);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(0));
            let mut speller = Speller::new();
            for _ in 0..400 {
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    break;
                }
                let legal = g.legal_actions();
                speller.reset(&legal);
                let mut seen = std::collections::HashSet::new();
                for (i, a) in legal.iter().enumerate() {
                    assert!(
                        seen.insert(speller.spelling(i).to_vec()),
                        "{}: two actions spelled alike: {a}",
                        &rules.game.variant,
                    );
                }
                // Walk every action by its own spelling: each step is legal.
                for (i, a) in legal.iter().enumerate() {
                    let mut s = speller.clone();
                    let spelling = speller.spelling(i).to_vec();
                    let mut got = None;
                    for (j, &id) in spelling.iter().enumerate() {
                        assert!(s.legal_ids().contains(&id), "{a}: step {j}");
                        got = s.step(id as usize).unwrap();
                        if got.is_some() {
                            assert_eq!(j + 1, spelling.len(), "{a} ended early");
                        }
                    }
                    if got.is_none() {
                        got = s.step(END as usize).unwrap();
                    }
                    assert_eq!(got, Some(*a));
                }
                // A refused step leaves the speller as it was.
                let before = speller.legal_ids();
                let bad = (0..NUM_ACTIONS as u16)
                    .find(|i| !before.contains(i))
                    .unwrap();
                assert!(speller.step(bad as usize).is_err());
                assert_eq!(speller.legal_ids(), before);
                let pick = legal[rng.below(legal.len())];
                g.apply_unchecked(pick);
            }
        }
    }

    #[test]
    fn an_opening_is_spelled_card_by_card() {
        let a: Action = "meld 7S 7H 7D / 8S 8H 2C".parse().unwrap();
        let mut out = Vec::new();
        spell(&a, &mut out);
        let names: Vec<String> = out
            .iter()
            .map(|&i| Step::of_id(i as usize).unwrap().to_string())
            .collect();
        assert_eq!(
            names.join(" | "),
            "meld | card 7S | card 7H | card 7D | / | card 8S | card 8H | card 2C"
        );
    }
}
