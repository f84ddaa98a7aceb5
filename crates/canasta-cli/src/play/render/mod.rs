//! Drawing the full-screen game: a pure function of a [`Screen`] (the
//! table as one seat sees it, plus the keyboard's selection, log and
//! message), so it is tested on ratatui's `TestBackend` without a terminal.
//!
//! Every region is laid out for the width first ([`flow`]): what does not
//! fit on a row goes to the next, in a shorter form where a longer one
//! would crowd out the moves, so nothing a player needs is cut off.

mod flow;
mod sides;

use super::hand::{HandOrder, hand_text};
use super::view::{TableView, plural};
use canasta_core::Card;
use flow::{Piece, fit, flow, wrap};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use sides::side_box;

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
    /// The viewer's hand in display order (grouped by rank or suit, wilds
    /// last).
    pub cards: &'a [Card],
    /// How `cards` are grouped.
    pub order: HandOrder,
    pub cursor: usize,
    /// Selected cards (same indexes as `cards`).
    pub selected: &'a [bool],
    /// Cards already marked as groups of a compound meld (`g`).
    pub grouped: &'a [bool],
    /// Cards that came into the hand this turn (drawn, or with the pile).
    pub fresh: &'a [bool],
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

/// Rows the move list keeps however crowded the table (one move and its
/// borders); it asks for a whole round where it can ([`round_rows`]).
const LOG_MIN: u16 = 3;

/// Rows the last round of moves takes in the move list (`inner` wide):
/// one line a turn for each seat, and any deal line among them, so that
/// no seat's turn (a bot's pickup) scrolls away before the viewer's turn.
fn round_rows(log: &[String], seats: usize, inner: usize) -> u16 {
    let mut rows = 0;
    let mut turns = 0;
    for entry in log.iter().rev() {
        if turns == seats {
            break;
        }
        if !entry.starts_with("---") {
            turns += 1;
        }
        rows += wrap(entry, inner).len();
    }
    rows as u16
}

