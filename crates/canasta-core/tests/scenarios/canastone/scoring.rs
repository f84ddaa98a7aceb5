//! Scoring a Canastone hand: cards, canasta bonuses by kind and rank, wild
//! canastas, closing, red threes, many canastas, the game to 12000 (P-CNE
//! "Scoring"; research §2.1).

use super::*;
use canasta_core::Side;
use canasta_core::{CanastaKind, GameState, HandEndReason, HandResult, Phase, Rules};
use canasta_core::{Seat, Team};

/// The hands of team 0 (seats 0 and 2), which never opened: counted twice.
fn unopened_team0(g: &GameState) -> i32 {
    -2 * (hand_value(g.hand(Seat::new(0))) + hand_value(g.hand(Seat::new(2))))
}

/// P-CNE: melded cards plus, cards in hand minus; clean canasta 500, dirty
/// 300; closing 300. A side that never opened counts its hand cards twice.
#[test]
fn closing_scores_cards_canastas_and_300() {
    let mut g = big_turn(CLOSE_REST, CLOSE_PACKET)
        .hand(3, LOW_HAND)
        .stock("9D")
        .game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS);
    play(&mut g, 1, "discard 9C");
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    assert_eq!(CLOSE_MELDED, 190);
    assert_eq!(
        all_items(h, 1),
        (190, -75, 500 + 300, 0, 300, 0, 190 - 75 + 800 + 300)
    );
    let t0 = unopened_team0(&g);
    assert_eq!(all_items(h, 0), (0, t0, 0, 0, 0, 0, t0));
    assert_eq!(h.totals, vec![t0, 1215]);
}

/// P-CNE "Wild melds", "Scoring": seven twos are a clean wild canasta worth
/// 3000 (and their 140 points).
#[test]
fn seven_twos_are_a_clean_wild_canasta_worth_3000() {
    let mut g = GameState::new(canastone(4));
    twos_hand(&mut g, false);
    let kinds: Vec<_> = g
        .melds(Side::new(1))
        .iter()
        .map(|m| m.canasta(g.rules()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            Some(CanastaKind::Natural),
            Some(CanastaKind::Mixed),
            Some(CanastaKind::Natural)
        ]
    );
    assert_eq!(meld_texts(&g, 1)[2], "2S 2S 2S 2H 2H 2H 2D");
    let h = g.last_hand().unwrap();
    assert_eq!(
        all_items(h, 1),
        (290, -75, 500 + 300 + 3000, 0, 300, 0, 4315)
    );
    let t0 = unopened_team0(&g);
    assert_eq!(all_items(h, 0), (0, t0, 0, 0, 0, 0, t0));
}

/// P-CNE: six jokers and a two are a clean wild canasta worth 5000; a
/// clean canasta of aces is worth 1000.
#[test]
fn six_jokers_and_a_two_are_a_clean_wild_canasta_worth_5000() {
    let mut g = GameState::new(canastone(4));
    jokers_hand(&mut g);
    assert_eq!(
        meld_texts(&g, 1),
        vec![
            "2S JK JK JK JK JK JK",
            "AS AS AH AH AD AD AC AC",
            "KS KS KS KH KH KH KD KD KC",
            "5S 5S 5H 5D 5D 5C 2H"
        ]
    );
    assert_eq!(canastas(&g, 1), (3, 1));
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(3))));
    assert_eq!(
        all_items(h, 1),
        (620, -75, 5000 + 1000 + 500 + 300, 0, 300, 0, 7645)
    );
}

/// P-CNE: a wild canasta with one to five jokers is dirty (2000) and
/// serves as the dirty canasta for closing; a dirty canasta of aces is
/// worth 500. (Three jokers opened; the wild meld took four twos.)
#[test]
fn a_wild_canasta_with_jokers_and_twos_is_dirty_worth_2000() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "JK JK JK AS AS KS KS KS KH KH KH KD 9S 9H 9D")
        .hand(3, LOW_HAND)
        .upcards("AD")
        .packet("2S 2S 2H 2H AH AH AC JK 9C 9C 9S QS QS QH")
        .stock("5S")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "meld JK JK JK",
            "pickup AS AS",
            "add 0 2S 2S 2H 2H",
            "add 1 AH AH AC JK",
            "meld KS KS KS KH KH KH KD",
        ],
    );
    let kinds: Vec<_> = g
        .melds(Side::new(1))
        .iter()
        .map(|m| m.canasta(g.rules()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            Some(CanastaKind::Mixed),
            Some(CanastaKind::Mixed),
            Some(CanastaKind::Natural)
        ]
    );
    play_all(
        &mut g,
        1,
        &["meld 9S 9S 9H 9D 9C 9C", "meld QS QS QH", "discard 5S"],
    );
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    // Wild 3 x 50 + 4 x 20; aces 6 x 20 + 50; kings 70; nines 60; queens 30.
    assert_eq!(
        all_items(h, 1),
        (560, -75, 2000 + 500 + 500, 0, 300, 0, 3785)
    );
}

