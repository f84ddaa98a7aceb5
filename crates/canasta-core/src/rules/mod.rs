//! The rules as data. One state machine is driven by a validated [`Rules`]
//! value; a named variant is a preset of its fields, and a house rule is a
//! field with a documented default and its source.
//!
//! Source tags (P-CAN = pagat Canasta, S001..S004 = the seed documents, ...)
//! refer to `../shared/rules-research.md`, which settles the contradictions;
//! each field's doc names the rule text it encodes.

use crate::card::{Card, Rank};

mod catalogue;
mod fields;
mod guide;
mod house;
mod options;
mod presets;
mod values;
mod words;
pub use catalogue::{CatalogueEntry, Form, catalogue, catalogue_json};
pub use fields::Freeze;
pub use guide::{Page, Section, Table};
pub use house::{
    Area, AreaOptions, HOUSE_PRESETS, HousePreset, OPTION_TABLE, OptionInfo, OptionKind,
    house_presets, house_presets_json, house_rules, option_info, value_words,
};
pub use presets::{PRESETS, PresetInfo, all_forms};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;
pub use values::{
    CardValues, CleanOpening, ManyCanastas, OpeningStep, PilePacket, RedThreePenalty,
    RedThreeScoring, RedThreeTiming, SpecialDiscard, StockEnd, WildMeldReserve, WildRatio,
};
pub use words::card_words;

