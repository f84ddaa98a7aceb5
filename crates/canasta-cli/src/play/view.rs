//! What a player at the table sees, as plain data: built from one seat's
//! [`Observation`] (so it cannot hold a card that seat could not see), and
//! read by both the line mode's text and the full-screen renderer.

use super::hand::{cards_text, hand_text};
use canasta_core::Seat;
use canasta_core::pile_words::Taker;
use canasta_core::{
    Card, CardCounts, Freeze, GroupKind, Meld, Observation, Phase, PileWords, Rank, Rules, Suit,
};

/// A name in two lengths: the screen takes the long one where it fits.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Label {
    /// `team 0 (seats 0, 2)`, `seat 1 (ismcts)`.
    pub long: String,
    /// `team 0`, `seat 1`.
    pub short: String,
}

impl Label {
    fn new(long: String, short: String) -> Label {
        Label { long, short }
    }
}

/// One meld on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeldView {
    /// The number `add M` takes.
    pub index: usize,
    /// Every card: `QH QH QD QC 2H 2C JK`.
    pub cards: String,
    /// The same, short: `Q×4+2H+JK`, a run as `4S-9S` ([`compact_meld`]).
    pub compact: String,
    /// Shortest, for a crowded small screen: `Q×4+2` (four queens, two
    /// wild cards), `8-TH` (a run).
    pub tiny: String,
    pub len: usize,
    /// What players call the canasta (`natural canasta`, `samba`, ...), or
    /// nothing yet.
    pub canasta: Option<String>,
    /// A run of one suit (Samba's sequence), not cards of one rank.
    pub sequence: bool,
}

impl MeldView {
    fn new(index: usize, meld: &Meld, rules: &Rules) -> MeldView {
        let canasta = meld.canasta_name(rules).map(|name| match name {
            "natural" | "mixed" | "wild" => format!("{name} canasta"),
            "samba" => "samba".to_string(),
            rank => format!("canasta of {rank}"),
        });
        MeldView {
            index,
            cards: meld.cards.to_string(),
            compact: compact_meld(meld, canasta.is_some()),
            tiny: tiny_meld(meld),
            len: meld.cards.len() as usize,
            canasta,
            sequence: meld.cards.is_sequence(),
        }
    }

    /// The canasta's name in one word (`natural`, `samba`), for narrow
    /// screens.
    pub fn canasta_word(&self) -> Option<&str> {
        let c = self.canasta.as_deref()?;
        Some(c.strip_suffix(" canasta").unwrap_or(c))
    }
}

/// A meld in a few characters: `Q×5+2C+JK` (five queens, a two and a
/// joker), `6×4+3 wild`, a canasta `Q×7` (its name is shown beside it), a
/// run `4S-9S`, wild cards alone `wild×4`.
fn compact_meld(meld: &Meld, canasta: bool) -> String {
    let cards: Vec<Card> = meld.cards.cards().collect();
    let wilds: Vec<String> = cards
        .iter()
        .filter(|c| c.is_wild())
        .map(Card::to_string)
        .collect();
    match meld.cards.kind() {
        GroupKind::Sequence(..) => match (cards.first(), cards.last()) {
            (Some(lo), Some(hi)) => format!("{lo}-{hi}"),
            _ => String::new(),
        },
        GroupKind::Wild => format!("wild×{}", cards.len()),
        GroupKind::Rank(rank) => {
            let letter = rank_letter(rank);
            if canasta {
                return format!("{letter}×{}", cards.len());
            }
            let mut text = format!("{letter}×{}", meld.cards.natural_count());
            match wilds.len() {
                0 => {}
                1 | 2 => {
                    for w in wilds {
                        text.push('+');
                        text.push_str(&w);
                    }
                }
                n => text.push_str(&format!("+{n} wild")),
            }
            text
        }
    }
}

