//! Canastia (S004 = canastia.com, the only source; research §6), for 2 and
//! 3 players, each for themselves. Each test names its rule and cites S004
//! (or research §6 where the engine settles what S004 leaves open); positions
//! come only from deals built by `common::DealSpec` (with the deal's `first`
//! player), actions are record texts.

mod closing;
mod deal;
mod going_out;
mod melds;
mod opening;
mod pile;
mod records;
mod scoring;
mod stock;

use crate::common::*;
use canasta_core::{Card, CardCounts, GameState, Rank, Rules};

/// The Canastia preset with options, written as a record header's `options`.
pub fn canastia_with(players: u8, options: &str) -> Rules {
    rules_with(canastia(players), options)
}

/// S004 "Cards and their function": every card is worth 1, queens and kings
/// 2, aces 3 (written out here, not taken from the engine).
pub fn cval(c: Card) -> i32 {
    match c.rank() {
        Some(Rank::Ace) => 3,
        Some(Rank::King) | Some(Rank::Queen) => 2,
        _ => 1,
    }
}

pub fn chand(h: &CardCounts) -> i32 {
    h.iter().map(cval).sum()
}

/// Seven natural fives: a canasta once closed (7 points + 15).
pub const FIVES: &str = "5S 5S 5H 5H 5D 5D 5C";

/// A hand in which `first` goes out on its opening turn with one canasta
/// (S004 "Going out": one canasta suffices when going out the same turn as
/// the opening). It holds the seven fives and the first three cards of
/// `group` (five cards), draws the last two, melds the fives, closes them,
/// and melds `group` out: no final discard (S004: optional).
pub fn concealed_spec(players: u8, dealer: usize, first: usize, group: &str) -> DealSpec {
    let g = cards(group);
    assert_eq!(g.len(), 5);
    let held: Vec<String> = g[..3].iter().map(|c| c.to_string()).collect();
    let drawn: Vec<String> = g[3..].iter().map(|c| c.to_string()).collect();
    DealSpec::canastia(players, dealer)
        .first(first)
        .hand(first, &format!("{FIVES} {}", held.join(" ")))
        .upcards("6D")
        .stock(&drawn.join(" "))
}

/// The actions of [`concealed_spec`]'s going out.
pub fn concealed_actions(group: &str) -> Vec<String> {
    vec![
        "draw".into(),
        format!("meld {FIVES}"),
        "canasta 0".into(),
        format!("meld {group}"),
    ]
}

/// Deals [`concealed_spec`] into `g` and plays the going out.
#[track_caller]
pub fn concealed_out(g: &mut GameState, dealer: usize, first: usize, group: &str) {
    let players = g.players() as u8;
    concealed_spec(players, dealer, first, group).deal_into(g);
    for a in concealed_actions(group) {
        play(g, first, &a);
    }
}