/// Every rule the engine knows. Build one with [`Rules::preset`] and change
/// fields with [`Rules::with_options`]; [`Rules::validate`] reports every
/// problem at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "fields::RulesFields")]
pub struct Rules {
    /// The preset's id, as in the record header (`classic`, ...).
    pub(crate) variant: String,
    /// Number of seats.
    pub(crate) players: u8,
    /// Number of teams `k`; seat `s` is on team `s mod k` (record spec).
    /// `k = players` means every player for themselves.
    pub(crate) teams: u8,
    /// Classic 3 players (P-CAN): the first player to take the pile plays
    /// alone, the other two become partners for the hand.
    pub(crate) temporary_partnership: bool,
    /// Standard 52-card packs in the deck.
    pub(crate) decks: u8,
    /// Jokers in the deck (P-CAN: 4 with 2 packs; 6 with 3).
    pub(crate) jokers: u8,
    /// Cards dealt to each player (P-CAN: 11 for 4 players, 15 for 2, 13 for 3 and 6).
    pub(crate) hand_size: u8,
    /// Cards in each player's foot: a face-down packet dealt after the hands
    /// and picked up after the discard that ends a turn in which the player
    /// completed a canasta (Pennies from Heaven: 11; P-CAN lists a foot as a
    /// Classic variation). 0: no foot.
    pub(crate) foot_size: u8,
    /// Cards taken from the stock in one draw (P-CAN: 1; 2 with 2 or 3 players).
    pub(crate) draw_count: u8,
    /// S001 also turns another upcard while the upcard is a black three
    /// (pagat turns again only for wild cards and red threes).
    pub(crate) upcard_black_three_turns_again: bool,
    /// When dealt red threes are laid out (P-CAN: after the deal).
    pub(crate) red_three_timing: RedThreeTiming,
    /// Smallest meld (P-CAN: 3).
    pub(crate) min_meld: u8,
    /// Fewest naturals in a meld (P-CAN: 2).
    pub(crate) min_naturals: u8,
    /// Most wild cards in a meld (P-CAN: 3).
    pub(crate) max_wilds: u8,
    /// Wild cards relative to naturals (P-CAN: any, within the two limits above).
    pub(crate) wild_ratio: WildRatio,
    /// Cards that make a canasta (7).
    pub(crate) canasta_size: u8,
    /// A meld of `canasta_size` or more becomes a canasta only when its
    /// owner closes it (`canasta M`), and then takes no more cards (Canastia).
    pub(crate) canasta_by_choice: bool,
    /// Natural (clean) canasta bonus (500).
    pub(crate) natural_canasta_bonus: i32,
    /// Mixed (dirty) canasta bonus (300).
    pub(crate) mixed_canasta_bonus: i32,
    /// Point values of cards.
    pub(crate) card_values: CardValues,
    /// Opening minimum by the team's cumulative score, lowest row first.
    pub(crate) opening_table: Vec<OpeningStep>,
    /// Canastas a team needs before a member may go out (P-CAN: 1; 2 with 2 or 6 players).
    pub(crate) canastas_to_go_out: u8,
    /// Canasta bonuses of groups long enough count toward the opening
    /// (Canastia's example: a seven-card canasta of fives with three twos
    /// opens with 7 + 15 = 22).
    pub(crate) opening_counts_canasta_bonus: bool,
    /// A wild card in the pile freezes it (P-CAN, P-CNE; Canastia has no
    /// freezing).
    pub(crate) wilds_freeze_pile: bool,
    /// Canastas needed instead when going out on the turn the side opens
    /// (Canastia: 1); 0 means no such exception.
    pub(crate) canastas_to_go_out_concealed: u8,
    /// Bonus for going out (P-CAN: 100).
    pub(crate) going_out_bonus: i32,
    /// Extra bonus for going out concealed (P-CAN: a further 100, 200 in all).
    pub(crate) concealed_bonus: i32,
    /// Viennese option: no concealed bonus when the pile was taken that turn.
    pub(crate) concealed_bonus_if_pile_taken: bool,
    /// A team that has not melded may go out concealed after drawing from
    /// the stock without meeting the opening minimum (P-CAN, S002).
    pub(crate) concealed_without_minimum: bool,
    /// Value of a team's red threes by how many it has (index = count).
    /// P-CAN: 100 each, all four 800; six players: 4 = 400, 5 = 1000, 6 = 1200.
    pub(crate) red_three_values: Vec<i32>,
    /// When red threes count minus (P-CAN: the team melded nothing).
    pub(crate) red_three_penalty: RedThreePenalty,
    /// S001/S002: a discarded black three freezes the pile (pagat: only stops
    /// the next player).
    pub(crate) black_three_freezes: bool,
    /// Viennese option: a player holding one card may take a one-card pile
    /// (S001, S002, BRIT forbid it).
    pub(crate) one_card_may_take_one_card_pile: bool,
    /// P-CAN variation: the pile is always frozen.
    pub(crate) pile_always_frozen: bool,
    /// An unfrozen pile may be taken with one natural and one wild card
    /// (P-CAN; variation (2) forbids it).
    pub(crate) take_with_natural_and_wild: bool,
    /// An unfrozen pile may be taken by adding its top card to a completed
    /// canasta (P-CAN; variation (1) forbids it).
    pub(crate) take_onto_canasta: bool,
    /// Players may ask partner "may I go out?" (P-CAN: optional and binding).
    pub(crate) asking_allowed: bool,
    /// The pile is frozen against a side that has not melded (P-CAN); in
    /// P-CNE only a wild card freezes it.
    pub(crate) unopened_side_frozen: bool,
    /// The game ends when a team reaches this total (P-CAN: 5000; 7500 with
    /// 3 players or three teams of six; 10000 with two teams of three).
    pub(crate) target: i32,
    /// Most upcards turned to start the pile; if every one is wild or a
    /// three the deal is void and the same dealer deals again (P-CNE: 3).
    /// 0: turn until a card that does not call for another (P-CAN).
    pub(crate) max_upcards: u8,
    /// Any three upcard calls for another (P-CNE); P-CAN only red threes.
    pub(crate) upcard_threes_turn_again: bool,
    /// A wild upcard calls for another (P-CAN, P-CNE); Canastia turns one
    /// upcard only.
    pub(crate) upcard_wild_turns_again: bool,
    /// A red three among the upcards freezes the pile (P-CAN; P-CNE only wild cards).
    pub(crate) red_three_upcard_freezes: bool,
    /// Face-down cards under the upcards (P-CNE: by the upcard's rank).
    pub(crate) pile_packet: PilePacket,
    /// A side that has not melded opens before drawing, from hand only, or
    /// not at all that turn (P-CNE); P-CAN opens after drawing.
    pub(crate) open_before_draw: bool,
    /// Only a side that has melded may take the pile (P-CNE); P-CAN lets a
    /// side open by taking it.
    pub(crate) pile_needs_opened_side: bool,
    /// Naturals from hand needed to take an unfrozen pile (2).
    pub(crate) pile_take_naturals: u8,
    /// Naturals from hand needed to take a frozen pile (P-CAN 2; P-CNE 3).
    pub(crate) pile_take_naturals_frozen: u8,
    /// The pile may be taken by putting its top card on the side's meld of
    /// that rank (P-CAN; not in P-CNE).
    pub(crate) take_onto_meld: bool,
    /// Cards drawn from the stock along with the pile (P-CNE: 1).
    pub(crate) pile_extra_draw: u8,
    /// Wild cards may be added to a completed canasta (P-CAN, up to the wild
    /// limit; P-CNE: never).
    pub(crate) wilds_on_canasta: bool,
    /// Melds of wild cards only are allowed (P-CNE); until such a meld is a
    /// canasta its side may not go out, use wild cards elsewhere, or discard one.
    pub(crate) wild_melds: bool,
    /// Black threes may be melded when going out (P-CAN; never in P-CNE).
    pub(crate) black_threes_meldable: bool,
    /// Threes are an ordinary rank: melded at any time, with wild cards,
    /// added to, made into canastas (Canastia, S004). They still stop the pile.
    pub(crate) threes_natural: bool,
    /// Whether an opening must be of clean melds only, by the minimum it
    /// has to meet (P-CNE: up to 50; US Italian: always; P-CAN: never).
    pub(crate) clean_opening: CleanOpening,
    /// Natural (clean) and mixed (dirty) canastas needed to go out, besides
    /// `canastas_to_go_out` in all (P-CNE: one of each).
    pub(crate) go_out_natural_canastas: u8,
    pub(crate) go_out_mixed_canastas: u8,
    /// Going out needs a final discard (P-CNE); P-CAN may meld out.
    pub(crate) go_out_needs_discard: bool,
    /// The final discard must be a natural card, not a wild card or a three (P-CNE).
    pub(crate) final_discard_natural: bool,
    /// How a low stock ends the hand.
    pub(crate) stock_end: StockEnd,
    /// With the stock empty, a player must take a pile that matches a meld
    /// of the side and is not frozen against it (P-CAN); where false, the
    /// taking is the player's choice, and a player who would rather draw
    /// ends the hand (P-PEN "can and will", P-SAM "wants to draw").
    pub(crate) empty_stock_forces_pile: bool,
    /// A side that never melded loses its hand cards this many times (P-CNE: 2).
    pub(crate) unopened_hand_multiplier: i32,
    /// Canasta bonuses for aces (P-CNE: 1000 clean, 500 dirty; P-CAN as others).
    pub(crate) natural_ace_canasta_bonus: i32,
    pub(crate) mixed_ace_canasta_bonus: i32,
    /// Wild canastas (P-CNE): seven twos; six jokers and a two; any other.
    pub(crate) twos_canasta_bonus: i32,
    pub(crate) jokers_canasta_bonus: i32,
    pub(crate) wild_canasta_bonus: i32,
    /// Wild canastas count toward going out (P-CNE; not in the US book's
    /// Italian Canasta, RG-ITA, S002).
    pub(crate) wild_canastas_count_to_go_out: bool,
    /// Wild-canasta bonuses are scored only by a side that went out
    /// (HSW-ITA, S002); otherwise only their card values count.
    pub(crate) wild_bonus_only_if_out: bool,
    /// Bonuses for many canastas; the best row met applies (P-CNE).
    pub(crate) many_canastas_bonuses: Vec<ManyCanastas>,
    /// Faces taken out of the deck altogether (Canastia: all nines, tens and
    /// jacks, the red twos, red threes and red aces).
    pub(crate) excluded_faces: Vec<Card>,
    /// The first player of each hand is chosen at random (Canastia); the
    /// record's deal line names it as `first`. Otherwise it is the dealer's left.
    pub(crate) random_first_player: bool,
    /// From the second hand on, a player whose score is strictly above every
    /// other's needs this opening instead of the table's (Canastia: 15).
    pub(crate) opening_when_leading: Option<i32>,
    /// How red threes score.
    pub(crate) red_three_scoring: RedThreeScoring,
    /// Most cards one meld may hold (P-PEN: 7). A full meld takes nothing
    /// more, and its side may begin another meld of the same rank. 0: no limit.
    pub(crate) max_meld_size: Option<u8>,
    /// A rank whose melds take no wild cards (P-PEN: sevens; option
    /// `sevensMayBeMixed` after BIC-PEN, RG-PEN, S002 clears it).
    pub(crate) pure_rank: Option<Rank>,
    /// A rank whose canasta is a kind of its own (P-PEN: sevens), with its
    /// own bonus; it does not count as a natural or mixed canasta.
    pub(crate) special_canasta_rank: Option<Rank>,
    pub(crate) special_canasta_bonus: i32,
    /// Canastas of the special rank needed to go out (P-PEN: 1).
    pub(crate) go_out_special_canastas: u8,
    /// Wild canastas needed to go out (P-PEN: 1). When above 0 a wild
    /// canasta is a kind of its own rather than a clean or dirty one (P-CNE).
    pub(crate) go_out_wild_canastas: u8,
    /// When cards of the special rank may be discarded (P-PEN: sevens only
    /// once every side has a sevens canasta, never as the last discard).
    pub(crate) special_discard: SpecialDiscard,
    /// What a side's wild meld holds back while it is short of a canasta:
    /// every wild card, from other melds and the pile (P-CNE); twos, from
    /// other melds (RG-ITA); nothing (P-PEN).
    pub(crate) wild_meld_reserves: WildMeldReserve,
    /// An unopened side taking the pile must meet the opening minimum with
    /// the melds it lays from hand; the top card and its pair do not count
    /// (P-PEN: "must first lay down enough from hand").
    pub(crate) pile_opening_from_hand: bool,
    /// A tie for the lead at or over the target is played on (P-PEN).
    pub(crate) tie_plays_on: bool,
    /// Sequences (Samba): `min_meld` or more naturals of one suit in
    /// consecutive ranks, four low and ace high, no wild cards and no threes;
    /// at `canasta_size` cards a samba, closed.
    pub(crate) sequences: bool,
    /// Bonus for a samba (P-SAM, BIC-SAM: 1500).
    pub(crate) samba_bonus: i32,
    /// A side may have several melds of one rank, kept apart (P-SAM,
    /// BIC-SAM); a new group of a melded rank is a new meld.
    pub(crate) several_melds_per_rank: bool,
    /// P-SAM (Dutch): instead of drawing, a player may take the pile's top
    /// card alone to extend one of the side's sequences short of a samba
    /// (`pickup`); the rest of the pile stays. Needs `take_onto_meld` off.
    pub(crate) top_card_to_sequence: bool,
}

