//! The rules as data. One state machine is driven by a validated [`Rules`]
//! value; a named variant is a preset of its fields, and a house rule is a
//! field with a documented default and its source.
//!
//! [`RulesSpec`] is the plain form, one part per area of the rule book
//! (the deal, melds, the pile, the opening, going out, scoring, the game),
//! with public fields that anyone may set; [`Rules`] is a checked
//! `RulesSpec` (shakmaty's `Setup` → `Position`), made only by
//! [`Rules::new`], a preset or [`Rules::with_options`], and read through
//! `Deref`: `rules.melds.wilds_on_canasta`. Records and option maps name
//! each rule by its flat option name ([`OPTION_FIELDS`]).
//!
//! Source tags (P-CAN = pagat Canasta, S001..S004 = the seed documents, ...)
//! refer to `../shared/rules-research.md`, which settles the contradictions;
//! each field's doc names the rule text it encodes.

mod catalogue;
mod deal;
mod error;
mod game;
mod going_out;
mod guide;
mod house;
mod melds;
mod opening;
mod options;
mod pile;
mod presets;
mod scoring;
mod validate;
mod values;
mod words;
pub use catalogue::{CatalogueEntry, Form, catalogue, catalogue_json};
pub use deal::DealRules;
pub use error::{RulesError, RulesProblem};
pub use game::GameRules;
pub use going_out::{GoingOutRequirement, GoingOutRules, KindCounts};
pub use guide::{Page, Section, Table};
pub use house::{
    Area, AreaOptions, HOUSE_PRESETS, HousePreset, OPTION_TABLE, OptionInfo, OptionKind,
    house_presets, house_presets_json, house_rules, option_info, value_words,
};
pub use melds::MeldRules;
pub use opening::OpeningRules;
pub use options::OPTION_FIELDS;
pub use pile::{Freeze, FreezeRules, PileRules};
pub use presets::{PRESETS, PresetInfo, all_forms};
pub use scoring::ScoringRules;
use serde::{Deserialize, Serialize};
pub use values::{
    CardValues, CleanOpening, ManyCanastas, OpeningStep, PilePacket, RedThreePenalty,
    RedThreeScoring, RedThreeTiming, SpecialDiscard, StockEnd, WildMeldReserve, WildRatio,
};
pub use words::card_words;

/// Every rule the engine knows, by area of the rule book, unchecked: set
/// any field, then make [`Rules`] of it with [`Rules::new`], which reports
/// every problem at once. Missing fields read as Classic Canasta's
/// ([`RulesSpec::classic`]); unknown ones are refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulesSpec {
    /// The table and the end of the game.
    pub game: GameRules,
    /// The deck and the deal.
    pub deal: DealRules,
    /// Melds and canastas.
    pub melds: MeldRules,
    /// The discard pile.
    pub pile: PileRules,
    /// The first meld.
    pub opening: OpeningRules,
    /// Going out and the end of a hand.
    pub going_out: GoingOutRules,
    /// Scoring.
    pub scoring: ScoringRules,
}

impl RulesSpec {
    /// Whether melding every card counts as going out by the counting
    /// tests: not where going out needs a discard, nor where canastas are
    /// closed by choice (a meld finished by the last card cannot be
    /// closed, so only going out by a discard counts).
    pub(crate) fn melding_out_counts(&self) -> bool {
        self.going_out.may_meld_out() && !self.melds.canasta_by_choice
    }
}

/// A checked [`RulesSpec`]: a value that exists is valid. Build one with
/// [`Rules::preset`], [`Rules::new`] or [`Rules::with_options`]; read it
/// through `Deref` (`rules.pile.freeze.always`). As JSON (records, the
/// Python API, `canasta variants`) it is the flat map of option names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    spec: RulesSpec,
}

impl Rules {
    /// Checks `spec`; reports every problem at once.
    ///
    /// # Errors
    /// Every field that is out of range or contradicts another, by its
    /// option name.
    pub fn new(spec: RulesSpec) -> Result<Rules, RulesError> {
        spec.validate()?;
        Ok(Rules { spec })
    }

    /// The rules as their plain form, to change and check again.
    pub fn into_spec(self) -> RulesSpec {
        self.spec
    }

    /// The rules as their plain form.
    pub fn spec(&self) -> &RulesSpec {
        &self.spec
    }
}

impl std::ops::Deref for Rules {
    type Target = RulesSpec;

    fn deref(&self) -> &RulesSpec {
        &self.spec
    }
}

impl TryFrom<RulesSpec> for Rules {
    type Error = RulesError;

    fn try_from(spec: RulesSpec) -> Result<Rules, RulesError> {
        Rules::new(spec)
    }
}

