//! The deal, the foot, the sevens discard rule and taking the pile in
//! Pennies from Heaven (P-PEN; research §5.1).

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{HandEndReason, IllegalReason, Phase, Rules};

/// P-PEN: 216 cards (four packs and eight jokers); six players in two
/// teams of three seated alternately; 13 cards each and an 11-card foot.
/// BIC-PEN's three teams of two (A B C A B C) is the `teams = 3` option.
#[test]
fn deal_of_216_cards_thirteen_each_and_a_foot_of_eleven() {
    let rules = pennies();
    assert_eq!(rules.deal.deck_size(), 216);
    assert_eq!((rules.game.players, rules.game.teams), (6, 2));
    let g = sevens_and_kings().game();
    for seat in Seat::all(6) {
        assert_eq!(g.hand(seat).total(), 13, "seat {seat}");
        assert_eq!(g.foot(seat).total(), 11, "seat {seat}");
        assert_eq!(g.side_of(seat).index(), seat.index() % 2);
    }
    // Two red threes laid out and replaced from the stock.
    assert_eq!(g.stock_len(), 216 - 6 * 24 - 1 - 2);
    assert_eq!(
        (g.red_threes(Seat::new(1)), g.red_threes(Seat::new(2))),
        (1, 1)
    );
    let three_teams = Rules::preset("pennies", None, Some(3)).unwrap();
    assert_eq!(three_teams.game.teams, 3);
    assert_eq!(
        (0..6)
            .map(|s| three_teams.game.team_of(Seat::new(s)).index())
            .collect::<Vec<_>>(),
        vec![0, 1, 2, 0, 1, 2]
    );
}

/// P-PEN: the foot is picked up only after the player has personally
/// completed a canasta, after the discard that ends that turn. Nobody may
/// look at a foot before: observations show only its size.
#[test]
fn the_foot_comes_up_after_the_discard_ending_a_canasta_turn() {
    let mut g = sevens_and_kings().game();
    play_all(
        &mut g,
        1,
        &["draw", "meld 7S 7S 7H 7H 7D 7D 7C / KS KS KH KH KD KD KC"],
    );
    assert_eq!(g.hand(Seat::new(1)), &counts("4C"));
    assert_eq!(g.foot(Seat::new(1)).total(), 11, "not before the discard");
    let seen = g.observe(Seat::new(2));
    assert_eq!(seen.foot_sizes[1], 11);
    play(&mut g, 1, "discard 4C");
    // Emptying the hand with the foot due is not going out: the foot follows.
    assert_eq!(g.phase(), Phase::Draw);
    assert!(g.foot(Seat::new(1)).is_empty());
    assert_eq!(
        g.hand(Seat::new(1)),
        &counts("JK JK JK 2D 2D 2C 2C QS QS 9S 9H")
    );
    // A turn without a canasta leaves the foot where it is.
    draw_discard(&mut g, 2, "2S");
    assert_eq!(g.foot(Seat::new(2)).total(), 11);
}

/// P-PEN, BIC-PEN, RG-PEN: sevens may not be discarded until every side
/// has completed a sevens canasta. Seat 2's side has none yet, though
/// seat 1's side has.
#[test]
fn sevens_are_not_discarded_until_every_side_has_a_sevens_canasta() {
    let mut g = after_first_turn();
    play(&mut g, 2, "draw");
    assert!(g.hand(Seat::new(2)).count(card("7D")) > 0);
    assert_eq!(
        refused(&g, 2, "discard 7D"),
        IllegalReason::RestrictedDiscard {
            card: card("7D"),
            every_side: true
        }
    );
    assert_eq!(
        refused(&g, 2, "discard 7D").to_string(),
        "7D may not be discarded until every side has a canasta of its rank"
    );
    assert!(!generated(&g, "discard 7D"));
    assert!(generated(&g, "discard 2S"));
}

/// Seat 1 holds seven sevens, five kings and another seven, and draws KD
/// KC: melding the two canastas leaves one seven in hand.
fn one_seven_left(rules: Rules) -> GameState {
    let mut g = DealSpec::new(rules, 0)
        .hand(1, "7S 7S 7H 7H 7D 7D 7C KS KS KH KH KD 7H")
        .upcards("9C")
        .stock("KD KC")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld 7S 7S 7H 7H 7D 7D 7C / KS KS KH KH KD KD KC"],
    );
    g
}

/// S002/HSW's reading, the option `special_discard: until_own_side`: once
/// the player's own side has a sevens canasta, its sevens may go (though
/// never as the last discard; here the foot follows).
#[test]
fn option_sevens_free_once_the_own_side_has_a_sevens_canasta() {
    let mut g = one_seven_left(rules_with(
        pennies(),
        r#"{"special_discard": "until_own_side"}"#,
    ));
    assert!(generated(&g, "discard 7H"));
    play(&mut g, 1, "discard 7H");
    assert_eq!(g.hand(Seat::new(1)).total(), 11, "the foot came up");
}

