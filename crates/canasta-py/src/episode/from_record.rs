//! Loading an episode from a game record: checked as `canasta check`
//! checks it, then replayed to where it stops.

use super::{Config, Episode, EpisodeError, Length};
use canasta_core::record;
use canasta_core::{Phase, Rng};
use serde_json::Value;

impl Episode {
    /// A game read from a record (one game, checked by the engine as
    /// `canasta check` does); it goes on from where the record stops, with
    /// later hands dealt from `seed` (or the header's seed).
    ///
    /// # Errors
    /// What `canasta check` would report, or more than one game.
    pub fn from_record(
        text: &str,
        config: Config,
        seed: Option<u64>,
    ) -> Result<Episode, EpisodeError> {
        let err = |m: String| EpisodeError::Record(m);
        let text = record::without_bom(text);
        let check = record::check_record(text);
        if let Some(e) = check.error {
            return Err(err(e.to_string()));
        }
        match check.games.as_slice() {
            [one] => {
                if let Some(m) = one.mismatches.first() {
                    return Err(err(format!("line {}: {}", m.line, m.message)));
                }
            }
            [] => return Err(err("the record holds no game".into())),
            more => {
                return Err(err(format!(
                    "the record holds {} games; load one at a time",
                    more.len()
                )));
            }
        }
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let header: Value = serde_json::from_str(lines[0]).map_err(|e| err(e.to_string()))?;
        let mut replay = record::Replay::start(&header, 1).map_err(|e| err(e.to_string()))?;
        let header_seed = header.get("seed").and_then(Value::as_u64);
        let rules = replay.state().rules().clone();
        let n = rules.game.players as usize;
        let mut dealer = None;
        for (i, line) in lines.iter().enumerate().skip(1) {
            let value: Value = serde_json::from_str(line).map_err(|e| err(e.to_string()))?;
            if let Some(d) = value.get("dealer").and_then(Value::as_u64) {
                dealer = Some(d as usize);
            }
            replay
                .feed(&value, i + 1)
                .map_err(|e| err(format!("line {}: {e}", i + 1)))?;
        }
        let seed = seed.or(header_seed).unwrap_or(0);
        let mut ep = Episode::new(
            rules,
            Config {
                explicit_chance: true,
                record: false,
                ..config
            },
            seed,
            0,
        );
        ep.config = config;
        ep.rng = Rng::stream(seed, u64::MAX);
        ep.seed = header_seed;
        ep.state = replay.state().clone();
        ep.record = if config.record {
            lines.iter().map(|l| l.to_string()).collect()
        } else {
            Vec::new()
        };
        ep.chance = None;
        match (ep.state.phase(), dealer) {
            (Phase::Draw | Phase::Play | Phase::Answer, Some(d)) => {
                ep.dealer = d;
                ep.prepare_decision();
            }
            (Phase::HandOver, _) if config.length == Length::Hand => {
                // A one-hand episode whose hand is over: it ends here.
                let result = ep.state.last_hand().expect("a hand over has a result");
                let totals: Vec<f64> = result.teams.iter().map(|t| f64::from(t.total)).collect();
                ep.finish(&totals);
            }
            (Phase::GameOver, _) => {
                let scores: Vec<f64> = ep.state.scores().iter().map(|&s| f64::from(s)).collect();
                ep.finish(&scores);
            }
            (_, d) => {
                // Before the first deal, or between hands: deal the next.
                ep.dealer = d.map_or(0, |d| (d + 1) % n);
                if config.explicit_chance {
                    ep.start_deck();
                } else {
                    ep.deal_from_stream();
                }
            }
        }
        Ok(ep)
    }
}
