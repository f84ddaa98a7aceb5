//! Quick going-out answers shared between a position's candidate actions,
//! and the entry points of the sequence-aware going-out test.

use super::*;
use crate::seat::Seat;

/// Quick answers for many one-step changes of one position (the candidate
/// actions of a player bound to go out, or about to hold one card): every
/// natural in rank groups, no new sequence, the ranks' outcomes combined
/// once from both ends, so that a change recomputes only its own rank. It
/// answers `true` only when it finds a way out; otherwise the caller runs
/// the full test.
pub(crate) struct QuickOut<'a> {
    groups: RankGroups<'a>,
    side: Side,
    hand: CardCounts,
    prefix: [Reach; 12],
    suffix: [Reach; 12],
    meld_out: bool,
    wild_ok: bool,
    /// Ranks (by index) whose naturals may be the final discard.
    natural_ok: [bool; 13],
    /// Each meld's length if it is a sequence short of a samba, else 0.
    run_len: [u8; crate::state::MAX_MELDS],
}

impl<'a> QuickOut<'a> {
    /// For `hand` and `melds`, or `None` where the quick answer does not
    /// apply (red threes, black threes that can neither all be melded nor
    /// leave just one for the final discard, threes as a rank).
    pub(crate) fn new(
        rules: &'a Rules,
        hand: &CardCounts,
        melds: &[Meld],
        need_total: u8,
        meld_out: bool,
        discard_ok: impl Fn(Card) -> bool,
    ) -> Option<QuickOut<'a>> {
        let side = Side::of(rules, melds);
        if hand.red_threes() > 0 || !rules.melds.special_threes() {
            return None;
        }
        let b = hand.black_threes();
        let three_ok = b > 0 && discard_ok(Card::new(Rank::Three, Suit::Spades));
        // Black threes that cannot all be melded: going out is still open
        // when all but one can, that one the final discard. Then every
        // other card is melded, as `goes_out` asks.
        let three_discard = !black_threes_ok(rules, b, &side);
        if three_discard && !(three_ok && black_threes_ok(rules, b - 1, &side)) {
            return None;
        }
        let mut run_len = [0; crate::state::MAX_MELDS];
        for (len, m) in run_len.iter_mut().zip(melds) {
            if m.cards.is_sequence() && !rules.melds.is_samba(m.cards.len()) {
                *len = m.cards.len();
            }
        }
        let need = need_total.saturating_sub(side.canastas).min(MAX_NEED as u8);
        let pool = hand.wilds();
        let mut groups = RankGroups::new(rules, &side, pool, need);
        let full: [Reach; 11] = std::array::from_fn(|i| {
            let r = Rank::MELDABLE[i];
            groups.outcomes(r, hand.rank_count(r))
        });
        let mut prefix = [UNIT; 12];
        for i in 0..11 {
            prefix[i + 1] = combine(&prefix[i], &full[i], pool, need);
        }
        let mut suffix = [UNIT; 12];
        for i in (0..11).rev() {
            suffix[i] = combine(&full[i], &suffix[i + 1], pool, need);
        }
        Some(QuickOut {
            groups,
            side,
            hand: *hand,
            prefix,
            suffix,
            meld_out: meld_out || three_discard,
            wild_ok: !three_discard && discard_ok(Card::JOKER),
            natural_ok: std::array::from_fn(|r| {
                !three_discard
                    && r >= Rank::Four.index()
                    && discard_ok(Card::new(Rank::from_index(r), Suit::Spades))
            }),
            run_len,
        })
    }

    /// After `action` (a one-card add to a rank meld or a sequence, or one
    /// new rank group), can the player certainly go out? `false` means "not
    /// known".
    pub(crate) fn after(&mut self, action: &crate::action::Action) -> bool {
        use crate::action::Action;
        let rules = self.groups.rules;
        match *action {
            Action::Add { meld, cards } if cards.len() == 1 => {
                let Some(&(r, e)) = self.side.slot.get(meld.index()) else {
                    return false;
                };
                if r == u8::MAX {
                    return self.onto_sequence(meld.index(), &cards);
                }
                let rank = Rank::from_index(r as usize);
                let mut own = self.side.own[rank.index()].clone();
                if cards.wild_count() == 1 {
                    own[e as usize].1 += 1;
                    self.judge(rank, 0, 1, &own, 0)
                } else if cards.rank() == Some(rank) {
                    own[e as usize].0 += 1;
                    self.judge(rank, 1, 0, &own, 0)
                } else {
                    false
                }
            }
            Action::Meld(groups) if groups.len() == 1 => {
                let g = groups.as_slice()[0];
                let Some(rank) = g.rank() else { return false };
                if g.is_sequence() || rank == Rank::Three || rules.melds.has_canasta_length(g.len())
                {
                    return false;
                }
                let mut own = self.side.own[rank.index()].clone();
                if own
                    .try_push((g.natural_count(), g.wild_count(), false))
                    .is_err()
                {
                    return false;
                }
                self.judge(rank, g.natural_count(), g.wild_count(), &own, 0)
            }
            _ => false,
        }
    }

    /// A natural added to meld `meld`, a sequence: the card leaves the
    /// hand (no rank group changes) and may make a samba.
    fn onto_sequence(&mut self, meld: usize, cards: &crate::meld::Group) -> bool {
        let len = self.run_len.get(meld).copied().unwrap_or(0);
        let Some(rank) = cards.rank() else {
            return false;
        };
        if len == 0 || cards.natural_count() != 1 || !Rank::MELDABLE.contains(&rank) {
            return false;
        }
        let made = u8::from(self.groups.rules.melds.has_canasta_length(len + 1));
        let own = self.side.own[rank.index()].clone();
        self.judge(rank, 1, 0, &own, made)
    }

    /// The hand gives `naturals` of `rank` and `wilds` wild cards, the
    /// rank's melds become `own`, and the action makes `made` canastas
    /// outside the rank groups (a samba): can every card left go out?
    fn judge(
        &mut self,
        rank: Rank,
        naturals: u8,
        wilds: u8,
        own: &[(u8, u8, bool)],
        made: u8,
    ) -> bool {
        let rules = self.groups.rules;
        let Some(n) = self.hand.rank_count(rank).checked_sub(naturals) else {
            return false;
        };
        let Some(pool) = self.hand.wilds().checked_sub(wilds) else {
            return false;
        };
        if self.hand.total() <= (naturals + wilds) as usize {
            // An emptied hand is judged by the full test.
            return false;
        }
        let i = rank.index() - Rank::Four.index();
        let (full_pool, need) = (self.groups.pool, self.groups.need);
        let mut outcome =
            |n: u8| rank_outcomes(rules, rank, n, own, full_pool, need, &mut self.groups.memo);
        let changed = outcome(n);
        let less = (n > 0 && self.natural_ok[rank.index()]).then(|| outcome(n - 1));
        let around = |o: &Reach| {
            combine(
                &combine(&self.prefix[i], o, full_pool, need),
                &self.suffix[i + 1],
                full_pool,
                need,
            )
        };
        let need = need.saturating_sub(made) as usize;
        let hit = |r: &Reach, w: u8| r[need..].iter().any(|&b| b & (1 << w) != 0);
        let both = around(&changed);
        (self.meld_out && hit(&both, pool))
            || (self.wild_ok && pool > 0 && hit(&both, pool - 1))
            || less.is_some_and(|l| hit(&around(&l), pool))
    }
}