/// `Q×4+2`, `8-TH`, `w4`: a meld's rank, naturals and wild cards.
fn tiny_meld(meld: &Meld) -> String {
    let cards: Vec<Card> = meld.cards.cards().collect();
    match meld.cards.kind() {
        GroupKind::Sequence(..) => match (cards.first().and_then(|c| c.rank()), cards.last()) {
            (Some(lo), Some(hi)) => format!("{}-{hi}", rank_letter(lo)),
            _ => String::new(),
        },
        GroupKind::Wild => format!("w{}", cards.len()),
        GroupKind::Rank(rank) => match meld.cards.wild_count() {
            0 => format!("{}×{}", rank_letter(rank), meld.cards.natural_count()),
            w => format!("{}×{}+{w}", rank_letter(rank), meld.cards.natural_count()),
        },
    }
}

/// `Q`, `T`: a rank as the card notation writes it.
pub fn rank_letter(rank: Rank) -> String {
    Card::new(rank, Suit::Spades).to_string()[..1].to_string()
}

/// One side's melds (a team, or a player alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideView {
    /// The side's number (meld owner).
    pub side: usize,
    /// `team 0 (seats 0, 2)` / `team 0`; `seat 1 (ismcts)` / `seat 1` for
    /// a player alone; `side 0 (...)` where a side is not one team.
    pub label: Label,
    /// Its seats.
    pub seats: Vec<usize>,
    pub melds: Vec<MeldView>,
    /// Points the side's opening needs; `None` once it has melded.
    pub opening_needed: Option<i32>,
    /// Whether the viewer sits on this side.
    pub own: bool,
}

/// One seat at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// `seat 1 (ismcts)`, `seat 0 (you)` / `seat 1`, `you`.
    pub label: Label,
    pub team: usize,
    pub cards: usize,
    /// Cards in the foot still face down (Pennies from Heaven).
    pub foot: usize,
    /// Red threes laid out.
    pub red_threes: Vec<Card>,
    /// The hand, where the viewer may see it.
    pub hand: Option<CardCounts>,
}

/// A team's score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreView {
    pub label: Label,
    pub score: i32,
}

/// The table from one seat's chair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    /// `Classic Canasta, 4 players in 2 teams, target 5000`.
    pub title: String,
    /// The game's target (also in the title).
    pub target: i32,
    /// Hands finished so far.
    pub hands_played: u32,
    pub phase: Phase,
    pub dealer: usize,
    pub current: usize,
    pub to_act: usize,
    /// The seat whose chair this is (`None`: an onlooker, as in a replay).
    pub viewer: Option<usize>,
    pub seats: Vec<SeatView>,
    pub sides: Vec<SideView>,
    pub scores: Vec<ScoreView>,
    pub pile_top: Option<Card>,
    /// Cards in the pile, face-down packet included.
    pub pile_size: usize,
    /// Of them, face down (Canastone's packet): nobody has seen them.
    pub pile_hidden: usize,
    /// What stops the viewer taking the pile, or what taking it needs (an
    /// onlooker: what holds for everyone): the engine's words, the same
    /// the browser shows.
    pub pile_note: Option<PileWords>,
    pub stock: usize,
    /// The viewer asked partner / partner's answer this turn.
    pub asked: bool,
    pub answer: Option<bool>,
    pub must_go_out: bool,
    /// The seat to draw may open from hand first, and only then this turn
    /// (Canastone's opening before the draw, for a side yet to meld).
    pub open_first: bool,
}

/// Seats as `seats 0, 2` (or `seat 1`).
fn members(seats: impl Iterator<Item = usize>) -> String {
    let list: Vec<String> = seats.map(|s| s.to_string()).collect();
    let s = if list.len() > 1 { "s" } else { "" };
    format!("seat{s} {}", list.join(", "))
}

/// A number and its noun: `1 card`, `7 cards`.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

