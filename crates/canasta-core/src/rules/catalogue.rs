//! The presets as a catalogue: each one's player counts, summary, every
//! option with its default, and the options other forms change. Printed by
//! `canasta variants` and served to the browser by the game server.

use super::{PRESETS, PresetInfo, Rules};
use serde_json::{Map, Value, json};

/// Header fields that are not options.
const NOT_OPTIONS: &[&str] = &["variant", "players"];

/// One preset in the catalogue.
pub struct CatalogueEntry {
    pub info: &'static PresetInfo,
    /// Every option with its value in the default form.
    pub options: Map<String, Value>,
    pub forms: Vec<Form>,
}

/// Another form of a preset: a player count (and team count) and the
/// options whose values differ from the default form.
pub struct Form {
    pub players: u8,
    pub teams: u8,
    pub differs: Map<String, Value>,
}

fn options_of(rules: &Rules) -> Map<String, Value> {
    match serde_json::to_value(rules) {
        Ok(Value::Object(map)) => map
            .into_iter()
            .filter(|(k, _)| !NOT_OPTIONS.contains(&k.as_str()))
            .collect(),
        _ => Map::new(),
    }
}

/// Every other form of a preset: each player count, and each team count a
/// player count allows besides its default.
fn forms(info: &PresetInfo, base: &Rules) -> Vec<Form> {
    info.forms()
        .into_iter()
        .filter(|r| !(r.game.players == info.default_players && r.game.teams == base.game.teams))
        .map(|rules| Form {
            players: rules.game.players,
            teams: rules.game.teams,
            differs: rules.options_against(base),
        })
        .collect()
}

/// Every preset, in the order of [`PRESETS`].
pub fn catalogue() -> Vec<CatalogueEntry> {
    PRESETS
        .iter()
        .map(|info| {
            let base = Rules::preset(info.id, Some(info.default_players), None)
                .expect("every preset's default form is valid");
            CatalogueEntry {
                info,
                options: options_of(&base),
                forms: forms(info, &base),
            }
        })
        .collect()
}

/// The catalogue as JSON: `{"variants": [{id, name, players,
/// default_players, summary, description, provisional, options, forms,
/// house_rules, house_presets}]}`. `description` is the summary (sentences
/// a player reads); `house_rules` every option as the lobby offers it and
/// `house_presets` the named sets of the rule books (see [`super::house`]).
pub fn catalogue_json() -> Value {
    let variants: Vec<Value> = catalogue()
        .iter()
        .map(|e| {
            json!({
                "id": e.info.id,
                "name": e.info.name,
                "players": e.info.players,
                "default_players": e.info.default_players,
                "summary": e.info.summary,
                "description": e.info.summary,
                "house_rules": super::house_rules(e.info),
                "house_presets": super::house_presets_json(e.info.id),
                "provisional": e.info.provisional,
                "options": e.options,
                "forms": e.forms.iter().map(|f| json!({
                    "players": f.players,
                    "teams": f.teams,
                    "differs": f.differs,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "variants": variants })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_preset_is_listed_with_its_options() {
        let list = super::catalogue();
        assert_eq!(list.len(), super::PRESETS.len());
        for e in &list {
            assert!(e.options.contains_key("target"), "{}", e.info.id);
            assert!(!e.options.contains_key("variant"));
        }
        let json = super::catalogue_json();
        assert_eq!(json["variants"][0]["id"], "classic");
    }
}
