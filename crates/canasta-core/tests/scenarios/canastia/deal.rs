//! The Canastia deck and deal (S004 opening paragraphs; research §6.1).

use super::*;
use canasta_core::Seat;
use canasta_core::{DealError, Phase};

/// S004: two packs and four jokers less every 9, 10 and jack, the red twos,
/// red threes and red aces: 72 cards. Research §6.1: 4 black aces, 8 kings,
/// 8 queens, 8 each of 8 to 4, 4 black threes, 4 black twos, 4 jokers.
#[test]
fn the_deck_has_72_cards_without_nines_tens_jacks_and_red_2_3_a() {
    for players in [2, 3] {
        let d = canastia(players).deal.deck();
        assert_eq!(d.total(), 72);
        let n = |s: &str| d.count(card(s));
        for s in ["9S", "TH", "JD", "JC", "2H", "2D", "3H", "3D", "AH", "AD"] {
            assert_eq!(n(s), 0, "{s} is removed");
        }
        for s in ["AS", "AC", "3S", "3C", "2S", "2C"] {
            assert_eq!(n(s), 2, "{s}: two packs");
        }
        assert_eq!(n("JK"), 4);
        for r in ["K", "Q", "8", "7", "6", "5", "4"] {
            let total: u8 = ["S", "H", "D", "C"]
                .iter()
                .map(|s| n(&format!("{r}{s}")))
                .sum();
            assert_eq!(total, 8, "eight of rank {r}");
        }
        assert_eq!(d.wilds(), 8, "four black twos and four jokers");
    }
}

/// S004: ten cards each, one upcard starts the discard pile, the rest is
/// the stock; a turn draws two (research §6.1).
#[test]
fn ten_cards_each_one_upcard_and_a_draw_of_two() {
    for (players, stock) in [(2u8, 72 - 20 - 1), (3, 72 - 30 - 1)] {
        let mut g = DealSpec::canastia(players, 0).first(1).upcards("6D").game();
        for s in Seat::all(players.into()) {
            assert_eq!(g.hand(s).total(), 10, "seat {s}");
        }
        assert_eq!(g.pile(), &[card("6D")]);
        assert_eq!(g.stock_len(), stock);
        play(&mut g, 1, "draw");
        assert_eq!(g.hand(Seat::new(1)).total(), 12);
        assert_eq!(g.stock_len(), stock - 2);
    }
}

/// S004 "Decide randomly who starts to play": the deal names the first
/// player (record spec: the deal line's `first`), dealer included; without
/// it, the dealer's left starts.
#[test]
fn the_deal_names_the_first_player() {
    for (players, dealer, first) in [(2u8, 0, 0), (2, 0, 1), (3, 0, 2), (3, 1, 1), (3, 2, 0)] {
        let g = DealSpec::canastia(players, dealer).first(first).game();
        assert_eq!((g.phase(), g.to_act()), (Phase::Draw, Seat::new(first)));
        assert_eq!(g.dealer(), Seat::new(dealer));
    }
    let g = DealSpec::canastia(3, 1).game();
    assert_eq!(g.to_act(), Seat::new(2), "no `first`: left of the dealer");
}

/// Record spec "Deal": `first` is only for variants that choose the first
/// player; elsewhere a first player other than the dealer's left is refused,
/// and a seat that does not exist is refused everywhere.
#[test]
fn a_first_player_is_refused_where_the_preset_does_not_choose_it() {
    let spec = DealSpec::classic(4, 0);
    let deck = spec.deck();
    let mut g = GameState::new(classic(4));
    assert_eq!(
        g.deal_with_first(&deck, Seat::new(0), Some(Seat::new(2))),
        Err(DealError::BadFirst { first: 2 })
    );
    assert_eq!(
        g.deal_with_first(&deck, Seat::new(0), Some(Seat::new(0))),
        Err(DealError::BadFirst { first: 0 })
    );
    g.deal_with_first(&deck, Seat::new(0), Some(Seat::new(1)))
        .expect("the dealer's left may be named");
    assert_eq!(g.to_act(), Seat::new(1));

    let spec = DealSpec::canastia(2, 0);
    let mut g = GameState::new(canastia(2));
    assert_eq!(
        g.deal_with_first(&spec.deck(), Seat::new(0), Some(Seat::new(2))),
        Err(DealError::BadFirst { first: 2 })
    );
}

/// S004: "The top card of the stock is taken off and placed face-up ... to
/// start the Discard Pile" — one upcard. A black three turned up stays and
/// stops the pile (S004 "Wild cards and Threes block the discard pile").
#[test]
fn a_black_three_upcard_is_not_covered_and_blocks_the_pile() {
    let mut g = DealSpec::canastia(2, 0)
        .first(1)
        .hand(1, "3S 3C 4S 4H")
        .upcards("3S")
        .game();
    assert_eq!(g.pile(), &[card("3S")]);
    assert_eq!(g.stock_len(), 51);
    assert_eq!(
        refused(&g, 1, "pickup 3S 3C"),
        canasta_core::IllegalReason::PileBlocked(card("3S"))
    );
    play(&mut g, 1, "draw");
}

/// S004 gives one upcard and no rule for a wild upcard; the engine's
/// reading (docs/rules/canastia.md, Provisional; option
/// `upcard_wild_turns_again`) is that it is not covered by another card: it
/// blocks the pile like a discarded wild card, without freezing it.
#[test]
fn a_wild_upcard_is_not_covered() {
    for wild in ["JK", "2S"] {
        let g = DealSpec::canastia(2, 0)
            .first(1)
            .hand(1, "KS KS QS QH QD")
            .upcards(wild)
            .game();
        assert_eq!(g.pile(), &[card(wild)], "one upcard");
        assert_eq!(g.stock_len(), 51);
        assert!(!g.pile_frozen(), "wild cards do not freeze the pile");
        assert_eq!(
            refused(&g, 1, "pickup KS KS / QS QH QD"),
            canasta_core::IllegalReason::PileBlocked(card(wild))
        );
    }
}
