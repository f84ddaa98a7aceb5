//! An episode as text and back (what `pickle`, `copy` and OpenSpiel's
//! `serialize_game_and_state` store): the game record is the serial form,
//! with what the record cannot say beside it — the episode's settings, the
//! random stream's position (later hands deal the same cards), the chance
//! events drawn so far of a deal in progress, the ids of an action being
//! spelled, and how the episode ended.
//!
//! Restoring replays the record through the engine's checker, so a damaged
//! or hand-edited serial form is refused with the record's own error, never
//! turned into a state the engine could not reach.

use super::{ChanceEvent, Config, Episode, EpisodeError, Length, Reward};
use crate::tensor::Layout;
use canasta_core::record::{self, Replay};
use canasta_core::{ActionList, Card, GameState, Phase, Rng};
use serde_json::{Value, json};

/// The serial form's own version (the record inside keeps its own).
const SERIAL_VERSION: u64 = 1;

impl Episode {
    /// The episode as one JSON object (see the module's doc).
    ///
    /// # Errors
    /// An episode that keeps no record (`record=False`, a resampled game or
    /// one made from a bot's observation): its record is its serial form.
    pub fn to_serial(&self) -> Result<String, EpisodeError> {
        if !self.config.record {
            return Err(EpisodeError::Record(
                "this game keeps no record (made with record=False, by resample() or \
                 from an observation), and the record is what a saved game is made of"
                    .into(),
            ));
        }
        let config = json!({
            "episode": match self.config.length { Length::Game => "game", Length::Hand => "hand" },
            "reward": match self.config.reward { Reward::Win => "win", Reward::Points => "points" },
            "max_hands": self.config.max_hands,
            "explicit_chance": self.config.explicit_chance,
        });
        let chance = self.chance.map(|c| match c {
            ChanceEvent::FirstDealer => "dealer",
            ChanceEvent::Card => "card",
            ChanceEvent::FirstPlayer => "first",
        });
        let deck: Vec<String> = self.deck.iter().map(Card::to_string).collect();
        let rng = self.rng.state().map(|w| format!("{w:016x}"));
        // The speller keeps the last action's ids until the next decision:
        // only a decision's own count.
        let at_decision = self.chance.is_none() && !self.terminal;
        let spelled = if at_decision {
            self.speller.prefix()
        } else {
            &[]
        };
        let value = json!({
            "canasta_episode": SERIAL_VERSION,
            "config": config,
            "record": self.record,
            "rng": rng,
            "dealer": self.dealer,
            "chance": chance,
            "deck": deck,
            "spelled": spelled,
            "decisions": self.decisions,
            "terminal": self.terminal,
            "returns": self.returns,
        });
        Ok(value.to_string())
    }

