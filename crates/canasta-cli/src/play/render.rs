//! Drawing the full-screen game: a pure function of a [`Screen`] (the
//! table as one seat sees it, plus the keyboard's selection, log and
//! message), so it is tested on ratatui's `TestBackend` without a terminal.

use super::view::{SideView, TableView, hand_text};
use canasta_core::Card;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

/// A box over the table: a hand's score, the game's end, help, a hint.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    pub title: String,
    pub lines: Vec<String>,
}

/// Everything one frame shows.
#[derive(Clone, Debug, Default)]
pub struct Screen<'a> {
    /// The table; `None` hides it (between two humans at one keyboard).
    pub view: Option<&'a TableView>,
    /// The viewer's hand in display order (grouped by rank, wilds last).
    pub cards: &'a [Card],
    pub cursor: usize,
    /// Selected cards (same indexes as `cards`).
    pub selected: &'a [bool],
    /// Cards already marked as groups of a compound meld (`g`).
    pub grouped: &'a [bool],
    /// Recent moves, oldest first.
    pub log: &'a [String],
    /// The last answer to the player: a refusal, a hint, a saved file.
    pub message: &'a str,
    /// The message is a refusal (shown in red).
    pub refused: bool,
    /// The key line at the bottom.
    pub keys: &'a str,
    pub overlay: Option<&'a Overlay>,
}

const TITLE: Style = Style::new().add_modifier(Modifier::BOLD);

/// Draws `screen` over the whole frame.
pub fn render(frame: &mut Frame, screen: &Screen) {
    let area = frame.area();
    let Some(view) = screen.view else {
        let text = Paragraph::new(screen.message).block(Block::bordered().title(" canasta "));
        frame.render_widget(text, area);
        if let Some(o) = screen.overlay {
            overlay(frame, area, o);
        }
        return;
    };
    let meld_rows = view
        .sides
        .iter()
        .map(|s| s.melds.len().max(1))
        .max()
        .unwrap_or(1) as u16;
    let hands_shown = view.seats.iter().filter(|s| s.hand.is_some()).count() as u16;
    let hand_rows = if view.viewer.is_some() {
        hand_lines(screen, area.width.saturating_sub(2) as usize).len() as u16
    } else {
        hands_shown.max(1)
    };
    let [head, table, info, hand, log, message, keys] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(meld_rows + 3),
        Constraint::Length(2),
        Constraint::Length(hand_rows + 2),
        Constraint::Min(3),
        Constraint::Length(2),
        Constraint::Length(2),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(head_lines(view)), head);
    render_sides(frame, table, view);
    frame.render_widget(Paragraph::new(info_lines(view)), info);
    render_hand(frame, hand, view, screen);
    let shown = log.height.saturating_sub(2) as usize;
    let recent: Vec<Line> = screen
        .log
        .iter()
        .skip(screen.log.len().saturating_sub(shown))
        .map(|l| Line::from(l.as_str()))
        .collect();
    frame.render_widget(
        Paragraph::new(recent).block(Block::bordered().title(" moves ")),
        log,
    );
    let style = if screen.refused {
        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(Color::Yellow)
    };
    frame.render_widget(
        Paragraph::new(Span::styled(screen.message, style)).wrap(Wrap { trim: true }),
        message,
    );
    frame.render_widget(
        Paragraph::new(Span::styled(screen.keys, Style::new().fg(Color::DarkGray)))
            .wrap(Wrap { trim: true }),
        keys,
    );
    if let Some(o) = screen.overlay {
        overlay(frame, area, o);
    }
}

fn head_lines(view: &TableView) -> Vec<Line<'_>> {
    let scores: Vec<String> = view
        .scores
        .iter()
        .map(|(label, score)| format!("{label} {score}"))
        .collect();
    let mut first = vec![
        Span::raw(format!(
            "hand {}, dealer seat {}: ",
            view.hand_number, view.dealer
        )),
        Span::styled(view.status(), TITLE),
    ];
    if let Some(note) = view.turn_note() {
        first.push(Span::styled(
            format!(" | {note}"),
            Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
        ));
    }
    vec![
        Line::from(first),
        Line::from(format!("scores: {} | {}", scores.join(", "), view.title)),
    ]
}

/// Each side's melds in a column of its own.
fn render_sides(frame: &mut Frame, area: Rect, view: &TableView) {
    let columns =
        Layout::horizontal(vec![Constraint::Fill(1); view.sides.len().max(1)]).split(area);
    for (side, col) in view.sides.iter().zip(columns.iter()) {
        frame.render_widget(side_widget(side), *col);
    }
}

