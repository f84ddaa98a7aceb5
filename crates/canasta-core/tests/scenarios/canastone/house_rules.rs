//! The house rules P-CNE lists (research §2.2; S000 reproduces the list),
//! as `Rules` options of the Canastone preset. Numbers follow the list:
//! 2, 3, 5 and 7 are not offered (see `docs/rules/canastone.md`).

use super::*;
use canasta_core::Seat;
use canasta_core::{HandEndReason, IllegalReason, Phase};

/// House rule 1: the opening must always be clean, even above 50
/// (`clean_opening: "always"`, or the old `clean_opening_up_to` at least
/// the table's top row, as here). Here the table
/// asks 90 from the start; the preset allows A-A-Joker there, the house
/// rule does not.
#[test]
fn house_rule_1_the_opening_is_always_clean() {
    let hand = "AS AH AD JK KS KS KH 4C 5C 6C 7C 8C TC JC QC";
    let ninety = r#""opening_table": [{"from": null, "need": 90}]"#;
    let preset = DealSpec::new(canastone_with(4, &format!("{{{ninety}}}")), 0)
        .hand(1, hand)
        .upcards("8D")
        .game();
    assert_eq!(preset.opening_minimum(Seat::new(1)), 90);
    assert!(legal(&preset, "meld AS AH JK"));
    let house = canastone_with(4, &format!(r#"{{{ninety}, "clean_opening_up_to": 200}}"#));
    let g = DealSpec::new(house, 0).hand(1, hand).upcards("8D").game();
    assert_eq!(
        refused(&g, 1, "meld AS AH JK"),
        IllegalReason::OpeningMustBeClean {
            need: 90,
            up_to: Some(200)
        }
    );
    assert!(legal(&g, "meld AS AH AD / KS KS KH"), "clean 90 opens");
}

/// House rule 2 (a negative score means no minimum, in effect 15) is the
/// opening table with a first row of 15 and the 50 row from 0 up.
#[test]
fn house_rule_2_as_an_opening_table() {
    let r = canastone_with(
        4,
        r#"{"opening_table": [{"from": null, "need": 15}, {"from": 0, "need": 50},
            {"from": 3000, "need": 90}, {"from": 5000, "need": 120},
            {"from": 7000, "need": 160}, {"from": 10000, "need": 180},
            {"from": 12000, "need": 200}]}"#,
    );
    assert_eq!(r.opening.minimum(-5), 15);
    assert_eq!(r.opening.minimum(0), 50);
    assert_eq!(r.opening.minimum(3000), 90);
}

