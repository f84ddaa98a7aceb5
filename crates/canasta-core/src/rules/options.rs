//! House rules as options: a record header's `options` object (or
//! `--option name=value`) changes fields of a preset's [`Rules`]; the
//! research's camelCase names are accepted too. Options are flat, one name
//! a rule, and [`OPTION_FIELDS`] maps each name to its field of the nested
//! [`RulesSpec`]; [`Rules`]' JSON is that flat map.

use super::{MAX_POINTS, Rules, RulesError, RulesProblem, RulesSpec};
use serde::de::Error as DeError;
use serde::ser::{Error as _, SerializeMap};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// Every option by name, with the field of [`RulesSpec`] it sets (a JSON
/// pointer into the spec's nested form), in the order the flat form has
/// always been written. Records, the option maps of the server, the
/// terminal and Python, and [`Rules`]' own JSON all read and write through
/// this one table.
pub const OPTION_FIELDS: &[(&str, &str)] = &[
    ("variant", "/game/variant"),
    ("players", "/game/players"),
    ("teams", "/game/teams"),
    ("temporary_partnership", "/game/temporary_partnership"),
    ("decks", "/deal/decks"),
    ("jokers", "/deal/jokers"),
    ("hand_size", "/deal/hand_size"),
    ("foot_size", "/deal/foot_size"),
    ("draw_count", "/deal/draw_count"),
    (
        "upcard_black_three_turns_again",
        "/pile/upcard_black_three_turns_again",
    ),
    ("red_three_timing", "/deal/red_three_timing"),
    ("min_meld", "/melds/min_meld"),
    ("min_naturals", "/melds/min_naturals"),
    ("max_wilds", "/melds/max_wilds"),
    ("wild_ratio", "/melds/wild_ratio"),
    ("canasta_size", "/melds/canasta_size"),
    ("canasta_by_choice", "/melds/canasta_by_choice"),
    ("natural_canasta_bonus", "/scoring/natural_canasta_bonus"),
    ("mixed_canasta_bonus", "/scoring/mixed_canasta_bonus"),
    ("card_values", "/scoring/card_values"),
    ("opening_table", "/opening/opening_table"),
    ("canastas_to_go_out", "/going_out/requirement/canastas"),
    (
        "opening_counts_canasta_bonus",
        "/opening/opening_counts_canasta_bonus",
    ),
    ("wilds_freeze_pile", "/pile/freeze/wild_cards"),
    (
        "canastas_to_go_out_concealed",
        "/going_out/requirement/canastas_if_concealed",
    ),
    ("going_out_bonus", "/scoring/going_out_bonus"),
    ("concealed_bonus", "/scoring/concealed_bonus"),
    (
        "concealed_bonus_if_pile_taken",
        "/scoring/concealed_bonus_if_pile_taken",
    ),
    (
        "concealed_without_minimum",
        "/opening/concealed_without_minimum",
    ),
    ("red_three_values", "/scoring/red_three_values"),
    ("red_three_penalty", "/scoring/red_three_penalty"),
    ("black_three_freezes", "/pile/freeze/black_three"),
    (
        "one_card_may_take_one_card_pile",
        "/pile/one_card_may_take_one_card_pile",
    ),
    ("pile_always_frozen", "/pile/freeze/always"),
    (
        "take_with_natural_and_wild",
        "/pile/take_with_natural_and_wild",
    ),
    ("take_onto_canasta", "/pile/take_onto_canasta"),
    ("asking_allowed", "/going_out/asking_allowed"),
    ("unopened_side_frozen", "/pile/freeze/unopened_side"),
    ("target", "/game/target"),
    ("max_upcards", "/pile/max_upcards"),
    ("upcard_threes_turn_again", "/pile/upcard_threes_turn_again"),
    ("upcard_wild_turns_again", "/pile/upcard_wild_turns_again"),
    ("red_three_upcard_freezes", "/pile/freeze/red_three_upcard"),
    ("pile_packet", "/pile/pile_packet"),
    ("open_before_draw", "/opening/open_before_draw"),
    ("pile_needs_opened_side", "/pile/pile_needs_opened_side"),
    ("pile_take_naturals", "/pile/pile_take_naturals"),
    (
        "pile_take_naturals_frozen",
        "/pile/pile_take_naturals_frozen",
    ),
    ("take_onto_meld", "/pile/take_onto_meld"),
    ("pile_extra_draw", "/pile/pile_extra_draw"),
    ("wilds_on_canasta", "/melds/wilds_on_canasta"),
    ("wild_melds", "/melds/wild_melds"),
    ("black_threes_meldable", "/melds/black_threes_meldable"),
    ("threes_natural", "/melds/threes_natural"),
    ("clean_opening", "/opening/clean_opening"),
    (
        "go_out_natural_canastas",
        "/going_out/requirement/natural_canastas",
    ),
    (
        "go_out_mixed_canastas",
        "/going_out/requirement/mixed_canastas",
    ),
    (
        "go_out_needs_discard",
        "/going_out/requirement/needs_discard",
    ),
    (
        "final_discard_natural",
        "/going_out/requirement/final_discard_natural",
    ),
    ("stock_end", "/going_out/stock_end"),
    (
        "empty_stock_forces_pile",
        "/going_out/empty_stock_forces_pile",
    ),
    (
        "unopened_hand_multiplier",
        "/scoring/unopened_hand_multiplier",
    ),
    (
        "natural_ace_canasta_bonus",
        "/scoring/natural_ace_canasta_bonus",
    ),
    (
        "mixed_ace_canasta_bonus",
        "/scoring/mixed_ace_canasta_bonus",
    ),
    ("twos_canasta_bonus", "/scoring/twos_canasta_bonus"),
    ("jokers_canasta_bonus", "/scoring/jokers_canasta_bonus"),
    ("wild_canasta_bonus", "/scoring/wild_canasta_bonus"),
    (
        "wild_canastas_count_to_go_out",
        "/going_out/requirement/wild_canastas_count",
    ),
    ("wild_bonus_only_if_out", "/scoring/wild_bonus_only_if_out"),
    ("many_canastas_bonuses", "/scoring/many_canastas_bonuses"),
    ("excluded_faces", "/deal/excluded_faces"),
    ("random_first_player", "/deal/random_first_player"),
    ("opening_when_leading", "/opening/opening_when_leading"),
    ("red_three_scoring", "/scoring/red_three_scoring"),
    ("max_meld_size", "/melds/max_meld_size"),
    ("pure_rank", "/melds/pure_rank"),
    ("special_canasta_rank", "/melds/special_canasta_rank"),
    ("special_canasta_bonus", "/scoring/special_canasta_bonus"),
    (
        "go_out_special_canastas",
        "/going_out/requirement/special_canastas",
    ),
    (
        "go_out_wild_canastas",
        "/going_out/requirement/wild_canastas",
    ),
    ("special_discard", "/pile/special_discard"),
    ("wild_meld_reserves", "/melds/wild_meld_reserves"),
    ("pile_opening_from_hand", "/opening/pile_opening_from_hand"),
    ("tie_plays_on", "/game/tie_plays_on"),
    ("sequences", "/melds/sequences"),
    ("samba_bonus", "/scoring/samba_bonus"),
    ("several_melds_per_rank", "/melds/several_melds_per_rank"),
    ("top_card_to_sequence", "/pile/top_card_to_sequence"),
];