    /// The episode [`Episode::to_serial`] wrote, exactly: the same state,
    /// legal ids, observations, record and later deals.
    ///
    /// # Errors
    /// Text that is not a serial form of this version, or whose record the
    /// engine's checker refuses; the error names what was wrong.
    pub fn from_serial(text: &str) -> Result<Episode, EpisodeError> {
        let bad = |what: &str| EpisodeError::Record(format!("not a saved game: {what}"));
        let v: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        match v.get("canasta_episode").and_then(Value::as_u64) {
            Some(SERIAL_VERSION) => {}
            Some(other) => return Err(bad(&format!("version {other}, this build reads 1"))),
            None => return Err(bad("no canasta_episode version")),
        }
        let field = |name: &str| v.get(name).ok_or_else(|| bad(&format!("no {name}")));
        let config = read_config(field("config")?).map_err(|m| bad(&m))?;
        let lines: Vec<String> = field("record")?
            .as_array()
            .and_then(|a| a.iter().map(|l| l.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| bad("record is not a list of lines"))?;
        let state = replay(&lines)?;
        let rng = read_rng(field("rng")?)
            .ok_or_else(|| bad("rng is not a generator's state (four hex words, not all zero)"))?;
        let players = state.players();
        let dealer = as_index(field("dealer")?, players).ok_or_else(|| bad("dealer"))?;
        let chance = match field("chance")? {
            Value::Null => None,
            Value::String(kind) if kind == "dealer" => Some(ChanceEvent::FirstDealer),
            Value::String(kind) if kind == "card" => Some(ChanceEvent::Card),
            Value::String(kind) if kind == "first" => Some(ChanceEvent::FirstPlayer),
            _ => return Err(bad("chance is not dealer, card, first or null")),
        };
        let deck: Vec<Card> = field("deck")?
            .as_array()
            .and_then(|a| {
                a.iter()
                    .map(|c| c.as_str().and_then(|t| t.parse().ok()))
                    .collect()
            })
            .ok_or_else(|| bad("deck is not a list of cards"))?;
        let spelled: Vec<usize> = field("spelled")?
            .as_array()
            .and_then(|a| a.iter().map(|i| as_index(i, usize::MAX)).collect())
            .ok_or_else(|| bad("spelled is not a list of ids"))?;
        let decisions = field("decisions")?
            .as_u64()
            .ok_or_else(|| bad("decisions"))?;
        let terminal = field("terminal")?
            .as_bool()
            .ok_or_else(|| bad("terminal"))?;
        let returns: Vec<f64> = field("returns")?
            .as_array()
            .and_then(|a| a.iter().map(Value::as_f64).collect())
            .filter(|r: &Vec<f64>| r.len() == players)
            .ok_or_else(|| bad("returns is not a number for each seat"))?;

        let header: Value = serde_json::from_str(&lines[0]).map_err(|e| bad(&e.to_string()))?;
        let mut ep = Episode {
            layout: Layout::of(state.rules()),
            seed: header.get("seed").and_then(Value::as_u64),
            state,
            config,
            rng,
            dealer,
            chance: None,
            deck: Vec::new(),
            deck_left: canasta_core::CardCounts::new(),
            legal: ActionList::new(),
            speller: Default::default(),
            record: lines,
            terminal,
            returns,
            decisions,
        };
        if terminal {
            ep.speller.reset(&[]);
            return Ok(ep);
        }
        match chance {
            Some(event) => {
                let in_hand = matches!(ep.state.phase(), Phase::Draw | Phase::Play | Phase::Answer);
                if in_hand || !config.explicit_chance {
                    return Err(bad("a chance event while no deal is under way"));
                }
                if event == ChanceEvent::FirstDealer {
                    if !deck.is_empty() || ep.state.hands_played() > 0 {
                        return Err(bad("the first dealer is drawn before any card"));
                    }
                    ep.chance = Some(ChanceEvent::FirstDealer);
                } else {
                    // The cards drawn so far, drawn again: the same checks
                    // as when they were first drawn.
                    ep.start_deck();
                    for card in deck {
                        ep.apply_chance(card.index())
                            .map_err(|_| bad("deck holds a card the deal has no more of"))?;
                    }
                    if ep.chance != Some(event) {
                        return Err(bad("chance does not match the cards drawn"));
                    }
                }
            }
            None => {
                if !matches!(ep.state.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    return Err(bad("no decision and no chance event, yet not over"));
                }
                ep.prepare_decision();
                for id in spelled {
                    match ep.speller.step(id) {
                        Ok(None) => {}
                        _ => return Err(bad("spelled is not the start of a legal action")),
                    }
                }
            }
        }
        Ok(ep)
    }
}

/// The state at the end of `lines`, checked as `canasta check` checks a
/// record (one game; a mismatch or a bad line is the error).
fn replay(lines: &[String]) -> Result<GameState, EpisodeError> {
    let err = |m: String| EpisodeError::Record(format!("the saved game's record: {m}"));
    let text = lines.join("\n");
    let check = record::check_record(&text);
    if let Some(e) = check.error {
        return Err(err(e.to_string()));
    }
    if let Some(m) = check.games.first().and_then(|g| g.mismatches.first()) {
        return Err(err(format!("line {}: {}", m.line, m.message)));
    }
    if check.games.len() != 1 {
        return Err(err(format!("{} games, not one", check.games.len())));
    }
    let header: Value = serde_json::from_str(&lines[0]).map_err(|e| err(e.to_string()))?;
    let mut replay = Replay::start(&header, 1).map_err(|e| err(e.to_string()))?;
    for (i, line) in lines.iter().enumerate().skip(1) {
        let value: Value = serde_json::from_str(line).map_err(|e| err(e.to_string()))?;
        replay
            .feed(&value, i + 1)
            .map_err(|e| err(format!("line {}: {e}", i + 1)))?;
    }
    Ok(replay.state().clone())
}

fn read_config(v: &Value) -> Result<Config, String> {
    let text = |name: &str| v.get(name).and_then(Value::as_str);
    let length = match text("episode") {
        Some("game") => Length::Game,
        Some("hand") => Length::Hand,
        _ => return Err("config.episode is not game or hand".into()),
    };
    let reward = match text("reward") {
        Some("win") => Reward::Win,
        Some("points") => Reward::Points,
        _ => return Err("config.reward is not win or points".into()),
    };
    let max_hands = v
        .get("max_hands")
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or("config.max_hands")?;
    let explicit_chance = v
        .get("explicit_chance")
        .and_then(Value::as_bool)
        .ok_or("config.explicit_chance")?;
    Ok(Config {
        length,
        reward,
        max_hands,
        record: true,
        explicit_chance,
    })
}

fn read_rng(v: &Value) -> Option<Rng> {
    let words = v.as_array()?;
    let mut s = [0u64; 4];
    if words.len() != 4 {
        return None;
    }
    for (slot, w) in s.iter_mut().zip(words) {
        *slot = u64::from_str_radix(w.as_str()?, 16).ok()?;
    }
    Rng::from_state(s)
}

fn as_index(v: &Value, below: usize) -> Option<usize> {
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n < below)
}

