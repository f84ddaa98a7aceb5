//! The IS-MCTS bot: information-set Monte Carlo tree search (Cowling,
//! Powley and Whitehouse's single-observer variant).
//!
//! Every iteration samples a full state the seat cannot tell from the real
//! one ([`Decision::determinize`], which never reads a hidden card), walks
//! one shared tree of actions with UCB1 (counting, for each child, how often
//! it was available, since the legal actions depend on the sampled hands),
//! adds one node, plays on with the heuristic bot for a few actions, and
//! scores the position reached by how far each side is ahead in the hand.
//! Actions are matched across samples by their class key (suits the rules
//! cannot tell apart are forgotten), so an opponent's "discard a king" is
//! one node whatever king the sample gave it.
//!
//! The search stops at the end of the hand: a finished hand is scored
//! exactly, an unfinished one by a static estimate ([`side_value`]).
//! Budgets are iterations (reproducible) and optionally time.

use crate::heuristic::{self, View};
use crate::{Bot, Decision, Samples};
use canasta_core::{Action, ActionList, CardCounts, GameState, Phase, Rng, Rules};
use canasta_core::{Seat, Side, Team};
use std::time::{Duration, Instant};

/// How hard the bot thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The search budget of the level: the levels differ only in
    /// iterations, each several times the one below, and each scores more
    /// points than the one below (docs/strength.md's ladder, on duplicate deals).
    /// Easy's hundred iterations beat the heuristic its playouts follow in
    /// Classic, Canastone and Samba, and draw with it in Italian and
    /// Pennies (docs/strength.md, 105b705). Expert searches about
    /// half a second a decision on one core, and stops at
    /// [`EXPERT_TIME_CAP`] on the few positions where its
    /// iterations would take longer (a Canastone decision took 1.2 s), so
    /// that it answers within a second; those decisions depend on the
    /// machine's speed (`ismcts-expert@12000` is the uncapped, reproducible
    /// form).
    pub fn config(self) -> Config {
        let (iterations, time) = match self {
            Level::Easy => (100, None),
            Level::Medium => (400, None),
            Level::Hard => (2_000, None),
            Level::Expert => (12_000, Some(EXPERT_TIME_CAP)),
        };
        Config {
            iterations,
            time,
            exploration: 0.7,
            rollout_depth: 24,
            widening: 0.5,
            threads: 1,
            heuristic_bias: 2.0,
        }
    }
}

/// Expert's longest search a decision: under the second a player waits,
/// with room for the sampling and the choice around the search.
pub const EXPERT_TIME_CAP: Duration = Duration::from_millis(900);

/// The default level (the one `ismcts` names).
pub const DEFAULT_LEVEL: Level = Level::Medium;

/// A search budget and its constants.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Iterations per decision.
    pub iterations: u32,
    /// Also stop after this long (not reproducible; off by default).
    pub time: Option<Duration>,
    /// UCB1's exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// Heuristic actions played after the tree before scoring.
    pub rollout_depth: u32,
    /// Progressive widening: a node visited n times considers the
    /// heuristic's best 1 + widening * n^0.5 actions.
    pub widening: f64,
    /// Root parallelism: this many independent searches (each with its own
    /// samples and tree) run on as many threads and pool their root
    /// statistics. The iterations are shared out among them; a time budget
    /// applies to each, so more threads search more in the same time.
    pub threads: usize,
    /// Progressive bias toward the heuristic's ranking: the action it ranks
    /// k-th (from 1) gains `heuristic_bias / (k * (visits + 1))` in
    /// selection. A few iterations say little about actions whose outcome
    /// swings by thousands (a Pennies hand), so the heuristic's judgement
    /// leads until the statistics outweigh it. Easy against the heuristic,
    /// one-hand duplicate deals, without and with 2.0 (docs/strength.md,
    /// 105b705): 58% to 64% in Classic 4, 37% to 54% in Pennies, 48%
    /// to 51% in Italian, 61% to 66% in Samba 4. 1.0 fell back in
    /// Pennies (49%); 4.0 copied the heuristic in 67 of 300 Pennies deals
    /// and won no more anywhere.
    pub heuristic_bias: f64,
}