/// Deals the standard closing turn with red threes dealt to seats 3, 2 and
/// 0 (replaced by clubs tens and jacks), plays it, and returns the game.
fn close_with_red_threes(seat3: &str, seat2: &str, seat0: &str) -> GameState {
    let reds = [seat2, seat3, seat0]
        .iter()
        .map(|s| s.split_whitespace().count())
        .sum::<usize>();
    let replacements: Vec<&str> = ["TC", "TC", "TC", "JC", "JC", "JC"][..reds].to_vec();
    let mut g = big_turn(CLOSE_REST, CLOSE_PACKET)
        .hand(3, seat3)
        .hand(2, seat2)
        .hand(0, seat0)
        .stock(&format!("{} 9D", replacements.join(" ")))
        .game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS);
    play(&mut g, 1, "discard 9C");
    assert_eq!(g.phase(), Phase::HandOver);
    g
}

fn red_items(h: &HandResult) -> (i32, i32) {
    (h.teams[0].red_threes, h.teams[1].red_threes)
}

/// P-CNE "Red threes": 100 each; plus for a side with a clean and a dirty
/// canasta, minus and doubled for a side with no canasta; four or more
/// doubled again, whatever the sign. The seed's own examples: three red
/// threes +300 / -600; four +800 / -1600. A team's members' red threes
/// count together.
#[test]
fn red_threes_plus_with_clean_and_dirty_minus_doubled_without_canastas() {
    for (seat3, seat2, seat0, team0, team1) in [
        ("3H 3H 3H", "3D 3D 3D", "", -600, 300),
        ("3H 3H 3D 3D", "", "3H 3D", -400, 800),
        ("3H 3D", "3H 3H", "3D 3D", -1600, 200),
        ("", "3H", "", -200, 0),
    ] {
        let g = close_with_red_threes(seat3, seat2, seat0);
        let h = g.last_hand().unwrap();
        assert_eq!(red_items(h), (team0, team1), "{seat3} / {seat2} {seat0}");
        assert_eq!(
            h.teams[1].total,
            190 + 800 + 300 + team1 - hand_value(g.hand(Seat::new(3)))
        );
        assert_eq!(h.teams[0].total, unopened_team0(&g) + team0);
    }
}

/// Dealer 0. Seat 1 opens, takes the pile and makes the standard clean and
/// dirty canastas and the queens, keeping 9S 9H 9D. Seat 2 (team 0) opens
/// with JS JS JH JH JD, draws `drawn`, adds it to the jacks (a canasta) and
/// discards 4S.
/// Seats 3 and 0 draw and discard; seat 1 draws 9C 4C and closes. Seat 0
/// was dealt 3H 3D.
fn team0_canasta(drawn: &str) -> GameState {
    let mut g = big_turn(CLOSE_REST, CLOSE_PACKET)
        .hand(2, "JS JS JH JH JD 4S")
        .hand(0, "3H 3D")
        .stock(&format!("TC TC 9D {drawn} 6S 6H 7S 7H 9C 4C"))
        .game();
    assert_eq!(g.red_threes(Seat::new(0)), 2);
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS[..3]);
    play(&mut g, 1, "discard 9C");
    play_all(
        &mut g,
        2,
        &[
            "meld JS JS JH JH JD",
            "draw",
            &format!("add 0 {drawn}"),
            "discard 4S",
        ],
    );
    assert!(g.melds(Side::new(0))[0].is_canasta(g.rules()));
    draw_discard(&mut g, 3, "6S");
    draw_discard(&mut g, 0, "7S");
    play_all(&mut g, 1, &["draw", "meld 9S 9H 9D 9C", "discard 4C"]);
    assert_eq!(g.phase(), Phase::HandOver);
    g
}

/// P-CNE "Red threes": a side with a clean canasta but no dirty one scores
/// nothing for its red threes; with a dirty one but no clean one, minus
/// (not doubled: it has a canasta).
#[test]
fn red_threes_count_nothing_with_clean_only_and_minus_with_dirty_only() {
    let g = team0_canasta("JD JC");
    let h = g.last_hand().unwrap();
    assert_eq!(canastas(&g, 0), (1, 0));
    let in_hand = -(hand_value(g.hand(Seat::new(0))) + hand_value(g.hand(Seat::new(2))));
    assert_eq!(all_items(h, 0), (70, in_hand, 500, 0, 0, 0, 570 + in_hand));

    let g = team0_canasta("JC 2D");
    let h = g.last_hand().unwrap();
    assert_eq!(canastas(&g, 0), (0, 1));
    let in_hand = -(hand_value(g.hand(Seat::new(0))) + hand_value(g.hand(Seat::new(2))));
    assert_eq!(
        all_items(h, 0),
        (80, in_hand, 300, -200, 0, 0, 180 + in_hand)
    );
    // Team 1 closed on its second turn: its nines are four now.
    assert_eq!(h.teams[1].melded, 80 + 50 + 30 + 40);
    assert_eq!(h.teams[1].going_out, 300);
}