#[cfg(test)]
mod tests {
    use super::super::Mover;
    use super::*;
    use canasta_core::rules::all_forms;

    /// What a restored episode must agree on with the one saved.
    fn same(a: &Episode, b: &Episode) {
        assert_eq!(a.mover(), b.mover());
        assert_eq!(a.legal_ids(), b.legal_ids());
        if matches!(a.mover(), Mover::Seat(_)) {
            assert_eq!(a.speller().prefix(), b.speller().prefix());
        }
        assert_eq!(a.record_lines(), b.record_lines());
        assert_eq!(a.chance_outcomes(), b.chance_outcomes());
        assert_eq!(a.returns(), b.returns());
        assert_eq!(a.decisions(), b.decisions());
        assert_eq!(a.dealer(), b.dealer());
        assert_eq!(a.state().describe(), b.state().describe());
        let size = a.layout().size();
        for seat in 0..a.players() {
            let (mut x, mut y) = (vec![0.0; size], vec![0.0; size]);
            a.observe_into(seat, &mut x);
            b.observe_into(seat, &mut y);
            assert_eq!(x, y, "seat {seat}'s observation");
        }
    }

    fn random_step(ep: &mut Episode, rng: &mut Rng) {
        match ep.mover() {
            Mover::Chance => {
                let outcomes = ep.chance_outcomes();
                ep.apply_chance(outcomes[rng.below(outcomes.len())].0)
                    .unwrap();
            }
            Mover::Seat(_) => {
                let ids = ep.legal_ids();
                ep.step(usize::from(ids[rng.below(ids.len())])).unwrap();
            }
            Mover::Terminal => unreachable!(),
        }
    }

