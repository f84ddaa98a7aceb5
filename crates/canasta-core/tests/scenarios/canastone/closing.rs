//! Closing (going out) in Canastone: a clean and a dirty canasta, no
//! unfinished wild meld, a compulsory natural final discard; asking partner
//! (P-CNE "End of the play"; research §2.1).

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{HandEndReason, IllegalReason, Phase};

/// P-CNE: a side with a clean and a dirty canasta closes by discarding its
/// last card, a natural one. The hand ends at once.
#[test]
fn closing_by_a_natural_final_discard() {
    let mut g = big_turn(CLOSE_REST, CLOSE_PACKET).stock("9D").game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS);
    assert_eq!(g.hand(Seat::new(1)), &counts("9C"));
    assert!(generated(&g, "discard 9C"));
    play(&mut g, 1, "discard 9C");
    assert_eq!(g.phase(), Phase::HandOver);
    assert!(g.hand(Seat::new(1)).is_empty());
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    assert_eq!(h.teams[1].going_out, 300);
    assert_eq!(h.teams[0].going_out, 0);
}

/// P-CNE: "a discard is required at the end of every turn, including the
/// turn on which a player closes": melding every card is not closing.
#[test]
fn melding_out_without_a_final_discard_is_refused() {
    let mut g = big_turn(CLOSE_REST, CLOSE_PACKET).stock("9D").game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS[..3]);
    assert_eq!(g.hand(Seat::new(1)), &counts("9S 9H 9C 9D"));
    assert_eq!(
        refused(&g, 1, "meld 9S 9H 9D 9C"),
        IllegalReason::MustDiscardToGoOut
    );
    assert!(!legal(&g, "meld 9S 9H 9D 9C"));
    play_all(&mut g, 1, &["meld 9S 9H 9D", "discard 9C"]);
    assert_eq!(g.phase(), Phase::HandOver);
}

/// Melding every card with no canasta is refused for the canastas going
/// out needs, not for the final discard it also needs: a card kept back
/// would not make the canastas (it once said "going out needs a final
/// discard", a referee's record).
#[test]
fn melding_out_without_the_canastas_names_the_canastas() {
    let mut g = big_turn("QS QS QH 9S 9H 9C 6S 6H", CLOSE_PACKET)
        .stock("5C 6D")
        .game();
    play_all(&mut g, 1, &["meld KS KS KH KH KD", "draw"]);
    assert_eq!(g.hand(Seat::new(1)).total(), 12);
    let all = "meld 5S 5S 5C / QS QS QH / 9S 9H 9C / 6S 6H 6D";
    let why = refused(&g, 1, all);
    assert_ne!(why, IllegalReason::MustDiscardToGoOut);
    assert!(
        why.to_string()
            .contains("needs 2 canastas to go out and has 0"),
        "{why}"
    );
}

/// P-CNE: the final discard cannot be a wild card or a three. A player who
/// could close with a natural last card may not meld down to a three or a
/// wild card, since it could not be discarded to close.
#[test]
fn the_final_discard_must_be_a_natural_card() {
    for (last, stuck) in [("3S", true), ("JK", true), ("4C", false)] {
        let rest = format!("KS KH QS QS QH 9S 9H {last}");
        let mut g = big_turn(&rest, CLOSE_PACKET).stock("9D").game();
        open_and_take(&mut g);
        play_all(&mut g, 1, &CLOSE_MELDS[..3]);
        assert_eq!(g.hand(Seat::new(1)), &counts(&format!("9S 9H 9D {last}")));
        if stuck {
            assert_eq!(
                refused(&g, 1, "meld 9S 9H 9D"),
                stranded(last, IllegalReason::FinalDiscardNotNatural(card(last))),
                "{last}"
            );
            assert!(!generated(&g, "meld 9S 9H 9D"));
            // Discarding it with cards to spare is an ordinary discard.
            play(&mut g, 1, &format!("discard {last}"));
            assert_eq!(g.phase(), Phase::Draw);
        } else {
            play_all(&mut g, 1, &["meld 9S 9H 9D", "discard 4C"]);
            assert_eq!(g.phase(), Phase::HandOver);
        }
    }
}