/// Largest card value, bonus or opening minimum a rule may set (the real
/// ones stop at 5000, Canastone's six-jokers canasta).
pub const MAX_POINTS: i32 = 100_000;
/// Largest game target (the real ones stop at 20000, Pennies).
pub const MAX_TARGET: i32 = 1_000_000;

/// Every problem found in a rules value, not just the first.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct RulesError {
    pub problems: Vec<String>,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid rules: {}", self.problems.join("; "))
    }
}

impl RulesError {
    fn one(problem: impl Into<String>) -> Self {
        RulesError {
            problems: vec![problem.into()],
        }
    }
}

impl Rules {
    /// Checks every field; reports all problems at once.
    pub fn validate(&self) -> Result<(), RulesError> {
        let mut p = Vec::new();
        if !(2..=6).contains(&self.players) {
            p.push(format!("players must be 2 to 6, not {}", self.players));
        }
        if self.teams == 0 || !self.players.is_multiple_of(self.teams.max(1)) {
            p.push(format!(
                "teams ({}) must divide the number of players ({})",
                self.teams, self.players
            ));
        }
        if self.temporary_partnership && (self.players != 3 || self.teams != 3) {
            p.push("temporary_partnership needs 3 players playing individually (teams = 3)".into());
        }
        // The deck's size bounds everything below: with an impossible deck,
        // say so and stop (the parser's copy limits are the same numbers).
        let max_decks = crate::card::MAX_COPIES_OF_A_FACE;
        let max_jokers = crate::card::MAX_JOKERS;
        if self.decks == 0 || self.decks > max_decks || self.jokers > max_jokers {
            p.push(format!(
                "decks must be 1 to {max_decks} and jokers 0 to {max_jokers}, not {} and {}",
                self.decks, self.jokers
            ));
            return Err(RulesError { problems: p });
        }
        let deck = self.deck_size();
        let dealt = self.players as usize * (self.hand_size as usize + self.foot_size as usize);
        if self.hand_size == 0 || dealt + 1 > deck {
            p.push(format!(
                "{} players with {} cards each need more than the {deck}-card deck",
                self.players, self.hand_size
            ));
        }
        if !(1..=3).contains(&self.draw_count) {
            p.push(format!(
                "draw_count must be 1 to 3, not {}",
                self.draw_count
            ));
        }
        if self.min_meld < 3 {
            p.push(format!(
                "min_meld must be at least 3, not {}",
                self.min_meld
            ));
        }
        if self.min_naturals < 1 || self.min_naturals > self.min_meld {
            p.push(format!(
                "min_naturals must be 1 to min_meld ({}), not {}",
                self.min_meld, self.min_naturals
            ));
        }
        if self.canasta_size < self.min_meld {
            p.push(format!(
                "canasta_size ({}) must be at least min_meld ({})",
                self.canasta_size, self.min_meld
            ));
        }
        if self.opening_table.is_empty() {
            p.push("opening_table must have at least one row".into());
        } else {
            if self.opening_table[0].from.is_some() {
                p.push("opening_table's first row must have `from: null` (no lower bound)".into());
            }
            let froms: Vec<i32> = self
                .opening_table
                .iter()
                .skip(1)
                .filter_map(|s| s.from)
                .collect();
            if froms.len() + 1 != self.opening_table.len() || froms.windows(2).any(|w| w[0] >= w[1])
            {
                p.push("opening_table rows after the first need increasing `from` scores".into());
            }
        }
        let red_threes = self.deck().red_threes() as usize;
        if self.red_three_values.len() < red_threes + 1 {
            p.push(format!(
                "red_three_values needs a value for 0 to {red_threes} red threes ({} given)",
                self.red_three_values.len()
            ));
        }
        if self.red_three_values.first().is_some_and(|v| *v != 0) {
            p.push("red_three_values[0] (no red threes) must be 0".into());
        }
        if self.canastas_to_go_out == 0 {
            p.push("canastas_to_go_out must be at least 1".into());
        }
        if let Some(cap) = self.max_meld_size
            && cap < self.canasta_size
        {
            p.push(format!(
                "max_meld_size ({cap}) must be null (no limit) or at least canasta_size ({})",
                self.canasta_size
            ));
        }
        if let Some(cap) = self.max_meld_size
            && cap > self.canasta_size
            && !self.wilds_on_canasta
        {
            // The capped going-out counting lets every meld take wild cards
            // up to the cap; a cap above a canasta that may take none is a
            // combination no source has, which it does not model.
            p.push(format!(
                "max_meld_size ({cap}) above canasta_size ({}) needs wilds_on_canasta: \
                 melds capped past a canasta that takes no wild card are not supported",
                self.canasta_size
            ));
        }
        if self.special_discard != SpecialDiscard::Free && self.special_canasta_rank.is_none() {
            p.push("special_discard needs a special_canasta_rank".into());
        }
        if (self.go_out_special_canastas > 0
            || self.red_three_scoring == RedThreeScoring::NeedsSpecialCanasta)
            && self.special_canasta_rank.is_none()
        {
            p.push(
                "going out or red threes by special canastas need a special_canasta_rank".into(),
            );
        }
        if self.top_card_to_sequence && (self.take_onto_meld || !self.sequences) {
            p.push("top_card_to_sequence needs sequences and take_onto_meld off".into());
        }
        if self.sequences && self.canasta_size > 11 {
            p.push("sequences need canasta_size of at most 11 (four to ace)".into());
        }
        if self.target <= 0 {
            p.push(format!("target must be positive, not {}", self.target));
        }
        self.check_number_ranges(&mut p);
        if p.is_empty() {
            Ok(())
        } else {
            Err(RulesError { problems: p })
        }
    }