/// How many of the heuristic's best actions a node visited `visits` times considers.
fn widening(visits: u32, factor: f64) -> usize {
    1 + (factor * f64::from(visits).sqrt()) as usize
}

/// One node: the action that leads to it, who played it, and its statistics.
struct Node {
    /// The action's class key.
    key: Action,
    /// The seat that played it; rewards are from its side's point of view.
    actor: Seat,
    visits: u32,
    /// Iterations in which the action was legal where its parent was reached.
    available: u32,
    reward: f64,
    children: Vec<u32>,
}

impl Node {
    /// The node's statistics without its children (moved separately).
    fn shallow(&self) -> Node {
        Node {
            key: self.key,
            actor: self.actor,
            visits: self.visits,
            available: self.available,
            reward: self.reward,
            children: Vec::new(),
        }
    }
}

/// One action at the root of a finished search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootStat {
    /// The action's class key (suits the rules cannot tell apart forgotten):
    /// match it with `Action::key_under` of a legal action.
    pub key: Action,
    /// Iterations that went through the action.
    pub visits: u32,
    /// Their mean reward for the acting seat, in [0, 1]: 0.5 is an even
    /// hand, more is ahead (the squashed score margin of the playouts).
    pub mean_reward: f64,
}

/// The IS-MCTS bot.
pub struct IsMctsBot {
    name: String,
    config: Config,
    rng: Rng,
    nodes: Vec<Node>,
    legal: ActionList,
    /// Heuristic scores and indexes into `legal`, best first.
    ranked: Vec<(i32, usize)>,
    /// The root's actions, ranked, and their keys: worked out once a
    /// search, from its first sample (see [`Root`]).
    root: Root,
    /// Iterations run by the last decision (for benchmarks).
    last_iterations: u32,
    /// The last search's position and choice, to carry its tree over when
    /// the next decision follows straight from that choice.
    last_choice: Option<LastChoice>,
    /// The arena the kept subtree is copied into (swapped with `nodes`).
    spare: Vec<Node>,
    /// Root parallelism's searches, kept from decision to decision: each
    /// keeps its arenas and its tree, which carries over as a single
    /// search's does.
    workers: Vec<IsMctsBot>,
    /// Ends the search before its budget once set (its host stopping).
    stop: Option<crate::Stop>,
}

/// The root's legal actions, all ranked by the heuristic, and their
/// class keys. The seat to act knows everything they depend on (its own
/// hand, the table, the pile), and neither the generator nor the
/// heuristic reads a hidden card, so every sample has the same: working
/// them out once a search, rather than every iteration, leaves the tree
/// exactly as it was (`the_roots_list_and_ranking_are_the_same_in_every_sample`).
#[derive(Default)]
struct Root {
    ready: bool,
    legal: ActionList,
    /// All of `legal`, best first. Its first k are what `rank_best` gives
    /// when asked for the best k, which is all selection reads (past
    /// those, a shorter ranking may leave the discards out).
    ranked: Vec<(i32, usize)>,
    keys: Vec<Action>,
}

/// What a single-threaded search decided, for reusing its tree.
#[derive(Clone, Copy)]
struct LastChoice {
    state_id: u64,
    seat: Seat,
    key: Action,
    /// The seat's hand once the choice is played: a hand that differs
    /// took cards in between (a foot picked up when a meld emptied it).
    hand_after: CardCounts,
}

impl IsMctsBot {
    pub fn new(level: Level, seed: u64) -> IsMctsBot {
        let mut bot = IsMctsBot::with_config(level.config(), seed);
        bot.name = format!("ismcts-{}", level.name());
        bot
    }

    pub fn with_config(config: Config, seed: u64) -> IsMctsBot {
        IsMctsBot {
            name: "ismcts".to_string(),
            config,
            rng: Rng::new(seed),
            nodes: Vec::new(),
            legal: ActionList::new(),
            ranked: Vec::new(),
            root: Root::default(),
            last_iterations: 0,
            last_choice: None,
            spare: Vec::new(),
            workers: Vec::new(),
            stop: None,
        }
    }

