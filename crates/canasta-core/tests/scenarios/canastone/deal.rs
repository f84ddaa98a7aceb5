//! The Canastone deal: 162 cards, 15 each, the upcards, the face-down packet,
//! red threes (P-CNE; research §2.1; record spec "Deal").

use super::*;
use canasta_core::Seat;
use canasta_core::{CardCounts, DealOutcome, GameState, IllegalReason, Phase, Rules};

/// P-CNE "Players and Cards", "Deal": three packs and six jokers (162
/// cards), 15 cards each, four players in two partnerships, game to 12000.
/// Canastone is for 4 or 6 players only.
#[test]
fn deck_of_162_cards_and_hands_of_15() {
    let r = canastone(4);
    assert_eq!(r.deal.deck_size(), 162);
    let deck = r.deal.deck();
    assert_eq!(deck.jokers(), 6);
    assert_eq!(deck.twos(), 12);
    assert_eq!(deck.red_threes(), 6);
    assert_eq!(deck.black_threes(), 6);
    assert_eq!(deck.count(card("AS")), 3);
    assert_eq!(
        (
            r.game.players,
            r.game.teams,
            r.deal.hand_size,
            r.game.target
        ),
        (4, 2, 15, 12000)
    );
    let g = DealSpec::canastone(4, 0).upcards("9D").game();
    for s in Seat::all(4) {
        assert_eq!(g.hand(s).total(), 15, "seat {s}");
    }
    // One upcard and a packet of nine under it; the rest is the stock.
    assert_eq!(g.pile().len(), 1 + 9);
    assert_eq!(g.stock_len(), 162 - 60 - 10);
    assert_eq!(
        (g.phase(), g.current(), g.to_act()),
        (Phase::Draw, Seat::new(1), Seat::new(1))
    );
    assert_eq!(g.all_cards(), r.deal.deck());
    for players in [2, 3, 5] {
        assert!(Rules::preset("canastone", Some(players), None).is_err());
    }
}

/// P-CNE "Six players": two teams of three, each player between two
/// opponents (record spec: seat s on team s mod 2), otherwise the same rules.
#[test]
fn six_players_play_in_two_teams_of_three() {
    let r = canastone(6);
    assert_eq!((r.game.players, r.game.teams, r.deal.hand_size), (6, 2, 15));
    assert_eq!(r.deal.deck_size(), 162);
    assert!(Rules::preset("canastone", Some(6), Some(3)).is_err());
    let g = DealSpec::canastone(6, 0).upcards("4H").game();
    assert_eq!(
        (0..6)
            .map(|s| g.side_of(Seat::new(s)).index())
            .collect::<Vec<_>>(),
        vec![0, 1, 0, 1, 0, 1]
    );
    for s in Seat::all(6) {
        assert_eq!(g.hand(s).total(), 15, "seat {s}");
    }
    assert_eq!(g.stock_len(), 162 - 90 - 1 - 4);
    assert_eq!(g.partner_of(Seat::new(1)), Some(Seat::new(3)));
    assert_eq!(g.partner_of(Seat::new(5)), Some(Seat::new(1)));
    assert_eq!(g.scores(), &[0, 0]);
}

/// P-CNE: a player draws two cards from the stock.
#[test]
fn a_draw_takes_two_cards() {
    let mut g = DealSpec::canastone(4, 0)
        .upcards("9D")
        .stock("AC KC QC")
        .game();
    let before = *g.hand(Seat::new(1));
    let stock = g.stock_len();
    play(&mut g, 1, "draw");
    let mut drawn = *g.hand(Seat::new(1));
    drawn.remove_all(&before);
    assert_eq!(drawn, counts("AC KC"));
    assert_eq!(g.stock_len(), stock - 2);
    assert_eq!(g.stock().next(), Some(card("QC")));
    assert_eq!(g.phase(), Phase::Play);
}

/// P-CNE "Deal": if the upcard is a three or a wild card, a second and if
/// needed a third is turned on it; a wild card among them freezes the pile.
/// The packet goes under all of them; observations show the upcards only.
#[test]
fn upcards_are_turned_while_wild_or_a_three_and_a_wild_one_freezes() {
    let g = DealSpec::canastone(4, 0)
        .upcards("3S 2C 8H")
        .packet("AS AS AH AH AD AD AC AC")
        .game();
    assert_eq!(
        g.pile(),
        &cards("AS AS AH AH AD AD AC AC 3S 2C 8H")[..],
        "the packet (8 cards for an eight) lies under the upcards"
    );
    assert_eq!(g.pile_top(), Some(card("8H")));
    assert!(g.pile_frozen());
    assert_eq!(g.pile_hidden(), 8);
    for seat in Seat::all(4) {
        let o = g.observe(seat);
        assert_eq!(o.pile, cards("3S 2C 8H"), "seat {seat}");
        assert_eq!(o.pile_hidden, 8);
        assert!(o.pile_frozen);
    }
    assert_eq!(g.stock_len(), 162 - 60 - 3 - 8);
}