    /// Every number a score is made of stays in a range that no real rule
    /// comes near and no sum of a game can overflow: card values, bonuses
    /// and red-three values within ±[`MAX_POINTS`], opening minimums within
    /// 0..=[`MAX_POINTS`], the target within 1..=[`MAX_TARGET`]. (Scores
    /// are also added without wrapping, but a silent ceiling would be as
    /// wrong as a wrap: the bound keeps every real game exact.)
    fn check_number_ranges(&self, p: &mut Vec<String>) {
        let mut within = |name: &str, v: i32, lo: i32, hi: i32| {
            if !(lo..=hi).contains(&v) {
                p.push(format!("{name} must be within {lo}..={hi}, not {v}"));
            }
        };
        let v = &self.card_values;
        for (name, value) in [
            ("card_values.joker", v.joker),
            ("card_values.two", v.two),
            ("card_values.black_three", v.black_three),
            ("card_values.four", v.four),
            ("card_values.five", v.five),
            ("card_values.six", v.six),
            ("card_values.seven", v.seven),
            ("card_values.eight", v.eight),
            ("card_values.nine", v.nine),
            ("card_values.ten", v.ten),
            ("card_values.jack", v.jack),
            ("card_values.queen", v.queen),
            ("card_values.king", v.king),
            ("card_values.ace", v.ace),
            ("natural_canasta_bonus", self.natural_canasta_bonus),
            ("mixed_canasta_bonus", self.mixed_canasta_bonus),
            ("going_out_bonus", self.going_out_bonus),
            ("concealed_bonus", self.concealed_bonus),
            ("natural_ace_canasta_bonus", self.natural_ace_canasta_bonus),
            ("mixed_ace_canasta_bonus", self.mixed_ace_canasta_bonus),
            ("twos_canasta_bonus", self.twos_canasta_bonus),
            ("jokers_canasta_bonus", self.jokers_canasta_bonus),
            ("wild_canasta_bonus", self.wild_canasta_bonus),
            ("special_canasta_bonus", self.special_canasta_bonus),
            ("samba_bonus", self.samba_bonus),
        ] {
            within(name, value, -MAX_POINTS, MAX_POINTS);
        }
        for (i, &value) in self.red_three_values.iter().enumerate() {
            within(
                &format!("red_three_values[{i}]"),
                value,
                -MAX_POINTS,
                MAX_POINTS,
            );
        }
        for (i, row) in self.many_canastas_bonuses.iter().enumerate() {
            within(
                &format!("many_canastas_bonuses[{i}].bonus"),
                row.bonus,
                -MAX_POINTS,
                MAX_POINTS,
            );
        }
        for (i, row) in self.opening_table.iter().enumerate() {
            within(&format!("opening_table[{i}].need"), row.need, 0, MAX_POINTS);
            if let Some(from) = row.from {
                within(
                    &format!("opening_table[{i}].from"),
                    from,
                    -MAX_TARGET,
                    MAX_TARGET,
                );
            }
        }
        if let Some(need) = self.opening_when_leading {
            within("opening_when_leading", need, 0, MAX_POINTS);
        }
        within("target", self.target, 1, MAX_TARGET);
        if let CleanOpening::UpTo(up_to) = self.clean_opening {
            within("clean_opening.up_to", up_to, 0, MAX_POINTS);
        }
        within(
            "unopened_hand_multiplier",
            self.unopened_hand_multiplier,
            1,
            10,
        );
    }