/// P-PEN: a player left holding nothing but sevens that may not be
/// discarded, and unable to meld them, ends play; there is no going-out
/// bonus ("players must avoid getting into this position").
#[test]
fn only_sevens_that_may_not_be_discarded_end_play() {
    let g = one_seven_left(pennies());
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Blocked, None));
    assert_eq!(h.teams[1].going_out, 0);
    let partners = hand_value(g.hand(Seat::new(3))) + hand_value(g.hand(Seat::new(5)));
    assert_eq!(
        h.teams[1].in_hand,
        -5 - partners,
        "the seven left counts minus"
    );
    // Sevens canasta 1500, natural kings 500.
    assert_eq!(h.teams[1].canastas, 2000);
}

/// The same blocked ending, reached from the foot by a lay that leaves one
/// seven: an `add` is judged as a `meld` of the same cards is, so whether
/// the lay is legal does not depend on how it is written (record spec: a
/// larger action is legal when its steps are). Seat 1 melds two canastas,
/// discards its last card, picks up its foot, melds from it and keeps
/// 7C AD AC; the other side has no sevens canasta.
#[test]
fn a_lay_that_leaves_only_a_seven_ends_play_however_it_is_written() {
    let mut g = DealSpec::new(pennies(), 0)
        .hand(1, "7S 7S 7H 7H 7D 7D 7C KS KS KH KH KD 9C")
        .foot(1, "7C QS QS QH QH QD QD QC AS AS AH")
        .upcards("9D")
        .stock("KD KC 4S 4H 5S 5H 6S 6H 8S 8H 9S 9H AD AC")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld 7S 7S 7H 7H 7D 7D 7C / KS KS KH KH KD KD KC",
            "discard 9C",
        ],
    );
    for seat in [2, 3, 4, 5, 0] {
        draw_discard_drawn(&mut g, seat);
    }
    play_all(&mut g, 1, &["draw", "meld QS QS QH QH QD QD QC / AS AS AH"]);
    assert_eq!(g.hand(Seat::new(1)), &counts("7C AD AC"));
    let mut by_add = g.clone();
    play(&mut by_add, 1, "add 3 AD AC");
    let mut by_steps = g.clone();
    assert!(legal(&by_steps, "add 3 AD"));
    play_all(&mut by_steps, 1, &["add 3 AD", "add 3 AC"]);
    for g in [&by_add, &by_steps] {
        assert_eq!(g.phase(), Phase::HandOver);
        let h = g.last_hand().unwrap();
        assert_eq!((h.reason, h.seat), (HandEndReason::Blocked, None));
    }
}

/// P-PEN: a side that has not melded takes the pile with a natural pair of
/// the top card, and must first lay down enough from hand to meet the
/// minimum: the three cards taken with the top card do not count.
#[test]
fn an_unopened_side_meets_the_minimum_from_hand_to_take_the_pile() {
    let mut g = DealSpec::new(pennies(), 0)
        .hand(1, "5H")
        .hand(2, "5S 5S KS KH KD KC AS AH AD")
        .upcards("9C")
        .stock("8S 8H")
        .game();
    play_all(&mut g, 1, &["draw", "discard 5H"]);
    assert_eq!(
        refused(&g, 2, "pickup 5S 5S / KS KH KD KC"),
        IllegalReason::OpeningTooLow { need: 50, have: 40 }
    );
    assert!(!legal(&g, "pickup 5S 5S"));
    play(&mut g, 2, "pickup 5S 5S / AS AH AD");
    let melds = g.melds(Side::new(0));
    assert_eq!(melds.len(), 2);
    assert_eq!(melds[0].cards.to_string(), "5S 5S 5H");
    assert_eq!(melds[1].cards.to_string(), "AS AH AD");
}

/// P-PEN: the pile cannot be taken with a wild card or a three on top; a
/// wild card in it freezes it, and then only a natural pair takes it.
#[test]
fn a_wild_discard_freezes_the_pile_and_blocks_it_on_top() {
    let mut g = after_first_turn();
    draw_discard(&mut g, 2, "2S");
    assert!(g.pile_frozen());
    assert_eq!(
        refused(&g, 3, "pickup"),
        IllegalReason::PileBlocked(card("2S"))
    );
    let mut g = round_played();
    assert_eq!(g.pile_top(), Some(card("QH")));
    assert!(!legal(&g, "pickup"), "no queens meld, and frozen");
    play(&mut g, 1, "pickup QS QS");
    assert_eq!(g.melds(Side::new(1))[2].cards.to_string(), "QS QS QH");
}
