//! Determinization: one full game state consistent with what a seat can see.
//!
//! Search under hidden information (IS-MCTS) samples complete states that the
//! seat cannot tell apart from the real one and plays them out. The sample
//! must never depend on a hidden card, or a bot using it would cheat. So
//! [`GameState::determinize`] first computes the seat's unseen cards from
//! public information only (the deck, the seat's own hand, the table, the
//! face-up pile, the cards others are known to hold and the laid-out red
//! threes), then overwrites every hidden zone: the unknown part of each other
//! hand, every foot, the stock and the pile's face-down packet. The zones'
//! sizes are public; their contents are dealt afresh from the unseen cards.
//! Hidden contents are never read, so two states that differ only in hidden
//! cards give the same sample for the same generator (tested below).
//!
//! One public constraint is kept: red threes are laid out at once, so only a
//! hand whose first turn is still pending (Hoyle's timing) can hold one; they
//! may also lie in the stock, a foot or the packet.

use crate::card::{Card, CardCounts, FACES, PackedCounts, Rank, Suit};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::seat::{Seat, Side};
use crate::stackvec::StackVec;
use crate::state::observation::Observation;
use crate::state::{GameState, MAX_CARDS, TurnFlags};

impl GameState {
    /// Every card `seat` cannot see, from public information and the seat's
    /// own hand only. Equals `self.observe(seat).unseen(rules)`, without
    /// building the observation.
    pub fn unseen_by(&self, seat: Seat) -> CardCounts {
        let mut seen = self.hands[seat];
        seen.add_all(&self.face_up);
        for s in self.seats() {
            if s != seat {
                self.known[s].add_to(&mut seen);
            }
        }
        let mut unseen = self.rs.deck;
        unseen.remove_all_saturating(&seen);
        unseen
    }

    /// The face-up cards counted from the table: the melds, the laid-out
    /// red threes and the pile above its packet.
    pub(crate) fn count_face_up(&self) -> CardCounts {
        let mut up = CardCounts::new();
        for side in self.melds.sides() {
            for m in side.iter() {
                m.cards.add_to(&mut up);
            }
        }
        for &c in &self.pile()[self.pile_hidden as usize..] {
            up.add(c);
        }
        for reds in &self.red_threes {
            up.add_n(Card::new(Rank::Three, Suit::Hearts), reds[0]);
            up.add_n(Card::new(Rank::Three, Suit::Diamonds), reds[1]);
        }
        up
    }

    /// A full state that `seat` cannot tell from this one: every hidden card
    /// re-dealt at random among the hidden zones, keeping their sizes and
    /// every publicly known card in place. Reads no hidden card.
    pub fn determinize(&self, seat: Seat, rng: &mut Rng) -> GameState {
        self.sampler(seat).sample(self, rng)
    }

    /// What [`GameState::determinize`] needs from `seat`'s point of view,
    /// worked out once so that many samples of one decision (search draws
    /// thousands) only shuffle and deal.
    pub fn sampler(&self, seat: Seat) -> Sampler {
        let mut plain = StackVec::new();
        let mut reds = StackVec::new();
        for c in self.unseen_by(seat).iter() {
            if c.is_red_three() {
                reds.push(c);
            } else {
                plain.push(c);
            }
        }
        Sampler {
            seat,
            state_id: self.state_id,
            plain,
            reds,
        }
    }
}

/// The unseen cards of one seat in one state, split for dealing: samples
/// of that state come from [`Sampler::sample`].
#[derive(Clone, Debug)]
pub struct Sampler {
    seat: Seat,
    /// The state it was made for (checked in debug builds).
    state_id: u64,
    /// Unseen cards other than red threes, lowest face first.
    plain: StackVec<Card, MAX_CARDS>,
    /// Unseen red threes.
    reds: StackVec<Card, MAX_RED_THREES>,
}

/// Red threes in the largest deck (four packs).
const MAX_RED_THREES: usize = 8;