    /// Cards in the deck.
    pub fn deck_size(&self) -> usize {
        self.deck().total()
    }

    /// The deck's composition: `decks` packs and `jokers` jokers, less
    /// every copy of each face in `excluded_faces`.
    pub fn deck(&self) -> crate::card::CardCounts {
        let mut d = crate::card::CardCounts::new();
        for c in Card::all() {
            if self.excluded_faces.contains(&c) {
                continue;
            }
            if c.is_joker() {
                d.add_n(c, self.jokers);
            } else {
                d.add_n(c, self.decks);
            }
        }
        d
    }

    /// The opening minimum for a cumulative score.
    pub fn opening_minimum(&self, score: i32) -> i32 {
        self.opening_table
            .iter()
            .rev()
            .find(|s| s.from.is_none_or(|f| score >= f))
            .map_or(0, |s| s.need)
    }

    /// The score of `count` red threes held by one team.
    pub fn red_three_value(&self, count: usize) -> i32 {
        let table = &self.red_three_values;
        match table.get(count) {
            Some(v) => *v,
            None => table.last().copied().unwrap_or(0) + 100 * (count + 1 - table.len()) as i32,
        }
    }

    /// The ranks of ordinary melds: four to ace, or three to ace where threes
    /// are natural.
    pub fn meld_ranks(&self) -> &'static [Rank] {
        if self.threes_natural {
            &Rank::THREE_TO_ACE
        } else {
            &Rank::MELDABLE
        }
    }

    /// [`Rules::meld_ranks`] as bits of [`Rank::index`].
    pub fn meld_rank_bits(&self) -> u16 {
        if self.threes_natural {
            Rank::THREE_TO_ACE_BITS
        } else {
            Rank::MELDABLE_BITS
        }
    }

    /// Threes follow P-CAN's black-three rule (melded only going out, no
    /// wild cards, never added to) rather than being an ordinary rank.
    pub fn special_threes(&self) -> bool {
        !self.threes_natural
    }

    /// Team of a seat under the record spec's fixed rule `s mod k`.
    pub fn team_of(&self, seat: usize) -> usize {
        seat % self.teams as usize
    }

    /// Most wild cards a meld of `rank` (`None`: wild cards only) may hold
    /// with `naturals` naturals: none in a meld of the pure rank.
    pub fn wild_capacity_of(&self, rank: Option<Rank>, naturals: u8) -> u8 {
        if rank.is_some() && rank == self.pure_rank {
            0
        } else {
            self.wild_capacity(naturals)
        }
    }

    /// A meld of `len` cards is full and takes nothing more (P-PEN: 7).
    pub fn meld_full(&self, len: u8) -> bool {
        self.max_meld_size.is_some_and(|cap| len >= cap)
    }

    /// Whether melding every card counts as going out by the counting
    /// tests: not where going out needs a discard, nor where canastas are
    /// closed by choice (a meld finished by the last card cannot be
    /// closed, so only going out by a discard counts).
    pub(crate) fn melding_out_counts(&self) -> bool {
        !self.go_out_needs_discard && !self.canasta_by_choice
    }

    /// Natural cards of one rank differ by suit (Samba: a sequence is of
    /// one suit, so a 9S is not a 9C). Elsewhere only the colour of threes
    /// matters, and the generator names one suit for cards it cannot tell apart.
    pub fn suits_matter(&self) -> bool {
        self.sequences
    }

    /// The opening at this minimum must be of clean melds only (P-CNE at 50).
    pub fn opening_must_be_clean(&self, need: i32) -> bool {
        match self.clean_opening {
            CleanOpening::Never => false,
            CleanOpening::UpTo(up_to) => need <= up_to,
            CleanOpening::Always => true,
        }
    }

    /// Most cards a meld may hold.
    pub fn meld_cap(&self) -> u8 {
        self.max_meld_size.unwrap_or(u8::MAX)
    }

    /// Most wild cards allowed with `naturals` natural cards.
    pub fn wild_capacity(&self, naturals: u8) -> u8 {
        let ratio_cap = match self.wild_ratio {
            WildRatio::Any => u8::MAX,
            WildRatio::NotMoreThanNaturals => naturals,
            WildRatio::FewerThanNaturals => naturals.saturating_sub(1),
            WildRatio::AtMostHalfNaturals => naturals / 2,
        };
        if naturals < self.min_naturals {
            0
        } else {
            self.max_wilds.min(ratio_cap)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cap above a canasta that takes no wild card is refused: the
    /// capped going-out counting does not model it (a reviewer's random
    /// play under Canastone with `max_meld_size` 9 reached an empty legal
    /// list).
    #[test]
    fn a_meld_cap_past_a_canasta_needs_wild_cards_on_canastas() {
        let with = |o: serde_json::Value| Rules::canastone().with_options(o.as_object().unwrap());
        let refused = with(serde_json::json!({ "max_meld_size": 9 })).unwrap_err();
        assert!(
            refused.to_string().contains("needs wilds_on_canasta"),
            "{refused}"
        );
        assert!(with(serde_json::json!({ "max_meld_size": 7 })).is_ok());
        assert!(with(serde_json::json!({ "max_meld_size": 9, "wilds_on_canasta": true })).is_ok());
    }

    #[test]
    fn research_option_names_are_accepted() {
        let opts: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            r#"{"blackThreeFreezes": true, "wildLimit": "notMoreThanNaturals", "redThreePenaltyIf": "noCanasta", "drawCount": 2}"#,
        )
        .unwrap();
        let r = Rules::classic().with_options(&opts).unwrap();
        assert!(r.black_three_freezes);
        assert_eq!(r.wild_ratio, WildRatio::NotMoreThanNaturals);
        assert_eq!(r.red_three_penalty, RedThreePenalty::NoCanasta);
        assert_eq!(r.draw_count, 2);
    }

    #[test]
    fn presets_validate() {
        for info in PRESETS {
            for &n in info.players {
                Rules::preset(info.id, Some(n), None).unwrap();
            }
        }
        Rules::preset("classic", Some(6), Some(2)).unwrap();
    }

    #[test]
    fn opening_table_p_can() {
        let r = Rules::classic();
        assert_eq!(r.opening_minimum(-10), 15);
        assert_eq!(r.opening_minimum(0), 50);
        assert_eq!(r.opening_minimum(1495), 50);
        assert_eq!(r.opening_minimum(1500), 90);
        assert_eq!(r.opening_minimum(2995), 90);
        assert_eq!(r.opening_minimum(3000), 120);
        assert_eq!(r.opening_minimum(9000), 120);
        let six = Rules::preset("classic", Some(6), Some(2)).unwrap();
        assert_eq!(six.opening_minimum(7000), 150);
        assert_eq!(six.target, 10000);
    }

    #[test]
    fn validation_reports_every_problem() {
        let mut r = Rules::classic();
        r.players = 9;
        r.draw_count = 0;
        r.target = -1;
        let err = r.validate().unwrap_err();
        assert!(err.problems.len() >= 3, "{err}");
    }

    #[test]
    fn options_merge_and_reject_unknown_names() {
        let mut opts = serde_json::Map::new();
        opts.insert("black_three_freezes".into(), true.into());
        let r = Rules::classic().with_options(&opts).unwrap();
        assert!(r.black_three_freezes);
        assert_eq!(r.options_against(&Rules::classic()), opts);
        opts.insert("no_such_rule".into(), 1.into());
        let err = Rules::classic().with_options(&opts).unwrap_err();
        assert!(err.to_string().contains("no_such_rule"));
    }

    /// Research §1.1's `lastRedThreeMayMeld` (BRIT) is not offered: a
    /// record has no action that ends a turn without a discard. The option
    /// once was a field that changed nothing; now `true` is refused by name
    /// and `false`, pagat's rule that the engine plays, is accepted.
    #[test]
    fn the_last_red_three_option_is_refused_rather_than_ignored() {
        for name in ["last_red_three_may_meld", "lastRedThreeMayMeld"] {
            let mut opts = serde_json::Map::new();
            opts.insert(name.into(), true.into());
            let err = Rules::classic().with_options(&opts).unwrap_err();
            assert!(
                err.to_string().contains("can only be false") && err.to_string().contains("BRIT"),
                "{err}"
            );
            opts.insert(name.into(), false.into());
            assert!(Rules::classic().with_options(&opts).is_ok());
        }
    }

    #[test]
    fn wild_capacity_by_ratio() {
        let mut r = Rules::classic();
        assert_eq!(r.wild_capacity(2), 3);
        assert_eq!(r.wild_capacity(1), 0);
        r.wild_ratio = WildRatio::NotMoreThanNaturals;
        assert_eq!(r.wild_capacity(2), 2);
        r.wild_ratio = WildRatio::FewerThanNaturals;
        assert_eq!(r.wild_capacity(2), 1);
        assert_eq!(r.wild_capacity(5), 3);
    }
}