/// The rules as the flat map of [`OPTION_FIELDS`], every option by name.
fn flat(spec: &RulesSpec) -> Map<String, Value> {
    let nested = serde_json::to_value(spec).expect("rules serialize");
    OPTION_FIELDS
        .iter()
        .map(|(name, field)| {
            let value = nested.pointer(field).cloned();
            (
                (*name).to_string(),
                value.expect("every option names a field"),
            )
        })
        .collect()
}

/// The spec a flat map names: every option once, no other name.
fn spec_of_flat(flat: &Map<String, Value>) -> Result<RulesSpec, serde_json::Error> {
    if let Some(unknown) = flat
        .keys()
        .find(|k| !OPTION_FIELDS.iter().any(|(name, _)| name == k))
    {
        return Err(<serde_json::Error as DeError>::custom(format!(
            "unknown field `{unknown}`"
        )));
    }
    let mut nested = Value::Object(Map::new());
    for (name, field) in OPTION_FIELDS {
        let value = flat.get(*name).ok_or_else(|| {
            <serde_json::Error as DeError>::custom(format!("missing field `{name}`"))
        })?;
        put(&mut nested, field, value.clone());
    }
    RulesSpec::deserialize(nested)
}

/// Sets the field at `pointer` (`/pile/freeze/always`) of a nested object,
/// making the objects on the way.
fn put(root: &mut Value, pointer: &str, value: Value) {
    match pointer.trim_start_matches('/').split_once('/') {
        None => {
            root.as_object_mut()
                .expect("the spec's parts are objects")
                .insert(pointer.trim_start_matches('/').to_string(), value);
        }
        Some((part, rest)) => {
            let inner = root
                .as_object_mut()
                .expect("the spec's parts are objects")
                .entry(part)
                .or_insert_with(|| Value::Object(Map::new()));
            put(inner, rest, value);
        }
    }
}

