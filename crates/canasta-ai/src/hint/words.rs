//! An action in a Canasta player's words, with the reasons for it read from
//! what the acting seat sees: its [`Observation`] and the heuristic's
//! [`View`] of it. What an action would do (open, complete a canasta, end
//! the hand) is asked of the engine: the action is applied to a sample the
//! seat cannot tell from the real game, never to the real one.

use crate::heuristic::View;
use canasta_core::Side;
use canasta_core::{
    Action, CanastaKind, Card, CardStyle, GameState, Group, Meld, Observation, Phase, Rules,
};

/// What the acting seat sees, and a sample of the game to try actions on.
pub(super) struct Seat<'a> {
    obs: &'a Observation,
    rules: &'a Rules,
    view: View<'a>,
    legal: &'a [Action],
    /// How the words name cards: in notation (the terminal), as drawn (the
    /// browser).
    style: CardStyle,
    /// Every card the seat cannot see re-dealt at random
    /// ([`GameState::determinize`]): what an action does to the seat's own
    /// hand and side does not depend on those cards.
    sample: GameState,
}

/// What the engine says an action does, as far as the seat can see.
#[derive(Default)]
struct Effect {
    /// The hand is over.
    ends_hand: bool,
    /// ... because the seat went out (its hand is empty).
    goes_out: bool,
    /// The side's melds the action made or changed: before (`None`: new), after.
    changed: Vec<(Option<Meld>, Meld)>,
    /// The side had no meld and has one now.
    opens: bool,
    /// The seat's foot came into its hand (Pennies from Heaven).
    takes_foot: bool,
}

/// An action as a verb and what follows it: "Discard" / "discarding" + " 5C".
struct Phrase {
    verb: &'static str,
    gerund: &'static str,
    rest: String,
}

impl Phrase {
    fn imperative(&self) -> String {
        format!("{}{}", self.verb, self.rest)
    }

    fn gerund(&self) -> String {
        format!("{}{}", self.gerund, self.rest)
    }
}