/// Dealer 0. Seat 1 opens, takes the pile (upcard AD, fourteen below) and
/// makes four canastas: kings and queens and jacks clean, aces dirty; it
/// keeps 9S 9D. Seat 3 then lays `seat3_melds`; seat 1 closes next turn
/// with 9S 9D 9C, discarding 4C.
pub(super) fn many_canastas(rules: Rules, seat3: &str, seat3_melds: &[&str]) -> GameState {
    let mut g = DealSpec::new(rules, 0)
        .hand(1, "KS KS KH KH KD AS AS QS QS QH QH QD JS JS JH")
        .hand(3, seat3)
        .upcards("AD")
        .packet("KC KC AH AH AC 2C QD QC JD JD JC JC 9S 9D")
        .stock("9H 6D 6C 6S 6H 7D 7C 9C 4C")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "meld KS KS KH KH KD",
            "pickup AS AS",
            "add 0 KC KC",
            "add 1 AH AH AC 2C",
            "meld QS QS QH QH QD QD QC",
            "meld JS JS JH JD JD JC JC",
            "discard 9H",
        ],
    );
    assert_eq!(canastas(&g, 1), (3, 1));
    assert_eq!(g.hand(Seat::new(1)), &counts("9S 9D"));
    draw_discard_drawn(&mut g, 2);
    play(&mut g, 3, "draw");
    play_all(&mut g, 3, seat3_melds);
    play(&mut g, 3, "discard 6S");
    draw_discard_drawn(&mut g, 0);
    play_all(&mut g, 1, &["draw", "meld 9S 9D 9C", "discard 4C"]);
    assert_eq!(g.phase(), Phase::HandOver);
    g
}

/// P-CNE: five or more canastas including a clean and a dirty one score a
/// further 1000 (the engine puts it in `other`).
#[test]
fn five_canastas_with_a_clean_and_a_dirty_score_1000_more() {
    let g = many_canastas(
        canastone(4),
        "TS TS TH TH TD TD 2D 8S 8H 8D 4H 4H 4D 4D 4S",
        &["meld TS TS TH TH TD TD 2D"],
    );
    assert_eq!(canastas(&g, 1), (3, 2));
    let h = g.last_hand().unwrap();
    // Kings 70, aces 6 x 20 + 20, queens 70, jacks 70, tens 6 x 10 + 20,
    // nines 30; canastas 500 + 500 (dirty aces) + 500 + 500 + 300.
    let in_hand = -hand_value(g.hand(Seat::new(3)));
    assert_eq!(
        all_items(h, 1),
        (460, in_hand, 2300, 0, 300, 1000, 4060 + in_hand)
    );
}

/// P-CNE: five clean canastas and a dirty one score 2000 instead of 1000.
#[test]
fn five_clean_canastas_and_a_dirty_one_score_2000_instead() {
    let g = many_canastas(
        canastone(4),
        "TS TS TH TH TD TD TC 8S 8S 8H 8H 8D 8D 8C 2D",
        &["meld TS TS TH TH TD TD TC", "meld 8S 8S 8H 8H 8D 8D 8C"],
    );
    assert_eq!(canastas(&g, 1), (5, 1));
    let h = g.last_hand().unwrap();
    let in_hand = -hand_value(g.hand(Seat::new(3)));
    assert_eq!(in_hand, -(20 + 5), "2D and 6H are left");
    assert_eq!(
        all_items(h, 1),
        (520, in_hand, 3000, 0, 300, 2000, 5820 + in_hand)
    );
}

/// P-CNE "End of the game": the game ends when a team reaches 12000; the
/// higher total wins. 5115 after the twos (with four red threes), then
/// 7645 after the jokers: 12760.
#[test]
fn the_game_ends_when_a_team_reaches_12000() {
    let mut g = GameState::new(canastone(4));
    twos_hand(&mut g, true);
    let h = g.last_hand().unwrap();
    assert_eq!(h.teams[1].red_threes, 800);
    assert_eq!(h.teams[1].total, 5115);
    assert_eq!(g.phase(), Phase::HandOver);
    assert_eq!(g.winner(), None);
    let first0 = g.scores()[0];
    assert_eq!(g.opening_minimum(Seat::new(3)), 120, "5000-6995: 120");
    jokers_hand(&mut g);
    let h = g.last_hand().unwrap();
    assert_eq!(h.teams[1].total, 7645);
    assert_eq!(g.scores(), &[first0 + h.teams[0].total, 12760]);
    assert_eq!(h.totals, g.scores().to_vec());
    assert_eq!(g.phase(), Phase::GameOver);
    assert_eq!(g.winner(), Some(Some(Team::new(1))));
    assert!(g.legal_actions().is_empty());
}