/// Largest card value, bonus or opening minimum a rule may set (the real
/// ones stop at 5000, Canastone's six-jokers canasta).
pub const MAX_POINTS: i32 = 100_000;
/// Largest game target (the real ones stop at 20000, Pennies).
pub const MAX_TARGET: i32 = 1_000_000;

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
        assert!(r.pile.freeze.black_three);
        assert_eq!(r.melds.wild_ratio, WildRatio::NotMoreThanNaturals);
        assert_eq!(r.scoring.red_three_penalty, RedThreePenalty::NoCanasta);
        assert_eq!(r.deal.draw_count, 2);
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
        assert_eq!(r.opening.minimum(-10), 15);
        assert_eq!(r.opening.minimum(0), 50);
        assert_eq!(r.opening.minimum(1495), 50);
        assert_eq!(r.opening.minimum(1500), 90);
        assert_eq!(r.opening.minimum(2995), 90);
        assert_eq!(r.opening.minimum(3000), 120);
        assert_eq!(r.opening.minimum(9000), 120);
        let six = Rules::preset("classic", Some(6), Some(2)).unwrap();
        assert_eq!(six.opening.minimum(7000), 150);
        assert_eq!(six.game.target, 10000);
    }

    #[test]
    fn validation_reports_every_problem() {
        let mut r = RulesSpec::classic();
        r.game.players = 9;
        r.deal.draw_count = 0;
        r.game.target = -1;
        let err = Rules::new(r).unwrap_err();
        assert!(err.problems.len() >= 3, "{err}");
    }

    #[test]
    fn options_merge_and_reject_unknown_names() {
        let mut opts = serde_json::Map::new();
        opts.insert("black_three_freezes".into(), true.into());
        let r = Rules::classic().with_options(&opts).unwrap();
        assert!(r.pile.freeze.black_three);
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
        let mut r = RulesSpec::classic();
        assert_eq!(r.melds.wild_capacity(2), 3);
        assert_eq!(r.melds.wild_capacity(1), 0);
        r.melds.wild_ratio = WildRatio::NotMoreThanNaturals;
        assert_eq!(r.melds.wild_capacity(2), 2);
        r.melds.wild_ratio = WildRatio::FewerThanNaturals;
        assert_eq!(r.melds.wild_capacity(2), 1);
        assert_eq!(r.melds.wild_capacity(5), 3);
    }

    /// A spec with problems in several areas names each field by its
    /// option name, every one at once.
    #[test]
    fn validation_errors_name_their_fields() {
        let mut spec = RulesSpec::classic();
        spec.deal.draw_count = 0;
        spec.melds.min_meld = 2;
        spec.going_out.requirement.canastas = 0;
        spec.pile.top_card_to_sequence = true;
        spec.scoring.going_out_bonus = MAX_POINTS + 1;
        let err = Rules::try_from(spec).unwrap_err();
        let named: Vec<&str> = err.options().collect();
        for option in [
            "draw_count",
            "min_meld",
            "canastas_to_go_out",
            "top_card_to_sequence",
            "going_out_bonus",
        ] {
            assert!(named.contains(&option), "{option} not in {named:?}");
            assert!(OPTION_FIELDS.iter().any(|(name, _)| *name == option));
        }
        assert!(err.to_string().starts_with("invalid rules: "), "{err}");
        assert!(
            err.to_string().contains("draw_count must be 1 to 3, not 0"),
            "{err}"
        );
    }

    /// The plain form reads with fields left out (Classic's values) and
    /// refuses a name no field has, in every area.
    #[test]
    fn the_spec_reads_defaults_and_refuses_unknown_fields() {
        let spec: RulesSpec =
            serde_json::from_str(r#"{"melds": {"wilds_on_canasta": false}}"#).unwrap();
        let mut expected = RulesSpec::classic();
        expected.melds.wilds_on_canasta = false;
        assert_eq!(spec, expected);
        assert_eq!(
            serde_json::from_str::<RulesSpec>("{}").unwrap(),
            RulesSpec::default()
        );
        for json in [
            r#"{"meld": {}}"#,
            r#"{"melds": {"wilds_on_canastas": true}}"#,
            r#"{"pile": {"freeze": {"sometimes": true}}}"#,
            r#"{"going_out": {"requirement": {"canastas_to_go_out": 2}}}"#,
        ] {
            let err = serde_json::from_str::<RulesSpec>(json).unwrap_err();
            assert!(err.to_string().contains("unknown field"), "{json}: {err}");
        }
    }

    /// Every form of every preset, written as its flat option map and read
    /// back, is the same rules; the map names every option of the table
    /// once, and the table every field of the spec.
    #[test]
    fn every_preset_round_trips_through_the_option_map() {
        for rules in all_forms() {
            let flat = serde_json::to_value(&rules).unwrap();
            let map = flat.as_object().unwrap();
            assert_eq!(map.len(), OPTION_FIELDS.len());
            for (name, _) in OPTION_FIELDS {
                assert!(map.contains_key(*name), "{name}");
            }
            let back: Rules = serde_json::from_value(flat.clone()).unwrap();
            assert_eq!(back, rules);
            let header = Rules::from_header(
                &rules.game.variant,
                Some(rules.game.players),
                &serde_json::Map::from_iter([("teams".to_string(), rules.game.teams.into())]),
            )
            .unwrap();
            let options = rules.options_against(&header);
            assert!(options.is_empty(), "{}: {options:?}", rules.game.variant);
            let options: serde_json::Map<String, serde_json::Value> = map
                .iter()
                .filter(|(k, _)| *k != "variant" && *k != "players")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            assert_eq!(header.with_options(&options).unwrap(), rules);
        }
        // Every leaf of the nested form is one option's field.
        fn leaves(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
            match value {
                serde_json::Value::Object(map)
                    if !map.is_empty() && !at.ends_with("card_values") =>
                {
                    for (k, v) in map {
                        leaves(v, format!("{at}/{k}"), out);
                    }
                }
                _ => out.push(at),
            }
        }
        let mut fields = Vec::new();
        leaves(
            &serde_json::to_value(RulesSpec::classic()).unwrap(),
            String::new(),
            &mut fields,
        );
        let mut table: Vec<String> = OPTION_FIELDS.iter().map(|(_, f)| f.to_string()).collect();
        fields.sort();
        table.sort();
        assert_eq!(fields, table);
    }
}
