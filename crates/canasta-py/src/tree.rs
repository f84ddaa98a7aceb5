//! The size of one hand's game tree as OpenSpiel holds it (the
//! `canasta_<preset>` games, `episode="hand"`): every node, chance nodes
//! included, and every information set, walked depth first.
//!
//! The walk takes the steps the OpenSpiel state takes: the explicit chance
//! of [`Episode`] (the first dealer, each card of the deck from the top,
//! the first player where the rules draw one) and the flat action ids, one
//! a node, so a compound action is several nodes. An information set is
//! what `information_state_string` tells apart (`openspiel.py`): the
//! seat, its observation (the bot protocol's JSON), the ids spelled in
//! the decision at hand, every decision id so far (all public) and the
//! seat's hand after each change. Each is kept as a 128-bit digest of
//! those parts, so a form with millions of them fits in memory.
//!
//! A form whose deal may be annulled (Canastone's upcards) deals again
//! from a fresh deck, a tree without end; so does any form too big to
//! walk. [`tree_size`] stops at a node budget and says so.

use crate::episode::{Config, Episode, Length, Mover};
use canasta_core::{CardCounts, Rules};
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Nodes and information sets of one hand's tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeSize {
    /// Chance nodes: the first dealer, each card of the deal, the first player.
    pub chance: u64,
    /// Decision nodes (one for each id of a spelled action).
    pub decision: u64,
    /// Terminal nodes: complete hands (one for each deal and line of play).
    pub terminal: u64,
    /// Information sets of each seat (distinct information states at its
    /// decision nodes).
    pub information_sets: Vec<u64>,
}

impl TreeSize {
    /// Every node: OpenSpiel's histories (chance, decision and terminal).
    pub fn histories(&self) -> u64 {
        self.chance + self.decision + self.terminal
    }

    /// Information sets of all seats.
    pub fn all_information_sets(&self) -> u64 {
        self.information_sets.iter().sum()
    }
}

/// Why a tree was not counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooBig {
    /// The node budget that was reached.
    pub budget: u64,
}

impl std::fmt::Display for TooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the tree has more than {} nodes (or no end: a deal the rules annul is dealt again)",
            self.budget
        )
    }
}

impl std::error::Error for TooBig {}

/// What the walk carries down a path besides the episode: the digest of
/// each seat's information state so far (the ids and its hands).
#[derive(Clone)]
struct Path {
    /// Per seat, a running digest of the decision ids and the seat's
    /// hand after each change (`CanastaState._views`).
    views: Vec<(u64, u64)>,
    /// The hands last noted, per seat.
    hands: Vec<CardCounts>,
    /// Decision ids so far.
    ids: u64,
}

/// Two independent 64-bit digests of the same parts.
fn digest(parts: impl Fn(&mut DefaultHasher)) -> (u64, u64) {
    let mut a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    0xA5u8.hash(&mut b);
    parts(&mut a);
    parts(&mut b);
    (a.finish(), b.finish())
}

struct Walk {
    size: TreeSize,
    seen: Vec<HashSet<(u64, u64)>>,
    budget: u64,
}

/// Counts one hand's tree under `rules` (each dealer, each deal, each line
/// of play), visiting at most `budget` nodes.
///
/// # Errors
/// [`TooBig`] when the tree has more nodes than `budget`.
pub fn tree_size(rules: &Rules, budget: u64) -> Result<TreeSize, TooBig> {
    let players = rules.game.players as usize;
    let config = Config {
        length: Length::Hand,
        record: false,
        explicit_chance: true,
        ..Config::default()
    };
    let episode = Episode::new(rules.clone(), config, 0, 0);
    let mut walk = Walk {
        size: TreeSize {
            information_sets: vec![0; players],
            ..TreeSize::default()
        },
        seen: vec![HashSet::new(); players],
        budget,
    };
    let path = Path {
        views: vec![(0, 0); players],
        hands: vec![CardCounts::new(); players],
        ids: 0,
    };
    walk.node(episode, path)?;
    walk.size.information_sets = walk.seen.iter().map(|s| s.len() as u64).collect();
    Ok(walk.size)
}

