//! `canasta variants`: the presets, their player counts and every option.

use anyhow::anyhow;
use canasta_core::{PRESETS, PresetInfo, Rules};
use clap::Args;
use serde_json::{Map, Value, json};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VariantsArgs {
    /// Print one JSON object: {"variants": [{id, players, default_players,
    /// summary, options, forms}]}, where `options` holds every rule option
    /// with its default and `forms` the options that differ for other player
    /// counts or team choices.
    #[arg(long)]
    pub json: bool,
}

/// Header fields that are not options.
const NOT_OPTIONS: &[&str] = &["variant", "players"];

/// Another form of a preset: a player count (and team count) and the
/// options whose values differ from the default form.
struct Form {
    players: u8,
    teams: u8,
    differs: Map<String, Value>,
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
        .filter(|r| !(r.players() == info.default_players && r.teams() == base.teams()))
        .map(|rules| Form {
            players: rules.players(),
            teams: rules.teams(),
            differs: rules.options_against(base),
        })
        .collect()
}

pub fn run(args: &VariantsArgs) -> anyhow::Result<ExitCode> {
    let mut list = Vec::new();
    for info in PRESETS {
        let base = Rules::preset(info.id, Some(info.default_players), None)
            .map_err(|e| anyhow!("preset {}: {e}", info.id))?;
        list.push((info, options_of(&base), forms(info, &base)));
    }
    if args.json {
        let variants: Vec<Value> = list
            .iter()
            .map(|(info, options, forms)| {
                json!({
                    "id": info.id,
                    "players": info.players,
                    "default_players": info.default_players,
                    "summary": info.summary,
                    "provisional": info.provisional,
                    "options": options,
                    "forms": forms.iter().map(|f| json!({
                        "players": f.players,
                        "teams": f.teams,
                        "differs": f.differs,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        outln!("{}", json!({ "variants": variants }));
        return Ok(ExitCode::SUCCESS);
    }
    for (i, (info, options, forms)) in list.iter().enumerate() {
        if i > 0 {
            outln!();
        }
        let players: Vec<String> = info.players.iter().map(|p| p.to_string()).collect();
        outln!(
            "{}  (players {}; default {})",
            info.id,
            players.join(", "),
            info.default_players
        );
        outln!(
            "  {}",
            info.summary
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
        outln!();
        outln!("  options and defaults ({} players):", info.default_players);
        let width = options.keys().map(String::len).max().unwrap_or(0);
        for (k, v) in options {
            let mark = if info.provisional.contains(&k.as_str()) {
                "  (provisional: no source settles it)"
            } else {
                ""
            };
            outln!("    {k:width$}  {v}{mark}");
        }
        for f in forms {
            outln!();
            outln!(
                "  with {} players in {} teams, these differ:",
                f.players,
                f.teams
            );
            if f.differs.is_empty() {
                outln!("    (nothing)");
            }
            for (k, v) in &f.differs {
                outln!("    {k:width$}  {v}");
            }
        }
    }
    outln!();
    outln!(
        "Set an option with `--option key=value` (value in JSON), or in a record header's \"options\"."
    );
    Ok(ExitCode::SUCCESS)
}