impl Sampler {
    /// The seat whose view the samples keep.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// One sample of `state`, the state this sampler was made from: the
    /// same as `state.determinize(seat, rng)` for the same generator.
    pub fn sample(&self, state: &GameState, rng: &mut Rng) -> GameState {
        debug_assert_eq!(state.state_id, self.state_id, "a sampler of another state");
        let seat = self.seat;
        let n = state.players();
        let mut out = state.clone();
        let mut plain = self.plain;
        // Hidden slots of a hand: its size less its known cards.
        let hidden_in_hand = |s: Seat| state.hands[s].total() - state.known[s].total();
        // Hands that cannot hold a red three take plain cards first, drawn
        // uniformly; every other slot then shares the rest uniformly.
        rng.shuffle(&mut plain);
        for s in Seat::all(n) {
            if s == seat || state.first_turn_pending[s] {
                continue;
            }
            let mut hand = state.known[s].unpack();
            for _ in 0..hidden_in_hand(s) {
                hand.add(plain.pop().expect("enough unseen plain cards"));
            }
            out.hands[s] = hand;
        }
        // What is left of `plain` is still in uniformly random order, so
        // each red three joins it at a uniformly random place (the
        // inside-out shuffle): every card left is then in uniform order,
        // at the cost of one random number per red three instead of a
        // second shuffle of every card.
        let mut rest = plain;
        for &red in self.reds.iter() {
            let last = rest.len();
            rest.push(red);
            rest.swap(last, rng.below(last + 1));
        }
        for s in Seat::all(n) {
            if s == seat || !state.first_turn_pending[s] {
                continue;
            }
            let mut hand = state.known[s].unpack();
            for _ in 0..hidden_in_hand(s) {
                hand.add(rest.pop().expect("enough unseen cards"));
            }
            out.hands[s] = hand;
        }
        for s in Seat::all(n) {
            let mut foot = PackedCounts::new();
            for _ in 0..state.feet[s].total() {
                foot.add(rest.pop().expect("enough unseen cards"));
            }
            out.feet[s] = foot;
        }
        // The packet under the pile, bottom first, then the stock.
        let hidden = state.pile_hidden as usize;
        for slot in &mut out.stacks.pile_mut()[..hidden] {
            *slot = rest.pop().expect("enough unseen cards");
        }
        out.stacks.clear_stock();
        for _ in 0..state.stacks.stock_len() {
            out.stacks
                .push_stock(rest.pop().expect("enough unseen cards"));
        }
        debug_assert!(rest.is_empty(), "unseen cards left over: {:?}", &rest[..]);
        out
    }
}