    /// Ends this bot's searches (its parallel searches' too) early once
    /// `stop` is set: the search in progress returns after the iteration
    /// under way, with what it found. Unset, nothing changes.
    pub fn set_stop(&mut self, stop: crate::Stop) {
        for w in &mut self.workers {
            w.stop = Some(stop.clone());
        }
        self.stop = Some(stop);
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(crate::Stop::is_set)
    }

    /// The name shown in tables (a budget suffix, say).
    pub fn set_name(&mut self, name: &str) {
        self.name = name.to_string();
    }

    /// Iterations the last search ran.
    pub fn last_iterations(&self) -> u32 {
        self.last_iterations
    }

    /// The root's actions after the last search, most visited first: what
    /// the search made of each choice, for a player asking why (a hint).
    /// Empty when the last decision needed no search (one legal action).
    pub fn root_stats(&self) -> Vec<RootStat> {
        if self.last_iterations == 0 || self.nodes.is_empty() {
            return Vec::new();
        }
        let mut stats: Vec<(usize, RootStat)> = self.nodes[0]
            .children
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let n = &self.nodes[c as usize];
                let stat = RootStat {
                    key: n.key,
                    visits: n.visits,
                    mean_reward: if n.visits > 0 {
                        n.reward / f64::from(n.visits)
                    } else {
                        0.0
                    },
                };
                (i, stat)
            })
            .collect();
        // As the choice breaks ties: the last expanded of equals first.
        stats.sort_by_key(|(i, s)| std::cmp::Reverse((s.visits, *i)));
        stats.into_iter().map(|(_, s)| s).collect()
    }

    fn new_node(&mut self, key: Action, actor: Seat) -> u32 {
        self.nodes.push(Node {
            key,
            actor,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        });
        (self.nodes.len() - 1) as u32
    }

    /// One iteration on a fresh sample.
    fn iterate(&mut self, samples: &Samples<'_>, path: &mut Vec<u32>) {
        let mut state = samples.draw(&mut self.rng);
        path.clear();
        path.push(0);
        self.nodes[0].visits += 1;
        let mut node = 0usize;
        // Selection and expansion, among the heuristic's favourite actions
        // (progressive widening: more of them as the node is visited more).
        while in_hand(&state) {
            let at_root = node == 0;
            if at_root {
                if self.root.ready {
                    self.debug_check_root(&state);
                } else {
                    self.rank_root(&state);
                }
            } else {
                state.legal_actions_into(&mut self.legal);
            }
            let listed = if at_root {
                self.root.legal.len()
            } else {
                self.legal.len()
            };
            if listed == 0 {
                // Only a sample rebuilt from an observation can get here.
                break;
            }
            let actor = state.to_act();
            let visits = self.nodes[node].visits;
            let wanted = widening(visits, self.config.widening);
            if !at_root {
                self.order_by_heuristic(&state, wanted);
            }
            let (legal, ranked) = if at_root {
                (&self.root.legal, &self.root.ranked)
            } else {
                (&self.legal, &self.ranked)
            };
            let width = wanted.min(ranked.len());
            // An untried action and its key.
            let mut untried: Option<(Action, Action)> = None;
            let mut best: Option<(f64, usize, Action)> = None;
            for (place, &(_, i)) in ranked[..width].iter().enumerate() {
                let a = legal[i];
                let key = if at_root {
                    self.root.keys[i]
                } else {
                    a.key_under(state.rules())
                };
                let child = self.nodes[node]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c as usize].key == key);
                match child {
                    Some(c) => {
                        let n = &mut self.nodes[c as usize];
                        n.available += 1;
                        let ucb = n.reward / f64::from(n.visits)
                            + self.config.exploration
                                * (f64::from(n.available).ln() / f64::from(n.visits)).sqrt()
                            + self.config.heuristic_bias
                                / ((place + 1) as f64 * (f64::from(n.visits) + 1.0));
                        if best.is_none_or(|(b, _, _)| ucb > b) {
                            best = Some((ucb, c as usize, a));
                        }
                    }
                    None => {
                        // The heuristic's favourite untried action first.
                        if untried.is_none() {
                            untried = Some((a, key));
                        }
                    }
                }
            }
            if let Some((a, key)) = untried {
                let child = self.new_node(key, actor);
                self.nodes[child as usize].available = 1;
                self.nodes[node].children.push(child);
                state.apply_unchecked(a);
                path.push(child);
                break;
            }
            let (_, c, a) = best.expect("a legal action");
            state.apply_unchecked(a);
            path.push(c as u32);
            node = c;
        }
        // Heuristic playout.
        for _ in 0..self.config.rollout_depth {
            if !in_hand(&state) {
                break;
            }
            state.legal_actions_into(&mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let a = if self.legal.len() == 1 {
                self.legal[0]
            } else {
                heuristic::best(&View::of_state(&state), &self.legal)
            };
            state.apply_unchecked(a);
        }
        let rewards = seat_rewards(&state);
        for &i in &path[1..] {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.reward += rewards[n.actor];
        }
    }

    /// Fills [`Root`] from the search's first sample.
    fn rank_root(&mut self, state: &GameState) {
        let root = &mut self.root;
        state.legal_actions_into(&mut root.legal);
        rank(state, &root.legal, root.legal.len(), &mut root.ranked);
        root.keys.clear();
        root.keys
            .extend(root.legal.iter().map(|a| a.key_under(state.rules())));
        root.ready = true;
    }

    /// Debug builds (the tests) check [`Root`]'s premise on every sample:
    /// the seat to act has the same legal actions in each.
    #[inline]
    fn debug_check_root(&self, state: &GameState) {
        if cfg!(debug_assertions) {
            let mut legal = ActionList::new();
            state.legal_actions_into(&mut legal);
            debug_assert_eq!(
                legal, self.root.legal,
                "a sample changed the root's actions"
            );
        }
    }

    /// Ranks `self.legal` by the heuristic's score for the seat to act in
    /// `state`, best first, into `self.ranked`: at least the best `wanted`.
    fn order_by_heuristic(&mut self, state: &GameState, wanted: usize) {
        rank(state, &self.legal, wanted, &mut self.ranked);
    }

    fn search(&mut self, decision: &Decision<'_>) -> Option<Action> {
        let samples = decision.samples(&mut self.rng);
        if self.config.threads > 1 {
            self.search_in_parallel(decision, &samples);
        } else {
            self.search_tree(decision, &samples);
        }
        let choice = self.pick(decision);
        let last = choice.map(|a| {
            let mut hand_after = *decision.hand();
            hand_after.remove_all_saturating(&a.cards_from_hand());
            LastChoice {
                state_id: decision.state_id(),
                seat: decision.seat(),
                key: a.key_under(decision.rules()),
                hand_after,
            }
        });
        if self.config.threads > 1 {
            // Each parallel search keeps its own subtree under the choice.
            for w in &mut self.workers {
                w.last_choice = last;
            }
            self.last_choice = None;
        } else {
            self.last_choice = last;
        }
        choice
    }

    /// Root parallelism: independent searches on scoped threads, their
    /// root children pooled by action (visits, rewards and availability
    /// add up) into this bot's root, where the choice and `root_stats`
    /// read them.
    fn search_in_parallel(&mut self, decision: &Decision<'_>, samples: &Samples<'_>) {
        let k = self.config.threads;
        let config = Config {
            threads: 1,
            iterations: self.config.iterations.div_ceil(k as u32),
            ..self.config
        };
        if self.workers.len() != k {
            self.workers = (0..k)
                .map(|_| {
                    let mut w = IsMctsBot::with_config(config, self.rng.next_u64());
                    w.stop = self.stop.clone();
                    w
                })
                .collect();
        }
        let mut workers = std::mem::take(&mut self.workers);
        std::thread::scope(|scope| {
            for w in &mut workers {
                scope.spawn(|| w.search_tree(decision, samples));
            }
        });
        self.nodes.clear();
        self.new_node(Action::Draw, decision.seat());
        let (mut done, mut root_visits) = (0, 0);
        for w in &workers {
            done += w.last_iterations;
            root_visits += w.nodes[0].visits;
            for &c in &w.nodes[0].children {
                let n = &w.nodes[c as usize];
                let found = self.nodes[0]
                    .children
                    .iter()
                    .copied()
                    .find(|&m| self.nodes[m as usize].key == n.key);
                let m = match found {
                    Some(m) => m,
                    None => {
                        let m = self.new_node(n.key, n.actor);
                        self.nodes[0].children.push(m);
                        m
                    }
                };
                let pooled = &mut self.nodes[m as usize];
                pooled.visits += n.visits;
                pooled.available += n.available;
                pooled.reward += n.reward;
            }
        }
        self.workers = workers;
        // A kept subtree brings its visits along, as in a single search.
        self.nodes[0].visits = root_visits;
        self.last_iterations = done;
    }

    /// Runs this bot's own search tree to its budget, on top of the
    /// subtree kept from the last decision when this one follows from it.
    fn search_tree(&mut self, decision: &Decision<'_>, samples: &Samples<'_>) {
        if !self.keep_subtree(decision) {
            self.nodes.clear();
            self.new_node(Action::Draw, decision.seat());
        }
        self.root.ready = false;
        let start = Instant::now();
        let mut path = Vec::new();
        let mut done = 0;
        while done < self.config.iterations && !self.stopped() {
            self.iterate(samples, &mut path);
            done += 1;
            if let Some(t) = self.config.time
                && done % 16 == 0
                && start.elapsed() >= t
            {
                break;
            }
        }
        self.last_iterations = done;
    }

    /// Tree reuse: when the seat decides again right after its own last
    /// choice (melds and adds, then the discard: one action later, by the
    /// state's number), the subtree under that choice holds iterations
    /// through this very position, so it becomes the new tree. Only after
    /// a choice that told the seat nothing new: the seat's own hand is
    /// never sampled, so the subtree's samples are samples of this
    /// position too. After a draw or a pickup (the stock card that comes
    /// with the pile, the face-down packet) the subtree mixed cards the
    /// seat now knows it did not get, and the search starts afresh.
    fn keep_subtree(&mut self, decision: &Decision<'_>) -> bool {
        let Some(last) = self.last_choice.take() else {
            return false;
        };
        let told_nothing = matches!(
            last.key,
            Action::Meld(_) | Action::Add { .. } | Action::CloseCanasta(_)
        );
        if !told_nothing
            || last.seat != decision.seat()
            || decision.state_id() != last.state_id + 1
            || *decision.hand() != last.hand_after
            || self.nodes.is_empty()
        {
            return false;
        }
        let Some(root) = self.nodes[0]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c as usize].key == last.key)
        else {
            return false;
        };
        // Copy the subtree breadth first into the spare arena: the new
        // root lands at 0, and each node's children are renumbered.
        let mut kept = std::mem::take(&mut self.spare);
        kept.clear();
        let old = &mut self.nodes;
        kept.push(Node {
            children: std::mem::take(&mut old[root as usize].children),
            ..old[root as usize].shallow()
        });
        let mut next = 0;
        while next < kept.len() {
            let children = std::mem::take(&mut kept[next].children);
            let mut renumbered = Vec::with_capacity(children.len());
            for c in children {
                renumbered.push(kept.len() as u32);
                let child = &mut old[c as usize];
                kept.push(Node {
                    children: std::mem::take(&mut child.children),
                    ..child.shallow()
                });
            }
            kept[next].children = renumbered;
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, kept);
        true
    }

    /// The most visited root action among the host's legal ones (the last
    /// expanded of equals).
    fn pick(&self, decision: &Decision<'_>) -> Option<Action> {
        let mut best: Option<(u32, Action)> = None;
        for &c in &self.nodes[0].children {
            let n = &self.nodes[c as usize];
            if best.is_some_and(|(v, _)| v > n.visits) {
                continue;
            }
            if let Some(a) = decision
                .legal()
                .iter()
                .find(|a| a.key_under(decision.rules()) == n.key)
            {
                best = Some((n.visits, *a));
            }
        }
        best.map(|(_, a)| a)
    }
}

