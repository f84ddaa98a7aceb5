//! Drawing the full-screen game: a pure function of a [`Screen`] (the
//! table as one seat sees it, plus the keyboard's selection, log and
//! message), so it is tested on ratatui's `TestBackend` without a terminal.

use super::view::{SideView, TableView, cards_text, hand_text};
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
        2
    } else {
        hands_shown.max(1)
    };
    let [head, table, info, hand, log, message, keys] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(meld_rows + 3),
        Constraint::Length(2),
        Constraint::Length(hand_rows + 2),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
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
    frame.render_widget(Paragraph::new(Span::styled(screen.message, style)), message);
    frame.render_widget(
        Paragraph::new(Span::styled(screen.keys, Style::new().fg(Color::DarkGray))),
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
        .map(|(label, score)| format!("{label}: {score}"))
        .collect();
    vec![
        Line::from(vec![
            Span::styled(format!("{} ", view.title), TITLE),
            Span::raw(format!(
                "| hand {}, dealer seat {} | {}",
                view.hand_number,
                view.dealer,
                view.status()
            )),
        ]),
        Line::from(format!("scores  {}", scores.join("   "))),
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
    Paragraph::new(lines).block(Block::bordered().title(title).border_style(style))
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
    let reds: Vec<String> = view
        .seats
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.red_threes.is_empty())
        .map(|(i, s)| format!("seat {i} {}", cards_text(&s.red_threes)))
        .collect();
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
            format!("{}: {} cards{foot}", s.label, s.cards)
        })
        .collect();
    vec![Line::from(pile), Line::from(counts.join("  "))]
}

/// The viewer's hand with cursor and selection, or (for an onlooker) every
/// hand shown.
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
    let mut spans = Vec::new();
    let mut marks = String::new();
    for (i, card) in screen.cards.iter().enumerate() {
        let sep = match i.checked_sub(1).map(|p| screen.cards[p]) {
            None => "",
            Some(prev) if card.is_wild() && !prev.is_wild() => "  wild:",
            Some(prev) if !card.is_wild() && prev.rank() != card.rank() => " |",
            Some(_) => "",
        };
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
    let title = format!(" your hand, seat {seat} ({} cards) ", screen.cards.len());
    let widget = Paragraph::new(vec![Line::from(spans), Line::from(marks)])
        .block(Block::bordered().title(title));
    frame.render_widget(widget, area);
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