impl GameState {
    /// A sample for `obs.seat` built from its observation alone, for a bot
    /// that is told only the observation (the bot protocol). The table's
    /// public facts come from `obs.table`; from a host that does not send
    /// them they are guessed:
    /// whether cards were laid since the draw (no), which melds existed when
    /// the turn began (all), which seats have melded (every seat of a side
    /// that has), whether a first turn is pending (no), which cards of the
    /// seat's own hand the others know of (none), and hands played (one if
    /// any score is not zero). The sample's legal actions may therefore
    /// differ from the host's in rare positions; callers choose among the
    /// host's list.
    pub fn from_observation(obs: &Observation, rules: &Rules, rng: &mut Rng) -> GameState {
        let n = obs.players;
        let seat = obs.seat;
        let mut g = GameState::new(rules.clone());
        g.phase = obs.phase;
        g.dealer = obs.dealer;
        g.current = obs.current;
        g.to_act = obs.to_act;
        g.state_id = obs.state_id;
        for (t, &score) in obs.scores.iter().enumerate() {
            g.scores[t] = score;
        }
        g.hands_played = u32::from(obs.scores.iter().any(|&x| x != 0));
        // Hidden zones get placeholder cards of the right sizes; the
        // determinization below replaces every one of them.
        let filler = Card::default();
        for s in Seat::all(n) {
            g.side_of[s] = obs.side_of[s];
            g.red_threes[s] = obs.red_three_suits[s];
            if s == seat {
                g.hands[s] = obs.hand;
            } else {
                g.known[s] = PackedCounts::from(&obs.known[s]);
                g.hands[s] = obs.known[s];
                let unknown = obs.hand_sizes[s] - obs.known[s].total();
                g.hands[s].add_n(filler, unknown as u8);
            }
            // A foot holds a few copies of a face at most: its placeholders
            // are of every face in turn.
            for i in 0..obs.foot_sizes[s] {
                g.feet[s].add(Card::from_index(i % FACES));
            }
        }
        for (side, melds) in obs.melds.iter().enumerate() {
            for m in melds {
                g.melds.push(Side::new(side), *m);
            }
        }
        // The table's public facts, where the observation carries them;
        // otherwise guessed (see above).
        let facts = &obs.table;
        let told = facts.seat_melded.len() == n;
        for s in Seat::all(n) {
            g.seat_melded[s] = if told {
                facts.seat_melded[s]
            } else {
                !g.melds[g.side_of[s]].is_empty()
            };
            g.first_turn_pending[s] =
                told && facts.first_turn_pending.get(s.index()) == Some(&true);
            g.discarded_ranks[s] = facts
                .discarded_ranks
                .get(s.index())
                .map_or(0, |ranks| crate::state::observation::rank_bits(ranks));
        }
        if told {
            g.hands_played = facts.hands_played;
        }
        g.lone_hand = g.lone_hand_by_sides();
        for _ in 0..obs.pile_hidden {
            g.stacks.push_pile(filler);
        }
        for &c in &obs.pile {
            g.stacks.push_pile(c);
        }
        g.pile_hidden = obs.pile_hidden as u16;
        g.face_up = g.count_face_up();
        g.pile_frozen = obs.pile_frozen;
        for _ in 0..obs.stock {
            g.stacks.push_stock(filler);
        }
        let side = g.side_of[obs.current];
        g.turn = if told {
            TurnFlags {
                drew_from_stock: obs.drew_from_stock,
                took_pile: obs.took_pile,
                laid_since_draw: facts.laid_since_draw,
                asked: obs.asked,
                answer: obs.answer,
                must_go_out: obs.must_go_out,
                added_to_old: facts.added_to_old,
                melds_at_start: facts.melds_at_start as u8,
                had_melded: facts.had_melded,
                completed_canasta: facts.completed_canasta,
                opened_before_draw: facts.opened_before_draw,
            }
        } else {
            TurnFlags {
                drew_from_stock: obs.drew_from_stock,
                took_pile: obs.took_pile,
                laid_since_draw: false,
                asked: obs.asked,
                answer: obs.answer,
                must_go_out: obs.must_go_out,
                added_to_old: false,
                melds_at_start: g.melds[side].len() as u8,
                had_melded: g.seat_melded[obs.current],
                completed_canasta: false,
                opened_before_draw: false,
            }
        };
        g.determinize(seat, rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;
    use crate::seat::Seat;
    use crate::state::{GameState, Phase};
    use crate::{Rules, rules::all_forms};

    /// A position some random actions into a hand of `rules`.
    fn position(rules: Rules, seed: u64, steps: usize) -> GameState {
        let mut rng = Rng::new(seed);
        let mut g = GameState::new(rules);
        g.deal_random(&mut rng, Seat::new(0));
        for _ in 0..steps {
            if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                break;
            }
            let legal = g.legal_actions();
            g.apply_unchecked(legal[rng.below(legal.len())]);
        }
        g
    }

    fn forms() -> Vec<Rules> {
        all_forms()
    }

    #[test]
    fn unseen_agrees_with_the_observation() {
        for rules in forms() {
            for seed in 0..20 {
                let g = position(rules.clone(), seed, (seed * 13) as usize);
                for s in g.seats() {
                    assert_eq!(g.unseen_by(s), g.observe(s).unseen(g.rules()));
                }
            }
        }
    }

    #[test]
    fn a_sample_keeps_everything_the_seat_sees() {
        for rules in forms() {
            for seed in 0..30 {
                let g = position(rules.clone(), seed, (seed * 11) as usize);
                let seat = g.to_act();
                let d = g.determinize(seat, &mut Rng::new(seed));
                assert_eq!(d.observe(seat), g.observe(seat));
                assert_eq!(d.all_cards(), g.all_cards());
                for s in g.seats() {
                    assert!(d.hand(s).contains_all(&g.known_cards(s)));
                    if !g.first_turn_pending[s] {
                        assert_eq!(d.hand(s).red_threes(), 0);
                    }
                }
                // The sample plays on like a real state.
                assert_eq!(d.legal_actions(), g.legal_actions());
            }
        }
    }

    /// Swaps one hidden card of another seat's hand with one of the stock.
    fn swap_hidden(g: &GameState, seat: Seat) -> Option<GameState> {
        let mut h = g.clone();
        let other = g.seats().find(|&s| {
            s != seat && g.hands[s].total() > g.known[s].total() && !g.first_turn_pending[s]
        })?;
        let mut unknown = g.hands[other];
        unknown.remove_all(&g.known_cards(other));
        let from_hand = unknown.iter().find(|c| !c.is_red_three())?;
        let i = h
            .stacks
            .stock()
            .iter()
            .position(|&c| c != from_hand && !c.is_red_three())?;
        let from_stock = h.stacks.stock()[i];
        h.stacks.stock_mut()[i] = from_hand;
        h.hands[other].remove(from_hand);
        h.hands[other].add(from_stock);
        Some(h)
    }

    #[test]
    fn hidden_cards_do_not_change_the_sample() {
        let mut compared = 0;
        for rules in forms() {
            for seed in 0..20 {
                let g = position(rules.clone(), seed, (seed * 7) as usize);
                let seat = g.to_act();
                let Some(h) = swap_hidden(&g, seat) else {
                    continue;
                };
                assert_ne!(format!("{g:?}"), format!("{h:?}"));
                let a = g.determinize(seat, &mut Rng::new(99));
                let b = h.determinize(seat, &mut Rng::new(99));
                assert_eq!(format!("{a:?}"), format!("{b:?}"));
                compared += 1;
            }
        }
        assert!(compared > 50, "only {compared} positions compared");
    }

    #[test]
    fn samples_vary_with_the_generator() {
        let g = position(Rules::classic(), 5, 40);
        let seat = g.to_act();
        let a = g.determinize(seat, &mut Rng::new(1));
        let b = g.determinize(seat, &mut Rng::new(2));
        assert_ne!(format!("{a:?}"), format!("{b:?}"));
    }

    #[test]
    fn a_state_rebuilt_from_an_observation_shows_the_same_view() {
        let (mut positions, mut same_legal) = (0, 0);
        for rules in forms() {
            for seed in 0..30 {
                let g = position(rules.clone(), seed, (seed * 9) as usize);
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    continue;
                }
                let seat = g.to_act();
                let obs = g.observe(seat);
                let r = GameState::from_observation(&obs, &rules, &mut Rng::new(seed));
                assert_eq!(r.observe(seat), obs);
                assert_eq!(r.all_cards(), g.all_cards());
                positions += 1;
                same_legal += usize::from(r.legal_actions() == g.legal_actions());
            }
        }
        // With the table's public facts in the observation nothing is
        // guessed: the legal actions are the same everywhere.
        assert_eq!(same_legal, positions);
    }