/// The refusal of a meld that would leave 9C alone while the side may not
/// close: it needs a clean and a dirty canasta, and lacks `lacking` (clean,
/// dirty).
fn left_with_9c_unable_to_close(lacking: [u8; 2]) -> IllegalReason {
    let kinds = IllegalReason::MissingCanastas {
        natural: 1,
        mixed: 1,
        lacking,
    };
    stranded("9C", kinds)
}

/// P-CNE: closing needs at least one clean *and* one dirty canasta; a side
/// with two clean (or two dirty) canastas may not, so its player must keep
/// two cards after melding.
#[test]
fn closing_needs_a_clean_and_a_dirty_canasta() {
    // Two clean: eight kings and seven fives.
    let mut g = big_turn(CLOSE_REST, "5H 5C 5C 5D KD").stock("9D").game();
    open_and_take(&mut g);
    play_all(
        &mut g,
        1,
        &["add 0 KS KH KD", "add 1 5H 5C 5C 5D", "meld QS QS QH"],
    );
    assert_eq!(canastas(&g, 1), (2, 0));
    assert_eq!(
        refused(&g, 1, "meld 9S 9H 9D"),
        left_with_9c_unable_to_close([0, 1])
    );
    assert!(!legal_texts(&g).iter().any(|t| t.starts_with("meld 9")));
    // Two dirty: kings with a joker, fives with a two.
    let mut g = big_turn("KS JK QS QS QH 9S 9H 9C", CLOSE_PACKET)
        .stock("9D")
        .game();
    open_and_take(&mut g);
    play_all(
        &mut g,
        1,
        &[
            "add 0 KS JK",
            "add 0 KD",
            "add 1 5H 5C 5C 2C",
            "meld QS QS QH",
        ],
    );
    assert_eq!(canastas(&g, 1), (0, 2));
    assert_eq!(
        refused(&g, 1, "meld 9S 9H 9D"),
        left_with_9c_unable_to_close([1, 0])
    );
    play(&mut g, 1, "discard 9D");
    assert_eq!(g.phase(), Phase::Draw, "not closed: the turn passed");
}

/// P-CNE: a side with a wild meld short of seven cards may not close, even
/// with a clean and a dirty canasta.
#[test]
fn an_unfinished_wild_meld_forbids_closing() {
    let mut g = big_turn("KS KH JK JK JK 9S 9H 9C", CLOSE_PACKET)
        .stock("9D")
        .game();
    open_and_take(&mut g);
    play_all(&mut g, 1, &CLOSE_MELDS[..2]);
    assert_eq!(canastas(&g, 1), (1, 1));
    assert!(generated(&g, "meld 9S 9H 9D"), "closing is open so far");
    play(&mut g, 1, "meld JK JK JK");
    assert_eq!(g.hand(Seat::new(1)), &counts("9S 9H 9C 9D"));
    assert_eq!(
        refused(&g, 1, "meld 9S 9H 9D"),
        stranded("9C", IllegalReason::UnfinishedWildMeld)
    );
}

/// P-CNE: a player able to close may ask partner first; the answer binds.
/// After "no" the player may not close this turn (nor meld down to one
/// card); after "yes" the player must close. One question a turn.
#[test]
fn asking_partner_binds_the_asker() {
    let mut g = able_to_close_on_the_second_turn(canastone(4));
    assert!(generated(&g, "ask"));
    let mut no = g.clone();
    play(&mut no, 1, "ask");
    assert_eq!((no.phase(), no.to_act()), (Phase::Answer, Seat::new(3)));
    assert_eq!(
        refused(&no, 1, "discard 4C"),
        IllegalReason::NotYourTurn {
            seat: Seat::new(1),
            to_act: Seat::new(3)
        }
    );
    play(&mut no, 3, "no");
    assert_eq!((no.phase(), no.to_act()), (Phase::Play, Seat::new(1)));
    assert_eq!(refused(&no, 1, "ask"), IllegalReason::CannotAsk);
    play(&mut no, 1, "meld QS QS QD");
    assert_eq!(
        refused(&no, 1, "meld 9S 9H 9C 9D"),
        stranded("4C", IllegalReason::PartnerSaidNo)
    );
    play(&mut no, 1, "discard 4C");
    assert_eq!(no.phase(), Phase::Draw);

    play(&mut g, 1, "ask");
    play(&mut g, 3, "yes");
    assert_eq!(refused(&g, 1, "discard 9C"), IllegalReason::MustGoOut);
    play_all(&mut g, 1, &SECOND_TURN);
    assert_eq!(g.phase(), Phase::HandOver);
}