/// Draws `screen` over the whole frame.
pub fn render(frame: &mut Frame, screen: &Screen) {
    let area = frame.area();
    let Some(view) = screen.view else {
        let text = Paragraph::new(screen.message)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" canasta "));
        frame.render_widget(text, area);
        if let Some(o) = screen.overlay {
            overlay(frame, area, o);
        }
        return;
    };
    let w = area.width as usize;
    let head = head_lines(view, w);
    let info = info_lines(view, w);
    let hand = if view.viewer.is_some() {
        hand_lines(screen, w.saturating_sub(2))
    } else {
        onlooker_hands(view, w.saturating_sub(2))
    };
    // A short screen gives the moves the rows it can spare: one row of
    // message, one row of keys (those that fit, and always help and quit).
    let short = area.height < SHORT_SCREEN;
    let message = message_lines(screen, w, if short { 1 } else { 2 });
    let keys = key_lines(screen.keys, w, short);
    let rows = |lines: &[Line]| lines.len() as u16;
    let fixed = rows(&head) + rows(&info) + rows(&hand) + 2 + rows(&message) + rows(&keys);
    // The melds take what the rest leaves, down to the move list's least;
    // melds that would still be hidden take the move list's rows too (the
    // table matters more than the moves that made it).
    let columns = Layout::horizontal(vec![Constraint::Fill(1); view.sides.len().max(1)])
        .split(Rect { height: 1, ..area });
    let boxes_for = |room: usize| -> Vec<_> {
        view.sides
            .iter()
            .zip(columns.iter())
            .map(|(side, col)| side_box(side, col.width.saturating_sub(2) as usize, room))
            .collect::<Vec<_>>()
    };
    let room_with_log = |log_rows: u16| area.height.saturating_sub(fixed + log_rows + 2).max(1);
    // A round of moves, where the screen has room for it beside the table
    // (at most half its rows).
    let round = round_rows(screen.log, view.seats.len(), w.saturating_sub(2)) + 2;
    let least = round.min(area.height / 2).max(LOG_MIN);
    let mut log_min = least;
    let mut boxes = boxes_for(room_with_log(log_min) as usize);
    if boxes.iter().any(|b| b.hidden > 0) {
        // The fewest rows more that show every meld (the other sides keep
        // to them too, so the moves keep what is left).
        log_min = 0;
        let most = room_with_log(0);
        let mut room = room_with_log(least);
        loop {
            room += 1;
            boxes = boxes_for(room as usize);
            if room >= most || boxes.iter().all(|b| b.hidden == 0) {
                break;
            }
        }
    }
    let meld_rows = boxes.iter().map(|b| b.lines.len()).max().unwrap_or(1) as u16;
    let [
        head_area,
        table,
        info_area,
        hand_area,
        log,
        message_area,
        keys_area,
    ] = Layout::vertical([
        Constraint::Length(rows(&head)),
        Constraint::Length(meld_rows + 2),
        Constraint::Length(rows(&info)),
        Constraint::Length(rows(&hand) + 2),
        Constraint::Min(log_min),
        Constraint::Length(rows(&message)),
        Constraint::Length(rows(&keys)),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(head), head_area);
    let columns = Layout::horizontal(vec![Constraint::Fill(1); boxes.len().max(1)]).split(table);
    for (b, col) in boxes.into_iter().zip(columns.iter()) {
        let style = if b.own {
            Style::new().fg(Color::Cyan)
        } else {
            Style::default()
        };
        let block = Block::bordered()
            .title(format!(" {} ", b.title))
            .border_style(style);
        frame.render_widget(Paragraph::new(b.lines).block(block), *col);
    }
    frame.render_widget(Paragraph::new(info), info_area);
    let hand_title = match view.viewer {
        Some(seat) => {
            let order = match screen.order {
                HandOrder::ByRank => "",
                HandOrder::BySuit => ", by suit",
            };
            format!(
                " your hand, seat {seat} ({}{order}) ",
                plural(screen.cards.len(), "card")
            )
        }
        None => " hands ".to_string(),
    };
    frame.render_widget(
        Paragraph::new(hand).block(Block::bordered().title(hand_title)),
        hand_area,
    );
    render_log(frame, log, view, screen);
    frame.render_widget(Paragraph::new(message), message_area);
    frame.render_widget(Paragraph::new(keys), keys_area);
    if let Some(o) = screen.overlay {
        overlay(frame, area, o);
    }
}

fn render_log(frame: &mut Frame, area: Rect, view: &TableView, screen: &Screen) {
    let shown = area.height.saturating_sub(2) as usize;
    let inner = area.width.saturating_sub(2) as usize;
    // Newest last; a long entry wraps rather than lose its end.
    let mut recent: Vec<Line> = Vec::new();
    for entry in screen.log.iter().rev() {
        let mut rows = wrap(entry, inner);
        rows.append(&mut recent);
        recent = rows;
        if recent.len() >= shown {
            break;
        }
    }
    let skip = recent.len().saturating_sub(shown);
    let recent: Vec<Line> = recent.into_iter().skip(skip).collect();
    let title = fit(
        &[&format!("moves: {}", view.title), "moves"],
        inner.saturating_sub(2),
    )
    .to_string();
    frame.render_widget(
        Paragraph::new(recent).block(Block::bordered().title(format!(" {title} "))),
        area,
    );
}

/// Screens with fewer rows are short: the message and the keys take one
/// row each, so that a round of moves fits at 80×24.
const SHORT_SCREEN: u16 = 30;

