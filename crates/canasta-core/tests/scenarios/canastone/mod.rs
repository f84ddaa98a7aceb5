//! Canastone (P-CNE, pagat "Italian Canasta"; research §2; S000 is a damaged
//! text copy of P-CNE). Each test names its rule and source tag; positions
//! come only from deals built by `common::DealSpec`, actions are texts.

mod closing;
mod deal;
mod house_rules;
mod melds;
mod opening;
mod pile;
mod records;
mod scoring;
mod seed_examples;
mod stock;

use crate::common::*;
use canasta_core::Seat;
use canasta_core::{CanastaKind, GameState, Rules};

/// The Canastone preset with options (house rules), written as the JSON
/// object of a record header's `options`.
pub fn canastone_with(players: u8, options: &str) -> Rules {
    rules_with(canastone(players), options)
}

/// A side's canastas: (clean, dirty).
pub fn canastas(g: &GameState, side: impl AsSide) -> (usize, usize) {
    let kinds: Vec<_> = g
        .melds(side.side())
        .iter()
        .filter_map(|m| m.canasta(g.rules()))
        .collect();
    let clean = kinds.iter().filter(|k| **k == CanastaKind::Natural).count();
    (clean, kinds.len() - clean)
}

/// Fifteen cards worth 5 each (75), for a partner whose hand counts against
/// its team in a score test.
pub const LOW_HAND: &str = "4C 4C 4C 6C 6C 6C 7C 7C 7C 4D 4D 4D 6D 6D 6D";

/// Dealer 0, four players. Seat 1 (team 1) plays first and holds
/// KS KS KH KH KD (a clean opening of 50), 5S 5S (to take the pile) and
/// `rest` (8 cards); the upcard is 5D over a packet of five, `packet`.
/// The first stock card after any red-three replacements goes with the pile.
pub fn big_turn(rest: &str, packet: &str) -> DealSpec {
    big_turn_for(4, rest, packet)
}

/// [`big_turn`] for 4 or 6 players.
pub fn big_turn_for(players: u8, rest: &str, packet: &str) -> DealSpec {
    big_turn_with(canastone(players), rest, packet)
}

/// [`big_turn`] under the given rules (house rules of the preset).
pub fn big_turn_with(rules: Rules, rest: &str, packet: &str) -> DealSpec {
    let spec = DealSpec::new(rules, 0)
        .hand(1, &format!("KS KS KH KH KD 5S 5S {rest}"))
        .upcards("5D")
        .packet(packet);
    assert_eq!(spec.hands[1].len(), 15, "rest is 8 cards");
    assert_eq!(spec.packet.len(), 5, "the packet of a five is 5 cards");
    spec
}

/// Seat 1 opens before drawing with the kings (meld 0) and takes the pile
/// with 5S 5S (meld 1: 5S 5S 5D); the packet and one stock card go to its
/// hand.
#[track_caller]
pub fn open_and_take(g: &mut GameState) {
    play_all(g, 1, &["meld KS KS KH KH KD", "pickup 5S 5S"]);
}

/// The standard closing hand: after [`open_and_take`], seat 1 holds
/// KS KH QS QS QH 9S 9H 9C, the packet 5H 5C 5C 2C KD and the stock card 9D.
pub const CLOSE_REST: &str = "KS KH QS QS QH 9S 9H 9C";
pub const CLOSE_PACKET: &str = "5H 5C 5C 2C KD";

/// The melds of the standard closing turn: a clean canasta of eight kings,
/// a dirty canasta of seven fives (one wild card), three queens, three
/// nines; 9C is left for the final discard.
pub const CLOSE_MELDS: [&str; 4] = [
    "add 0 KS KH KD",
    "add 1 5H 5C 5C 2C",
    "meld QS QS QH",
    "meld 9S 9H 9D",
];

/// Card values of the standard closing turn's melds: kings 8 x 10, fives
/// 6 x 5 + 20, queens 30, nines 30.
pub const CLOSE_MELDED: i32 = 80 + 50 + 30 + 30;

