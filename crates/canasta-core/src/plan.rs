//! A record's larger action as the generated steps it stands for: a meld
//! of five kings is a meld of three and two adds, a sequence of five is its
//! lowest three and two adds, an add of several cards is one add per card.

use crate::action::{Action, Groups};
use crate::card::{Card, Rank};
use crate::meld::{Group, Meld};

/// A meld as the plan sees it: rank (`None`: wild cards or a sequence),
/// size, and a sequence's ranks.
#[derive(Clone, Copy)]
pub(crate) struct PlanMeld {
    pub(crate) rank: Option<Rank>,
    pub(crate) len: u8,
    pub(crate) run: u16,
}

/// Builds the generated steps for melds and adds, tracking meld numbers
/// and sizes (a full meld takes nothing more where melds are capped).
pub(crate) struct Plan {
    melds: Vec<PlanMeld>,
    pub(crate) steps: Vec<Action>,
    min_meld: u8,
    cap: u8,
    /// A written group of a melded rank is a new meld (Samba).
    several: bool,
    /// Threes follow the black-three rule (laid whole, last).
    special_threes: bool,
}

impl Plan {
    pub(crate) fn new(
        rules: &crate::rules::Rules,
        melds: Vec<PlanMeld>,
        steps: Vec<Action>,
    ) -> Plan {
        Plan {
            melds,
            steps,
            min_meld: rules.min_meld,
            cap: rules.meld_cap(),
            several: rules.several_melds_per_rank,
            special_threes: rules.special_threes(),
        }
    }

    pub(crate) fn of_melds(rules: &crate::rules::Rules, melds: &[Meld]) -> Plan {
        let melds = melds
            .iter()
            .map(|m| PlanMeld {
                rank: m.cards.rank,
                len: m.cards.len(),
                run: m.cards.run,
            })
            .collect();
        Plan::new(rules, melds, Vec::new())
    }

    /// The meld of `rank` that can still take cards (`None`: the wild meld).
    fn open(&self, rank: Option<Rank>) -> Option<usize> {
        self.melds
            .iter()
            .position(|m| m.rank == rank && m.run == 0 && m.len < self.cap)
    }

    /// Where `len` cards of `rank` go: into the open meld of the rank, or a
    /// new meld.
    pub(crate) fn lay(&mut self, rank: Option<Rank>, len: u8) -> usize {
        match self.open(rank).filter(|_| rank.is_some() && !self.several) {
            Some(i) => {
                self.melds[i].len += len;
                i
            }
            None => {
                self.melds.push(PlanMeld { rank, len, run: 0 });
                self.melds.len() - 1
            }
        }
    }

    pub(crate) fn groups(&mut self, groups: &Groups) {
        let special = self.special_threes;
        let (black, other): (Vec<&Group>, Vec<&Group>) =
            groups.iter().partition(|g| g.is_black_threes() && special);
        for g in other.into_iter().chain(black) {
            if g.is_sequence() {
                // A new sequence: its lowest three cards, then the others.
                let mut low = 0u16;
                let mut bits = g.run;
                for _ in 0..self.min_meld {
                    let bit = bits & bits.wrapping_neg();
                    low |= bit;
                    bits &= !bit;
                }
                let core = match g.run_suit() {
                    Some(suit) if bits != 0 => Group::sequence(suit, low),
                    _ => *g,
                };
                self.melds.push(PlanMeld {
                    rank: None,
                    len: core.len(),
                    run: core.run,
                });
                let i = self.melds.len() - 1;
                self.steps.push(Action::Meld(Groups::from_iter([core])));
                let rest = g.minus(&core);
                if !rest.is_empty() {
                    self.adds(i as u8, &rest);
                }
                continue;
            }
            // The side's open meld of the rank takes them (one meld per
            // rank); a wild group larger than a new meld goes to the side's
            // wild meld (a small one is a second wild meld, which the rules
            // refuse).
            if let Some(i) = self.open(g.rank)
                && (g.rank.is_some() || g.len() > self.min_meld)
                && !(self.several && g.rank.is_some())
            {
                self.adds(i as u8, g);
                continue;
            }
            if (g.is_black_threes() && special) || g.len() <= self.min_meld {
                self.melds.push(PlanMeld {
                    rank: g.rank,
                    len: g.len(),
                    run: 0,
                });
                self.steps.push(Action::Meld(Groups::from_iter([*g])));
                continue;
            }
            let mut rest = *g;
            let mut core = match g.rank {
                // A wild meld (P-CNE): its first cards, then one at a time.
                None => Group::default(),
                Some(r) => Group::of_rank(r),
            };
            let k = rest.natural_count().min(self.min_meld);
            take_naturals(&mut rest, &mut core, k);
            take_wilds(&mut rest, &mut core, self.min_meld - k);
            self.melds.push(PlanMeld {
                rank: g.rank,
                len: core.len(),
                run: 0,
            });
            let i = self.melds.len() - 1;
            self.steps.push(Action::Meld(Groups::from_iter([core])));
            if !rest.is_empty() {
                self.adds(i as u8, &rest);
            }
        }
    }

    /// One card at a time: naturals first, so that wild limits judge the
    /// meld as it will be; on a sequence, each card next to its current
    /// ends (cards that never touch it are written last, to be refused).
    pub(crate) fn adds(&mut self, meld: u8, cards: &Group) {
        let mut order: Vec<Card> = cards.cards().collect();
        if let Some(m) = self.melds.get(meld as usize)
            && m.run != 0
        {
            let mut run = m.run;
            let mut sorted = Vec::with_capacity(order.len());
            while !order.is_empty() {
                let next = order.iter().position(|c| {
                    c.rank().is_some_and(|r| {
                        let bit = 1u16 << r.index();
                        run & bit == 0 && (run & (bit << 1) != 0 || run & (bit >> 1) != 0)
                    })
                });
                let c = order.remove(next.unwrap_or(0));
                if let Some(r) = c.rank() {
                    run |= 1 << r.index();
                }
                sorted.push(c);
            }
            order = sorted;
        }
        for c in order {
            let mut g = Group::default();
            g.push(c).expect("one card");
            self.steps.push(Action::Add { meld, cards: g });
            if let Some(m) = self.melds.get_mut(meld as usize) {
                m.len += 1;
                if m.run != 0
                    && let Some(r) = c.rank()
                {
                    m.run |= 1 << r.index();
                }
            }
        }
    }
}

pub(crate) fn take_naturals(from: &mut Group, into: &mut Group, k: u8) {
    let mut left = k;
    for s in 0..4 {
        let t = from.naturals[s].min(left);
        from.naturals[s] -= t;
        into.naturals[s] += t;
        left -= t;
    }
    if from.natural_count() == 0 && from.wild_count() == 0 {
        from.rank = None;
    }
}

/// Moves `k` wild cards, twos before jokers.
pub(crate) fn take_wilds(from: &mut Group, into: &mut Group, k: u8) {
    let mut left = k;
    for s in 0..4 {
        let t = from.twos[s].min(left);
        from.twos[s] -= t;
        into.twos[s] += t;
        left -= t;
    }
    let j = from.jokers.min(left);
    from.jokers -= j;
    into.jokers += j;
}