fn side_widget(side: &SideView) -> Paragraph<'_> {
    let mut title = format!(" {}{} ", side.label, if side.own { ", yours" } else { "" });
    if let Some(need) = side.opening_needed {
        title.push_str(&format!("- opening needs {need} "));
    }
    let mut lines: Vec<Line> = side
        .melds
        .iter()
        .map(|m| {
            let mut spans = vec![Span::raw(format!("{}: {}", m.index, m.cards))];
            match m.canasta {
                Some(kind) => {
                    let color = if kind == "mixed canasta" {
                        Color::Black
                    } else {
                        Color::Red
                    };
                    spans.push(Span::styled(
                        format!("  * {kind}"),
                        Style::new()
                            .fg(color)
                            .bg(Color::Gray)
                            .add_modifier(Modifier::BOLD),
                    ));
                }
                None => spans.push(Span::styled(
                    format!("  ({} cards)", m.len),
                    Style::new().fg(Color::DarkGray),
                )),
            }
            Line::from(spans)
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::styled("no melds", Style::new().fg(Color::DarkGray)));
    }
    let style = if side.own {
        Style::new().fg(Color::Cyan)
    } else {
        Style::default()
    };
    // A long meld wraps rather than lose its marker on a narrow screen.
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .block(Block::bordered().title(title).border_style(style))
}

fn info_lines(view: &TableView) -> Vec<Line<'_>> {
    let mut pile = vec![Span::raw(format!("stock {}   ", view.stock))];
    let top = view.pile_top.map_or("none".to_string(), |c| c.to_string());
    pile.push(Span::raw(format!("pile {} card(s), top ", view.pile_size)));
    pile.push(Span::styled(top, TITLE));
    if view.pile_frozen {
        pile.push(Span::styled(
            " FROZEN",
            Style::new()
                .fg(Color::LightBlue)
                .add_modifier(Modifier::BOLD),
        ));
    }
    let reds = view.red_three_list();
    if !reds.is_empty() {
        pile.push(Span::styled(
            format!("   red threes: {}", reds.join(", ")),
            Style::new().fg(Color::Red),
        ));
    }
    let counts: Vec<String> = view
        .seats
        .iter()
        .map(|s| {
            let foot = if s.foot > 0 {
                format!(" +foot {}", s.foot)
            } else {
                String::new()
            };
            format!("{}: {}{foot}", s.label, plural(s.cards, "card"))
        })
        .collect();
    vec![Line::from(pile), Line::from(counts.join("  "))]
}

/// The viewer's hand with cursor and selection, or (for an onlooker) every
/// hand shown.
/// The viewer's hand in rows of at most `width` characters, each row of
/// cards followed by a row marking the cursor (`^^`): a hand swollen by the
/// pile wraps instead of running off the screen.
fn hand_lines<'a>(screen: &Screen, width: usize) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let (mut spans, mut marks) = (Vec::new(), String::new());
    for (i, card) in screen.cards.iter().enumerate() {
        let sep = match i.checked_sub(1).map(|p| screen.cards[p]) {
            None => "",
            Some(prev) if card.is_wild() && !prev.is_wild() => " wild:",
            Some(prev) if !card.is_wild() && prev.rank() != card.rank() => "|",
            Some(_) => "",
        };
        if !marks.is_empty() && marks.len() + sep.len() + 4 > width {
            lines.push(Line::from(std::mem::take(&mut spans)));
            lines.push(Line::from(std::mem::take(&mut marks)));
        }
        spans.push(Span::raw(sep));
        marks.push_str(&" ".repeat(sep.len()));
        let selected = screen.selected.get(i).copied().unwrap_or(false);
        let grouped = screen.grouped.get(i).copied().unwrap_or(false);
        let text = match (selected, grouped) {
            (true, _) => format!("[{card}]"),
            (false, true) => format!("<{card}>"),
            (false, false) => format!(" {card} "),
        };
        let mut style = Style::new();
        if card.suit().is_some_and(|s| s.is_red()) {
            style = style.fg(Color::Red);
        }
        if selected {
            style = style.add_modifier(Modifier::BOLD);
        }
        if i == screen.cursor {
            style = style.add_modifier(Modifier::REVERSED);
            marks.push_str(" ^^ ");
        } else {
            marks.push_str("    ");
        }
        spans.push(Span::styled(text, style));
    }
    if screen.cards.is_empty() {
        spans.push(Span::raw("(no cards)"));
    }
    lines.push(Line::from(spans));
    lines.push(Line::from(marks));
    lines
}

