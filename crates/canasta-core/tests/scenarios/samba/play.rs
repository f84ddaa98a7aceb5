//! The deal, the opening, the pile, going out and scoring in Samba
//! (P-SAM, BIC-SAM; research §4.1).

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{HandEndReason, IllegalReason, Phase, Rules};

/// P-SAM, BIC-SAM: 162 cards (three packs, six jokers); 15 cards each (13
/// with six players); four in partnerships; two, three or five each for
/// themselves; six as three teams of two, partners two seats apart.
#[test]
fn deal_and_forms() {
    for (players, teams, hand) in [(4, 2, 15), (2, 2, 15), (3, 3, 15), (5, 5, 15), (6, 3, 13)] {
        let r = samba(players);
        assert_eq!(r.deal.deck_size(), 162);
        assert_eq!(
            (r.game.teams, r.deal.hand_size, r.deal.draw_count),
            (teams, hand, 2),
            "{players}"
        );
    }
    let six = samba(6);
    assert_eq!(
        six.game.team_of(Seat::new(0)),
        six.game.team_of(Seat::new(3)),
        "partners two seats apart"
    );
    assert!(Rules::preset("samba", Some(7), None).is_err());
}

/// BIC-SAM, HSW-SAM, S002: opening minimum 15 below 0; 50 from 0; 90 from
/// 1500; 120 from 3000; 160 from 7000 (P-SAM's 150 is `opening_table`).
/// Sequences count toward it.
#[test]
fn opening_table_and_sequences_count() {
    let r = samba(4);
    for (score, need) in [
        (-5, 15),
        (0, 50),
        (1500, 90),
        (3000, 120),
        (6995, 120),
        (7000, 160),
    ] {
        assert_eq!(r.opening.minimum(score), need, "at {score}");
    }
    let mut g = samba_and_kings().game();
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld 4H 5H 6H"),
        IllegalReason::OpeningTooLow { need: 50, have: 15 }
    );
    assert!(
        legal(&g, "meld 4H 5H 6H 7H 8H 9H TH"),
        "a samba of 50 opens"
    );
}

/// P-SAM, BIC-SAM: the side needs two canastas (a samba counts) to go out;
/// going out earns 200 and there is no concealed bonus. BIC-SAM: red
/// threes 100 each, minus for a side without the two canastas.
#[test]
fn out_with_a_samba_and_a_canasta() {
    let mut g = samba_and_kings().game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld 4H 5H 6H 7H 8H 9H TH / KS KS KH KH KD KD KC",
            "meld 9H 9S 2C",
        ],
    );
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    let t = &h.teams[1];
    assert_eq!(t.melded, 50 + 70 + 40);
    assert_eq!(t.canastas, 1500 + 500);
    assert_eq!(t.going_out, 200, "no concealed bonus");
    assert_eq!(t.red_threes, 100);
    assert_eq!(t.in_hand, -hand_value(g.hand(Seat::new(3))));
    items(h, 1);
    let o = &h.teams[0];
    assert_eq!(o.red_threes, -100, "no two canastas: minus");
    assert_eq!(
        o.in_hand,
        -hand_value(g.hand(Seat::new(0))) - hand_value(g.hand(Seat::new(2)))
    );
    items(h, 0);
}

/// Without two canastas nobody goes out: with a samba and six kings, the
/// meld of three queens that would leave 9S to discard is refused.
#[test]
fn one_canasta_is_not_enough_to_go_out() {
    let mut g = DealSpec::new(samba(4), 0)
        .hand(1, "4H 5H 6H 7H 8H 9H TH KS KS KH KH KD 2C QS QS")
        .upcards("QC")
        .stock("QH 9S")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld 4H 5H 6H 7H 8H 9H TH / KS KS KH KH KD 2C"],
    );
    assert_eq!(g.hand(Seat::new(1)), &counts("QS QS QH 9S"));
    assert_eq!(
        refused(&g, 1, "meld QS QS QH"),
        stranded("9S", IllegalReason::NotEnoughCanastas { need: 2, have: 1 })
    );
    assert!(generated(&g, "discard 9S"));
}