/// The flat map of option names, in [`OPTION_FIELDS`]' order: what records,
/// `canasta variants --json` and Python's `rules()` have always read.
impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let nested = serde_json::to_value(self.spec()).map_err(S::Error::custom)?;
        let mut map = serializer.serialize_map(Some(OPTION_FIELDS.len()))?;
        for (name, field) in OPTION_FIELDS {
            let value = nested
                .pointer(field)
                .ok_or_else(|| S::Error::custom(format!("no field for option `{name}`")))?;
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// Reads the flat map [`Rules`] serializes to (every option once) and
/// checks it.
impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Rules, D::Error> {
        let flat = Map::<String, Value>::deserialize(deserializer)?;
        let spec = spec_of_flat(&flat).map_err(D::Error::custom)?;
        Rules::new(spec).map_err(D::Error::custom)
    }
}

impl Rules {
    /// A preset with options (house rules) applied on top: `options` is a
    /// JSON object whose keys are option names ([`OPTION_FIELDS`]). A
    /// `teams` option selects the preset's form first (Classic 6 players),
    /// so the fields that depend on it follow.
    pub fn from_header(
        variant: &str,
        players: Option<u8>,
        options: &Map<String, Value>,
    ) -> Result<Rules, RulesError> {
        let teams =
            match options.get("teams") {
                None => None,
                Some(v) => Some(v.as_u64().and_then(|t| u8::try_from(t).ok()).ok_or_else(
                    || {
                        RulesError::one(RulesProblem::field(
                            "teams",
                            format!("option `teams` must be a small number, not {v}"),
                        ))
                    },
                )?),
            };
        let preset = Rules::preset(variant, players, teams)?;
        preset.with_options(options)
    }