impl crate::search::goout::GoingOut<'_> {
    /// A necessary condition for melding black threes where going out is
    /// searched (Samba): the meld binds the player to go out, so the rest
    /// of the hand must go down this turn, all of it or all but one card
    /// to discard. Both meld sizes the generator offers (every black three,
    /// or all but the one kept as the final discard) need at least that,
    /// and the meld of threes neither makes a canasta nor takes other
    /// cards. The exact test's quick refusals, once, on the hand without
    /// its threes, where the exact test would copy the state for each
    /// size; `true` says nothing.
    pub(crate) fn rest_may_go_out_after_threes(&self, seat: Seat) -> bool {
        let mut rest = *self.hand(seat);
        for suit in [Suit::Spades, Suit::Clubs] {
            rest.remove_up_to(Card::new(Rank::Three, suit), u8::MAX);
        }
        if rest.is_empty() || self.foot_size(seat) > 0 {
            return true;
        }
        let rules = self.rules();
        let side = Side::of(rules, self.melds(self.side_of(seat)));
        within_bounds(rules, &rest, &side, self.canastas_needed(), &|c| {
            self.final_discard_ok(c)
        })
    }
}

/// The quick refusals of [`goes_out`]: no red three in hand, enough
/// canastas within reach, at most one card that fits nowhere, no more
/// wild cards than the melds can take (one may be the discard).
fn within_bounds(
    rules: &Rules,
    hand: &CardCounts,
    side: &Side,
    need_total: u8,
    discard_ok: &impl Fn(Card) -> bool,
) -> bool {
    let need = need_total.saturating_sub(side.canastas);
    let wilds = hand.wilds();
    let wild_ok = wilds > 0 && discard_ok(Card::JOKER);
    hand.red_threes() == 0
        && canasta_bound(rules, hand, side) >= need
        && stranded(rules, hand, side) <= 1
        && wilds.saturating_sub(u8::from(wild_ok)) <= wild_room(rules, hand, side)
}

/// Can a player holding `hand` meld it all (where `meld_out`), or all but a
/// final discard that `discard_ok` allows, the side ending with `need_total`
/// canastas? The discard is one card the melds leave over: a natural (its
/// suit never matters to rank groups; `discard_ok` is asked for spades), a
/// wild card or a black three.
pub(crate) fn goes_out(
    rules: &Rules,
    hand: &CardCounts,
    melds: &[Meld],
    need_total: u8,
    meld_out: bool,
    discard_ok: impl Fn(Card) -> bool,
    shared: Option<&mut SharedOutcomes>,
) -> bool {
    let side = Side::of(rules, melds);
    if !within_bounds(rules, hand, &side, need_total, &discard_ok) {
        return false;
    }
    let (shared_ranks, shared_suits) = shared.map(|s| (&mut s.ranks, &mut s.suits)).unzip();
    let need = need_total.saturating_sub(side.canastas);
    let (b, wilds) = (hand.black_threes(), hand.wilds());
    let natural_ok = |r: Rank| discard_ok(Card::new(r, Suit::Spades));
    let wild_ok = wilds > 0 && discard_ok(Card::JOKER);
    let black_ok = b > 0 && discard_ok(Card::new(Rank::Three, Suit::Spades));
    let threes_all = black_threes_ok(rules, b, &side);
    let threes_but_one = b > 0 && black_threes_ok(rules, b - 1, &side);
    let mut groups = RankGroups::new(rules, &side, wilds, need);
    groups.shared = shared_ranks;
    let no_natural = |_: Rank| false;
    any_leftover(rules, hand, &side, need, shared_suits, |left, still| {
        (threes_all && groups.check(left, still, meld_out, wild_ok, &natural_ok))
            || (black_ok && threes_but_one && groups.check(left, still, true, false, &no_natural))
    })
}
