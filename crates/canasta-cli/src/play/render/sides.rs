//! The melds of each side, in boxes side by side: every card where there
//! is room, a shorter form (`Q×4 2H JK`) packed into columns where there
//! is not, so that a side with a dozen melds still fits an 80×24 screen.

use super::flow::{Piece, fit, flow, width};
use crate::play::view::{MeldView, SideView};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// One side's box: its title and rows, laid out for its width.
pub struct SideBox {
    pub title: String,
    pub lines: Vec<Line<'static>>,
    pub own: bool,
    /// Melds left out for want of rows (`+N more`).
    pub hidden: usize,
}

/// How much of each meld is shown, most first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Every card and the canasta's full name.
    Full,
    /// `Q×4 2H JK *mixed`, one a row.
    Compact,
    /// The same, packed into columns.
    Packed,
    /// `Q×4+2*`, packed: for a small screen with many melds.
    Tiny,
}

/// The box of `side`, `inner` characters wide, in at most `max_rows`
/// rows where the melds allow it (the most detail that fits).
pub fn side_box(side: &SideView, inner: usize, max_rows: usize) -> SideBox {
    let yours = if side.own && side.seats.len() > 1 {
        ", yours"
    } else {
        ""
    };
    let long = format!("{}{yours}", side.label.long);
    let short = format!("{}{yours}", side.label.short);
    let title = fit(&[&long, &short, &side.label.short], inner.saturating_sub(2)).to_string();
    let mut hidden = 0;
    let lines = if side.melds.is_empty() {
        let mut pieces = vec![vec![Span::styled("no melds", dim())]];
        if let Some(need) = side.opening_needed {
            // In a narrow box (five sides) the short form stays on a row.
            let words = if inner >= 16 {
                "opening needs"
            } else {
                "needs"
            };
            pieces.push(vec![Span::styled(
                format!("{words} {need}"),
                Style::new().fg(Color::Yellow),
            )]);
        }
        flow(pieces, "; ", inner)
    } else {
        let mut chosen = Vec::new();
        for detail in [Detail::Full, Detail::Compact, Detail::Packed, Detail::Tiny] {
            // A meld whose line would wrap (its canasta mark on a row of
            // its own) takes the shorter form.
            let wraps = matches!(detail, Detail::Full | Detail::Compact)
                && side
                    .melds
                    .iter()
                    .any(|m| width(&meld_piece(m, detail)) > inner);
            if wraps {
                continue;
            }
            chosen = meld_rows(&side.melds, detail, inner);
            if chosen.len() <= max_rows {
                break;
            }
        }
        if chosen.len() > max_rows.max(1) {
            // Even packed it does not fit: say how many are not shown.
            let keep = max_rows.max(1) - 1;
            hidden = more_count(&side.melds, inner, keep);
            chosen.truncate(keep);
            chosen.push(Line::styled(format!("+{hidden} more"), dim()));
        }
        chosen
    };
    SideBox {
        title,
        lines,
        own: side.own,
        hidden,
    }
}

/// Melds left out when only `keep` packed rows are shown.
fn more_count(melds: &[MeldView], inner: usize, keep: usize) -> usize {
    let per_row = columns(melds, Detail::Tiny, inner).0;
    melds.len().saturating_sub(keep * per_row)
}

fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

/// The canasta's mark: red for a natural one (and a samba), black for a
/// mixed one, as the cards on top of a closed pile.
fn canasta_mark(text: String, name: &str) -> Span<'static> {
    let color = if name.contains("mixed") {
        Color::Black
    } else {
        Color::Red
    };
    Span::styled(
        text,
        Style::new()
            .fg(color)
            .bg(Color::Gray)
            .add_modifier(Modifier::BOLD),
    )
}

fn meld_piece(m: &MeldView, detail: Detail) -> Piece {
    let run = Style::new().fg(Color::Magenta);
    match detail {
        Detail::Full => {
            let mut spans = vec![Span::raw(format!("{}: {}", m.index, m.cards))];
            match &m.canasta {
                Some(name) => spans.push(canasta_mark(format!("  * {name}"), name)),
                None if m.sequence => {
                    spans.push(Span::styled(format!("  sequence of {}", m.len), run))
                }
                None => spans.push(Span::styled(format!("  ({} cards)", m.len), dim())),
            }
            spans
        }
        Detail::Tiny => {
            let mut spans = vec![Span::raw(format!("{}:{}", m.index, m.tiny))];
            if let Some(word) = m.canasta_word() {
                spans.push(canasta_mark("*".into(), word));
            }
            spans
        }
        Detail::Compact | Detail::Packed => {
            let mut spans = vec![Span::raw(format!("{}: {}", m.index, m.compact))];
            match m.canasta_word() {
                Some(word) => spans.push(canasta_mark(format!(" *{word}"), word)),
                None if m.sequence => spans.push(Span::styled(" run", run)),
                None => {}
            }
            spans
        }
    }
}

/// Columns of packed melds that fit in `inner`, and each column's width.
fn columns(melds: &[MeldView], detail: Detail, inner: usize) -> (usize, usize) {
    let gap = if detail == Detail::Tiny { 1 } else { 2 };
    let widest = melds
        .iter()
        .map(|m| width(&meld_piece(m, detail)))
        .max()
        .unwrap_or(1);
    let column = widest + gap;
    (
        ((inner + gap) / column).max(1).min(melds.len().max(1)),
        column,
    )
}

fn meld_rows(melds: &[MeldView], detail: Detail, inner: usize) -> Vec<Line<'static>> {
    match detail {
        Detail::Full | Detail::Compact => melds
            .iter()
            .flat_map(|m| flow(vec![meld_piece(m, detail)], "", inner))
            .collect(),
        Detail::Packed | Detail::Tiny => {
            let (per_row, column) = columns(melds, detail, inner);
            melds
                .chunks(per_row)
                .map(|row| {
                    let mut spans = Vec::new();
                    for (i, m) in row.iter().enumerate() {
                        let piece = meld_piece(m, detail);
                        let pad = column - width(&piece);
                        spans.extend(piece);
                        if i + 1 < row.len() {
                            spans.push(Span::raw(" ".repeat(pad)));
                        }
                    }
                    Line::from(spans)
                })
                .collect()
        }
    }
}