/// BIC-SAM: an unfrozen pile may be taken by putting its top card on one of
/// the side's melds short of a canasta, a sequence included.
#[test]
fn the_top_card_may_go_on_a_sequence() {
    // Seat 2 discards 5H; seat 3 (seat 1's partner) takes the pile by
    // putting 5H on hearts 6-10.
    let mut g2 = DealSpec::new(samba(4), 0)
        .hand(1, "6H 7H 8H 9H TH KS KS KH 5D 4H 2C 2D QS QS 5C")
        .hand(2, "5H")
        .upcards("QC")
        .stock("JH 8C 4D 4S 6C 6D")
        .game();
    play_all(
        &mut g2,
        1,
        &["draw", "meld 6H 7H 8H 9H TH / KS KS KH", "discard 5C"],
    );
    play_all(&mut g2, 2, &["draw", "discard 5H"]);
    assert!(!g2.pile_frozen());
    assert!(generated(&g2, "pickup"));
    play(&mut g2, 3, "pickup");
    assert_eq!(
        g2.melds(Side::new(1))[0].cards.to_string(),
        "5H 6H 7H 8H 9H TH"
    );
}

/// P-SAM: the pile can never be taken with a three, a two or a joker on top.
#[test]
fn threes_and_wild_cards_stop_the_pile() {
    let mut g = opened_with_a_sequence();
    play(&mut g, 1, "discard 2D");
    assert_eq!(
        refused(&g, 2, "pickup"),
        IllegalReason::PileBlocked(card("2D"))
    );
}

/// P-SAM, BIC-SAM (the US pile rule, the default): the top card may join a
/// group or a sequence of the side, never a canasta. Several melds of a
/// rank are allowed, so the canasta is passed over as a target; the
/// refusal still names it, not a missing meld.
#[test]
fn the_top_card_goes_on_no_canasta() {
    let mut g = DealSpec::new(samba(4), 0)
        .hand(1, "KS KS KH KH KD KD KC 4S 5S 7D 8D 9C JC QD 5H")
        .hand(2, "KH")
        .upcards("QC")
        .stock("6C 6D 8S 8H")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld KS KS KH KH KD KD KC", "discard 4S"],
    );
    play_all(&mut g, 2, &["draw", "discard KH"]);
    assert_eq!(refused(&g, 3, "pickup"), IllegalReason::TopCardOntoCanasta);
}

/// P-SAM's Dutch pile rule, the option `samba_pile_rule: dutch`: the pile
/// is always frozen (a natural pair takes it), but a player may instead of
/// drawing take the top card alone to extend one of the side's sequences;
/// the rest of the pile stays.
#[test]
fn dutch_option_top_card_alone_onto_a_sequence() {
    let rules = rules_with(samba(4), r#"{"sambaPileRule": "dutch"}"#);
    assert!(
        rules.pile.freeze.always && rules.pile.top_card_to_sequence && !rules.pile.take_onto_meld
    );
    let mut g = DealSpec::new(rules, 0)
        .hand(1, "6H 7H 8H 9H TH KS KS KH 5D 4H 2C 2D QS QS 5C")
        .hand(2, "5H")
        .hand(3, "QH QD")
        .upcards("QC")
        .stock("JH 8C 4D 4S 6C 6D")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld 6H 7H 8H 9H TH / KS KS KH", "discard 5C"],
    );
    play_all(&mut g, 2, &["draw", "discard 5H"]);
    let pile = g.pile().len();
    let hand = *g.hand(Seat::new(3));
    assert!(generated(&g, "pickup"));
    play(&mut g, 3, "pickup");
    assert_eq!(
        g.melds(Side::new(1))[0].cards.to_string(),
        "5H 6H 7H 8H 9H TH"
    );
    assert_eq!(g.pile().len(), pile - 1, "the rest of the pile stays");
    assert_eq!(g.hand(Seat::new(3)), &hand, "no draw");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(
        refused(&g, 3, "draw"),
        IllegalReason::WrongPhase(Phase::Play)
    );
}