    /// These rules with some options replaced, validated.
    pub fn with_options(&self, options: &Map<String, Value>) -> Result<Rules, RulesError> {
        let defaults = flat(self.spec());
        let mut fields = defaults.clone();
        let mut problems = Vec::new();
        let mut given = Vec::new();
        for (k, v) in options {
            let (k, v) = normalize_option(k, v);
            let k = &k;
            if k == "samba_pile_rule" {
                // Research §4.1's named choice, as the fields it sets.
                let dutch = match v.as_str() {
                    Some("dutch") => true,
                    Some("us") => false,
                    _ => {
                        problems.push(RulesProblem::field(
                            k,
                            format!("option `samba_pile_rule` is `us` or `dutch`, not {v}"),
                        ));
                        continue;
                    }
                };
                fields.insert("pile_always_frozen".into(), dutch.into());
                fields.insert("take_onto_meld".into(), (!dutch).into());
                fields.insert("top_card_to_sequence".into(), dutch.into());
                continue;
            }
            if k == "ask_only_if_able" {
                // Once a house rule; the record spec now makes asking only
                // for a player who could go out, in every variant.
                if v != Value::Bool(true) {
                    problems.push(RulesProblem::field(
                        k,
                        "option `ask_only_if_able` can only be true: asking is only for a \
                         player who could go out this turn (record spec)",
                    ));
                }
                continue;
            }
            if k == "last_red_three_may_meld" {
                // Research §1.1's option, not offered: the engine plays pagat.
                if v != Value::Bool(false) {
                    problems.push(RulesProblem::field(
                        k,
                        "option `last_red_three_may_meld` can only be false: BRIT lets a player \
                         whose draw of the last stock card is a red three meld but not discard, \
                         and a record has no action that ends a turn without a discard; these \
                         rules follow pagat (no meld and no discard: the hand ends)",
                    ));
                }
                continue;
            }
            if k == "variant" || k == "players" {
                problems.push(RulesProblem::field(
                    k,
                    format!("`{k}` belongs in the record header, not in options"),
                ));
            } else if !fields.contains_key(k) {
                problems.push(RulesProblem::UnknownOption(k.clone()));
            } else {
                fields.insert(k.clone(), v.clone());
                given.push((k.clone(), v));
            }
        }
        if !problems.is_empty() {
            return Err(RulesError { problems });
        }
        let spec = spec_of_flat(&fields).map_err(|e| {
            // Name the option whose value cannot be read: each one alone
            // on the defaults.
            let named: Vec<RulesProblem> = given
                .iter()
                .filter_map(|(k, v)| {
                    let mut alone = defaults.clone();
                    alone.insert(k.clone(), v.clone());
                    spec_of_flat(&alone)
                        .err()
                        .map(|e| RulesProblem::field(k, format!("option `{k}`: {e}")))
                })
                .collect();
            if named.is_empty() {
                let names: Vec<&str> = given.iter().map(|(k, _)| k.as_str()).collect();
                RulesError::one(RulesProblem::field(
                    names.join(", "),
                    format!("bad option value: {e}"),
                ))
            } else {
                RulesError { problems: named }
            }
        })?;
        Rules::new(spec)
    }

    /// The options that, given to [`Rules::from_header`] with this
    /// variant and player count, make these rules: the differences from the
    /// preset's form for the player count, with `teams` only where it
    /// differs from the preset's default. Records and position notation
    /// name rules so.
    pub fn options_from_preset(&self) -> serde_json::Map<String, serde_json::Value> {
        let game = &self.game;
        let default = Rules::preset(&game.variant, Some(game.players), None).ok();
        let teams_differ = default.as_ref().is_some_and(|d| d.game.teams != game.teams);
        let preset = Rules::preset(&game.variant, Some(game.players), Some(game.teams))
            .unwrap_or_else(|_| self.clone());
        let mut options = self.options_against(&preset);
        options.remove("teams");
        if teams_differ {
            options.insert("teams".into(), serde_json::json!(game.teams));
        }
        options
    }

    /// Options that differ from `base`, as the record header's `options`.
    pub fn options_against(&self, base: &Rules) -> Map<String, Value> {
        let (a, b) = (flat(self.spec()), flat(base.spec()));
        a.into_iter()
            .filter(|(k, v)| b.get(k) != Some(v) && k != "players")
            .collect()
    }
}