/// The key bar, `w` wide; on a `short` screen one row of the keys that
/// fit, the turn's own first (draw, discard, pile, meld, add) and help and
/// quit always (the rest are in the help).
fn key_lines(keys: &str, w: usize, short: bool) -> Vec<Line<'static>> {
    const FIRST: [&str; 16] = [
        "d ", "x ", "p ", "m ", "a ", "? ", "q ", "←→", "space", "h ", "u ", "y/n", "k ", "g ",
        "o ", "s ",
    ];
    let piece = |k: &str| {
        vec![Span::styled(
            k.to_string(),
            Style::new().fg(Color::DarkGray),
        )]
    };
    let all: Vec<&str> = keys.split("  ").collect();
    let rows = flow(all.iter().map(|k| piece(k)).collect(), "  ", w);
    if !short || rows.len() <= 1 || !all.iter().any(|k| k.starts_with("? ")) {
        // Room enough, or not the key bar (a prompt): all of it.
        return rows;
    }
    let mut keep = vec![false; all.len()];
    let mut used = 0;
    for lead in FIRST {
        if let Some(i) = all.iter().position(|k| k.starts_with(lead)) {
            let more = all[i].chars().count() + if used == 0 { 0 } else { 2 };
            if !keep[i] && used + more <= w {
                keep[i] = true;
                used += more;
            }
        }
    }
    let kept = all
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(key, _)| piece(key));
    flow(kept.collect(), "  ", w)
}

fn message_lines(screen: &Screen, w: usize, least: usize) -> Vec<Line<'static>> {
    let style = if screen.refused {
        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(Color::Yellow)
    };
    // At least `least` rows, so the table does not jump with each message.
    let mut lines: Vec<Line> = wrap(screen.message, w)
        .into_iter()
        .map(|l| l.style(style))
        .collect();
    while lines.len() < least {
        lines.push(Line::default());
    }
    lines
}

fn raw(text: String) -> Piece {
    vec![Span::raw(text)]
}

/// The heading and the scores: each score a whole piece, the long labels
/// where they fit on one row.
fn head_lines(view: &TableView, w: usize) -> Vec<Line<'static>> {
    // The status stays on one row: the short heading where the long one
    // does not fit.
    let (long, short) = view.headings();
    let note = view.turn_note();
    let bar = if note.is_some() { 2 } else { 0 };
    let heading = fit(&[&long, &short], w.saturating_sub(bar)).to_string();
    let mut first = vec![Span::styled(heading, TITLE)];
    let mut pieces = Vec::new();
    if let Some(note) = note {
        first.push(Span::raw(" |"));
        pieces.push(first);
        first = vec![Span::styled(
            note,
            Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
        )];
    }
    pieces.push(first);
    let mut lines = flow(pieces, " ", w);
    let scores = |long: bool| {
        let mut pieces = Vec::new();
        for (i, s) in view.scores.iter().enumerate() {
            let label = if long { &s.label.long } else { &s.label.short };
            let lead = if i == 0 { "scores: " } else { "" };
            pieces.push(raw(format!("{lead}{label} {}", s.score)));
        }
        pieces.push(raw(format!("(target {})", view.target)));
        flow(pieces, "  ", w)
    };
    let long = scores(true);
    lines.extend(if long.len() == 1 { long } else { scores(false) });
    lines
}

/// The stock, the pile and what freezes it for the viewer, red threes;
/// then every seat's cards. Long forms where the rows stay few.
fn info_lines(view: &TableView, w: usize) -> Vec<Line<'static>> {
    let pile = |long: bool| {
        let mut pieces = vec![raw(format!("stock {}", view.stock))];
        let words = view.pile_words();
        let mut pile = Vec::new();
        match view.pile_top {
            Some(top) => {
                let top = top.to_string();
                let (before, after) = words.rsplit_once(&top).unwrap_or((&words, ""));
                pile.push(Span::raw(before.to_string()));
                pile.push(Span::styled(top, TITLE));
                pile.push(Span::raw(after.to_string()));
            }
            None => pile.push(Span::raw(words)),
        }
        pieces.push(pile);
        if let Some(freeze) = view.freeze_words(long) {
            pieces.push(vec![Span::styled(
                freeze,
                Style::new()
                    .fg(Color::LightBlue)
                    .add_modifier(Modifier::BOLD),
            )]);
        }
        let reds = view.red_three_list();
        if !reds.is_empty() {
            pieces.push(vec![Span::styled(
                format!("red threes: {}", reds.join(", ")),
                Style::new().fg(Color::Red),
            )]);
        }
        flow(pieces, "   ", w)
    };
    let counts = |long: bool| {
        let pieces = view
            .seats
            .iter()
            .map(|s| {
                let foot = match (s.foot, long) {
                    (0, _) => String::new(),
                    (n, true) => format!(" + foot {n}"),
                    (n, false) => format!("+{n}"),
                };
                if long {
                    raw(format!(
                        "{}: {}{foot}",
                        s.label.long,
                        plural(s.cards, "card")
                    ))
                } else {
                    raw(format!("{} {}{foot}", s.label.short, s.cards))
                }
            })
            .collect();
        let feet = view.seats.iter().any(|s| s.foot > 0);
        let prefix = match (long, feet) {
            (true, _) => "",
            (false, false) => "cards: ",
            (false, true) => "cards (+ foot): ",
        };
        let mut rows = flow(pieces, "  ", w.saturating_sub(prefix.len()));
        if let Some(first) = rows.first_mut() {
            first.spans.insert(0, Span::raw(prefix));
        }
        rows
    };
    let long = pile(true);
    let mut lines = if long.len() <= 2 { long } else { pile(false) };
    let long = counts(true);
    lines.extend(if long.len() == 1 { long } else { counts(false) });
    lines
}