/// `legal` by the heuristic's score for the seat to act in `state`, best
/// first, into `out`: at least the best `wanted` (`heuristic::rank_best`).
fn rank(state: &GameState, legal: &[Action], wanted: usize, out: &mut Vec<(i32, usize)>) {
    out.clear();
    match legal.len() {
        0 => {}
        1 => out.push((0, 0)),
        _ => heuristic::rank_best(&View::of_state(state), legal, wanted, out),
    }
}

fn in_hand(state: &GameState) -> bool {
    matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer)
}

/// The hand's worth to a side so far: exact once the hand is over,
/// otherwise its melds, canasta bonuses (and part of the bonus for melds
/// close to a canasta), red threes and bonuses for many canastas as the
/// variant scores them (the engine's [`GameState::score_now`]), less part
/// of the cards its seats still hold and of their feet: most will still be
/// melded.
pub fn side_value(state: &GameState, side: Side) -> f64 {
    let rules: &Rules = state.rules();
    let seats = || state.side_members(side);
    if !in_hand(state)
        && let Some(result) = state.last_hand()
    {
        let team = seats()
            .next()
            .map_or(Team::new(side.index()), |s| rules.game.team_of(s));
        return f64::from(result.teams[team].total);
    }
    let size = i32::from(rules.melds.canasta_length());
    let mut v = 0.0;
    let melds = state.melds(side);
    for m in melds {
        v += f64::from(m.cards.points(rules));
        let len = i32::from(m.cards.len());
        let closed = canasta_core::Meld {
            cards: m.cards,
            closed: true,
        };
        if len >= size {
            // Counted whole mid-hand: a canasta that may still be closed
            // (Canastia), or a wild one paid only on going out.
            v += f64::from(closed.canasta_bonus(rules));
        } else if m.rank().is_some() {
            let share = match size - len {
                1 => 0.45,
                2 => 0.2,
                _ => 0.0,
            };
            v += share * f64::from(rules.scoring.mixed_canasta_bonus);
        }
    }
    // The variant's own scoring of red threes, many canastas, hands and
    // feet; a side of two teams (Classic 3's partnership) has both teams'
    // red threes.
    let mut teams_seen = 0u8;
    for s in seats() {
        let team = rules.game.team_of(s);
        if teams_seen & (1 << team.index()) != 0 {
            continue;
        }
        let score = state.score_now(team);
        v += f64::from(score.red_threes);
        if teams_seen == 0 {
            v += f64::from(score.other) + 0.6 * f64::from(score.in_hand + score.foot);
        }
        teams_seen |= 1 << team.index();
    }
    v
}