impl TableView {
    /// The view of `obs.seat`, whose hand alone is shown. `names` label the
    /// seats (`you` for the viewer is added here).
    pub fn new(obs: &Observation, rules: &Rules, names: &[String]) -> TableView {
        let mut view = TableView::build(obs, rules, names, Some(obs.seat.index()));
        view.seats[obs.seat].hand = Some(obs.hand);
        // The turn's flags are the current player's, not a partner's.
        let own_turn = obs.current == obs.seat;
        view.asked = obs.asked && own_turn;
        view.answer = obs.answer.filter(|_| own_turn);
        view.must_go_out = obs.must_go_out;
        view.pile_note = PileWords::new(obs, rules, Some(obs.seat));
        view
    }

    /// The table with no hand shown (hands are added by the caller where
    /// everyone may see them, as in the replay of a finished game).
    pub fn onlooker(obs: &Observation, rules: &Rules, names: &[String]) -> TableView {
        let mut view = TableView::build(obs, rules, names, None);
        // What freezes it for everyone; a side's own state is its players'.
        view.pile_note = PileWords::new(obs, rules, None);
        view
    }

    fn build(
        obs: &Observation,
        rules: &Rules,
        names: &[String],
        viewer: Option<usize>,
    ) -> TableView {
        let n = obs.players;
        // The view numbers seats and teams as the record does.
        let team_of = |s: usize| rules.game.team_of(Seat::new(s)).index();
        let seat_label = |s: usize| {
            if viewer == Some(s) {
                Label::new(format!("seat {s} (you)"), "you".into())
            } else {
                match names.get(s) {
                    Some(name) => Label::new(format!("seat {s} ({name})"), format!("seat {s}")),
                    None => Label::new(format!("seat {s}"), format!("seat {s}")),
                }
            }
        };
        let seats = (0..n)
            .map(|s| SeatView {
                label: seat_label(s),
                team: team_of(s),
                cards: obs.hand_sizes[s],
                foot: obs.foot_sizes.get(s).copied().unwrap_or(0),
                red_threes: red_three_cards(obs.red_three_suits[s]),
                hand: None,
            })
            .collect();
        let team_seats = move |t: usize| (0..n).filter(move |&s| team_of(s) == t);
        // A team of one player is called by the player's seat.
        let team_label = |t: usize| {
            let mut members_of = team_seats(t);
            match (members_of.next(), members_of.next()) {
                (Some(only), None) => seat_label(only),
                _ => Label::new(
                    format!("team {t} ({})", members(team_seats(t))),
                    format!("team {t}"),
                ),
            }
        };
        // Before the first deal nobody has a side yet: show the teams.
        let side_of: Vec<usize> = if obs.phase == Phase::Deal && obs.table.hands_played == 0 {
            (0..n).map(team_of).collect()
        } else {
            obs.side_of.iter().map(|s| s.index()).collect()
        };
        let mut sides = Vec::new();
        for side in 0..n {
            let in_side = |s: &usize| side_of[*s] == side;
            let Some(first) = (0..n).find(in_side) else {
                continue;
            };
            let team = team_of(first);
            // A side that is exactly a team is called one (a Classic
            // three-player hand pairs two teams into one side).
            let label = if team_seats(team).eq((0..n).filter(in_side)) {
                team_label(team)
            } else {
                Label::new(
                    format!("side {side} ({})", members((0..n).filter(in_side))),
                    format!("side {side}"),
                )
            };
            let melds = obs
                .melds
                .get(side)
                .map(|ms| {
                    ms.iter()
                        .enumerate()
                        .map(|(i, m)| MeldView::new(i, m, rules))
                        .collect()
                })
                .unwrap_or_default();
            let need = obs.opening_needed[first];
            sides.push(SideView {
                side,
                label,
                seats: (0..n).filter(in_side).collect(),
                melds,
                opening_needed: (need > 0).then_some(need),
                own: viewer.is_some_and(|v| side_of[v] == side),
            });
        }
        let scores = obs
            .scores
            .iter()
            .enumerate()
            .map(|(t, &score)| ScoreView {
                label: team_label(t),
                score,
            })
            .collect();
        TableView {
            title: format!(
                "{}, {}, target {}",
                rules.variant_name(),
                players_words(rules),
                rules.game.target
            ),
            target: rules.game.target,
            hands_played: obs.table.hands_played,
            phase: obs.phase,
            dealer: obs.dealer.index(),
            current: obs.current.index(),
            to_act: obs.to_act.index(),
            viewer,
            seats,
            sides,
            scores,
            pile_top: obs.pile.last().copied(),
            pile_size: obs.pile.len() + obs.pile_hidden,
            pile_hidden: obs.pile_hidden,
            pile_note: None,
            stock: obs.stock,
            asked: false,
            answer: None,
            must_go_out: false,
            open_first: obs.phase == Phase::Draw
                && rules.opening.opens_now(true)
                && obs.melds[obs.side_of[obs.to_act]].is_empty(),
        }
    }

