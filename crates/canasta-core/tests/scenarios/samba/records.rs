//! Hand-made Samba records (`docs/record-format.md`) in
//! `tests/data/records/samba*.jsonl`: sequences written as groups of one
//! suit. Every record there is also replayed by
//! `records::every_record_replays_and_hand_ends_agree`; each file is the
//! scenario written here (`CANASTA_WRITE_RECORDS=1` rewrites them).

use super::*;
use crate::common::{record, same_as_file};

/// [`samba_and_kings`] as a record: a samba and seven kings, then out.
#[test]
fn record_samba_and_kings_out() {
    let actions = [
        "draw",
        "meld 4H 5H 6H 7H 8H 9H TH / KS KS KH KH KD KD KC",
        "meld 9H 9S 2C",
    ]
    .iter()
    .map(|a| (1, a.to_string()))
    .collect();
    let text = record(&samba(4), &[(samba_and_kings(), actions)]);
    same_as_file("samba4_samba_and_kings_out.jsonl", &text);
}

/// A longer hand as a record: a sequence grows at both ends to a samba,
/// a group takes a wild card, and the partner takes the pile with its top
/// card on the sequence.
#[test]
fn record_sequence_grows_and_pile_onto_it() {
    let spec = DealSpec::new(samba(4), 0)
        .hand(1, "6H 7H 8H 9H TH KS KS KH 5D 4H 2C 2D QS QS 5C")
        .hand(2, "5H")
        .upcards("QC")
        .stock("JH 8C 4D 4S 6C 6D");
    let mut actions: Vec<(usize, String)> = Vec::new();
    for a in [
        "draw",
        "meld 6H 7H 8H 9H TH / KS KS KH",
        "add 0 JH",
        "add 1 2C",
        "discard 5C",
    ] {
        actions.push((1, a.into()));
    }
    for a in ["draw", "discard 5H"] {
        actions.push((2, a.into()));
    }
    actions.push((3, "pickup".into()));
    let text = record(&samba(4), &[(spec, actions)]);
    same_as_file("samba4_sequence_and_pickup.jsonl", &text);
}