/// House rule 4: the top discard and the cards that take the pile count
/// toward the opening (`pile_needs_opened_side` false): an unopened side
/// opens by taking the pile, the 9D on top making up the 50.
#[test]
fn house_rule_4_the_pile_counts_toward_the_opening() {
    let house = canastone_with(4, r#"{"pile_needs_opened_side": false}"#);
    let mut g = DealSpec::new(house, 0)
        .hand(1, "9S 9H 9C 6S 6H 6D 4C 5C 7C 8C TC JC QC KC AC")
        .upcards("9D")
        .game();
    assert_eq!(
        refused(&g, 1, "pickup 9S 9H 9C"),
        IllegalReason::OpeningTooLow { need: 50, have: 40 }
    );
    play(&mut g, 1, "pickup 9S 9H 9C / 6S 6H 6D");
    assert_eq!(meld_texts(&g, 1), vec!["9S 9H 9D 9C", "6S 6H 6D"]);
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(
        g.hand(Seat::new(1)).total(),
        15 - 6 + 9 + 1,
        "packet and a stock card"
    );
}

/// House rule 4 with P-CNE's freezing (only a wild card freezes the pile):
/// an unfrozen pile takes two naturals, for an unopened side too.
#[test]

fn house_rule_4_an_unfrozen_pile_takes_two_naturals() {
    let house = canastone_with(4, r#"{"pile_needs_opened_side": false}"#);
    let mut g = DealSpec::new(house, 0)
        .hand(1, "9S 9H 6S 6H 6D 6C 4C 5C 7C 8C TC JC QC KC AC")
        .upcards("9D")
        .game();
    assert!(!g.pile_frozen());
    assert_eq!(
        refused(&g, 1, "pickup 9S 9H / 6S 6H 6D"),
        IllegalReason::OpeningTooLow { need: 50, have: 45 }
    );
    play(&mut g, 1, "pickup 9S 9H / 6S 6H 6D 6C");
    assert_eq!(meld_texts(&g, 1), vec!["9S 9H 9D", "6S 6H 6D 6C"]);
}

/// House rule 6: a target of 15000 (`target`).
#[test]
fn house_rule_6_target_15000() {
    assert_eq!(canastone(4).game.target, 12000);
    assert_eq!(canastone_with(4, r#"{"target": 15000}"#).game.target, 15000);
}

/// House rule 8: closing by melding every card, with no final discard
/// (`go_out_needs_discard` false).
#[test]
fn house_rule_8_closing_by_melding_out() {
    let house = canastone_with(4, r#"{"go_out_needs_discard": false}"#);
    let mut g = big_turn_with(house, CLOSE_REST, CLOSE_PACKET)
        .stock("9D")
        .game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS[..3]);
    play(&mut g, 1, "meld 9S 9H 9D 9C");
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    assert_eq!(h.teams[1].going_out, 300);
}

/// House rule 9: closing needs two clean canastas
/// (`go_out_natural_canastas` 2, `go_out_mixed_canastas` 0).
#[test]
fn house_rule_9_two_clean_canastas_to_close() {
    let opts = r#"{"go_out_natural_canastas": 2, "go_out_mixed_canastas": 0}"#;
    // A clean and a dirty canasta: not enough.
    let mut g = big_turn_with(canastone_with(4, opts), CLOSE_REST, CLOSE_PACKET)
        .stock("9D")
        .game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS[..3]);
    assert_eq!(
        refused(&g, 1, "meld 9S 9H 9D"),
        stranded(
            "9C",
            IllegalReason::MissingCanastas {
                natural: 2,
                mixed: 0,
                lacking: [1, 0],
            }
        )
    );
    // Two clean canastas (eight kings, seven fives): enough.
    let mut g = big_turn_with(canastone_with(4, opts), CLOSE_REST, "5H 5C 5C 5D KD")
        .stock("9D")
        .game();
    open_and_take(&mut g);
    play_all(
        &mut g,
        1,
        &[
            "add 0 KS KH KD",
            "add 1 5H 5C 5C 5D",
            "meld QS QS QH",
            "meld 9S 9H 9D",
            "discard 9C",
        ],
    );
    assert_eq!(g.phase(), Phase::HandOver);
}

/// House rule 10: no asking partner (`asking_allowed` false).
#[test]
fn house_rule_10_no_asking() {
    let preset = able_to_close_on_the_second_turn(canastone(4));
    assert!(generated(&preset, "ask"));
    let g = able_to_close_on_the_second_turn(canastone_with(4, r#"{"asking_allowed": false}"#));
    assert!(!generated(&g, "ask"));
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::AskingNotAllowed);
}

/// House rule 11: no bonuses for five canastas (`many_canastas_bonuses`
/// empty): five clean canastas and a dirty one score nothing extra.
#[test]
fn house_rule_11_no_bonus_for_five_canastas() {
    let g = super::scoring::many_canastas(
        canastone_with(4, r#"{"many_canastas_bonuses": []}"#),
        "TS TS TH TH TD TD TC 8S 8S 8H 8H 8D 8D 8C 2D",
        &["meld TS TS TH TH TD TD TC", "meld 8S 8S 8H 8H 8D 8D 8C"],
    );
    assert_eq!(canastas(&g, 1), (5, 1));
    let h = g.last_hand().unwrap();
    assert_eq!(h.teams[1].other, 0);
    assert_eq!(h.teams[1].canastas, 3000);
}
