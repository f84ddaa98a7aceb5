//! What a player at the table sees, as plain data: built from one seat's
//! [`Observation`] (so it cannot hold a card that seat could not see), and
//! read by both the line mode's text and the full-screen renderer.

use canasta_core::{CanastaKind, Card, CardCounts, Observation, Phase, Rank, Rules, Suit};

/// One meld on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeldView {
    /// The number `add M` takes.
    pub index: usize,
    pub cards: String,
    pub len: usize,
    /// `natural canasta`, `mixed canasta`, `samba`, or nothing yet.
    pub canasta: Option<&'static str>,
}

/// One side's melds (a team, or a player alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideView {
    /// The side's number (meld owner).
    pub side: usize,
    /// `team 0 (seats 0, 2)`, or `side 0 (...)` where a side is not one team.
    pub label: String,
    pub melds: Vec<MeldView>,
    /// Points the side's opening needs; `None` once it has melded.
    pub opening_needed: Option<i32>,
    /// Whether the viewer sits on this side.
    pub own: bool,
}

/// One seat at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// `seat 1 (ismcts)`, `seat 0 (you)`.
    pub label: String,
    pub team: usize,
    pub cards: usize,
    /// Cards in the foot still face down (Pennies from Heaven).
    pub foot: usize,
    /// Red threes laid out.
    pub red_threes: Vec<Card>,
    /// The hand, where the viewer may see it.
    pub hand: Option<CardCounts>,
}

/// The table from one seat's chair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    /// `classic canasta, 4 players in 2 teams, target 5000`.
    pub title: String,
    pub hand_number: u32,
    pub phase: Phase,
    pub dealer: usize,
    pub current: usize,
    pub to_act: usize,
    /// The seat whose chair this is (`None`: an onlooker, as in a replay).
    pub viewer: Option<usize>,
    pub seats: Vec<SeatView>,
    pub sides: Vec<SideView>,
    /// Team scores, labelled.
    pub scores: Vec<(String, i32)>,
    pub pile_top: Option<Card>,
    /// Cards in the pile, face-down packet included.
    pub pile_size: usize,
    pub pile_frozen: bool,
    pub stock: usize,
    /// The viewer asked partner / partner's answer this turn.
    pub asked: bool,
    pub answer: Option<bool>,
    pub must_go_out: bool,
}

/// Seats of team `team` as `seats 0, 2` (or `seat 1`).
fn members(seats: impl Iterator<Item = usize>) -> String {
    let list: Vec<String> = seats.map(|s| s.to_string()).collect();
    let s = if list.len() > 1 { "s" } else { "" };
    format!("seat{s} {}", list.join(", "))
}

impl TableView {
    /// The view of `obs.seat`, whose hand alone is shown. `names` label the
    /// seats (`you` for the viewer is added here).
    pub fn new(obs: &Observation, rules: &Rules, names: &[String]) -> TableView {
        let mut view = TableView::onlooker(obs, rules, names);
        view.viewer = Some(obs.seat);
        view.seats[obs.seat].hand = Some(obs.hand);
        view.seats[obs.seat].label = format!("seat {} (you)", obs.seat);
        for side in &mut view.sides {
            side.own = side.side == obs.side_of[obs.seat];
        }
        // The turn's flags are the current player's, not a partner's.
        let own_turn = obs.current == obs.seat;
        view.asked = obs.asked && own_turn;
        view.answer = obs.answer.filter(|_| own_turn);
        view.must_go_out = obs.must_go_out;
        view
    }

    /// The table with no hand shown (hands are added by the caller where
    /// everyone may see them, as in the replay of a finished game).
    pub fn onlooker(obs: &Observation, rules: &Rules, names: &[String]) -> TableView {
        let n = obs.players;
        let seats = (0..n)
            .map(|s| SeatView {
                label: match names.get(s) {
                    Some(name) => format!("seat {s} ({name})"),
                    None => format!("seat {s}"),
                },
                team: rules.team_of(s),
                cards: obs.hand_sizes[s],
                foot: obs.foot_sizes.get(s).copied().unwrap_or(0),
                red_threes: red_three_cards(obs.red_three_suits[s]),
                hand: None,
            })
            .collect();
        let mut sides = Vec::new();
        for side in 0..n {
            let mut seats = (0..n).filter(|&s| obs.side_of[s] == side).peekable();
            let Some(&first) = seats.peek() else {
                continue;
            };
            let members_of = |t: usize| (0..n).filter(move |&s| rules.team_of(s) == t);
            let team = rules.team_of(first);
            // A side that is exactly a team is called one (a Classic
            // three-player hand pairs two teams into one side).
            let kind = if members_of(team).eq((0..n).filter(|&s| obs.side_of[s] == side)) {
                format!("team {team}")
            } else {
                format!("side {side}")
            };
            let label = format!("{kind} ({})", members(seats));
            let melds = obs.melds[side]
                .iter()
                .enumerate()
                .map(|(i, m)| MeldView {
                    index: i,
                    cards: m.cards.to_string(),
                    len: m.cards.len() as usize,
                    canasta: match m.canasta(rules) {
                        Some(_) if m.cards.is_sequence() => Some("samba"),
                        Some(CanastaKind::Natural) => Some("natural canasta"),
                        Some(CanastaKind::Mixed) => Some("mixed canasta"),
                        None => None,
                    },
                })
                .collect();
            let need = obs.opening_needed[first];
            sides.push(SideView {
                side,
                label,
                melds,
                opening_needed: (need > 0).then_some(need),
                own: false,
            });
        }
        let scores = obs
            .scores
            .iter()
            .enumerate()
            .map(|(t, &score)| {
                let seats = (0..n).filter(|&s| rules.team_of(s) == t);
                (format!("team {t} ({})", members(seats)), score)
            })
            .collect();
        TableView {
            title: format!(
                "{} canasta, {} players in {} teams, target {}",
                rules.variant(),
                rules.players(),
                rules.teams(),
                rules.target()
            ),
            hand_number: obs.table.hands_played + 1,
            phase: obs.phase,
            dealer: obs.dealer,
            current: obs.current,
            to_act: obs.to_act,
            viewer: None,
            seats,
            sides,
            scores,
            pile_top: obs.pile.last().copied(),
            pile_size: obs.pile.len() + obs.pile_hidden,
            pile_frozen: obs.pile_frozen,
            stock: obs.stock,
            asked: false,
            answer: None,
            must_go_out: false,
        }
    }