/// The Dutch pile is frozen for everyone: the top card never goes on a
/// group, only a natural pair takes the pile.
#[test]
fn dutch_option_pile_always_frozen() {
    let rules = rules_with(samba(4), r#"{"samba_pile_rule": "dutch"}"#);
    let mut g = DealSpec::new(rules, 0)
        .hand(1, "6H 7H 8H 9H TH KS KS KH 5D 4H 2C 2D QS QS 5C")
        .hand(2, "KD")
        .hand(3, "KC KC")
        .upcards("QC")
        .stock("JH 8C 4D 4S")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld 6H 7H 8H 9H TH / KS KS KH", "discard 5C"],
    );
    play_all(&mut g, 2, &["draw", "discard KD"]);
    assert_eq!(
        refused(&g, 3, "pickup"),
        IllegalReason::NoSequenceForTopCard(card("KD")),
        "not onto the kings"
    );
    assert!(legal(&g, "pickup KC KC"));
    let bad: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"samba_pile_rule": "swiss"}"#).unwrap();
    assert!(samba(4).with_options(&bad).is_err());
}

/// Record spec: `ask` is legal exactly when the asker could go out this
/// turn. A player whose side has not melded can go out in Samba by an
/// opening that meets the minimum and takes every card (P-SAM, BIC-SAM: two
/// canastas, melded all at once): here seven kings, seven queens and three
/// jacks after the draw. So the player may ask first; asking was once
/// refused to every player of a side that had not melded.
#[test]
fn an_unopened_player_who_can_go_out_may_ask() {
    let mut g = DealSpec::new(samba(4), 0)
        .hand(1, "KS KH KD KC KS KH KD QS QH QD QC QS QH QD JS")
        .upcards("5C")
        .stock("JH JD")
        .game();
    play(&mut g, 1, "draw");
    let out = "meld KS KH KD KC KS KH KD / QS QH QD QC QS QH QD / JS JH JD";
    assert!(legal(&g, out));
    assert!(generated(&g, "ask"));
    play(&mut g, 1, "ask");
    play(&mut g, 3, "yes");
    play(&mut g, 1, out);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    // Without the jacks' third card the side could not go out: no asking.
    let mut g = DealSpec::new(samba(4), 0)
        .hand(1, "KS KH KD KC KS KH KD QS QH QD QC QS QH QD JS")
        .upcards("5C")
        .stock("JH 9D")
        .game();
    play(&mut g, 1, "draw");
    assert!(!generated(&g, "ask"));
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::AskOnlyIfAbleToGoOut);
}

/// With the house rule `concealed_without_minimum` (the standard exception,
/// P-CAN and S002, read into Samba; docs/rules/samba.md), a side that has
/// not melded may lay its whole hand below the minimum after a stock draw,
/// sequences included: two sambas and three fives make 115 where 200 is
/// needed. The player may ask, and after "yes" the generator lists the
/// ways out (it listed none before 7c616e5, which left the player bound
/// to go out with no legal action).
#[test]
fn concealed_going_out_below_the_minimum_with_sequences() {
    let rules = rules_with(
        samba(4),
        r#"{"concealed_without_minimum": true, "opening_table": [{"from": null, "need": 200}]}"#,
    );
    let mut g = DealSpec::new(rules, 0)
        .hand(1, "4H 5H 6H 7H 8H 9H TH 4S 5S 6S 7S 8S 9S TS 5C")
        .upcards("QC")
        .stock("5D 5S")
        .game();
    play(&mut g, 1, "draw");
    let out = "meld 4H 5H 6H 7H 8H 9H TH / 4S 5S 6S 7S 8S 9S TS / 5S 5D 5C";
    assert!(generated(&g, out), "{:?}", legal_texts(&g));
    assert!(generated(&g, "ask"));
    play(&mut g, 1, "ask");
    play(&mut g, 3, "yes");
    assert!(generated(&g, out), "{:?}", legal_texts(&g));
    // Keeping a card back to discard is a way out too.
    assert!(generated(
        &g,
        "meld 4S 5S 6S 7S 8S 9S / 4H 5H 6H 7H 8H 9H TH / 5S 5D 5C"
    ));
    play(&mut g, 1, out);
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    assert_eq!(h.teams[1].canastas, 3000, "two sambas");
}
