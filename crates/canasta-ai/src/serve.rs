//! The bot side of the bot protocol, one line at a time: what
//! `canasta bot-serve` runs between its stdin and stdout. Every line gets
//! an answer or, where the protocol expects none, nothing; a bad line gets
//! an error reply naming it (`{"error": "line N: ..."}`) and the server
//! goes on with the next one (`docs/bot-protocol.md`).

use crate::protocol::{HostMessage, parse_legal, parse_observation, reply_line};
use crate::{Bot, Decision, bot_by_name};
use canasta_core::Rules;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A bot served over the protocol: the bot's name, and the game under way.
pub struct Server {
    bot: String,
    game: Option<(Rules, Box<dyn Bot>)>,
}

/// The error reply for line `n`.
pub fn error_line(n: usize, message: &str) -> String {
    serde_json::json!({ "error": format!("line {n}: {message}") }).to_string()
}

impl Server {
    /// A server for the built-in bot `bot`; `None` if no bot has that name.
    pub fn new(bot: &str) -> Option<Server> {
        bot_by_name(bot, 0)?;
        Some(Server {
            bot: bot.to_string(),
            game: None,
        })
    }

    /// The answer to line `n`: a reply, an error reply, or `None` where the
    /// protocol expects no answer (a blank line, a good `game` line).
    pub fn handle(&mut self, n: usize, line: &str) -> Option<String> {
        if line.trim().is_empty() {
            return None;
        }
        match self.answer(line) {
            Ok(reply) => reply,
            Err(message) => Some(error_line(n, &message)),
        }
    }

    fn answer(&mut self, line: &str) -> Result<Option<String>, String> {
        let msg: HostMessage =
            serde_json::from_str(line).map_err(|e| format!("not a message: {e}"))?;
        match msg {
            HostMessage::Game { seed, header, .. } => {
                // A bad game line leaves no game: decisions wait for a good one.
                self.game = None;
                let rules = header.rules().map_err(|e| e.to_string())?;
                let bot = bot_by_name(&self.bot, seed).expect("the name was checked");
                self.game = Some((rules, bot));
                Ok(None)
            }
            HostMessage::Decision { observation, legal } => {
                let Some((rules, bot)) = self.game.as_mut() else {
                    return Err("a decision before any game".into());
                };
                let obs = parse_observation(&observation).map_err(|e| e.0)?;
                obs.validate(rules)
                    .map_err(|e| format!("impossible observation: {e}"))?;
                let legal = parse_legal(&legal).map_err(|e| e.0)?;
                if legal.is_empty() {
                    return Err("no legal action to choose from".into());
                }
                let decision = Decision::from_observation(&obs, rules, &legal);
                // A bot that fails on a position it was sent must not take
                // the server down; its game is over, the next one starts clean.
                match catch_unwind(AssertUnwindSafe(|| bot.try_choose(&decision))) {
                    Ok(Ok(action)) => Ok(Some(reply_line(&action))),
                    Ok(Err(e)) => Err(e.0),
                    Err(_) => {
                        self.game = None;
                        Err("the bot could not decide from this observation; \
                             send a new game line"
                            .into())
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{decision_line, game_line};
    use canasta_core::Seat;
    use canasta_core::{GameState, Phase, Rng};
    use proptest::prelude::*;

    fn error_of(reply: &Option<String>) -> Option<String> {
        let v: serde_json::Value = serde_json::from_str(reply.as_ref()?).ok()?;
        Some(v.get("error")?.as_str()?.to_string())
    }

    /// A game played through the server: every decision answered with a
    /// legal action.
    fn real_lines(seed: u64) -> Vec<String> {
        let rules = Rules::classic();
        let mut g = GameState::new(rules.clone());
        let mut rng = Rng::new(seed);
        g.deal_random(&mut rng, Seat::new(0));
        let mut lines = vec![game_line(&rules, Seat::new(0), seed)];
        for _ in 0..40 {
            if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                break;
            }
            let legal = g.legal_actions();
            lines.push(decision_line(&g.observe(g.to_act()), &legal));
            g.apply_unchecked(legal[rng.below(legal.len())]);
        }
        lines
    }

    #[test]
    fn bad_lines_get_error_replies_and_the_server_goes_on() {
        let mut server = Server::new("heuristic").unwrap();
        let lines = real_lines(4);
        assert_eq!(server.handle(1, &lines[0]), None);
        // Impossible, but well-typed: seat 9 of 4, and a stock of 10^6.
        let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        v["observation"]["seat"] = 9.into();
        let err = error_of(&server.handle(2, &v.to_string())).unwrap();
        assert!(err.starts_with("line 2: impossible observation"), "{err}");
        let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        v["observation"]["stock"] = 1_000_000.into();
        assert!(error_of(&server.handle(3, &v.to_string())).is_some());
        assert!(
            error_of(&server.handle(4, "not json"))
                .unwrap()
                .starts_with("line 4:")
        );
        // Counts a byte cannot hold: 300 jokers known in a hand, 255 red
        // threes of each colour laid out.
        let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        v["observation"]["known"][1] = serde_json::json!(vec!["JK"; 300]);
        assert!(error_of(&server.handle(4, &v.to_string())).is_some());
        let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        v["observation"]["red_three_suits"][0] = serde_json::json!([255, 255]);
        assert!(error_of(&server.handle(4, &v.to_string())).is_some());
        // The next good line is answered with an action.
        let reply = server.handle(5, &lines[1]).unwrap();
        assert!(reply.contains("\"action\""), "{reply}");
        // A decision before any game.
        let mut fresh = Server::new("random").unwrap();
        let err = error_of(&fresh.handle(1, &lines[1])).unwrap();
        assert!(err.contains("before any game"), "{err}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Arbitrary bytes never take the server down.
        #[test]
        fn arbitrary_lines_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            let mut server = Server::new("heuristic").unwrap();
            let text = String::from_utf8_lossy(&bytes);
            server.handle(1, &real_lines(1)[0]);
            let reply = server.handle(2, &text);
            if let Some(r) = reply {
                prop_assert!(error_of(&Some(r)).is_some());
            }
        }

        /// Real decision lines with one number changed: an answer or an
        /// error reply, never a panic.
        #[test]
        fn mutated_observations_never_panic(
            pick in 1usize..30,
            key in 0usize..14,
            value in prop_oneof![Just(-1i64), 0i64..20, Just(1_000_000), Just(i64::MAX)],
        ) {
            let lines = real_lines(7);
            let mut server = Server::new("ismcts-easy").unwrap();
            server.handle(1, &lines[0]);
            let line = &lines[pick.min(lines.len() - 1).max(1)];
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            let keys = ["seat", "players", "current", "to_act", "dealer", "stock",
                "pile_hidden", "state_id", "hand_sizes", "foot_sizes", "side_of",
                "red_threes", "scores", "opening_needed"];
            let k = keys[key];
            let obs = &mut v["observation"];
            if obs[k].is_array() {
                if let Some(first) = obs[k].as_array_mut().and_then(|a| a.first_mut()) {
                    *first = value.into();
                }
            } else {
                obs[k] = value.into();
            }
            let reply = server.handle(2, &v.to_string());
            prop_assert!(reply.is_some());
        }
    }
}
