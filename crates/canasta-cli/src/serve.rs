//! `canasta bot-serve`: a built-in bot behind the bot protocol, so that any
//! host speaking it (another program, or `canasta tournament` itself) can
//! seat it. See `docs/bot-protocol.md`.

use anyhow::{Context, bail};
use canasta_ai::protocol::{HostMessage, parse_legal, parse_observation, reply_line};
use canasta_ai::{BOT_NAMES, Bot, Decision, bot_by_name};
use canasta_core::Rules;
use clap::Args;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The built-in bot to serve.
    #[arg(long, short = 'b', default_value = "heuristic", value_name = "NAME")]
    pub bot: String,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    if bot_by_name(&args.bot, 0).is_none() {
        bail!(
            "unknown bot `{}` (known: {})",
            args.bot,
            BOT_NAMES.join(", ")
        );
    }
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut game: Option<(Rules, Box<dyn Bot>)> = None;
    for (i, line) in stdin.lines().enumerate() {
        let line = line.context("cannot read stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let n = i + 1;
        let msg: HostMessage =
            serde_json::from_str(&line).with_context(|| format!("line {n}: not a message"))?;
        match msg {
            HostMessage::Game { seed, header, .. } => {
                let rules = header
                    .rules()
                    .map_err(|e| anyhow::anyhow!("line {n}: {e}"))?;
                let bot = bot_by_name(&args.bot, seed).expect("the name is checked");
                game = Some((rules, bot));
            }
            HostMessage::Decision { observation, legal } => {
                let Some((rules, bot)) = game.as_mut() else {
                    bail!("line {n}: a decision before any game");
                };
                let obs = parse_observation(&observation).with_context(|| format!("line {n}"))?;
                let legal = parse_legal(&legal).with_context(|| format!("line {n}"))?;
                if legal.is_empty() {
                    bail!("line {n}: no legal action to choose from");
                }
                let action = bot
                    .try_choose(&Decision::from_observation(&obs, rules, &legal))
                    .with_context(|| format!("line {n}"))?;
                writeln!(out, "{}", reply_line(&action))?;
                out.flush()?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
