//! Checking a [`RulesSpec`]: the ranges of each field and the fields that
//! must agree, every problem at once, each by its option name.

use super::{
    CleanOpening, MAX_POINTS, MAX_TARGET, RedThreeScoring, RulesError, RulesProblem, RulesSpec,
    SpecialDiscard,
};

/// The problems found so far.
#[derive(Default)]
struct Problems(Vec<RulesProblem>);

impl Problems {
    fn field(&mut self, option: &str, message: impl Into<String>) {
        self.0.push(RulesProblem::field(option, message));
    }

    /// `value` of option `option` (its part `name`) within `lo..=hi`.
    fn within(&mut self, option: &str, name: &str, value: i32, lo: i32, hi: i32) {
        if !(lo..=hi).contains(&value) {
            self.field(
                option,
                format!("{name} must be within {lo}..={hi}, not {value}"),
            );
        }
    }

    fn into_result(self) -> Result<(), RulesError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(RulesError { problems: self.0 })
        }
    }
}

impl RulesSpec {
    /// Checks every field; reports all problems at once.
    ///
    /// # Errors
    /// Every problem, each naming its option.
    pub fn validate(&self) -> Result<(), RulesError> {
        let mut p = Problems::default();
        let (game, deal, melds) = (&self.game, &self.deal, &self.melds);
        if !(2..=6).contains(&game.players) {
            p.field(
                "players",
                format!("players must be 2 to 6, not {}", game.players),
            );
        }
        if game.teams == 0 || !game.players.is_multiple_of(game.teams.max(1)) {
            p.field(
                "teams",
                format!(
                    "teams ({}) must divide the number of players ({})",
                    game.teams, game.players
                ),
            );
        }
        if game.temporary_partnership && (game.players != 3 || game.teams != 3) {
            p.field(
                "temporary_partnership",
                "temporary_partnership needs 3 players playing individually (teams = 3)",
            );
        }
        // The deck's size bounds everything below: with an impossible deck,
        // say so and stop (the parser's copy limits are the same numbers).
        let max_decks = crate::card::MAX_COPIES_OF_A_FACE;
        let max_jokers = crate::card::MAX_JOKERS;
        if deal.decks == 0 || deal.decks > max_decks || deal.jokers > max_jokers {
            p.field(
                if deal.decks == 0 || deal.decks > max_decks {
                    "decks"
                } else {
                    "jokers"
                },
                format!(
                    "decks must be 1 to {max_decks} and jokers 0 to {max_jokers}, not {} and {}",
                    deal.decks, deal.jokers
                ),
            );
            return p.into_result();
        }
        let deck = deal.deck_size();
        let dealt = game.players as usize * (deal.hand_size as usize + deal.foot_size as usize);
        if deal.hand_size == 0 || dealt + 1 > deck {
            p.field(
                "hand_size",
                format!(
                    "{} players with {} cards each need more than the {deck}-card deck",
                    game.players, deal.hand_size
                ),
            );
        }
        if !(1..=3).contains(&deal.draw_count) {
            p.field(
                "draw_count",
                format!("draw_count must be 1 to 3, not {}", deal.draw_count),
            );
        }
        if melds.min_meld < 3 {
            p.field(
                "min_meld",
                format!("min_meld must be at least 3, not {}", melds.min_meld),
            );
        }
        if melds.min_naturals < 1 || melds.min_naturals > melds.min_meld {
            p.field(
                "min_naturals",
                format!(
                    "min_naturals must be 1 to min_meld ({}), not {}",
                    melds.min_meld, melds.min_naturals
                ),
            );
        }
        if melds.canasta_size < melds.min_meld {
            p.field(
                "canasta_size",
                format!(
                    "canasta_size ({}) must be at least min_meld ({})",
                    melds.canasta_size, melds.min_meld
                ),
            );
        }
        let table = &self.opening.opening_table;
        if table.is_empty() {
            p.field("opening_table", "opening_table must have at least one row");
        } else {
            if table[0].from.is_some() {
                p.field(
                    "opening_table",
                    "opening_table's first row must have `from: null` (no lower bound)",
                );
            }
            let froms: Vec<i32> = table.iter().skip(1).filter_map(|s| s.from).collect();
            if froms.len() + 1 != table.len() || froms.windows(2).any(|w| w[0] >= w[1]) {
                p.field(
                    "opening_table",
                    "opening_table rows after the first need increasing `from` scores",
                );
            }
        }
        let red_threes = deal.deck().red_threes() as usize;
        let values = &self.scoring.red_three_values;
        if values.len() < red_threes + 1 {
            p.field(
                "red_three_values",
                format!(
                    "red_three_values needs a value for 0 to {red_threes} red threes ({} given)",
                    values.len()
                ),
            );
        }
        if values.first().is_some_and(|v| *v != 0) {
            p.field(
                "red_three_values",
                "red_three_values[0] (no red threes) must be 0",
            );
        }
        let requirement = &self.going_out.requirement;
        if requirement.canastas == 0 {
            p.field(
                "canastas_to_go_out",
                "canastas_to_go_out must be at least 1",
            );
        }
        if let Some(cap) = melds.max_meld_size
            && cap < melds.canasta_size
        {
            p.field(
                "max_meld_size",
                format!(
                    "max_meld_size ({cap}) must be null (no limit) or at least canasta_size ({})",
                    melds.canasta_size
                ),
            );
        }
        if let Some(cap) = melds.max_meld_size
            && cap > melds.canasta_size
            && !melds.wilds_on_canasta
        {
            // The capped going-out counting lets every meld take wild cards
            // up to the cap; a cap above a canasta that may take none is a
            // combination no source has, which it does not model.
            p.field(
                "max_meld_size",
                format!(
                    "max_meld_size ({cap}) above canasta_size ({}) needs wilds_on_canasta: \
                     melds capped past a canasta that takes no wild card are not supported",
                    melds.canasta_size
                ),
            );
        }
        if self.pile.special_discard != SpecialDiscard::Free && melds.special_canasta_rank.is_none()
        {
            p.field(
                "special_discard",
                "special_discard needs a special_canasta_rank",
            );
        }
        if (requirement.special_canastas > 0
            || self.scoring.red_three_scoring == RedThreeScoring::NeedsSpecialCanasta)
            && melds.special_canasta_rank.is_none()
        {
            p.field(
                if requirement.special_canastas > 0 {
                    "go_out_special_canastas"
                } else {
                    "red_three_scoring"
                },
                "going out or red threes by special canastas need a special_canasta_rank",
            );
        }
        if self.pile.top_card_to_sequence && (self.pile.take_onto_meld || !melds.sequences) {
            p.field(
                "top_card_to_sequence",
                "top_card_to_sequence needs sequences and take_onto_meld off",
            );
        }
        if melds.sequences && melds.canasta_size > 11 {
            p.field(
                "sequences",
                "sequences need canasta_size of at most 11 (four to ace)",
            );
        }
        if game.target <= 0 {
            p.field(
                "target",
                format!("target must be positive, not {}", game.target),
            );
        }
        self.check_number_ranges(&mut p);
        p.into_result()
    }

