//! When to end the hand: going out locks in the hand's score, so a side
//! that would lock in a heavy loss plays on while it safely can.
//!
//! The rule (a club rule of thumb; rules-research.md and the seeds give no
//! strategy for it): hold back from going out when all of these hold:
//! - going out would not win the game;
//! - even with the going-out bonus, and the rivals paying for the cards in
//!   their hands, the side would end the hand behind by more than a mixed
//!   canasta's bonus;
//! - the side, not its rivals, holds the cards still to be melded (the
//!   dominant side builds; a side whose rivals hold the cards cuts its
//!   losses by ending the hand, as strategy guides advise);
//! - no rival is close to going out, and the stock is not running out;
//! - the side has something to build: a meld still short of a canasta.
//!
//! Holding back keeps going out open on a later turn, so it costs little
//! while the rivals cannot end the hand first.

use super::View;

/// Fewest cards an opponent may hold for us to play on regardless.
const RIVAL_CLOSE: usize = 3;

/// Fewest cards an opponent whose side could go out may hold for us to
/// play on: with the canastas in place, a few cards are one good turn.
const RIVAL_READY_CLOSE: usize = 6;

/// Whether the seat should keep its cards rather than go out now.
pub(super) fn holds_back(v: &View<'_>) -> bool {
    let rules = v.rules;
    if v.foot_due {
        // Emptying the hand picks up the foot: the hand goes on anyway.
        return false;
    }
    // The hand's score if it ends now, each card left in a hand costing
    // what an unseen card is worth on average.
    let card = v.unseen_card_value();
    let ours = v.own_table() + rules.scoring.going_out_bonus - card * v.partner_cards as i32;
    let rival = v.rival();
    let theirs = rival.table - card * rival.cards as i32;
    let final_score = v.own_score + ours;
    let wins_the_game = final_score >= rules.game.target && final_score > v.rival_score() + theirs;
    let far_behind = ours - theirs <= -rules.scoring.mixed_canasta_bonus;
    let side_holds_the_cards = v.hand.total() + v.partner_cards >= rival.cards;
    let rival_close =
        v.opp_min_hand <= RIVAL_CLOSE || (rival.ready && v.opp_min_hand <= RIVAL_READY_CLOSE);
    let round = usize::from(rules.deal.draw_count) * usize::from(rules.game.players);
    let stock_short = v.stock <= 2 * round;
    let something_to_build = v.own_melds.iter().any(|m| {
        !m.closed && !m.is_full(rules) && !m.is_canasta(rules) && !m.cards.is_special_threes(rules)
    });
    !wins_the_game
        && far_behind
        && side_holds_the_cards
        && !rival_close
        && !stock_short
        && something_to_build
}
