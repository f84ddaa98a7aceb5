//! A hint for the player to act: what the strongest bot would play, said
//! as a Canasta player would say it ("Take the pile: 9 cards, and it opens
//! for your side. A clear choice."), with the search's figures apart for
//! players who ask. The terminal and the browser give the same hint.
//!
//! The advice reads only what the acting seat sees; how sure it sounds
//! comes from the search's statistics, taken together by what matters to
//! a player (the same cards in other suits are one choice), so that a wide
//! Samba turn is not a "close call" every time.

mod words;

use crate::heuristic::{self, View};
use crate::{Bot, Decision, IsMctsBot, Level, RootStat};
use canasta_core::{Action, CardStyle, GameState, Rng, Rules};
use std::time::Duration;
use words::Seat;

/// How long a hint may think by default: long enough for the expert
/// search to settle, short enough not to keep a player waiting.
pub const HINT_TIME: Duration = Duration::from_millis(900);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub action: Action,
    /// One or two short sentences in a player's words: what to do, why,
    /// and how clear the choice is (no search figures).
    pub advice: String,
    /// The search's figures, for players who ask: the share of its
    /// playouts that chose the action and their mean outcome, the
    /// runner-up's, and whether the rules of thumb (the heuristic bot)
    /// agree.
    pub figures: String,
}

impl Hint {
    fn new(action: Action, advice: String, figures: String) -> Hint {
        Hint {
            action,
            advice,
            figures,
        }
    }
}

/// The hint for the seat to act in `state` (`None` when nobody is to act):
/// IS-MCTS at the expert level thinking at most `time`, reading only that
/// seat's observation like every bot. `seed` makes it repeatable; `style`
/// names the cards in the advice and figures (notation for the terminal,
/// as drawn for the browser).
pub fn hint(state: &GameState, time: Duration, seed: u64, style: CardStyle) -> Option<Hint> {
    hint_until(state, time, seed, style, None)
}

/// [`hint`], whose search ends early once `stop` is set (a server
/// stopping); unset, the same hint.
pub fn hint_until(
    state: &GameState,
    time: Duration,
    seed: u64,
    style: CardStyle,
    stop: Option<crate::Stop>,
) -> Option<Hint> {
    let legal = state.legal_actions();
    if legal.is_empty() {
        return None;
    }
    let decision = Decision::new(state, &legal);
    let obs = decision.observation();
    let rules = state.rules();
    // Actions are tried on a sample of what the seat cannot see.
    let sample = decision.determinize(&mut Rng::new(seed ^ state.state_id() ^ 0x4849_4e54));
    let seat = Seat::new(&obs, rules, &legal, sample, style);
    if let [only] = legal[..] {
        return Some(Hint::new(
            only,
            seat.only(only),
            "the only legal action: no search needed".into(),
        ));
    }
    let mut config = Level::Expert.config();
    config.time = Some(time);
    let mut bot = IsMctsBot::with_config(config, seed ^ state.state_id());
    if let Some(stop) = stop {
        bot.set_stop(stop);
    }
    let action = bot.choose(&decision);
    let stats = bot.root_stats();
    let choices = choices(&stats, &legal, rules);
    let verdict = judge(action, &choices);
    let mut advice = seat.advise(action);
    if let Some(sentence) = verdict.sentence(action, &seat) {
        advice.push(' ');
        advice.push_str(&sentence);
    }
    let thumb = heuristic::best(&View::from_observation(&obs, rules), &legal);
    let figures = figures(
        action,
        &stats,
        &choices,
        bot.last_iterations(),
        thumb,
        &seat,
        rules,
    );
    Some(Hint::new(action, advice, figures))
}

/// One choice as a player sees it: the root actions that differ only in
/// suits (in Samba the search keeps 9H and 9S apart; a player weighing
/// "throw a nine" does not), with their visits and rewards summed.
#[derive(Clone, Debug, PartialEq)]
struct Choice {
    /// The most visited of its actions (a legal one).
    action: Action,
    visits: u32,
    /// Sum of the playouts' rewards.
    reward: f64,
    /// Root actions taken together.
    members: usize,
}

