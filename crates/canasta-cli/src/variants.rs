//! `canasta variants`: the presets, their player counts and every option.

use canasta_core::rules::{CatalogueEntry, catalogue, catalogue_json};
use clap::Args;
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

pub fn run(args: &VariantsArgs) -> anyhow::Result<ExitCode> {
    if args.json {
        outln!("{}", catalogue_json());
        return Ok(ExitCode::SUCCESS);
    }
    let list = catalogue();
    for (
        i,
        CatalogueEntry {
            info,
            options,
            forms,
        },
    ) in list.iter().enumerate()
    {
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
