//! `canasta bot-serve`: a built-in bot behind the bot protocol, so that any
//! host speaking it (another program, or `canasta tournament` itself) can
//! seat it. See `docs/bot-protocol.md`.

use anyhow::{Context, bail};
use canasta_ai::BOT_NAMES;
use canasta_ai::serve::Server;
use clap::Args;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BotServeArgs {
    /// The built-in bot to serve.
    #[arg(long, short = 'b', default_value = "heuristic", value_name = "NAME")]
    pub bot: String,
}

pub fn run(args: &BotServeArgs) -> anyhow::Result<ExitCode> {
    let Some(mut server) = Server::new(&args.bot) else {
        bail!(
            "unknown bot `{}` (known: {})",
            args.bot,
            BOT_NAMES.join(", ")
        );
    };
    let mut stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut bytes = Vec::new();
    for n in 1.. {
        bytes.clear();
        // Bytes, not text: a line that is not UTF-8 is answered like any
        // other bad line, not the end of the service.
        if stdin
            .read_until(b'\n', &mut bytes)
            .context("cannot read stdin")?
            == 0
        {
            break;
        }
        let line = String::from_utf8_lossy(&bytes);
        if let Some(reply) = server.handle(n, &line) {
            writeln!(out, "{reply}")?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