    /// `seat 2 (ismcts) to draw`, or the state between hands.
    pub fn status(&self) -> String {
        self.status_as(&self.seats[self.to_act].label.long)
    }

    /// The status with the seat to act called `who`.
    fn status_as(&self, who: &str) -> String {
        match self.phase {
            Phase::Deal | Phase::HandOver => "between hands".into(),
            Phase::Draw if self.open_first => {
                format!("{who} to open from hand before drawing, or draw")
            }
            phase => phase.status(who, Seat::new(self.current)),
        }
    }

    /// Where the game is: `hand 3, dealer seat 1: seat 0 (you) to draw or
    /// take the pile`; between hands the hand just finished (its dealer
    /// is no longer news), at the end how many hands were played.
    pub fn heading(&self) -> String {
        self.headings().0
    }

    /// The heading, long (`hand 2, dealer seat 1: seat 2 (ismcts) to
    /// draw or take the pile`) and short (`hand 2: seat 2 to draw or take
    /// the pile`): the screen takes the long one where it fits on a row.
    pub fn headings(&self) -> (String, String) {
        let long = self.heading_long();
        match self.phase {
            Phase::Draw | Phase::Play | Phase::Answer => {
                let who = &self.seats[self.to_act].label.short;
                let short = format!("hand {}: {}", self.hands_played + 1, self.status_as(who));
                (long, short)
            }
            _ => (long.clone(), long),
        }
    }

    fn heading_long(&self) -> String {
        match self.phase {
            Phase::Draw | Phase::Play | Phase::Answer => format!(
                "hand {}, dealer seat {}: {}",
                self.hands_played + 1,
                self.dealer,
                self.status()
            ),
            Phase::Deal if self.hands_played == 0 => "before the first deal".into(),
            Phase::Deal | Phase::HandOver => format!("hand {} is over", self.hands_played),
            Phase::GameOver => format!(
                "game over after {}",
                plural(self.hands_played as usize, "hand")
            ),
        }
    }

    /// What the viewer's turn is bound to, if anything: asking partner and
    /// the answer, or having to go out.
    pub fn turn_note(&self) -> Option<String> {
        if !matches!(self.phase, Phase::Draw | Phase::Play | Phase::Answer) {
            // The hand is over: what bound its last turn is gone with it.
            return None;
        }
        if self.asked {
            Some(
                match self.answer {
                    Some(true) => "partner said yes: you must go out",
                    Some(false) => "partner said no: you may not go out",
                    None => "you asked partner to go out",
                }
                .into(),
            )
        } else if self.must_go_out {
            Some("you must go out this turn".into())
        } else {
            None
        }
    }