/// Accepts the option names of `rules-research.md` (camelCase, such as
/// `blackThreeFreezes` or `wildLimit: "notMoreThanNaturals"`) as well as the
/// engine's own snake_case names.
fn normalize_option(key: &str, value: &serde_json::Value) -> (String, serde_json::Value) {
    fn snake(s: &str) -> String {
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if ch.is_ascii_uppercase() {
                if i > 0 {
                    out.push('_');
                }
                out.push(ch.to_ascii_lowercase());
            } else {
                out.push(ch);
            }
        }
        out
    }
    let mut key = snake(key);
    let mut value = match value {
        serde_json::Value::String(text) => serde_json::Value::String(snake(text)),
        v => v.clone(),
    };
    match key.as_str() {
        "wild_limit" => {
            key = "wild_ratio".into();
            if value == "max3" {
                value = "any".into();
            }
        }
        "red_three_replace_timing" => {
            key = "red_three_timing".into();
            if value == "immediately" || value == "immediate" {
                value = "after_deal".into();
            }
        }
        "red_three_penalty_if" => key = "red_three_penalty".into(),
        // Once a number (0: never; from 100,000 up: always), as older
        // records still write it.
        "clean_opening_up_to" => {
            key = "clean_opening".into();
            if let Some(n) = value.as_i64() {
                value = if n <= 0 {
                    "never".into()
                } else if n >= i64::from(MAX_POINTS) {
                    "always".into()
                } else {
                    serde_json::json!({ "up_to": n })
                };
            }
        }
        // Once 0 for no limit.
        "max_meld_size" if value == 0 => value = serde_json::Value::Null,
        // Once a yes or no (ba9873d added the twos-only reserve).
        "wild_meld_reserves_wilds" => {
            key = "wild_meld_reserves".into();
            if let Some(b) = value.as_bool() {
                value = if b { "wild_cards" } else { "nothing" }.into();
            }
        }
        _ => {}
    }
    (key, value)
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;
    use crate::seat::Seat;

    fn options(json: &str) -> serde_json::Map<String, serde_json::Value> {
        serde_json::from_str(json).unwrap()
    }

    /// Records written when asking was a house rule still read: `true` is
    /// what every variant does now, `false` is refused with the reason.
    #[test]
    fn the_old_asking_option_reads_as_the_rule_it_became() {
        let classic = Rules::classic();
        assert_eq!(
            classic.with_options(&options(r#"{"ask_only_if_able": true}"#)),
            Ok(classic.clone())
        );
        let err = classic
            .with_options(&options(r#"{"ask_only_if_able": false}"#))
            .unwrap_err();
        assert!(
            err.to_string().contains("asking is only for a player"),
            "{err}"
        );
    }

    /// `going_out_bonus=2147483647` once wrapped scores to negative totals:
    /// numbers are bounded, and a game at the bounds adds up exactly.
    #[test]
    fn numbers_are_bounded_and_scores_add_up_at_the_bounds() {
        let classic = Rules::classic();
        let err = classic
            .with_options(&options(r#"{"going_out_bonus": 2147483647}"#))
            .unwrap_err();
        assert!(
            err.to_string().contains("going_out_bonus must be within"),
            "{err}"
        );
        assert!(classic.with_options(&options(r#"{"target": 0}"#)).is_err());
        let extreme = classic
            .with_options(&options(
                r#"{"going_out_bonus": 100000, "natural_canasta_bonus": 100000,
                    "mixed_canasta_bonus": 100000, "target": 1000000}"#,
            ))
            .unwrap();
        let mut rng = crate::Rng::new(9);
        let mut g = crate::GameState::new(extreme);
        let mut sums = vec![0i64; 2];
        for hand in 0..3 {
            g.deal_random(&mut rng, Seat::new(hand % 4));
            while matches!(
                g.phase(),
                crate::Phase::Draw | crate::Phase::Play | crate::Phase::Answer
            ) {
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
            for (t, team) in g.last_hand().unwrap().teams.iter().enumerate() {
                sums[t] += i64::from(team.total);
            }
            if g.is_over() {
                break;
            }
        }
        let totals: Vec<i64> = g.scores().iter().map(|&s| i64::from(s)).collect();
        assert_eq!(totals, sums);
    }

    /// Sentinels became enums; the old spellings still read (records carry
    /// options by name).
    #[test]
    fn old_sentinel_spellings_read_as_the_enums() {
        use crate::rules::CleanOpening;
        let canastone = Rules::preset("canastone", Some(4), None).unwrap();
        for (old, new) in [
            (r#"{"clean_opening_up_to": 200}"#, CleanOpening::UpTo(200)),
            (r#"{"clean_opening_up_to": 0}"#, CleanOpening::Never),
            (
                r#"{"clean_opening_up_to": 2147483647}"#,
                CleanOpening::Always,
            ),
            (r#"{"clean_opening": "always"}"#, CleanOpening::Always),
            (
                r#"{"clean_opening": {"up_to": 90}}"#,
                CleanOpening::UpTo(90),
            ),
        ] {
            assert_eq!(
                canastone
                    .with_options(&options(old))
                    .unwrap()
                    .opening
                    .clean_opening,
                new
            );
        }
        let pennies = Rules::preset("pennies", Some(6), None).unwrap();
        assert_eq!(pennies.melds.max_meld_size, Some(7));
        let uncapped = pennies
            .with_options(&options(r#"{"max_meld_size": 0}"#))
            .unwrap();
        assert_eq!(
            (uncapped.melds.max_meld_size, uncapped.melds.cap()),
            (None, u8::MAX)
        );
        assert!(
            pennies
                .with_options(&options(r#"{"max_meld_size": 5}"#))
                .is_err()
        );
    }

    /// A `Rules` value that exists is valid: 8 players cannot be asked of
    /// a preset, read from JSON, or reached by options (it once panicked in
    /// the deal).
    #[test]
    fn invalid_rules_cannot_be_made() {
        assert!(Rules::preset("classic", Some(8), None).is_err());
        let mut json = serde_json::to_value(Rules::classic()).unwrap();
        json["players"] = 8.into();
        let err = serde_json::from_value::<Rules>(json).unwrap_err();
        assert!(err.to_string().contains("players must be 2 to 6"), "{err}");
        let mut json = serde_json::to_value(Rules::classic()).unwrap();
        json["hand_size"] = 200.into();
        assert!(serde_json::from_value::<Rules>(json).is_err());
        assert!(
            Rules::classic()
                .with_options(&options(r#"{"players": 8}"#))
                .is_err()
        );
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        /// Any value for any option either fails validation or gives rules
        /// under which a game deals and plays without a panic.
        #[test]
        fn any_option_value_is_refused_or_playable(
            field in any::<prop::sample::Index>(),
            value in prop_oneof![
                (-3i64..300).prop_map(serde_json::Value::from),
                any::<bool>().prop_map(serde_json::Value::from),
                Just(serde_json::Value::from(i64::MAX)),
                Just(serde_json::Value::from("emptied")),
            ],
            preset in any::<prop::sample::Index>(),
            seed in 0u64..50,
        ) {
            let forms = crate::rules::all_forms();
            let base = forms[preset.index(forms.len())].clone();
            let json = serde_json::to_value(&base).unwrap();
            let names: Vec<String> = json
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| *k != "variant" && *k != "players")
                .cloned()
                .collect();
            let name = &names[field.index(names.len())];
            // A value of the field's own kind most of the time, so that
            // many cases get past validation and play.
            let value = match (&json[name.as_str()], &value) {
                (serde_json::Value::Bool(_), serde_json::Value::Number(n)) => {
                    serde_json::Value::from(n.as_i64().unwrap_or(0) % 2 == 0)
                }
                (serde_json::Value::Number(_), serde_json::Value::Bool(b)) => {
                    serde_json::Value::from(u8::from(*b))
                }
                _ => value,
            };
            let mut opts = serde_json::Map::new();
            opts.insert(name.clone(), value);
            let Ok(rules) = base.with_options(&opts) else {
                return Ok(());
            };
            let mut rng = crate::Rng::new(seed);
            let mut g = crate::GameState::new(rules);
            g.deal_random(&mut rng, Seat::new(0));
            for _ in 0..60 {
                if !matches!(
                    g.phase(),
                    crate::Phase::Draw | crate::Phase::Play | crate::Phase::Answer
                ) {
                    break;
                }
                let legal = g.legal_actions();
                prop_assert!(!legal.is_empty());
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
        }
    }
}