/// P-CNE (asking "before closing") and the engine's own timing (right after
/// drawing or taking the pile, before any further meld): a player who
/// opened before drawing may ask right after taking the pile.
#[test]

fn a_player_who_opened_before_drawing_may_ask_after_taking_the_pile() {
    let mut g = big_turn(CLOSE_REST, CLOSE_PACKET).stock("9D").game();
    open_and_take(&mut g);
    assert!(generated(&g, "ask"));
    play(&mut g, 1, "ask");
    assert_eq!((g.phase(), g.to_act()), (Phase::Answer, Seat::new(3)));
}

/// P-CNE: "A player who is able to close the play is permitted to ask
/// partner's permission": a player who cannot close (here: a side that has
/// not even opened) has nothing to ask.
#[test]

fn only_a_player_able_to_close_may_ask() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH QS QS 4C 5C 6C 7C 8C 4H 5H 6H 7H")
        .upcards("8D")
        .game();
    play(&mut g, 1, "draw");
    assert!(!generated(&g, "ask"));
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::AskOnlyIfAbleToGoOut);
}

/// P-CNE "Six players": the same rules with two teams of three; asking goes
/// to the next partner clockwise (engine reading: seat 1 asks seat 3).
#[test]
fn six_players_close_the_same_way_and_ask_the_next_partner() {
    let mut g = able_to_close_on_the_second_turn(canastone(6));
    play(&mut g, 1, "ask");
    assert_eq!(g.to_act(), Seat::new(3));
    assert_eq!(
        refused(&g, 5, "yes"),
        IllegalReason::NotYourTurn {
            seat: Seat::new(5),
            to_act: Seat::new(3)
        }
    );
    play(&mut g, 3, "yes");
    play_all(&mut g, 1, &SECOND_TURN);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    assert_eq!(h.teams.len(), 2);
    assert_eq!(h.teams[1].going_out, 300);
    // Seats 1, 3 and 5 are team 1: the hands of 3 and 5 count against it.
    let in_hand = -(hand_value(g.hand(Seat::new(3))) + hand_value(g.hand(Seat::new(5))));
    assert_eq!(h.teams[1].in_hand, in_hand);
    let team0: i32 = [0, 2, 4]
        .iter()
        .map(|&s| hand_value(g.hand(Seat::new(s))))
        .sum();
    assert_eq!(h.teams[0].in_hand, -2 * team0, "never opened: doubled");
}

/// Engine reading (P-CNE is silent): taking the pile with the last two cards
/// in hand would leave only the stock card drawn with it, which the player
/// could discard to close only if it is natural; legality may not depend on
/// an unseen card, so the pickup is refused (here the stock card is 4H and
/// the side has its canastas).
#[test]
fn taking_the_pile_with_the_last_two_cards_is_refused() {
    let mut g = big_turn("KS KH QS QS QH QD 9S 9H", CLOSE_PACKET)
        .hand(3, "7S")
        .hand(0, "JS JS JH JH JD 7S 7S 9C")
        .stock("9D 6S 6H 6D 6C 4S 4H 8C")
        .game();
    open_and_take(&mut g);
    play_all(
        &mut g,
        1,
        &[
            "add 0 KS KH KD",
            "add 1 5H 5C 5C 2C",
            "meld QS QS QH QD",
            "discard 9D",
        ],
    );
    assert_eq!(g.hand(Seat::new(1)), &counts("9S 9H"));
    draw_discard(&mut g, 2, "6S");
    draw_discard(&mut g, 3, "7S");
    // Team 0 opens, takes the pile and discards 9C: a one-card pile.
    play_all(
        &mut g,
        0,
        &["meld JS JS JH JH JD", "pickup 7S 7S", "discard 9C"],
    );
    assert_eq!((g.pile(), g.pile_frozen()), (&cards("9C")[..], false));
    assert_eq!(canastas(&g, 1), (1, 1));
    assert_eq!(g.stock().next(), Some(card("4H")));
    assert_eq!(
        refused(&g, 1, "pickup 9S 9H"),
        IllegalReason::OnlyUnseenCardLeft
    );
    assert!(!legal(&g, "pickup 9S 9H"));
    assert_eq!(legal_texts(&g), vec!["draw"]);
}

