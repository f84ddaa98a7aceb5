//! Which cards of a hand a group takes, where the rules cannot tell them
//! apart (one suit for all) or where suits matter (Samba: every choice).

use crate::card::{CardCounts, Rank, Suit};

/// Takes `k` naturals of `rank` from `hand`, lowest suit first: the
/// generator's canonical choice among cards the rules cannot tell apart.
pub fn pick_naturals(hand: &CardCounts, rank: Rank, k: u8) -> [u8; 4] {
    let have = hand.rank_suits(rank);
    let mut out = [0u8; 4];
    let mut left = k;
    for s in 0..4 {
        let t = have[s].min(left);
        out[s] = t;
        left -= t;
    }
    debug_assert_eq!(left, 0, "caller checked the count");
    out
}

/// The ways to take `k` naturals of `rank` from `hand`: where suits matter
/// (`all_suits`: Samba, whose sequences are of one suit, so which cards stay
/// in hand changes what can follow) every distinct choice of suits, the
/// lowest suits first; otherwise only [`pick_naturals`]'s. The caller has
/// checked that the hand holds `k`.
pub fn natural_choices(hand: &CardCounts, rank: Rank, k: u8, all_suits: bool) -> NaturalChoices {
    let have = hand.rank_suits(rank);
    NaturalChoices {
        have,
        next: Some(greedy(&have, [0; 4], 0, k)),
        all_suits,
    }
}

/// `left` naturals given to suits `from..` lowest suit first, after `cur`.
fn greedy(have: &[u8; 4], mut cur: [u8; 4], from: usize, mut left: u8) -> [u8; 4] {
    for s in from..4 {
        let t = have[s].min(left);
        cur[s] = t;
        left -= t;
    }
    cur
}

/// Iterator of [`natural_choices`]: suit counts in decreasing order (as
/// numbers read suit by suit), each the next smaller bounded composition.
pub struct NaturalChoices {
    have: [u8; 4],
    next: Option<[u8; 4]>,
    all_suits: bool,
}

impl Iterator for NaturalChoices {
    type Item = [u8; 4];

    fn next(&mut self) -> Option<[u8; 4]> {
        let cur = self.next?;
        self.next = None;
        if self.all_suits {
            // The last suit that can give one card to the suits after it.
            let (have, mut tail, mut room) = (&self.have, 0u8, 0u8);
            for i in (0..3).rev() {
                tail += cur[i + 1];
                room += have[i + 1];
                if cur[i] > 0 && tail < room {
                    let mut n = cur;
                    n[i] -= 1;
                    self.next = Some(greedy(have, n, i + 1, tail + 1));
                    break;
                }
            }
        }
        Some(cur)
    }
}

/// Black threes from `hand`, spades before clubs.
pub fn pick_black_threes(hand: &CardCounts, k: u8) -> [u8; 4] {
    let have = hand.rank_suits(Rank::Three);
    let s = have[Suit::Spades as usize].min(k);
    let mut out = [0u8; 4];
    out[Suit::Spades as usize] = s;
    out[Suit::Clubs as usize] = k - s;
    out
}