    /// Every number a score is made of stays in a range that no real rule
    /// comes near and no sum of a game can overflow: card values, bonuses
    /// and red-three values within ±[`MAX_POINTS`], opening minimums within
    /// 0..=[`MAX_POINTS`], the target within 1..=[`MAX_TARGET`]. (Scores
    /// are also added without wrapping, but a silent ceiling would be as
    /// wrong as a wrap: the bound keeps every real game exact.)
    fn check_number_ranges(&self, p: &mut Problems) {
        let s = &self.scoring;
        let v = &s.card_values;
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
        ] {
            p.within("card_values", name, value, -MAX_POINTS, MAX_POINTS);
        }
        for (name, value) in [
            ("natural_canasta_bonus", s.natural_canasta_bonus),
            ("mixed_canasta_bonus", s.mixed_canasta_bonus),
            ("going_out_bonus", s.going_out_bonus),
            ("concealed_bonus", s.concealed_bonus),
            ("natural_ace_canasta_bonus", s.natural_ace_canasta_bonus),
            ("mixed_ace_canasta_bonus", s.mixed_ace_canasta_bonus),
            ("twos_canasta_bonus", s.twos_canasta_bonus),
            ("jokers_canasta_bonus", s.jokers_canasta_bonus),
            ("wild_canasta_bonus", s.wild_canasta_bonus),
            ("special_canasta_bonus", s.special_canasta_bonus),
            ("samba_bonus", s.samba_bonus),
        ] {
            p.within(name, name, value, -MAX_POINTS, MAX_POINTS);
        }
        for (i, &value) in s.red_three_values.iter().enumerate() {
            let name = format!("red_three_values[{i}]");
            p.within("red_three_values", &name, value, -MAX_POINTS, MAX_POINTS);
        }
        for (i, row) in s.many_canastas_bonuses.iter().enumerate() {
            let name = format!("many_canastas_bonuses[{i}].bonus");
            p.within(
                "many_canastas_bonuses",
                &name,
                row.bonus,
                -MAX_POINTS,
                MAX_POINTS,
            );
        }
        let opening = &self.opening;
        for (i, row) in opening.opening_table.iter().enumerate() {
            let name = format!("opening_table[{i}].need");
            p.within("opening_table", &name, row.need, 0, MAX_POINTS);
            if let Some(from) = row.from {
                let name = format!("opening_table[{i}].from");
                p.within("opening_table", &name, from, -MAX_TARGET, MAX_TARGET);
            }
        }
        if let Some(need) = opening.opening_when_leading {
            p.within(
                "opening_when_leading",
                "opening_when_leading",
                need,
                0,
                MAX_POINTS,
            );
        }
        p.within("target", "target", self.game.target, 1, MAX_TARGET);
        if let CleanOpening::UpTo(up_to) = opening.clean_opening {
            p.within("clean_opening", "clean_opening.up_to", up_to, 0, MAX_POINTS);
        }
        p.within(
            "unopened_hand_multiplier",
            "unopened_hand_multiplier",
            s.unopened_hand_multiplier,
            1,
            10,
        );
    }
}