/// Dealer 0. Seat 1 opens, takes the pile and makes the clean kings and the
/// dirty fives of the standard closing turn, then discards QH, keeping
/// QS QS 9S 9H 9C 9D. Everyone else draws and discards; seat 1 then draws
/// QD 4C and can close with [`SECOND_TURN`].
pub fn able_to_close_on_the_second_turn(rules: Rules) -> GameState {
    let players = rules.game.players;
    let others: Vec<&str> = ["6S 6H", "7S 7H", "8S 8H", "6D 6C", "7D 7C"]
        .into_iter()
        .take(players as usize - 1)
        .collect();
    let mut g = big_turn_with(rules, CLOSE_REST, CLOSE_PACKET)
        .stock(&format!("9D {} QD 4C", others.join(" ")))
        .game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS[..2]);
    play(&mut g, 1, "discard QH");
    for seat in (2..players as usize).chain([0]) {
        draw_discard_drawn(&mut g, seat);
    }
    play(&mut g, 1, "draw");
    assert_eq!(g.hand(Seat::new(1)), &counts("QS QS QD 9S 9H 9C 9D 4C"));
    g
}

/// The closing melds of [`able_to_close_on_the_second_turn`].
pub const SECOND_TURN: [&str; 3] = ["meld QS QS QD", "meld 9S 9H 9C 9D", "discard 4C"];

/// A hand of the twos: dealer 0 deals into `g`. Seat 1 opens with the
/// kings, takes the pile (upcard 5D, packet KC KC 5C 5C JK) with 5S 5S,
/// draws 9S with it, lays seven twos (a clean wild canasta), completes
/// seven kings (clean) and seven fives with the joker (dirty) and closes by
/// discarding 9S. Seat 3 holds [`LOW_HAND`]-like cards worth 75; with
/// `red_threes` four of them are red threes, replaced by more fives.
/// Team 1 scores 290 melded, 3800 canastas, 300 closing, -75 in hand, and
/// 800 for four red threes (4315, or 5115).
pub fn twos_hand(g: &mut GameState, red_threes: bool) {
    let (seat3, stock) = if red_threes {
        (
            "3H 3H 3D 3D 4C 4C 4C 6C 6C 6C 7C 7C 7C 4D 4D",
            "4D 6D 6D 6D 9S",
        )
    } else {
        (LOW_HAND, "9S")
    };
    DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH KD 5S 5S 5H 2S 2S 2S 2H 2H 2H 2D")
        .hand(3, seat3)
        .upcards("5D")
        .packet("KC KC 5C 5C JK")
        .stock(stock)
        .deal_into(g);
    play_all(
        g,
        1,
        &[
            "meld KS KS KH KH KD",
            "pickup 5S 5S",
            "meld 2S 2S 2S",
            "add 2 2H 2H 2H 2D",
            "add 0 KC KC",
            "add 1 5H 5C 5C JK",
            "discard 9S",
        ],
    );
    assert_eq!(hand_value(g.hand(Seat::new(3))), 75);
}

/// A hand of the jokers: dealer 1 deals into `g`. Seat 2 draws AD 4S and
/// discards AD. Seat 3 (team 1) opens with three jokers (150, clean), takes
/// the pile (upcard AC over fourteen cards, AD on top) with AS AS and draws
/// 9H with it; it completes the wild meld with three jokers and a two (six
/// jokers and a two: clean, 5000), eight clean aces (1000), nine clean
/// kings (500) and seven dirty fives (300), and closes with 9H. Seat 1
/// holds [`LOW_HAND`]. Team 1 scores 620 melded, 6800 canastas, 300
/// closing, -75 in hand: 7645.
pub fn jokers_hand(g: &mut GameState) {
    DealSpec::canastone(4, 1)
        .hand(1, LOW_HAND)
        .hand(3, "JK JK JK AS AS KS KS KS KH KH KH KD 5S 5S 5H")
        .upcards("AC")
        .packet("JK JK JK 2S AH AH AC AD 5D 5D 5C 2H KD KC")
        .stock("AD 4S 9H")
        .deal_into(g);
    draw_discard(g, 2, "AD");
    play_all(
        g,
        3,
        &[
            "meld JK JK JK",
            "pickup AS AS",
            "add 0 JK JK JK 2S",
            "add 1 AC AH AH AC AD",
            "meld KS KS KS KH KH KH KD KD KC",
            "meld 5S 5S 5H 5D 5D 5C 2H",
            "discard 9H",
        ],
    );
}