impl Walk {
    fn node(&mut self, episode: Episode, path: Path) -> Result<(), TooBig> {
        if self.size.histories() >= self.budget {
            return Err(TooBig {
                budget: self.budget,
            });
        }
        match episode.mover() {
            Mover::Terminal => self.size.terminal += 1,
            Mover::Chance => {
                self.size.chance += 1;
                for (outcome, _) in episode.chance_outcomes() {
                    let mut child = episode.clone();
                    child
                        .apply_chance(outcome)
                        .expect("a listed outcome applies");
                    let mut path = path.clone();
                    if child.mover() != Mover::Chance {
                        note_hands(&child, &mut path);
                    }
                    self.node(child, path)?;
                }
            }
            Mover::Seat(seat) => {
                self.size.decision += 1;
                let observation =
                    serde_json::to_string(&episode.state().observe(canasta_core::Seat::new(seat)))
                        .expect("an observation is JSON");
                let key = digest(|h| {
                    seat.hash(h);
                    observation.hash(h);
                    episode.speller().prefix().hash(h);
                    path.ids.hash(h);
                    path.views[seat].hash(h);
                });
                self.seen[seat].insert(key);
                for id in episode.legal_ids() {
                    let mut child = episode.clone();
                    let done = child.step(usize::from(id)).expect("a legal id steps");
                    let mut path = path.clone();
                    // Every id is public: it enters each seat's view.
                    for view in &mut path.views {
                        *view = digest(|h| {
                            view.hash(h);
                            'i'.hash(h);
                            id.hash(h);
                        });
                    }
                    path.ids += 1;
                    if done.is_some() {
                        note_hands(&child, &mut path);
                    }
                    self.node(child, path)?;
                }
            }
        }
        Ok(())
    }
}

/// Adds each seat's hand to its view where it changed (as
/// `CanastaState._note_hands` does after a deal and a whole action).
fn note_hands(episode: &Episode, path: &mut Path) {
    for seat in 0..path.hands.len() {
        let hand = *episode.state().hand(canasta_core::Seat::new(seat));
        if hand != path.hands[seat] {
            path.hands[seat] = hand;
            let at = path.ids;
            path.views[seat] = digest(|h| {
                path.views[seat].hash(h);
                'h'.hash(h);
                at.hash(h);
                hand.faces().collect::<Vec<_>>().hash(h);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The small forms' trees, as their summaries and `docs/python.md`
    /// give them (and `tests/test_equilibrium.py` counts them again by
    /// walking OpenSpiel's states).
    #[test]
    fn the_small_forms_have_the_sizes_their_summaries_give() {
        for (id, histories, nodes, sets) in [
            ("micro", "407", (99, 212, 96), 84),
            ("mini", "6,645", (617, 4_256, 1_772), 820),
        ] {
            let rules = Rules::preset(id, None, None).unwrap();
            let size = tree_size(&rules, 1_000_000).unwrap();
            assert_eq!((size.chance, size.decision, size.terminal), nodes, "{id}");
            assert_eq!(size.all_information_sets(), sets, "{id}");
            let info = canasta_core::rules::PRESETS
                .iter()
                .find(|p| p.id == id)
                .unwrap();
            let stated = format!("{histories} histories, {sets} information sets");
            assert!(info.summary.contains(&stated), "{id}: {stated}");
            assert_eq!(size.histories().to_string(), histories.replace(',', ""));
        }
    }

    /// A full-size deck has far too many deals to walk: the budget stops
    /// the walk and says so.
    #[test]
    fn a_full_deck_is_refused_at_the_budget() {
        let err = tree_size(&Rules::classic(), 10_000).unwrap_err();
        assert_eq!(err.budget, 10_000);
        assert!(err.to_string().contains("more than 10000 nodes"), "{err}");
    }
}
