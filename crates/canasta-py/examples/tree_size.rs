//! The size of one hand's game tree as OpenSpiel holds it: chance,
//! decision and terminal nodes (the histories) and information sets.
//!
//!     cargo run --release -p canasta-py --example tree_size -- micro
//!     cargo run --release -p canasta-py --example tree_size -- mini 2 '{"hand_size": 2}'
//!
//! Arguments: the variant, the number of players (default: the variant's)
//! and options as a JSON object. The walk stops after 100 million nodes.

use _canasta::tree::tree_size;
use canasta_core::Rules;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map_or("micro", String::as_str);
    let players = args.get(1).map(|p| p.parse::<u8>()).transpose()?;
    let options: serde_json::Map<String, serde_json::Value> = match args.get(2) {
        Some(text) => serde_json::from_str(text)?,
        None => serde_json::Map::new(),
    };
    let rules = Rules::from_header(variant, players, &options)?;
    let size = tree_size(&rules, 100_000_000)?;
    println!(
        "{variant}, {} players, {} cards: {} histories ({} chance, {} decision, {} terminal), \
         {} information sets ({})",
        rules.game.players,
        rules.deal.deck_size(),
        size.histories(),
        size.chance,
        size.decision,
        size.terminal,
        size.all_information_sets(),
        size.information_sets
            .iter()
            .enumerate()
            .map(|(seat, n)| format!("seat {seat}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}