impl<'a> Seat<'a> {
    pub(super) fn new(
        obs: &'a Observation,
        rules: &'a Rules,
        legal: &'a [Action],
        sample: GameState,
        style: CardStyle,
    ) -> Seat<'a> {
        Seat {
            obs,
            rules,
            view: View::from_observation(obs, rules),
            legal,
            style,
            sample,
        }
    }

    /// A meld as players name it, in the seat's card style.
    fn meld_words(&self, m: &Meld) -> String {
        meld_words(m, self.rules, self.style)
    }

    /// Cards laid together, in the seat's card style.
    fn group_words(&self, g: &Group) -> String {
        group_words(g, self.rules, self.style)
    }

    fn groups_words(&self, groups: &[Group]) -> String {
        let parts: Vec<String> = groups.iter().map(|g| self.group_words(g)).collect();
        join_and(&parts)
    }

    /// A card in the seat's card style: `9H` or `9♥`.
    pub(super) fn card(&self, c: Card) -> String {
        self.style.show(c).to_string()
    }

    /// Another action named in the figures: as typed in notation
    /// (`` `discard 9H` ``), in words as drawn ("discarding 9♥").
    pub(super) fn named(&self, action: Action) -> String {
        match self.style {
            CardStyle::Notation => format!("`{action}`"),
            CardStyle::Drawn => self.gerund(action),
        }
    }

    fn side(&self) -> Side {
        self.obs.side_of[self.obs.seat]
    }

    fn own_melds(&self) -> &[Meld] {
        &self.obs.melds[self.side()]
    }

    fn pile_size(&self) -> usize {
        self.obs.pile.len() + self.obs.pile_hidden
    }

    /// Seats on other sides.
    fn opponents(&self) -> impl Iterator<Item = canasta_core::Seat> + '_ {
        let side = self.side();
        canasta_core::Seat::all(self.obs.players).filter(move |&s| self.obs.side_of[s] != side)
    }

    /// What `action` does, by the engine's rules, on the sample.
    fn effect(&self, action: Action) -> Option<Effect> {
        let mut after = self.sample.clone();
        after.apply(action).ok()?;
        let seat = self.obs.seat;
        if matches!(after.phase(), Phase::HandOver | Phase::GameOver) {
            return Some(Effect {
                ends_hand: true,
                goes_out: after.hand(seat).is_empty(),
                ..Effect::default()
            });
        }
        let before = self.own_melds();
        let now = after.melds(self.side());
        Some(Effect {
            ends_hand: false,
            goes_out: false,
            changed: now
                .iter()
                .enumerate()
                .filter(|&(i, m)| before.get(i) != Some(m))
                .map(|(i, m)| (before.get(i).copied(), *m))
                .collect(),
            opens: before.is_empty() && !now.is_empty(),
            takes_foot: self.obs.foot_sizes[seat] > 0 && after.foot_size(seat) == 0,
        })
    }

    /// The action in a few words: "Discard 5C", "Meld three eights".
    fn phrase(&self, action: Action, effect: Option<&Effect>) -> Phrase {
        let rules = self.rules;
        let p = |verb, gerund, rest: String| Phrase { verb, gerund, rest };
        match action {
            Action::Draw => {
                let n = rules.deal.draw_count;
                let what = if n == 1 {
                    String::new()
                } else {
                    format!(" {} cards", number(usize::from(n)))
                };
                p("Draw", "drawing", format!("{what} from the stock"))
            }
            Action::PickupOnto => {
                // The meld the top card went onto, as the engine laid it.
                let onto = effect
                    .and_then(|e| e.changed.iter().find_map(|(before, _)| *before))
                    .map_or(String::new(), |m| {
                        format!(" onto your {}", self.meld_words(&m))
                    });
                p("Take", "taking", format!(" the pile{onto}"))
            }
            Action::Pickup { with, also } => {
                let mut rest = format!(" the pile with {}", self.group_words(&with));
                if !also.is_empty() {
                    rest.push_str(&format!(" and meld {}", self.groups_words(also.as_slice())));
                }
                p("Take", "taking", rest)
            }
            Action::Meld(groups) => p(
                "Meld",
                "melding",
                format!(" {}", self.groups_words(groups.as_slice())),
            ),
            Action::Add { meld, cards } => {
                let to = self
                    .own_melds()
                    .get(usize::from(meld))
                    .map_or("meld".to_string(), |m| self.meld_words(m));
                let cards = self.style.show(cards);
                p("Add", "adding", format!(" {cards} to your {to}"))
            }
            Action::CloseCanasta(meld) => {
                let m = self
                    .own_melds()
                    .get(usize::from(meld))
                    .map_or("meld".to_string(), |m| self.meld_words(m));
                p("Close", "closing", format!(" your {m} as a canasta"))
            }
            Action::Discard(c) => p("Discard", "discarding", format!(" {}", self.card(c))),
            Action::Ask => p(
                "Ask",
                "asking",
                " your partner whether you may go out".to_string(),
            ),
            Action::Answer(yes) => p("Say", "saying", if yes { " yes" } else { " no" }.into()),
        }
    }

    /// The action in a few words, as an alternative: "discarding 9H".
    pub(super) fn gerund(&self, action: Action) -> String {
        self.phrase(action, self.effect(action).as_ref()).gerund()
    }

    /// One sentence: what to do and why, from what the seat sees.
    pub(super) fn advise(&self, action: Action) -> String {
        let effect = self.effect(action);
        let phrase = self.phrase(action, effect.as_ref());
        let (head, reasons) = match &effect {
            Some(e) if e.goes_out => (
                format!("Go out by {}", phrase.gerund()),
                self.going_out_reasons(),
            ),
            Some(e) if e.ends_hand => (phrase.imperative(), vec!["it ends the hand".into()]),
            _ => (
                phrase.imperative(),
                self.reasons(action, effect.as_ref().unwrap_or(&Effect::default())),
            ),
        };
        let reasons: Vec<String> = reasons.into_iter().take(2).collect();
        match reasons.as_slice() {
            [] => format!("{head}."),
            [one] => format!("{head}: {one}."),
            [one, two] => format!("{head}: {one}, and {two}."),
            _ => unreachable!("two reasons at most"),
        }
    }

    /// The action is the only legal one: what it is and why nothing else is.
    pub(super) fn only(&self, action: Action) -> String {
        let effect = self.effect(action);
        let phrase = self.phrase(action, effect.as_ref());
        let head = if effect.is_some_and(|e| e.goes_out) {
            format!("Go out by {}", phrase.gerund())
        } else {
            phrase.imperative()
        };
        let why = match action {
            Action::Draw if self.pile_size() == 0 => "the pile is empty".to_string(),
            Action::Draw if self.obs.pile_frozen => {
                "the pile is frozen and you cannot take it".to_string()
            }
            Action::Draw => "you cannot take the pile now".to_string(),
            _ => "it is the only thing you can do".to_string(),
        };
        format!("{head}: {why}.")
    }

    fn going_out_reasons(&self) -> Vec<String> {
        let mut out = Vec::new();
        let bonus = self.rules.scoring.going_out_bonus;
        if bonus > 0 {
            out.push(format!("{bonus} points for going out"));
        }
        let held: usize = self.opponents().map(|s| self.obs.hand_sizes[s]).sum();
        let opened = self
            .opponents()
            .any(|s| !self.obs.melds[self.obs.side_of[s]].is_empty());
        if !opened {
            out.push(format!(
                "the opponents have not even melded and hold {}",
                cards(held)
            ));
        } else if held > 0 {
            out.push(format!("the opponents still hold {}", cards(held)));
        }
        out
    }

    fn reasons(&self, action: Action, effect: &Effect) -> Vec<String> {
        match action {
            Action::Draw => self.draw_reasons(),
            Action::PickupOnto | Action::Pickup { .. } => {
                let mut out = vec![cards(self.pile_size())];
                if effect.opens {
                    out.push("it opens for your side".into());
                }
                out.extend(self.canasta_reasons(effect));
                out
            }
            Action::Meld(groups) => {
                let mut out = Vec::new();
                if effect.opens {
                    let points: i32 = groups.iter().map(|g| g.opening_points(self.rules)).sum();
                    out.push(format!(
                        "it opens for your side with {points} points ({} needed)",
                        self.obs.opening_needed[self.obs.seat]
                    ));
                }
                // The points laid are said already when they open.
                let points: i32 = if effect.opens {
                    0
                } else {
                    groups.iter().map(|g| g.points(self.rules)).sum()
                };
                out.extend(self.meld_reasons(effect, points));
                out
            }
            Action::Add { cards, .. } => self.meld_reasons(effect, cards.points(self.rules)),
            Action::CloseCanasta(meld) => {
                let bonus = self.own_melds().get(usize::from(meld)).map_or(0, |m| {
                    Meld {
                        cards: m.cards,
                        closed: true,
                    }
                    .canasta_bonus(self.rules)
                });
                vec![format!("it scores {bonus} points as it stands")]
            }
            Action::Discard(c) => self.discard_reasons(c),
            Action::Ask => {
                let n = self
                    .own_melds()
                    .iter()
                    .filter(|m| m.is_canasta(self.rules))
                    .count();
                vec![format!(
                    "your side has {} ({} needed to go out)",
                    count(n, "canasta", "canastas"),
                    number(usize::from(self.rules.going_out.canastas_to_go_out()))
                )]
            }
            Action::Answer(yes) => {
                let cost: i32 = self
                    .obs
                    .hand
                    .iter()
                    .map(|c| self.rules.scoring.card_values.of(c))
                    .sum();
                vec![if yes {
                    format!("your hand holds only {cost} points")
                } else {
                    format!("your hand would cost {cost} points if the hand ended now")
                }]
            }
        }
    }

    fn draw_reasons(&self) -> Vec<String> {
        let takes = self
            .legal
            .iter()
            .any(|a| matches!(a, Action::PickupOnto | Action::Pickup { .. }));
        if takes {
            vec![if self.pile_size() == 1 {
                "the pile's one card is not worth what taking it costs".to_string()
            } else {
                format!(
                    "the pile's {} cards are not worth what taking them costs",
                    self.pile_size()
                )
            }]
        } else {
            Vec::new()
        }
    }

    /// Why laying cards is good: canastas made or grown, the opponents or
    /// partner about to go out, or simply the points laid (`points`).
    fn meld_reasons(&self, effect: &Effect, points: i32) -> Vec<String> {
        let mut out = self.canasta_reasons(effect);
        if effect.takes_foot {
            out.push("your hand is empty and your foot comes up".into());
        }
        if self.view.opp_min_hand <= 3 {
            out.push(format!(
                "an opponent is down to {}, so lay your points while you can",
                count(self.view.opp_min_hand, "card", "cards")
            ));
        } else if self.view.partner_min_hand <= 2 {
            out.push("your partner is nearly out, so lay what you can".into());
        }
        if out.is_empty() && points > 0 {
            out.push(format!(
                "{points} point{} onto the table",
                if points == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// The side's melds the action makes into canastas, or grows.
    fn canasta_reasons(&self, effect: &Effect) -> Vec<String> {
        let rules = self.rules;
        let mut out = Vec::new();
        for (before, after) in &effect.changed {
            let was = before.is_some_and(|m| m.is_canasta(rules));
            if let Some(kind) = after.canasta(rules).filter(|_| !was) {
                let what = if after.cards.is_sequence() {
                    "a samba".to_string()
                } else {
                    let kind = match kind {
                        CanastaKind::Natural => "natural",
                        CanastaKind::Mixed => "mixed",
                    };
                    format!("a {kind} canasta of {}", self.meld_words(after))
                };
                out.push(format!(
                    "it makes {what} ({} points)",
                    after.canasta_bonus(rules)
                ));
                continue;
            }
            if before.is_none() || was {
                continue;
            }
            let len = usize::from(after.cards.len());
            let left = usize::from(rules.melds.canasta_length()).saturating_sub(len);
            let mut grows = format!(
                "it takes your {} to {} cards",
                self.meld_words(after),
                number(len)
            );
            if (1..=3).contains(&left) {
                grows.push_str(&format!(", {} short of a canasta", number(left)));
            } else if left == 0 && rules.melds.canasta_by_choice {
                grows.push_str(", enough to close as a canasta");
            }
            out.push(grows);
        }
        out
    }

    fn discard_reasons(&self, c: Card) -> Vec<String> {
        let rules = self.rules;
        let v = &self.view;
        let mut out = Vec::new();
        let Some(rank) = c.rank().filter(|_| !c.is_wild()) else {
            // A wild card: nobody takes a pile topped by one.
            out.push(
                if !self.obs.pile_frozen && rules.pile.freeze.by_discard(c) {
                    format!(
                        "it freezes the pile, {} cards with it, so the next player cannot take it",
                        self.pile_size() + 1
                    )
                } else {
                    "the next player cannot take the pile on a wild card".into()
                },
            );
            return out;
        };
        if !c.is_plain_natural() {
            // A three: the pile cannot be taken on it.
            out.push(format!(
                "the next player cannot take the pile on a {}",
                if c.is_black_three() {
                    "black three"
                } else {
                    "three"
                }
            ));
            if rules.pile.freeze.by_discard(c) && !self.obs.pile_frozen {
                out.push("it freezes the pile".into());
            }
            return out;
        }
        let plural = rank.plural();
        let bit = 1u16 << rank.index();
        let next = self.obs.seat.after(1, self.obs.players);
        let next_side = self.obs.side_of[next];
        if next_side != self.side() {
            // Can the next player take the pile with it? The rules say how
            // many naturals it takes, frozen or not, and whether a meld of
            // the rank on the table will do.
            let freeze = rules
                .pile
                .freeze
                .against(self.obs.pile_frozen, !self.obs.melds[next_side].is_empty());
            let need = if freeze.is_some() {
                rules.pile.pile_take_naturals_frozen
            } else {
                rules.pile.pile_take_naturals
            };
            let onto = freeze.is_none()
                && rules.pile.take_onto_meld
                && self.obs.melds[next_side]
                    .iter()
                    .any(|m| m.rank() == Some(rank) && !m.closed);
            let known = self.obs.known[next].rank_count(rank);
            let unseen = v.unseen().rank_count(rank);
            let melded = Side::all(self.obs.melds.len())
                .filter(|&t| t != self.side())
                .any(|t| self.obs.melds[t].iter().any(|m| m.rank() == Some(rank)));
            if onto {
                out.push(format!(
                    "the opponents have melded {plural}, but the rest of your hand is worth more to you"
                ));
            } else if known >= need {
                out.push(format!(
                    "the next player is known to hold {plural}, but the rest of your hand is worth more to you"
                ));
            } else if known + unseen < need {
                out.push(if melded {
                    "the next player cannot take the pile with it".to_string()
                } else {
                    format!(
                        "the opponents have not melded {plural} and the next player cannot take the pile with it"
                    )
                });
            } else if v.next_discarded & bit != 0 && known == 0 {
                out.push(format!(
                    "the next player threw {plural} before, so likely holds no pair"
                ));
            } else if !melded && known == 0 {
                out.push(format!(
                    "the opponents have not melded {plural} and are not known to hold any"
                ));
            } else {
                out.push(format!(
                    "the next player would need {} {plural} in hand to take the pile with it",
                    number(usize::from(need))
                ));
            }
        }
        let held = v.hand.rank_count(rank);
        if v.partner_discarded & bit != 0 && held == 1 {
            out.push(format!("your partner is not keeping {plural} either"));
        } else if held == 1 && !self.own_melds().iter().any(|m| m.rank() == Some(rank)) {
            out.push(format!("you hold no other {plural}"));
        }
        let value = rules.scoring.card_values.of(c);
        if (v.opp_min_hand <= 3 || v.partner_min_hand <= 2) && value >= 10 {
            out.insert(
                0,
                format!("the hand may end soon with its {value} points against you"),
            );
        }
        out
    }
}

/// `one card`, `9 cards`: a number of cards in figures, as the table shows
/// them.
fn cards(n: usize) -> String {
    if n == 1 {
        "one card".to_string()
    } else {
        format!("{n} cards")
    }
}

/// A count with its noun: "one card", "three canastas".
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("one {one}")
    } else {
        format!("{} {many}", number(n))
    }
}

/// A small number in words, a larger one in digits.
fn number(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS.get(n).map_or(n.to_string(), |w| (*w).to_string())
}

/// A meld as players name it: "kings", "black threes", "run 5H-9H" (as
/// drawn, "run 5♥-9♥").
fn meld_words(m: &Meld, rules: &Rules, style: CardStyle) -> String {
    let g = &m.cards;
    if g.is_sequence() {
        let mut cards = g.cards();
        let first = cards.next();
        match (first, cards.last()) {
            (Some(a), Some(b)) => format!("run {}-{}", style.show(a), style.show(b)),
            _ => "run".into(),
        }
    } else if g.is_special_threes(rules) {
        "black threes".into()
    } else {
        g.rank().map_or("wild cards".into(), |r| r.plural().into())
    }
}

/// Cards laid together as players say them: "three eights", "two kings
/// and a joker", "KH, 2C and a joker", "the run 5H 6H 7H" (cards in
/// `style`).
fn group_words(g: &Group, rules: &Rules, style: CardStyle) -> String {
    if g.is_sequence() {
        return format!("the run {}", style.show(g));
    }
    if g.is_wild_only() {
        return format!("the wild cards {}", style.show(g));
    }
    let mut parts: Vec<String> = Vec::new();
    let naturals = usize::from(g.natural_count());
    if let Some(rank) = g.rank() {
        let plural = if g.is_special_threes(rules) {
            "black threes"
        } else {
            rank.plural()
        };
        match naturals {
            0 => {}
            1 => parts.extend(
                g.cards()
                    .filter(|c| !c.is_wild())
                    .map(|c| style.show(c).to_string()),
            ),
            n => parts.push(format!("{} {plural}", number(n))),
        }
    }
    parts.extend(
        g.cards()
            .filter(|c| c.is_two())
            .map(|c| style.show(c).to_string()),
    );
    match g.jokers {
        0 => {}
        1 => parts.push("a joker".into()),
        n => parts.push(format!("{} jokers", number(usize::from(n)))),
    }
    join_and(&parts)
}

/// "a", "a and b", "a, b and c".
fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