/// The viewer's hand in rows of at most `width` characters, each row of
/// cards followed by a row of marks: `^^` under the cursor, `++` under a
/// card that came this turn, `^+` under both. A hand swollen by the pile wraps instead of
/// running off the screen.
fn hand_lines(screen: &Screen, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let (mut spans, mut marks) = (Vec::new(), String::new());
    for (i, card) in screen.cards.iter().enumerate() {
        let sep = match i.checked_sub(1).map(|p| screen.cards[p]) {
            None => "",
            Some(prev) if card.is_wild() && !prev.is_wild() => " wild:",
            Some(prev) if !card.is_wild() && !screen.order.same_group(prev, *card) => "|",
            Some(_) => "",
        };
        if !marks.is_empty() && marks.chars().count() + sep.len() + 4 > width {
            lines.push(Line::from(std::mem::take(&mut spans)));
            lines.push(Line::from(std::mem::take(&mut marks)));
        }
        spans.push(Span::raw(sep));
        marks.push_str(&" ".repeat(sep.len()));
        let flag = |flags: &[bool]| flags.get(i).copied().unwrap_or(false);
        let (selected, grouped, fresh) = (
            flag(screen.selected),
            flag(screen.grouped),
            flag(screen.fresh),
        );
        let text = match (selected, grouped) {
            (true, _) => format!("[{card}]"),
            (false, true) => format!("<{card}>"),
            (false, false) => format!(" {card} "),
        };
        let mut style = Style::new();
        if card.suit().is_some_and(|s| s.is_red()) {
            style = style.fg(Color::Red);
        }
        if fresh {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        if selected {
            style = style.add_modifier(Modifier::BOLD);
        }
        if i == screen.cursor {
            style = style.add_modifier(Modifier::REVERSED);
            // Under a card just drawn, both marks: the cursor's and the
            // draw's.
            marks.push_str(if fresh { " ^+ " } else { " ^^ " });
        } else if fresh {
            marks.push_str(" ++ ");
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

/// Every hand, for an onlooker (the replay of a finished game).
fn onlooker_hands(view: &TableView, width: usize) -> Vec<Line<'static>> {
    let lines: Vec<Line> = view
        .seats
        .iter()
        .filter_map(|s| {
            s.hand
                .as_ref()
                .map(|h| wrap(&format!("{}: {}", s.label.long, hand_text(h)), width))
        })
        .flatten()
        .collect();
    if lines.is_empty() {
        vec![Line::default()]
    } else {
        lines
    }
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
    let inner = width.saturating_sub(2) as usize;
    let lines: Vec<Line> = o.lines.iter().flat_map(|l| wrap(l, inner)).collect();
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(format!(" {} ", o.title))
                .style(TITLE),
        ),
        rect,
    );
}

#[cfg(test)]
pub(crate) mod tests;
