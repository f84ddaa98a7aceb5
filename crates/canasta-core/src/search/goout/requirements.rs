//! What a side's melds must hold to go out: canastas in all and of each
//! kind, and no wild meld left short of one. The one statement of the
//! requirements, read by the counting tests and the judge's refusals.

use super::{MeldShape, WILD_MELD};
use crate::error::IllegalReason;
use crate::meld::GoOutKind;
use crate::rules::KindCounts;
use crate::rules::Rules;

/// Does a side with these melds meet the rules' going-out requirements
/// (canastas in all and of each kind; no reserving wild meld short of a
/// canasta)?
pub(crate) fn requirements_met(rules: &Rules, melds: &[MeldShape], need_total: u8) -> bool {
    going_out_shortfall(rules, melds, need_total).is_none()
}

/// The first going-out requirement these melds miss, as the judge words
/// it (`None`: they meet them all). The one statement of the requirements:
/// [`requirements_met`] and the judge's refusals both ask it.
pub(crate) fn going_out_shortfall(
    rules: &Rules,
    melds: &[MeldShape],
    need_total: u8,
) -> Option<IllegalReason> {
    let mut kinds = KindCounts::default();
    let mut uncounted_wild = false;
    for m in melds {
        if m.seq {
            if rules.melds.has_canasta_length(m.len()) {
                kinds.add(GoOutKind::Clean);
            }
            continue;
        }
        if m.rank == WILD_MELD && !rules.going_out.counts_wild_canastas() {
            if !rules.melds.has_canasta_length(m.naturals + m.wilds) {
                return Some(IllegalReason::UnfinishedWildMeld);
            }
            uncounted_wild = true;
            continue;
        }
        match m.canasta_now(rules) {
            Some(clean) => kinds.add(m.kind(rules, clean)),
            None if m.rank == WILD_MELD && rules.melds.one_wild_meld() => {
                return Some(IllegalReason::UnfinishedWildMeld);
            }
            None => {}
        }
    }
    let have = kinds.total();
    if have < need_total {
        return Some(if uncounted_wild {
            IllegalReason::WildCanastaUncounted {
                need: need_total,
                have,
            }
        } else {
            IllegalReason::NotEnoughCanastas {
                need: need_total,
                have,
            }
        });
    }
    (!kinds.meet(rules, need_total)).then(|| missing_canastas(rules, &kinds))
}

/// The going-out requirement of kinds that is not met, in the words that
/// fit the rules, with the kinds the side still lacks.
fn missing_canastas(rules: &Rules, have: &KindCounts) -> IllegalReason {
    let need = rules.going_out.kinds_needed();
    let lacking = rules.going_out.kinds_lacking(have);
    if rules.going_out.needs_wild_or_special() {
        IllegalReason::MissingCanastaKinds {
            clean: need.clean,
            dirty: need.dirty,
            wild: need.wild,
            special: need.special,
            special_rank: rules.melds.special_rank(),
            lacking: [lacking.clean, lacking.dirty, lacking.wild, lacking.special],
        }
    } else {
        IllegalReason::MissingCanastas {
            natural: need.clean,
            mixed: need.dirty,
            lacking: [lacking.clean, lacking.dirty],
        }
    }
}