/// P-CNE: threes turned up are covered like wild cards but do not freeze
/// the pile (only wild cards do; a red three upcard freezes in P-CAN only).
#[test]
fn threes_turned_up_are_covered_but_do_not_freeze() {
    let g = DealSpec::canastone(4, 0).upcards("3H 3S 9D").game();
    assert_eq!(&g.pile()[9..], &cards("3H 3S 9D")[..]);
    assert_eq!(g.pile_hidden(), 9);
    assert!(!g.pile_frozen());
    assert_eq!(
        g.red_threes(Seat::new(1)),
        0,
        "the red three stays in the pile"
    );
}

/// P-CNE "Deal": if the first three cards turned are all wild cards or
/// threes, the deal is annulled and the same dealer deals again.
/// `GameState::deal` reports it and the game waits for the next deal.
#[test]
fn three_wild_cards_or_threes_turned_up_annul_the_deal() {
    for up in ["JK 3S 2H", "3H 3D 3C", "2C 2C 2C"] {
        let mut g = GameState::new(canastone(4));
        let spec = DealSpec::canastone(4, 2).upcards(up);
        assert_eq!(spec.deal_outcome(&mut g), DealOutcome::Annulled, "{up}");
        assert_eq!(g.phase(), Phase::Deal, "{up}");
        assert_eq!(g.dealer(), Seat::new(2));
        assert!(g.legal_actions().is_empty());
        for s in Seat::all(4) {
            assert!(g.hand(s).is_empty(), "{up}: no hand stands");
            assert_eq!(g.red_threes(s), 0);
        }
        assert!(g.pile().is_empty());
        assert_eq!(g.stock_len(), 0);
        assert_eq!((g.hands_played(), g.scores()), (0, &[0, 0][..]));
        assert_eq!(
            refused(&g, 3, "draw"),
            IllegalReason::WrongPhase(Phase::Deal)
        );
        // The same dealer deals again, and this one stands.
        let again = DealSpec::canastone(4, 2).upcards("JK 3S 7C");
        assert_eq!(again.deal_outcome(&mut g), DealOutcome::Dealt);
        assert_eq!((g.phase(), g.to_act()), (Phase::Draw, Seat::new(3)));
        assert_eq!(g.pile().len(), 7 + 3);
        assert!(g.pile_frozen());
    }
}

/// P-CNE "Deal": the packet holds as many cards as the natural upcard's
/// rank: four for a four ... ten for a ten, J 11, Q 12, K 13, A 14. Nobody
/// sees it: every observation shows the upcard alone and the packet's size.
#[test]
fn the_packet_holds_as_many_cards_as_the_upcards_rank() {
    let ranks = [
        ("4S", 4),
        ("5S", 5),
        ("6S", 6),
        ("7S", 7),
        ("8S", 8),
        ("9S", 9),
        ("TS", 10),
        ("JS", 11),
        ("QS", 12),
        ("KS", 13),
        ("AS", 14),
    ];
    for (up, n) in ranks {
        let g = DealSpec::canastone(4, 0).upcards(up).game();
        assert_eq!(g.pile().len(), n + 1, "{up}");
        assert_eq!(g.pile_hidden(), n, "{up}");
        assert_eq!(g.pile_top(), Some(card(up)));
        assert_eq!(g.stock_len(), 162 - 60 - 1 - n, "{up}");
        for seat in Seat::all(4) {
            let o = g.observe(seat);
            assert_eq!((o.pile.clone(), o.pile_hidden), (cards(up), n), "{up}");
        }
    }
}