/// Seat 1 opens before drawing with `opening`, holding `rest` besides, and
/// draws `drawn`: the hand is then `rest` and `drawn`.
fn opened_with(opening: &str, rest: &str, drawn: &str) -> GameState {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, &format!("{opening} {rest}"))
        .upcards("8D")
        .stock(drawn)
        .game();
    assert_eq!(g.hand(Seat::new(1)).total(), 15);
    play_all(&mut g, 1, &[&format!("meld {opening}"), "draw"]);
    assert_eq!(g.phase(), Phase::Play);
    g
}

/// A player who can close only by carrying a meld of six past seven with
/// two wild cards in one action (the record spec: "a wild card may go into
/// a meld that this same action makes a canasta"; P-CNE: no wild card on
/// a canasta) may ask, and after "yes" closes by the generated actions.
/// One card at a time the first wild card makes the canasta and the second
/// has nowhere to go: asking was judged so until 244b24e.
#[test]
fn a_close_that_carries_six_kings_past_seven_with_two_wild_cards_may_ask() {
    let mut g = opened_with("KS KS KH KH KD KD", "QS QS QH QH QD QD QC 2C JK", "QC 9S");
    assert!(generated(&g, "ask"), "{:?}", legal_texts(&g));
    play(&mut g, 1, "ask");
    play(&mut g, 3, "yes");
    play(&mut g, 1, "meld QS QS QH QH QD QD QC QC");
    assert!(generated(&g, "add 0 2C JK"), "{:?}", legal_texts(&g));
    // The one-card add makes the canasta and strands the other wild card.
    assert!(!generated(&g, "add 0 2C"), "{:?}", legal_texts(&g));
    play_all(&mut g, 1, &["add 0 2C JK", "discard 9S"]);
    assert_eq!(g.phase(), Phase::HandOver);
    let kings = g.melds(Side::new(1))[0];
    assert_eq!((kings.cards.len(), kings.cards.wild_count()), (8, 2));
}

/// The same for the wild meld (P-CNE: a canasta "of (at least) seven wild
/// cards"): six jokers and two twos make one wild canasta of eight, laid as
/// three jokers and then one add of five.
#[test]
fn a_close_by_a_wild_canasta_of_eight_may_ask() {
    let mut g = opened_with("QS QS QH QH QD QD QC", "JK JK JK JK JK JK 2C 2D", "QC 9S");
    assert!(generated(&g, "ask"), "{:?}", legal_texts(&g));
    play(&mut g, 1, "ask");
    play(&mut g, 3, "yes");
    play_all(&mut g, 1, &["add 0 QC", "meld JK JK JK"]);
    assert!(
        generated(&g, "add 1 JK JK JK 2C 2D"),
        "{:?}",
        legal_texts(&g)
    );
    play_all(&mut g, 1, &["add 1 JK JK JK 2C 2D", "discard 9S"]);
    assert_eq!(g.phase(), Phase::HandOver);
    let wild = g.melds(Side::new(1))[1];
    assert_eq!(wild.cards.len(), 8);
    assert_eq!(wild.canasta_bonus(g.rules()), 2000);
}

/// A player bound to go out may make a lay that keeps open only a close
/// carrying a meld past seven with two wild cards in one action: five
/// kings become six, and then `add 0 2C JK` makes a dirty canasta of
/// eight. (Refused with `MustGoOut` before 244b24e, when the going-out
/// test counted wild cards one at a time.)
#[test]
fn bound_to_go_out_a_player_may_lay_toward_a_close_past_seven() {
    let mut g = DealSpec::canastone(4, 0)
        .hand(1, "KS KS KH KH KD QS QS QH QH QD QD KD QC 2C JK")
        .upcards("8D")
        .stock("KC 9S")
        .game();
    play_all(
        &mut g,
        1,
        &["meld KS KS KH KH KD / QS QS QH QH QD QD", "draw", "ask"],
    );
    play(&mut g, 3, "yes");
    assert!(generated(&g, "add 0 KD"), "{:?}", legal_texts(&g));
    play_all(
        &mut g,
        1,
        &[
            "add 0 KD",
            "add 0 2C JK",
            "add 1 QC",
            "add 0 KC",
            "discard 9S",
        ],
    );
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
}