impl Choice {
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / f64::from(self.visits)
        }
    }

    fn holds(&self, action: Action) -> bool {
        self.action.class_key() == action.class_key()
    }
}

/// The root statistics grouped into choices, most visited first.
fn choices(stats: &[RootStat], legal: &[Action], rules: &Rules) -> Vec<Choice> {
    let mut out: Vec<Choice> = Vec::new();
    // `stats` is most visited first, so each choice's first action is its
    // most visited.
    for s in stats {
        let Some(&a) = legal.iter().find(|a| a.key_under(rules) == s.key) else {
            continue;
        };
        let reward = s.mean_reward * f64::from(s.visits);
        match out.iter_mut().find(|c| c.holds(a)) {
            Some(c) => {
                c.visits += s.visits;
                c.reward += reward;
                c.members += 1;
            }
            None => out.push(Choice {
                action: a,
                visits: s.visits,
                reward,
                members: 1,
            }),
        }
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.visits));
    out
}

/// How sure the search is of its choice, against the other choices.
#[derive(Clone, Debug, PartialEq)]
enum Verdict {
    /// Far more playouts went its way, and they ended better.
    Clear,
    /// Preferred, with this runner-up behind.
    Next(Action),
    /// This runner-up is nearly as good.
    Close(Action),
    /// Several others are about as good: the choice barely matters.
    AnyOf(Vec<Action>),
    /// No statistics to judge by.
    Unknown,
}

/// A mean outcome this close to the choice's is as good, for a player.
const SAME_OUTCOME: f64 = 0.01;

fn judge(chosen: Action, choices: &[Choice]) -> Verdict {
    let Some(best) = choices.iter().find(|c| c.holds(chosen)) else {
        return Verdict::Unknown;
    };
    let others: Vec<&Choice> = choices.iter().filter(|c| !c.holds(chosen)).collect();
    let Some(runner) = others.first() else {
        return Verdict::Clear;
    };
    let (v, m) = (f64::from(best.visits), best.mean());
    // Others with at least half the playouts and as good an outcome.
    let near: Vec<Action> = others
        .iter()
        .filter(|c| f64::from(c.visits) >= 0.5 * v && c.mean() >= m - SAME_OUTCOME)
        .map(|c| c.action)
        .collect();
    if near.len() >= 2 {
        return Verdict::AnyOf(near.into_iter().take(3).collect());
    }
    let (rv, rm) = (f64::from(runner.visits), runner.mean());
    if rv >= 0.6 * v || (rv >= 0.25 * v && rm >= m - SAME_OUTCOME / 2.0) {
        Verdict::Close(runner.action)
    } else if (v >= 2.0 * rv && m - rm >= 2.0 * SAME_OUTCOME) || v >= 4.0 * rv {
        Verdict::Clear
    } else {
        Verdict::Next(runner.action)
    }
}

impl Verdict {
    /// The verdict in a player's words, naming the alternatives.
    fn sentence(&self, chosen: Action, seat: &Seat<'_>) -> Option<String> {
        Some(match self {
            Verdict::Clear => "A clear choice.".into(),
            Verdict::Next(a) => format!("Next best: {}.", seat.gerund(*a)),
            Verdict::Close(a) => format!("A close call: {} is nearly as good.", seat.gerund(*a)),
            Verdict::AnyOf(others) => {
                let cards: Option<Vec<String>> = std::iter::once(&chosen)
                    .chain(others)
                    .map(|a| match a {
                        Action::Discard(c) => Some(seat.card(*c)),
                        _ => None,
                    })
                    .collect();
                match cards {
                    Some(cards) => format!(
                        "Any of these discards is about as good: {}.",
                        cards.join(", ")
                    ),
                    None => {
                        let list: Vec<String> = others.iter().map(|a| seat.gerund(*a)).collect();
                        format!("About as good: {}.", list.join(", or "))
                    }
                }
            }
            Verdict::Unknown => return None,
        })
    }
}