    /// A Classic 4 position, `steps` random actions in, where the seat to
    /// act does not see every red three and `wanted` holds.
    fn classic_position(rules: Rules, wanted: impl Fn(&GameState) -> bool) -> GameState {
        for seed in 0..200 {
            for steps in 0..40 {
                let g = position(rules.clone(), seed, steps);
                if in_hand(&g) && !g.sampler(g.to_act()).reds.is_empty() && wanted(&g) {
                    return g;
                }
            }
        }
        panic!("no such position");
    }

    fn in_hand(g: &GameState) -> bool {
        matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer)
    }

    /// Every unseen face lands in the stock, and in the hands that have
    /// played their first turn, as often as a uniform deal says: those
    /// hands take plain cards only, uniformly, never a red three; every
    /// other hidden place (a hand still to play its first turn, the stock)
    /// shares what is left, red threes included, uniformly. Checked for
    /// every unseen face over 4,000 samples, within five standard
    /// deviations, where red threes are laid out after the deal (only the
    /// stock may hide them) and on each player's first turn (one other
    /// seat has played it, one has not: the red threes are mixed into the
    /// rest there).
    #[test]
    fn samples_deal_every_unseen_card_uniformly() {
        let after_deal = classic_position(Rules::classic(), |g| g.stock_len() < 60);
        let mut first_turn = crate::rules::RulesSpec::classic();
        first_turn.deal.red_three_timing = crate::rules::RedThreeTiming::FirstTurn;
        let first_turn = Rules::new(first_turn).unwrap();
        let mixed = classic_position(first_turn, |g| {
            let seat = g.to_act();
            let others = || g.seats().filter(move |&s| s != seat);
            others().any(|s| g.first_turn_pending[s]) && others().any(|s| !g.first_turn_pending[s])
        });
        for g in [after_deal, mixed] {
            deals_uniformly(&g);
        }
    }

    fn deals_uniformly(g: &GameState) {
        let seat = g.to_act();
        let sampler = g.sampler(seat);
        let hidden = |s: Seat| g.hands[s].total() - g.known[s].total();
        let others = || g.seats().filter(move |&s| s != seat);
        let played: Vec<Seat> = others().filter(|&s| !g.first_turn_pending[s]).collect();
        let to_played: usize = played.iter().map(|&s| hidden(s)).sum();
        let rest = g.stock_len()
            + others()
                .filter(|&s| g.first_turn_pending[s])
                .map(hidden)
                .sum::<usize>();
        let samples = 4_000;
        let unseen = g.unseen_by(seat);
        // Tallies by face over every sample.
        let mut in_stock = [0u32; crate::card::FACES];
        let mut in_played = [0u32; crate::card::FACES];
        let mut rng = Rng::new(17);
        for _ in 0..samples {
            let d = sampler.sample(g, &mut rng);
            for c in d.stock() {
                in_stock[c.index()] += 1;
            }
            for &s in &played {
                let mut h = d.hands[s];
                h.remove_all(&g.known_cards(s));
                for c in h.iter() {
                    in_played[c.index()] += 1;
                }
            }
        }
        let near = |seen: u32, expected: f64, what: String| {
            let tolerance = 5.0 * expected.max(1.0).sqrt() + 1.0;
            assert!(
                (f64::from(seen) - expected).abs() <= tolerance,
                "{what}: {seen} against {expected:.1} expected"
            );
        };
        let stock_share = g.stock_len() as f64 / rest as f64;
        let to_hands = to_played as f64 / sampler.plain.len() as f64;
        let mut faces: Vec<_> = unseen.iter().collect();
        faces.dedup();
        for c in faces {
            let n = f64::from(unseen.count(c)) * f64::from(samples);
            if c.is_red_three() {
                near(
                    in_stock[c.index()],
                    n * stock_share,
                    format!("{c} in the stock"),
                );
                assert_eq!(in_played[c.index()], 0, "{c} in a hand that has played");
            } else {
                near(
                    in_played[c.index()],
                    n * to_hands,
                    format!("{c} in hands that played"),
                );
                near(
                    in_stock[c.index()],
                    n * (1.0 - to_hands) * stock_share,
                    format!("{c} in the stock"),
                );
            }
        }
    }
}
