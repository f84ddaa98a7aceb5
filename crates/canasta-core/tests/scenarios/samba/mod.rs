//! Samba (P-SAM, pagat; BIC-SAM, the US Playing Card Co. rules; research
//! §4). Each test names its rule and source tag; positions come only from
//! deals built by `common::DealSpec`.

mod melds;
mod play;
mod records;

use crate::common::*;
use canasta_core::GameState;

/// Dealer 0, four players: seat 1 (team 1, with seat 3) plays first.
///
/// Seat 1 holds hearts 4 to 10, six kings, 2C and the red three 3D
/// (replaced by 9H); seat 2 holds the red three 3H (replaced by 4C). Seat 1
/// draws KC 9S: it can meld a samba (hearts 4-10, 50 points) and seven
/// kings (70), then 9H 9S 2C, and is out.
pub fn samba_and_kings() -> DealSpec {
    DealSpec::new(samba(4), 0)
        .hand(1, "4H 5H 6H 7H 8H 9H TH KS KS KH KH KD KD 2C 3D")
        .hand(2, "3H")
        .upcards("QC")
        .stock("9H 4C KC 9S")
}

/// Dealer 0. Seat 1 holds hearts 6 to 10 with 5H and 4H apart, three kings,
/// 2C 2D, QS QS and 5C; it draws JH 8C and opens with hearts 6-10 and the
/// kings (40 + 30).
pub fn opened_with_a_sequence() -> GameState {
    let mut g = DealSpec::new(samba(4), 0)
        .hand(1, "6H 7H 8H 9H TH KS KS KH 5H 4H 2C 2D QS QS 5C")
        .upcards("QC")
        .stock("JH 8C")
        .game();
    play_all(&mut g, 1, &["draw", "meld 6H 7H 8H 9H TH / KS KS KH"]);
    g
}