/// The numbers line: the chosen action's share of the playouts and mean
/// outcome (with the same cards in other suits, where they were apart),
/// the runner-up choice's, and the rules of thumb's opinion.
fn figures(
    action: Action,
    stats: &[RootStat],
    choices: &[Choice],
    playouts: u32,
    thumb: Action,
    seat: &Seat<'_>,
    rules: &Rules,
) -> String {
    let total: u32 = stats.iter().map(|s| s.visits).sum::<u32>().max(1);
    let share = |v: u32| 100.0 * f64::from(v) / f64::from(total);
    let mut out = String::new();
    if let Some(own) = stats.iter().find(|s| s.key == action.key_under(rules)) {
        out.push_str(&format!(
            "{:.0}% of {playouts} playouts chose it",
            share(own.visits)
        ));
        if let Some(c) = choices.iter().find(|c| c.holds(action) && c.members > 1) {
            out.push_str(&format!(
                " ({:.0}% with the same cards in other suits, mean {:.2})",
                share(c.visits),
                c.mean()
            ));
        }
        out.push_str(&format!(
            ", mean outcome {:.2} (0.50 is even)",
            own.mean_reward
        ));
    }
    if let Some(runner) = choices.iter().find(|c| !c.holds(action)) {
        let suits = if runner.members > 1 {
            " in any suit"
        } else {
            ""
        };
        out.push_str(&format!(
            "; runner-up {}{suits}: {:.0}%, {:.2}",
            seat.named(runner.action),
            share(runner.visits),
            runner.mean()
        ));
    }
    if thumb.class_key() == action.class_key() {
        out.push_str("; rules of thumb agree");
    } else {
        out.push_str(&format!("; rules of thumb say {}", seat.named(thumb)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{Card, CardCounts, Group, Meld, Phase};

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    fn meld(s: &str) -> Meld {
        Meld {
            cards: Group::from_cards(&cards(s)).unwrap(),
            closed: false,
        }
    }

    /// A table laid out by hand, seen from the seat to act.
    struct Table {
        rules: Rules,
        phase: Phase,
        hand: &'static str,
        own: Vec<&'static str>,
        theirs: Vec<&'static str>,
        pile: &'static str,
        frozen: bool,
    }

    impl Table {
        fn new(variant: &str, hand: &'static str) -> Table {
            Table {
                rules: Rules::preset(variant, None, None).unwrap(),
                phase: Phase::Play,
                hand,
                own: Vec::new(),
                theirs: Vec::new(),
                pile: "",
                frozen: false,
            }
        }

        /// The position: a dealt hand's observation with the table above
        /// put in, and a game state built from it (the cards nobody at
        /// the table sees dealt at random).
        fn state(&self) -> GameState {
            let rules = &self.rules;
            let mut rng = Rng::new(5);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, canasta_core::Seat::new(0));
            let mut obs = g.observe(g.to_act());
            let seat = obs.seat;
            let side = obs.side_of[seat];
            let other = obs.side_of[seat.after(1, obs.players)];
            obs.phase = self.phase;
            obs.drew_from_stock = self.phase != Phase::Draw;
            if self.phase == Phase::Answer {
                // Partner drew and asks to go out.
                obs.current = seat.after(2, obs.players);
                obs.asked = true;
            }
            obs.hand = cards(self.hand).into_iter().collect();
            obs.hand_sizes[seat] = obs.hand.total();
            obs.known = vec![CardCounts::new(); obs.players];
            obs.known[seat] = obs.hand;
            obs.melds[side] = self.own.iter().map(|m| meld(m)).collect();
            obs.melds[other] = self.theirs.iter().map(|m| meld(m)).collect();
            obs.pile = cards(self.pile);
            obs.pile_hidden = 0;
            obs.pile_frozen = self.frozen;
            for s in canasta_core::Seat::all(obs.players) {
                obs.table.seat_melded[s] = !obs.melds[obs.side_of[s]].is_empty();
            }
            obs.table.melds_at_start = obs.melds[side].len();
            obs.table.had_melded = !obs.melds[side].is_empty();
            // The stock holds the rest of the deck.
            let mut placed = obs.seen().total() + obs.foot_sizes.iter().sum::<usize>();
            for s in canasta_core::Seat::all(obs.players).filter(|&s| s != seat) {
                placed += obs.hand_sizes[s];
            }
            obs.stock = rules.deal.deck().total() - placed;
            obs.validate(rules).unwrap();
            GameState::from_observation(&obs, rules, &mut rng)
        }
    }

    fn act(s: &str) -> Action {
        s.parse().unwrap()
    }

    /// The advice for `action` at `state`, as the hint words it.
    fn advice(state: &GameState, action: Action) -> String {
        advice_in(state, action, CardStyle::Notation)
    }

    /// The same, cards named in `style`.
    fn advice_in(state: &GameState, action: Action, style: CardStyle) -> String {
        let legal = state.legal_actions();
        assert!(legal.contains(&action), "{action} not in {legal:?}");
        let obs = state.observe(state.to_act());
        let sample = state.determinize(state.to_act(), &mut Rng::new(1));
        Seat::new(&obs, state.rules(), &legal, sample, style).advise(action)
    }

    /// Reads as a player's words: no engine output, no Debug text.
    fn assert_players_words(advice: &str) {
        for bad in [
            "Some(",
            "None",
            "::",
            "playouts",
            "mean outcome",
            "UCB",
            "Discard(",
            "Meld(",
            "Pickup",
            "Rank",
            "Suit",
            "Natural",
            "Mixed",
            "[",
            "{",
        ] {
            assert!(!advice.contains(bad), "`{bad}` in: {advice}");
        }
        assert!(advice.ends_with('.'), "{advice}");
    }

    fn assert_figures(h: &Hint) {
        assert!(h.figures.contains("playouts chose it"), "{}", h.figures);
        assert!(h.figures.contains("mean outcome"), "{}", h.figures);
        assert!(h.figures.contains("rules of thumb"), "{}", h.figures);
    }

    #[test]
    fn a_hint_is_legal_and_says_why_in_words() {
        let mut state = GameState::new(Rules::classic());
        state.deal_random(&mut Rng::new(3), canasta_core::Seat::new(0));
        let h = hint(&state, Duration::from_millis(50), 1, CardStyle::Notation).unwrap();
        assert!(state.legal_actions().contains(&h.action));
        assert_players_words(&h.advice);
        // The draw phase offers one action unless the pile can be taken.
        if state.legal_actions().len() == 1 {
            assert!(
                h.advice.starts_with("Draw from the stock: "),
                "{}",
                h.advice
            );
            assert!(h.figures.contains("only legal action"), "{}", h.figures);
        } else {
            assert_figures(&h);
        }
        // Past the draw there are choices.
        state.apply(Action::Draw).unwrap();
        let h = hint(&state, Duration::from_millis(50), 1, CardStyle::Notation).unwrap();
        assert!(state.legal_actions().contains(&h.action));
        assert_players_words(&h.advice);
        assert_figures(&h);
    }

    /// A pile of one card is `one card`, not `1 cards`.
    #[test]
    fn a_pile_of_one_card_is_one_card() {
        let mut t = Table::new("classic", "KS KD 7H 9C 4D JK QS QH QC TS");
        t.phase = Phase::Draw;
        t.pile = "KH";
        let state = t.state();
        let a = advice(&state, act("pickup KS KD / QS QH QC"));
        assert!(a.contains(": one card, "), "{a}");
        let a = advice(&state, Action::Draw);
        assert!(a.contains("the pile's one card is not worth"), "{a}");
    }

    /// Classic: taking the pile says how many cards it holds and that it
    /// opens for the side; drawing instead says the pile is not worth it.
    #[test]
    fn a_pickup_says_how_many_cards() {
        let mut t = Table::new("classic", "KS KD 7H 9C 4D JK QS QH QC TS");
        t.phase = Phase::Draw;
        t.pile = "5C 6D 8S 9H TD JC 4S AH KH";
        let state = t.state();
        let take = act("pickup KS KD / QS QH QC");
        let a = advice(&state, take);
        assert_players_words(&a);
        assert!(
            a.starts_with("Take the pile with two kings and meld three queens: 9 cards, and it opens for your side."),
            "{a}"
        );
        let a = advice(&state, Action::Draw);
        assert_players_words(&a);
        assert!(a.contains("the pile's 9 cards"), "{a}");
        // Past the draw, an opening meld says its points once.
        t.phase = Phase::Play;
        let state = t.state();
        let a = advice(&state, act("meld QS QH JK"));
        assert_eq!(
            a,
            "Meld two queens and a joker: it opens for your side with 70 points (50 needed)."
        );
        // The search's own choice reads as words too.
        let h = hint(&state, Duration::from_millis(100), 2, CardStyle::Notation).unwrap();
        assert_players_words(&h.advice);
        assert_figures(&h);
    }

    /// Classic: melds name the ranks in words, adds the cards as on screen
    /// and the meld they go to; a canasta is called one.
    #[test]
    fn melds_and_adds_in_words() {
        let mut t = Table::new("classic", "8H 8D 8C 5C 9H KD AD");
        t.own = vec!["KS KH KD KC KS KH", "AS AH AD AC AS"];
        t.theirs = vec!["5S 5H 5D"];
        let state = t.state();
        let a = advice(&state, act("meld 8H 8D 8C"));
        assert_players_words(&a);
        assert!(a.starts_with("Meld three eights: "), "{a}");
        let a = advice(&state, act("add 0 KD"));
        assert_players_words(&a);
        assert!(
            a.starts_with("Add KD to your kings: it makes a natural canasta of kings (500 points)"),
            "{a}"
        );
        let a = advice(&state, act("add 1 AD"));
        assert_players_words(&a);
        assert!(
            a.contains("it takes your aces to six cards, one short of a canasta"),
            "{a}"
        );
        // 5C: the opponents have fives on the table.
        let a = advice(&state, act("discard 5C"));
        assert!(
            a.starts_with("Discard 5C: the opponents have melded fives"),
            "{a}"
        );
        let a = advice(&state, act("discard 9H"));
        assert_players_words(&a);
        assert!(a.starts_with("Discard 9H: "), "{a}");
        assert!(a.contains("you hold no other nines"), "{a}");
    }

    /// The browser's words: cards as drawn (a ten as 10, the joker by
    /// name), melds by rank; the advice is the terminal's otherwise.
    #[test]
    fn advice_names_cards_as_drawn_for_the_browser() {
        let mut t = Table::new("classic", "8H 8D 8C 5C TH KD AD JK 2C");
        t.own = vec!["KS KH KD KC KS KH", "AS AH AD AC AS"];
        let state = t.state();
        let drawn = |a: &str| advice_in(&state, act(a), CardStyle::Drawn);
        assert!(
            drawn("discard TH").starts_with("Discard 10♥: "),
            "{}",
            drawn("discard TH")
        );
        assert!(
            drawn("add 0 KD").starts_with(
                "Add K♦ to your kings: it makes a natural canasta of kings (500 points)"
            ),
            "{}",
            drawn("add 0 KD")
        );
        assert!(
            drawn("meld 8H 8D 2C").starts_with("Meld two eights and 2♣"),
            "{}",
            drawn("meld 8H 8D 2C")
        );
        assert!(
            drawn("add 1 JK").starts_with("Add Joker to your aces"),
            "{}",
            drawn("add 1 JK")
        );
        for a in ["discard TH", "add 0 KD", "meld 8H 8D 2C", "add 1 JK"] {
            let words = drawn(a);
            assert_players_words(&words);
            for notation in ["TH", "KD", "2C", "JK", "`"] {
                assert!(!words.contains(notation), "`{notation}` in: {words}");
            }
        }
        assert!(advice(&state, act("discard TH")).starts_with("Discard TH: "));
    }

    /// Classic: the last card out with a canasta on the table goes out.
    #[test]
    fn going_out_is_called_so() {
        let mut t = Table::new("classic", "4D");
        t.own = vec!["QS QH QD QC QS QH QD", "KS KH KD"];
        t.theirs = vec!["5S 5H 5D"];
        let state = t.state();
        let a = advice(&state, act("discard 4D"));
        assert_players_words(&a);
        assert!(
            a.starts_with(
                "Go out by discarding 4D: 100 points for going out, and the opponents still hold"
            ),
            "{a}"
        );
        t.hand = "KC 9S";
        let state = t.state();
        let a = advice(&state, Action::Ask);
        assert_players_words(&a);
        assert_eq!(
            a,
            "Ask your partner whether you may go out: your side has one canasta (one needed to go out)."
        );
        // Partner asks: the answer weighs what this hand would cost.
        t.phase = Phase::Answer;
        t.hand = "4D 9S KC";
        let state = t.state();
        let a = advice(&state, Action::Answer(true));
        assert_eq!(a, "Say yes: your hand holds only 25 points.");
        let a = advice(&state, Action::Answer(false));
        assert_eq!(
            a,
            "Say no: your hand would cost 25 points if the hand ended now."
        );
    }

    /// Samba: a run is named by its cards, and a wide turn is judged by
    /// choices a player tells apart.
    #[test]
    fn samba_in_words() {
        let mut t = Table::new("samba", "5H 6H 7H 9C 9S KD KD 4S JC QD");
        t.own = vec!["AS AH AD"];
        let state = t.state();
        let a = advice(&state, act("meld 5H 6H 7H"));
        assert_players_words(&a);
        assert!(a.starts_with("Meld the run 5H 6H 7H: "), "{a}");
        let h = hint(&state, Duration::from_millis(150), 3, CardStyle::Notation).unwrap();
        assert!(state.legal_actions().contains(&h.action));
        assert_players_words(&h.advice);
        assert_figures(&h);
    }

    fn stat(a: &str, visits: u32, mean_reward: f64, rules: &Rules) -> RootStat {
        RootStat {
            key: act(a).key_under(rules),
            visits,
            mean_reward,
        }
    }

    /// Two choices with nearly the playouts and outcome: a close call,
    /// said so with the runner-up in words.
    #[test]
    fn a_close_call_is_called_one() {
        let mut t = Table::new("classic", "8H 8D 8C 5C 9H KD");
        t.own = vec!["AS AH AD"];
        let state = t.state();
        let rules = state.rules();
        let legal = state.legal_actions();
        let stats = [
            stat("discard 5C", 400, 0.55, rules),
            stat("discard 9H", 360, 0.548, rules),
            stat("meld 8H 8D 8C", 100, 0.50, rules),
        ];
        let grouped = choices(&stats, &legal, rules);
        let verdict = judge(act("discard 5C"), &grouped);
        assert_eq!(verdict, Verdict::Close(act("discard 9H")));
        let obs = state.observe(state.to_act());
        let sample = || state.determinize(obs.seat, &mut Rng::new(1));
        let seat = Seat::new(&obs, rules, &legal, sample(), CardStyle::Notation);
        let drawn = Seat::new(&obs, rules, &legal, sample(), CardStyle::Drawn);
        assert_eq!(
            verdict.sentence(act("discard 5C"), &seat).unwrap(),
            "A close call: discarding 9H is nearly as good."
        );
        assert_eq!(
            verdict.sentence(act("discard 5C"), &drawn).unwrap(),
            "A close call: discarding 9♥ is nearly as good."
        );
        // Far ahead in playouts and outcome: clear.
        let stats = [
            stat("discard 5C", 700, 0.60, rules),
            stat("discard 9H", 100, 0.52, rules),
        ];
        assert_eq!(
            judge(act("discard 5C"), &choices(&stats, &legal, rules)),
            Verdict::Clear
        );
        // Three about as good: the choice barely matters.
        let stats = [
            stat("discard 5C", 300, 0.55, rules),
            stat("discard 9H", 280, 0.55, rules),
            stat("discard KD", 270, 0.548, rules),
        ];
        let verdict = judge(act("discard 5C"), &choices(&stats, &legal, rules));
        assert_eq!(
            verdict.sentence(act("discard 5C"), &seat).unwrap(),
            "Any of these discards is about as good: 5C, 9H, KD."
        );
        assert_eq!(
            verdict.sentence(act("discard 5C"), &drawn).unwrap(),
            "Any of these discards is about as good: 5♣, 9♥, K♦."
        );
    }

    /// Samba keeps suits apart in the search (9H and 9S are two nodes);
    /// for judging they are one choice, so the spread is not a close call.
    #[test]
    fn samba_takes_the_same_cards_in_other_suits_together() {
        let mut t = Table::new("samba", "9H 9S 9C 5D KC 4S");
        t.own = vec!["AS AH AD"];
        let state = t.state();
        let rules = state.rules();
        let legal = state.legal_actions();
        let stats = [
            stat("discard 9H", 90, 0.56, rules),
            stat("discard KC", 80, 0.53, rules),
            stat("discard 9S", 80, 0.56, rules),
            stat("discard 9C", 70, 0.56, rules),
            stat("discard 4S", 40, 0.52, rules),
            stat("discard 5D", 30, 0.51, rules),
        ];
        let grouped = choices(&stats, &legal, rules);
        assert_eq!(grouped[0].members, 3);
        assert_eq!(grouped[0].visits, 240);
        assert_eq!(grouped[0].action, act("discard 9H"));
        assert_eq!(judge(act("discard 9H"), &grouped), Verdict::Clear);
        let thumb = act("discard 4S");
        let obs = state.observe(state.to_act());
        let seat = |style| {
            let sample = state.determinize(obs.seat, &mut Rng::new(1));
            Seat::new(&obs, rules, &legal, sample, style)
        };
        let figures_in = |style| {
            figures(
                act("discard 9H"),
                &stats,
                &grouped,
                390,
                thumb,
                &seat(style),
                rules,
            )
        };
        let f = figures_in(CardStyle::Notation);
        assert!(f.starts_with("23% of 390 playouts chose it (62% with the same cards in other suits, mean 0.56), mean outcome 0.56"), "{f}");
        assert!(f.contains("runner-up `discard KC`: 21%, 0.53"), "{f}");
        assert!(f.ends_with("rules of thumb say `discard 4S`"), "{f}");
        // As drawn: the other actions in words, never notation or backticks.
        let f = figures_in(CardStyle::Drawn);
        assert!(f.contains("runner-up discarding K♣: 21%, 0.53"), "{f}");
        assert!(f.ends_with("rules of thumb say discarding 4♠"), "{f}");
        assert!(!f.contains('`'), "{f}");
    }

    /// Hints from positions of real games, every preset: printed for a
    /// reader to judge (`cargo test -p canasta-ai --release print_hints --
    /// --ignored --nocapture`; `HINT_SEEDS=30` positions a preset,
    /// `HINT_MS=900` to think as long as a player's hint).
    #[test]
    #[ignore = "slow: prints hints for a reader"]
    fn print_hints_from_real_games() {
        let env = |name: &str, default: u64| {
            std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
        };
        let (seeds, time) = (
            env("HINT_SEEDS", 4),
            Duration::from_millis(env("HINT_MS", 400)),
        );
        for variant in [
            "classic",
            "samba",
            "pennies",
            "canastia",
            "canastone",
            "italian",
        ] {
            let rules = Rules::preset(variant, None, None).unwrap();
            for seed in 0..seeds {
                let mut rng = Rng::new(seed);
                let mut g = GameState::new(rules.clone());
                g.deal_random(&mut rng, canasta_core::Seat::new(0));
                let steps = 10 + 9 * seed as usize;
                let mut bot = crate::HeuristicBot::new();
                for _ in 0..steps {
                    if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                        break;
                    }
                    let legal = g.legal_actions();
                    let a = bot.choose(&Decision::new(&g, &legal));
                    g.apply(a).unwrap();
                }
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    continue;
                }
                let h = hint(&g, time, seed, CardStyle::Notation).unwrap();
                println!(
                    "{variant} seed {seed}, {} legal: `{}`\n  advice: {}\n  figures: {}",
                    g.legal_actions().len(),
                    h.action,
                    h.advice,
                    h.figures
                );
                assert_players_words(&h.advice);
            }
        }
    }
}