fn render_hand(frame: &mut Frame, area: Rect, view: &TableView, screen: &Screen) {
    let Some(seat) = view.viewer else {
        let lines: Vec<Line> = view
            .seats
            .iter()
            .filter_map(|s| {
                s.hand
                    .as_ref()
                    .map(|h| Line::from(format!("{}: {}", s.label, hand_text(h))))
            })
            .collect();
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(" hands ")),
            area,
        );
        return;
    };
    let lines = hand_lines(screen, area.width.saturating_sub(2) as usize);
    let title = format!(
        " your hand, seat {seat} ({}) ",
        plural(screen.cards.len(), "card")
    );
    let widget = Paragraph::new(lines).block(Block::bordered().title(title));
    frame.render_widget(widget, area);
}

/// `1 card`, `7 cards`.
fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn overlay(frame: &mut Frame, area: Rect, o: &Overlay) {
    let width = o
        .lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(o.title.chars().count())
        + 4;
    let width = (width as u16).min(area.width);
    let height = (o.lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let lines: Vec<Line> = o.lines.iter().map(|l| Line::from(l.as_str())).collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::bordered()
                .title(format!(" {} ", o.title))
                .style(TITLE),
        ),
        rect,
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::play::session::{Next, Seat, Session};
    use crate::play::view::{MeldView, SeatView};
    use canasta_core::{CardCounts, Phase, Rng, Rules};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// The frame's text, one string per row.
    pub(crate) fn draw(screen: &Screen, width: u16, height: u16) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|f| render(f, screen)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect())
            .collect()
    }

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    fn seat(label: &str, n: usize) -> SeatView {
        SeatView {
            label: label.into(),
            team: 0,
            cards: n,
            foot: 0,
            red_threes: Vec::new(),
            hand: None,
        }
    }

    /// A table with a canasta of each kind, a frozen pile and red threes.
    fn table() -> TableView {
        let hand = CardCounts::from_cards(cards("4H 4C 9S KS KD 2C JK"));
        let mut seats = vec![
            seat("seat 0 (you)", 7),
            seat("seat 1 (ismcts)", 9),
            seat("seat 2 (ismcts)", 4),
            seat("seat 3 (ismcts)", 11),
        ];
        seats[0].hand = Some(hand);
        seats[1].red_threes = cards("3H 3D");
        let meld = |index, text: &str, canasta| MeldView {
            index,
            cards: text.into(),
            len: text.split_whitespace().count(),
            canasta,
        };
        TableView {
            title: "classic canasta, 4 players in 2 teams, target 5000".into(),
            hand_number: 3,
            phase: Phase::Play,
            dealer: 2,
            current: 0,
            to_act: 0,
            viewer: Some(0),
            seats,
            sides: vec![
                SideView {
                    side: 0,
                    label: "team 0 (seats 0, 2)".into(),
                    melds: vec![
                        meld(0, "KS KS KH KH KD KC KC", Some("natural canasta")),
                        meld(1, "7H 7D 7C", None),
                    ],
                    opening_needed: None,
                    own: true,
                },
                SideView {
                    side: 1,
                    label: "team 1 (seats 1, 3)".into(),
                    melds: vec![meld(0, "2S 9H 9H 9D 9C 9C JK", Some("mixed canasta"))],
                    opening_needed: None,
                    own: false,
                },
            ],
            scores: vec![
                ("team 0 (seats 0, 2)".into(), 1234),
                ("team 1 (seats 1, 3)".into(), -85),
            ],
            pile_top: Some("2D".parse().unwrap()),
            pile_size: 14,
            pile_frozen: true,
            stock: 41,
            asked: false,
            answer: None,
            must_go_out: false,
        }
    }

    #[test]
    fn the_table_shows_what_a_player_sees() {
        let view = table();
        let (groups, wilds) = crate::play::view::hand_groups(view.seats[0].hand.as_ref().unwrap());
        let hand: Vec<Card> = groups.into_iter().flatten().chain(wilds).collect();
        let selected = [false, true, false, false, false, false, false];
        let log = vec!["seat 3: discard 2D".to_string()];
        let screen = Screen {
            view: Some(&view),
            cards: &hand,
            cursor: 2,
            selected: &selected,
            log: &log,
            message: "`discard 4H` is refused: 4H is not in your hand",
            refused: true,
            keys: "keys",
            ..Screen::default()
        };
        let text = draw(&screen, 120, 30).join("\n");
        for expected in [
            "natural canasta",
            "mixed canasta",
            "FROZEN",
            "pile 14 card(s), top 2D",
            "stock 41",
            "team 0 (seats 0, 2) 1234",
            "team 1 (seats 1, 3) -85",
            "red threes: seat 1 3H 3D",
            "seat 3 (ismcts): 11 cards",
            "hand 3, dealer seat 2: seat 0 (you) to meld, add or discard",
            " 4H [4C]| 9S | KS  KD  wild: 2C  JK ",
            "4H is not in your hand",
            "seat 3: discard 2D",
            "your hand, seat 0 (7 cards)",
        ] {
            assert!(
                text.contains(expected),
                "`{expected}` missing from:\n{text}"
            );
        }
        // The cursor's mark sits under the third card (9S).
        let rows = draw(&screen, 120, 30);
        let hand_row = rows.iter().position(|r| r.contains("[4C]")).unwrap();
        let col = rows[hand_row].find("9S").unwrap();
        assert_eq!(&rows[hand_row + 1][col - 1..col + 3], " ^^ ");
    }

    /// A hand wider than the screen wraps, the cursor mark under its card.
    #[test]
    fn a_long_hand_wraps() {
        let mut view = table();
        let long = cards("4H 4C 5S 5D 6S 6H 7C 7D 8S 8H 9C 9D TS TH JC JD QS QH KC KD AS AH 2C JK");
        view.seats[0].hand = Some(CardCounts::from_cards(long.iter().copied()));
        let (groups, wilds) = crate::play::view::hand_groups(view.seats[0].hand.as_ref().unwrap());
        let hand: Vec<Card> = groups.into_iter().flatten().chain(wilds).collect();
        let screen = Screen {
            view: Some(&view),
            cards: &hand,
            cursor: 23,
            ..Screen::default()
        };
        let rows = draw(&screen, 60, 40);
        let text = rows.join("\n");
        assert!(text.contains("your hand, seat 0 (24 cards)"), "{text}");
        assert!(text.contains(" 4H  4C | 5S"), "{text}");
        assert!(text.contains("JK"), "the last card is on screen: {text}");
        let last = rows.iter().rposition(|r| r.contains(" JK ")).unwrap();
        let title = rows.iter().position(|r| r.contains("your hand")).unwrap();
        assert_eq!(last, title + 3, "JK on the hand's second row of cards");
        let col = rows[last].find(" JK ").unwrap();
        assert_eq!(&rows[last + 1][col..col + 4], " ^^ ");
    }

    #[test]
    fn an_unopened_side_shows_its_opening_minimum() {
        let mut view = table();
        view.sides[1].melds.clear();
        view.sides[1].opening_needed = Some(90);
        view.pile_frozen = false;
        view.asked = true;
        view.answer = Some(true);
        let screen = Screen {
            view: Some(&view),
            ..Screen::default()
        };
        let text = draw(&screen, 120, 30).join("\n");
        assert!(text.contains("opening needs 90"), "{text}");
        assert!(text.contains("partner said yes: you must go out"), "{text}");
        assert!(text.contains("no melds"));
        assert!(!text.contains("FROZEN"));
    }

    /// The screen of seat 0 is the same whatever the cards it cannot see:
    /// every other hand and the stock re-dealt at random change nothing.
    #[test]
    fn the_screen_never_shows_a_hidden_card() {
        let rules = Rules::classic();
        let seats = vec![
            Seat::Human,
            Seat::Bot("heuristic".into()),
            Seat::Bot("heuristic".into()),
            Seat::Bot("heuristic".into()),
        ];
        let mut session = Session::new(rules.clone(), seats, 11, 10).unwrap();
        let names: Vec<String> = session.seats().iter().map(|s| s.name().into()).collect();
        let mut checked = 0;
        let mut rng = Rng::new(5);
        while checked < 12 {
            match session.next() {
                Next::Deal => {
                    session.deal().unwrap();
                }
                Next::Bot(_) => {
                    session.play_bot().unwrap();
                }
                Next::Human(_) => {
                    let real = TableView::new(&session.observe(0), &rules, &names);
                    let sample = session.state().determinize(0, &mut rng);
                    assert_ne!(sample.hand(1), session.state().hand(1), "a real re-deal");
                    let seen = TableView::new(&sample.observe(0), &rules, &names);
                    let shot = |v: &TableView| {
                        draw(
                            &Screen {
                                view: Some(v),
                                ..Screen::default()
                            },
                            120,
                            30,
                        )
                    };
                    assert_eq!(shot(&real), shot(&seen));
                    for other in 1..4 {
                        let hidden = crate::play::view::hand_text(session.state().hand(other));
                        assert!(!shot(&real).join("\n").contains(&hidden));
                    }
                    let a = session.human_legal()[0];
                    session.play_human(a).unwrap();
                    checked += 1;
                }
                _ => break,
            }
        }
        assert_eq!(checked, 12);
    }
}
