//! House rules as options: a record header's `options` object (or
//! `--option name=value`) changes fields of a preset's [`Rules`]; the
//! research's camelCase names are accepted too.

use super::{Rules, RulesError};

impl Rules {
    /// A preset with options (house rules) applied on top: `options` is a
    /// JSON object whose keys are field names of [`Rules`]. A `teams` option
    /// selects the preset's form first (Classic 6 players), so the fields
    /// that depend on it follow.
    pub fn from_header(
        variant: &str,
        players: Option<u8>,
        options: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Rules, RulesError> {
        let teams =
            match options.get("teams") {
                None => None,
                Some(v) => Some(v.as_u64().and_then(|t| u8::try_from(t).ok()).ok_or_else(
                    || RulesError::one(format!("option `teams` must be a small number, not {v}")),
                )?),
            };
        let preset = Rules::preset(variant, players, teams)?;
        preset.with_options(options)
    }

    /// These rules with some fields replaced, validated.
    pub fn with_options(
        &self,
        options: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Rules, RulesError> {
        let defaults = serde_json::to_value(self).expect("rules serialize");
        let mut value = defaults.clone();
        let fields = value.as_object_mut().expect("rules are an object");
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
                        problems.push(format!(
                            "option `samba_pile_rule` is `us` or `dutch`, not {v}"
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
                if v != serde_json::Value::Bool(true) {
                    problems.push(
                        "option `ask_only_if_able` can only be true: asking is only for a \
                         player who could go out this turn (record spec)"
                            .to_string(),
                    );
                }
                continue;
            }
            if k == "last_red_three_may_meld" {
                // Research §1.1's option, not offered: the engine plays pagat.
                if v != serde_json::Value::Bool(false) {
                    problems.push(
                        "option `last_red_three_may_meld` can only be false: BRIT lets a player \
                         whose draw of the last stock card is a red three meld but not discard, \
                         and a record has no action that ends a turn without a discard; these \
                         rules follow pagat (no meld and no discard: the hand ends)"
                            .to_string(),
                    );
                }
                continue;
            }
            if k == "variant" || k == "players" {
                problems.push(format!(
                    "`{k}` belongs in the record header, not in options"
                ));
            } else if !fields.contains_key(k) {
                problems.push(format!("unknown option `{k}`"));
            } else {
                fields.insert(k.clone(), v.clone());
                given.push((k.clone(), v));
            }
        }
        if !problems.is_empty() {
            return Err(RulesError { problems });
        }
        let fields: super::fields::RulesFields = serde_json::from_value(value).map_err(|e| {
            // Name the option whose value cannot be read: each one alone
            // on the defaults.
            let named: Vec<String> = given
                .iter()
                .filter_map(|(k, v)| {
                    let mut alone = defaults.clone();
                    alone[k.as_str()] = v.clone();
                    serde_json::from_value::<super::fields::RulesFields>(alone)
                        .err()
                        .map(|e| format!("option `{k}`: {e}"))
                })
                .collect();
            if named.is_empty() {
                RulesError::one(format!("bad option value: {e}"))
            } else {
                RulesError { problems: named }
            }
        })?;
        Rules::try_from(fields)
    }

    /// The options that, given to [`Rules::from_header`] with this
    /// variant and player count, make these rules: the differences from the
    /// preset's form for the player count, with `teams` only where it
    /// differs from the preset's default. Records and position notation
    /// name rules so.
    pub fn options_from_preset(&self) -> serde_json::Map<String, serde_json::Value> {
        let default = Rules::preset(&self.variant, Some(self.players), None).ok();
        let teams_differ = default.as_ref().is_some_and(|d| d.teams != self.teams);
        let preset = Rules::preset(&self.variant, Some(self.players), Some(self.teams))
            .unwrap_or_else(|_| self.clone());
        let mut options = self.options_against(&preset);
        options.remove("teams");
        if teams_differ {
            options.insert("teams".into(), serde_json::json!(self.teams));
        }
        options
    }

    /// Options that differ from `base`, as the record header's `options`.
    pub fn options_against(&self, base: &Rules) -> serde_json::Map<String, serde_json::Value> {
        let a = serde_json::to_value(self).expect("rules serialize");
        let b = serde_json::to_value(base).expect("rules serialize");
        let (a, b) = (a.as_object().unwrap(), b.as_object().unwrap());
        a.iter()
            .filter(|(k, v)| b.get(*k) != Some(v) && *k != "players")
            .map(|(k, v)| (k.clone(), v.clone()))
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
                } else if n >= i64::from(super::MAX_POINTS) {
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
            g.deal_random(&mut rng, hand % 4);
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
                    .clean_opening(),
                new
            );
        }
        let pennies = Rules::preset("pennies", Some(6), None).unwrap();
        assert_eq!(pennies.max_meld_size(), Some(7));
        let uncapped = pennies
            .with_options(&options(r#"{"max_meld_size": 0}"#))
            .unwrap();
        assert_eq!(
            (uncapped.max_meld_size(), uncapped.meld_cap()),
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
            g.deal_random(&mut rng, 0);
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