    /// Every form, both kinds of chance, whole games of two hands: saved
    /// and restored at random points (mid-deal, mid-spelling, between
    /// hands, at the end), the copy agrees with the original and then
    /// plays on identically, later deals included.
    #[test]
    fn a_restored_episode_is_the_saved_one_and_plays_on_the_same() {
        let (mut mid_deal, mut mid_spelling) = (0, 0);
        for (f, rules) in all_forms().into_iter().enumerate() {
            for explicit in [false, true] {
                let config = Config {
                    length: Length::Game,
                    max_hands: 2,
                    explicit_chance: explicit,
                    ..Config::default()
                };
                let mut ep = Episode::new(rules.clone(), config, 40 + f as u64, 1);
                let mut rng = Rng::new(f as u64);
                let mut copies: Vec<Episode> = Vec::new();
                let mut steps = 0u64;
                while !ep.is_terminal() {
                    if rng.below(150) == 0 && copies.len() < 3 {
                        let text = ep.to_serial().unwrap();
                        let back = Episode::from_serial(&text).unwrap();
                        same(&ep, &back);
                        mid_deal += usize::from(ep.chance_kind() == Some("card"));
                        mid_spelling += usize::from(!back.speller().prefix().is_empty());
                        copies.push(back);
                    }
                    // Each copy takes the same steps (the same draws).
                    let draw = rng.clone();
                    random_step(&mut ep, &mut rng);
                    for c in &mut copies {
                        let mut d = draw.clone();
                        random_step(c, &mut d);
                    }
                    steps += 1;
                    assert!(steps < 400_000, "{} did not end", rules.variant());
                }
                let end = Episode::from_serial(&ep.to_serial().unwrap()).unwrap();
                same(&ep, &end);
                for c in &copies {
                    same(&ep, c);
                }
            }
        }
        assert!(
            mid_deal > 0 && mid_spelling > 0,
            "{mid_deal} mid-deal, {mid_spelling} mid-spelling"
        );
    }

    #[test]
    fn a_game_without_a_record_cannot_be_saved_and_says_why() {
        let config = Config {
            record: false,
            ..Config::default()
        };
        let ep = Episode::new(canasta_core::Rules::classic(), config, 1, 0);
        let e = ep.to_serial().unwrap_err().to_string();
        assert!(e.contains("keeps no record"), "{e}");
    }

    /// A damaged serial form is refused with what was wrong, never loaded.
    #[test]
    fn damaged_serial_forms_are_refused_by_name() {
        let mut ep = Episode::new(canasta_core::Rules::classic(), Config::default(), 2, 0);
        let mut rng = Rng::new(5);
        for _ in 0..40 {
            random_step(&mut ep, &mut rng);
        }
        let good: Value = serde_json::from_str(&ep.to_serial().unwrap()).unwrap();
        let cases: [(&str, Value, &str); 6] = [
            ("canasta_episode", json!(9), "version 9"),
            ("rng", json!(["0", "0", "0", "0"]), "rng"),
            ("dealer", json!(7), "dealer"),
            ("spelled", json!([1, 2, 3, 4, 5, 6, 7]), "spelled"),
            ("chance", json!("card"), "chance"),
            ("returns", json!([0.0]), "returns"),
        ];
        for (field, value, words) in cases {
            let mut bad = good.clone();
            bad[field] = value;
            let e = Episode::from_serial(&bad.to_string())
                .err()
                .unwrap_or_else(|| panic!("{field} damaged was accepted"))
                .to_string();
            assert!(e.contains(words), "{field}: {e}");
        }
        // A record line changed: the checker's own words.
        let mut bad = good.clone();
        let lines = bad["record"].as_array_mut().unwrap();
        let last = lines.len() - 1;
        lines[last] = json!("{\"seat\":0,\"action\":\"discard ZZ\"}");
        let e = Episode::from_serial(&bad.to_string())
            .err()
            .expect("a damaged record line was accepted")
            .to_string();
        assert!(e.contains("record"), "{e}");
        assert!(Episode::from_serial("not json").is_err());
    }
}
