//! The Canasta rules engine: pure, deterministic, no I/O, no clock, no
//! global random generator.
//!
//! ```
//! use canasta_core::{GameState, Rules, Rng, Seat, shuffled_deck};
//! let rules = Rules::preset("classic", Some(4), None).unwrap();
//! let mut game = GameState::new(rules.clone());
//! let mut rng = Rng::new(42);
//! game.deal(&shuffled_deck(&rules, &mut rng), Seat::new(0)).unwrap();
//! while !game.is_over() && game.phase() != canasta_core::Phase::HandOver {
//!     let actions = game.legal_actions();
//!     let pick = actions[rng.below(actions.len())];
//!     game.apply(pick).unwrap();
//! }
//! println!("team 0 scores {}", game.last_hand().unwrap().teams[0].total);
//! ```

pub mod action;
pub mod card;
pub mod error;
mod judge;
mod lay;
pub mod meld;
mod movegen;
mod play;
pub mod record;
pub mod rng;
pub mod rules;
mod search;
pub mod seat;
mod stackvec;
pub mod state;

// The public paths of the parts that moved into folders.
pub use state::{determinize, observation, pile_words, score};

pub use action::{Action, ActionList, Groups, ParseActionError};
pub use card::{Card, CardCounts, CardStyle, ParseCardError, Rank, Styled, Suit};
pub use determinize::Sampler;
pub use error::{IllegalAction, IllegalReason, MeldRef};
pub use meld::{CanastaKind, GoOutKind, Group, GroupKind, Meld, MeldId, RankSet};
pub use observation::{Observation, TableFacts, rank_bits};
pub use pile_words::PileWords;
pub use rng::{Rng, shuffled_deck};
pub use rules::{CleanOpening, Freeze, KindCounts, PRESETS, PresetInfo, Rules, RulesError};
pub use score::{HandEndReason, HandResult, TeamScore};
pub use seat::{Seat, Side, Team};
pub use state::{
    DealError, DealOutcome, GameState, NotationError, ObservationError, Phase, TurnFlags,
};