/// A side's reward in [0, 1] for leading the best other side by `lead`
/// points in the hand, squashed so that a lead of [`reward_scale`] is
/// worth about 0.73.
fn reward_of_lead(lead: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-lead / scale).exp())
}

/// The lead that makes one logistic unit of reward: 400 in Classic, whose
/// game is to 5,000, and the same share of the target in the others (960
/// in Canastone's game to 12,000). With Classic's 400 a Canastone search,
/// whose hands score in thousands, could not tell a big lead from a bigger
/// one, and its easy level only drew with the heuristic in whole games.
fn reward_scale(rules: &Rules) -> f64 {
    f64::from(rules.game.target.max(1)) / 12.5
}

/// Each seat's reward in [0, 1]: its side's value against the best other
/// side's, squashed.
fn seat_rewards(state: &GameState) -> [f64; 6] {
    let mut values = [0.0f64; 6];
    let mut sides = [false; 6];
    for s in state.seats() {
        let side = state.side_of(s);
        if !sides[side] {
            sides[side] = true;
            values[side] = side_value(state, side);
        }
    }
    let scale = reward_scale(state.rules());
    let mut out = [0.5; 6];
    for (s, r) in state.seats().zip(out.iter_mut()) {
        let own = state.side_of(s);
        let other = Side::all(6)
            .filter(|&x| sides[x] && x != own)
            .map(|x| values[x])
            .fold(f64::NEG_INFINITY, f64::max);
        if other.is_finite() {
            *r = reward_of_lead(values[own] - other, scale);
        }
    }
    out
}

impl Bot for IsMctsBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let legal = decision.legal();
        if legal.len() == 1 {
            self.last_iterations = 0;
            self.last_choice = None;
            return legal[0];
        }
        // A sample rebuilt from an observation may lack the chosen action
        // among the host's; the heuristic decides then.
        self.search(decision).unwrap_or_else(|| {
            let obs = decision.observation();
            heuristic::best(&View::from_observation(&obs, decision.rules()), legal)
        })
    }
}

#[cfg(test)]
mod tests;