    /// Each seat's red threes on the table, as `seat N 3H 3D`.
    pub fn red_three_list(&self) -> Vec<String> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.red_threes.is_empty())
            .map(|(i, s)| format!("seat {i} {}", cards_text(&s.red_threes)))
            .collect()
    }

    /// The pile: `pile 14 cards (13 face down), top 7H`, `pile empty`.
    pub fn pile_words(&self) -> String {
        let Some(top) = self.pile_top else {
            return match self.pile_hidden {
                0 => "pile empty".into(),
                n => format!("pile {} face down", plural(n, "card")),
            };
        };
        let hidden = match self.pile_hidden {
            0 => String::new(),
            n => format!(" ({n} face down)"),
        };
        format!("pile {}{hidden}, top {top}", plural(self.pile_size, "card"))
    }

    /// What stops the viewer taking the pile and what takes it then, long
    /// (the engine's sentence: `Frozen for your team until it melds: only
    /// two natural kings from hand take it`) or short (`FROZEN`); nothing
    /// when it is open as usual.
    pub fn freeze_words(&self, long: bool) -> Option<String> {
        let note = self.pile_note?;
        if long {
            return Some(note.to_string());
        }
        Some(match note {
            PileWords::Blocked(top) => format!("{top} blocks it"),
            PileWords::Closed(Taker::You) => "closed to you".into(),
            PileWords::Closed(_) => "closed to your team".into(),
            PileWords::Frozen { freeze, taker, .. } => {
                let cause = match (freeze, taker) {
                    (Freeze::ByCard, _) => "",
                    (Freeze::Always, _) => " (always)",
                    (Freeze::UntilOpened, Taker::You) => " for you",
                    (Freeze::UntilOpened, _) => " for your team",
                };
                format!("FROZEN{cause}")
            }
            PileWords::NotOntoMeld { .. } => "from hand only".into(),
            PileWords::Packet(_) => return None,
        })
    }
}

/// `4 players in 2 teams`, `2 players` (each alone).
pub fn players_words(rules: &Rules) -> String {
    if rules.game.teams == rules.game.players {
        format!("{} players", rules.game.players)
    } else {
        format!(
            "{} players in {} teams",
            rules.game.players, rules.game.teams
        )
    }
}

fn red_three_cards(suits: [u8; 2]) -> Vec<Card> {
    let mut cards = vec![Card::new(Rank::Three, Suit::Hearts); suits[0] as usize];
    cards.extend(vec![
        Card::new(Rank::Three, Suit::Diamonds);
        suits[1] as usize
    ]);
    cards
}

/// A meld in one line: `0: 7H 7D 7C [natural canasta]`, a run marked
/// `sequence`.
fn meld_line(m: &MeldView) -> String {
    let tag = match (&m.canasta, m.sequence) {
        (Some(c), _) => format!(" [{c}]"),
        (None, true) => " [sequence]".into(),
        (None, false) => String::new(),
    };
    format!("{}: {}{tag}", m.index, m.cards)
}