/// Record spec "Deal", steps 3-6: hands one card at a time from the
/// dealer's left; the upcards; the packet as one block under them; then
/// dealt red threes are replaced from the stock, which starts after the
/// packet. Checked against the raw deck.
#[test]
fn the_packet_is_one_block_under_the_upcards_and_replacements_follow_it() {
    let spec = DealSpec::canastone(4, 2)
        .hand(0, "3H 3D")
        .upcards("JK 6H")
        .packet("AS KS QS JS TS 9S")
        .stock("5C 5D 8C");
    let deck = spec.deck();
    assert_eq!(&deck[60..62], &cards("JK 6H")[..]);
    assert_eq!(&deck[62..68], &cards("AS KS QS JS TS 9S")[..]);
    let g = spec.game();
    assert_eq!(g.pile(), &cards("AS KS QS JS TS 9S JK 6H")[..]);
    assert_eq!(g.pile_hidden(), 6);
    assert!(g.pile_frozen());
    // Seat 0 (second from dealer 2's left; seat 3 has no red three) gets
    // the two cards after the packet.
    assert_eq!(g.red_threes(Seat::new(0)), 2);
    assert!(g.hand(Seat::new(0)).contains_all(&counts("5C 5D")));
    assert_eq!(g.hand(Seat::new(0)).total(), 15);
    assert_eq!(g.stock().next(), Some(card("8C")));
    assert_eq!(g.stock_len(), 162 - 60 - 2 - 6 - 2);
    // Dealt one card at a time from the dealer's left: seat 3 gets deck[0].
    for seat in Seat::all(4) {
        let mine: CardCounts = (0..60)
            .filter(|i| (2 + 1 + i) % 4 == seat.index())
            .map(|i| deck[i])
            .collect();
        if seat != Seat::new(0) {
            assert_eq!(g.hand(seat), &mine, "seat {seat}");
        }
    }
    assert_eq!(g.to_act(), Seat::new(3));
}

/// P-CNE "Discard pile": the first player to take the pile gets the packet
/// too; nobody else sees its cards. The face-up cards taken become known to
/// everyone, the packet's only to the taker (engine: `known_cards`, and
/// `Observation::known`); the stock card drawn with the pile is not known.
#[test]
fn only_the_taker_learns_the_packet() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH KD 9S 9H")
        .upcards("3S 9D")
        .packet("AS AS 2C 7H 7H 8C 8C JK QD")
        .stock("4C")
        .game();
    assert_eq!(g.observe(Seat::new(2)).pile_hidden, 9);
    play_all(&mut g, 1, &["meld KS KS KH KH KD", "pickup 9S 9H"]);
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD", "9S 9H 9D"]);
    assert!(g.pile().is_empty());
    assert_eq!(g.pile_hidden(), 0);
    assert!(
        g.hand(Seat::new(1))
            .contains_all(&counts("AS AS 2C 7H 7H 8C 8C JK QD 3S 4C"))
    );
    assert_eq!(
        g.known_cards(Seat::new(1)),
        counts("3S"),
        "only the face-up three"
    );
    for seat in [0, 2, 3].map(Seat::new) {
        let o = g.observe(seat);
        assert_eq!(o.known[1], counts("3S"), "seat {seat}");
        assert_eq!(o.pile_hidden, 0);
        assert_eq!(o.hand_sizes[1], 15 - 5 - 2 + 1 + 9 + 1);
    }
    assert_eq!(g.observe(Seat::new(1)).known[1], *g.hand(Seat::new(1)));
}

/// P-CNE "Red threes": red threes from the pile (the packet, or a red-three
/// upcard) are laid out but not replaced; the stock card that goes with the
/// pile is drawn all the same.
#[test]
fn red_threes_in_the_packet_are_laid_out_but_not_replaced() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH KD 9S 9H")
        .upcards("3D 9D")
        .packet("3H 3D AS AS 7H 7H 8C 8C 5S")
        .stock("4C 4H")
        .game();
    let stock = g.stock_len();
    play(&mut g, 1, "meld KS KS KH KH KD");
    let mut expect = *g.hand(Seat::new(1));
    expect.remove_all(&counts("9S 9H"));
    expect.add_all(&counts("AS AS 7H 7H 8C 8C 5S 4C"));
    play(&mut g, 1, "pickup 9S 9H");
    assert_eq!(
        g.red_threes(Seat::new(1)),
        3,
        "two from the packet, one upcard"
    );
    assert_eq!(g.hand(Seat::new(1)), &expect);
    assert_eq!(g.hand(Seat::new(1)).red_threes(), 0);
    assert_eq!(g.stock_len(), stock - 1, "no replacement, one extra card");
    assert_eq!(g.stock().next(), Some(card("4H")));
}

/// S000 (P-CNE) play step: the card drawn from the stock with the pile, if
/// a red three, is laid out and replaced by another stock card.
#[test]
fn a_red_three_drawn_with_the_pile_is_replaced() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH KD 9S 9H")
        .upcards("9D")
        .stock("3H 4C 4H")
        .game();
    let stock = g.stock_len();
    play_all(&mut g, 1, &["meld KS KS KH KH KD", "pickup 9S 9H"]);
    assert_eq!(g.red_threes(Seat::new(1)), 1);
    assert!(g.hand(Seat::new(1)).count(card("4C")) >= 1);
    assert_eq!(g.stock_len(), stock - 2);
    assert_eq!(g.stock().next(), Some(card("4H")));
}