    /// `seat 2 (ismcts) to draw`, or the state between hands.
    pub fn status(&self) -> String {
        let who = &self.seats[self.to_act].label;
        match self.phase {
            Phase::Draw => format!("{who} to draw or take the pile"),
            Phase::Play => format!("{who} to meld, add or discard"),
            Phase::Answer => format!("{who} to answer: may seat {} go out?", self.current),
            Phase::Deal | Phase::HandOver => "between hands".into(),
            Phase::GameOver => "game over".into(),
        }
    }

    /// What the viewer's turn is bound to, if anything: asking partner and
    /// the answer, or having to go out.
    pub fn turn_note(&self) -> Option<String> {
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

    /// The pile in words: `pile 3 cards, top 7H, FROZEN`.
    /// Each seat's red threes on the table, as `seat N 3H 3D`.
    pub fn red_three_list(&self) -> Vec<String> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.red_threes.is_empty())
            .map(|(i, s)| format!("seat {i} {}", cards_text(&s.red_threes)))
            .collect()
    }

    pub fn pile_text(&self) -> String {
        let top = self.pile_top.map_or("none".to_string(), |c| c.to_string());
        format!(
            "pile {} card(s), top {top}{}",
            self.pile_size,
            if self.pile_frozen { ", FROZEN" } else { "" }
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

/// A hand as players hold it: naturals grouped by rank (threes first, aces
/// last), and the wild cards apart.
pub fn hand_groups(hand: &CardCounts) -> (Vec<Vec<Card>>, Vec<Card>) {
    let mut groups: Vec<Vec<Card>> = Vec::new();
    let mut wilds = Vec::new();
    for card in hand.iter() {
        if card.is_wild() {
            wilds.push(card);
            continue;
        }
        match groups.last_mut() {
            Some(g) if g[0].rank() == card.rank() => g.push(card),
            _ => groups.push(vec![card]),
        }
    }
    (groups, wilds)
}

/// The hand in one line: `4C 4H | 7S | KD KS  wild: 2C JK`.
pub fn hand_text(hand: &CardCounts) -> String {
    let (groups, wilds) = hand_groups(hand);
    let mut text = groups
        .iter()
        .map(|g| cards_text(g))
        .collect::<Vec<_>>()
        .join(" | ");
    if !wilds.is_empty() {
        if !text.is_empty() {
            text.push_str("  ");
        }
        text.push_str(&format!("wild: {}", cards_text(&wilds)));
    }
    if text.is_empty() {
        text.push_str("(no cards)");
    }
    text
}

pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position in lines of text, for the line mode and the replay.
pub fn position_lines(view: &TableView) -> Vec<String> {
    let mut lines = vec![format!(
        "--- {}; hand {}, dealer seat {}; {}",
        view.title,
        view.hand_number,
        view.dealer,
        view.status()
    )];
    let scores: Vec<String> = view
        .scores
        .iter()
        .map(|(label, score)| format!("{label} {score}"))
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
                .map(|m| {
                    let tag = m.canasta.map_or(String::new(), |c| format!(" [{c}]"));
                    format!("{}: {}{tag}", m.index, m.cards)
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        lines.push(format!("{}{opening}: {melds}", side.label));
    }
    let reds = view.red_three_list();
    if !reds.is_empty() {
        lines.push(format!("red threes: {}", reds.join(" | ")));
    }
    lines.push(format!("stock {} | {}", view.stock, view.pile_text()));
    let counts: Vec<String> = view
        .seats
        .iter()
        .map(|s| {
            let foot = if s.foot > 0 {
                format!(" + foot {}", s.foot)
            } else {
                String::new()
            };
            format!("{} {}{foot}", s.label, s.cards)
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

    #[test]
    fn hands_group_by_rank_with_wilds_apart() {
        let hand: CardCounts = ["JK", "4C", "KS", "2H", "4H", "3S", "KD"]
            .iter()
            .map(|c| c.parse::<Card>().unwrap())
            .collect();
        assert_eq!(hand_text(&hand), "3S | 4H 4C | KS KD  wild: 2H JK");
        let (groups, wilds) = hand_groups(&hand);
        assert_eq!(groups.len(), 3);
        assert_eq!(wilds.len(), 2);
        assert_eq!(hand_text(&CardCounts::new()), "(no cards)");
    }
}