/// The position in lines of text, for the line mode and the replay.
pub fn position_lines(view: &TableView) -> Vec<String> {
    let mut lines = vec![format!("--- {}; {}", view.title, view.heading())];
    let scores: Vec<String> = view
        .scores
        .iter()
        .map(|s| format!("{} {}", s.label.long, s.score))
        .collect();
    lines.push(format!("scores: {}", scores.join(" | ")));
    for side in &view.sides {
        let opening = match side.opening_needed {
            Some(need) => format!("; opening needs {need}"),
            None => String::new(),
        };
        let melds = if side.melds.is_empty() {
            "no melds".to_string()
        } else {
            side.melds
                .iter()
                .map(meld_line)
                .collect::<Vec<_>>()
                .join("; ")
        };
        lines.push(format!("{}{opening}: {melds}", side.label.long));
    }
    let reds = view.red_three_list();
    if !reds.is_empty() {
        lines.push(format!("red threes: {}", reds.join(" | ")));
    }
    let mut pile = format!("stock {} | {}", view.stock, view.pile_words());
    if let Some(freeze) = view.freeze_words(true) {
        pile.push_str(&format!(" | {freeze}"));
    }
    lines.push(pile);
    let counts: Vec<String> = view
        .seats
        .iter()
        .map(|s| {
            let foot = if s.foot > 0 {
                format!(" + foot {}", s.foot)
            } else {
                String::new()
            };
            format!("{} {}{foot}", s.label.long, s.cards)
        })
        .collect();
    lines.push(format!("cards: {}", counts.join(" | ")));
    for (i, seat) in view.seats.iter().enumerate() {
        if let Some(hand) = &seat.hand {
            let whose = if view.viewer == Some(i) {
                "your hand".to_string()
            } else {
                format!("hand of seat {i}")
            };
            lines.push(format!("{whose}: {}", hand_text(hand)));
        }
    }
    lines.extend(view.turn_note());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{GameState, Rng};

    fn names(n: usize) -> Vec<String> {
        vec!["ismcts".to_string(); n]
    }

    /// Two players are two seats, not "team 0 (seat 0)".
    #[test]
    fn a_player_alone_is_called_by_the_seat() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(1), Seat::new(0));
        let view = TableView::new(&g.observe(Seat::new(0)), &rules, &names(2));
        let labels: Vec<&str> = view.scores.iter().map(|s| s.label.long.as_str()).collect();
        assert_eq!(labels, ["seat 0 (you)", "seat 1 (ismcts)"]);
        assert_eq!(view.sides[1].label.short, "seat 1");
        let text = position_lines(&view).join("\n");
        assert!(!text.contains("team"), "{text}");
    }

    /// Before the first deal the table shows the teams, not a side a seat.
    #[test]
    fn before_the_deal_the_sides_are_the_teams() {
        let rules = Rules::classic();
        let g = GameState::new(rules.clone());
        let view = TableView::onlooker(&g.observe(Seat::new(0)), &rules, &names(4));
        assert_eq!(view.sides.len(), 2);
        assert_eq!(view.heading(), "before the first deal");
    }

    /// A side that has not melded sees the pile frozen for it, and why.
    #[test]
    fn the_pile_frozen_for_an_unopened_team_says_so() {
        let rules = Rules::classic();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(3), Seat::new(0));
        let view = TableView::new(&g.observe(g.to_act()), &rules, &names(4));
        let frozen = view.freeze_words(true).expect("nobody has melded");
        assert!(
            frozen.starts_with("Frozen for your team until it melds: only two natural"),
            "{frozen}"
        );
        assert_eq!(view.freeze_words(false).unwrap(), "FROZEN for your team");
        // An onlooker sees no freeze that is one side's own.
        let public = TableView::onlooker(&g.observe_public(), &rules, &names(4));
        assert_eq!(
            public.pile_note.is_some(),
            rules.pile.freeze.against(g.pile_frozen(), true).is_some()
                || !g.pile_top().is_some_and(|c| c.is_plain_natural())
        );
    }

    /// Canastone's face-down packet is said, not hidden in the count.
    #[test]
    fn the_face_down_packet_is_counted_apart() {
        let rules = Rules::preset("canastone", Some(4), None).unwrap();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(2), Seat::new(0));
        let view = TableView::new(&g.observe(Seat::new(0)), &rules, &names(4));
        assert!(view.pile_hidden > 0);
        let words = view.pile_words();
        assert!(
            words.contains(&format!("({} face down)", view.pile_hidden)),
            "{words}"
        );
    }

    /// Canastone: a team that has not melded cannot take the pile at all
    /// (the judge's PileNeedsMeld), and the screen says so.
    #[test]
    fn a_pile_closed_until_the_team_melds_says_so() {
        let rules = Rules::preset("canastone", Some(4), None).unwrap();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(5), Seat::new(0));
        let seat = g.to_act();
        let view = TableView::new(&g.observe(seat), &rules, &names(4));
        let words = view.freeze_words(true).unwrap();
        assert_eq!(
            words,
            "Nothing takes the pile until your team melds from hand"
        );
        assert_eq!(view.freeze_words(false).unwrap(), "closed to your team");
        assert!(
            g.legal_actions()
                .iter()
                .all(|a| !a.to_string().starts_with("pickup")),
            "the engine agrees"
        );
    }
}
