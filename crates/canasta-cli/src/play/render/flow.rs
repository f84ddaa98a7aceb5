//! Laying text out for the width: pieces that must not be cut (a score, a
//! card count, a meld) flow onto as many rows as the screen needs, so a
//! narrow terminal wraps where a wide one has room, and no number is ever
//! cut short.

use ratatui::text::{Line, Span};

/// One piece of a row that stays whole.
pub type Piece = Vec<Span<'static>>;

/// Characters a piece takes on screen.
pub fn width(piece: &[Span]) -> usize {
    piece.iter().map(|s| s.content.chars().count()).sum()
}

/// The pieces in rows of at most `max` characters, `sep` between two
/// pieces of a row. A piece wider than a whole row is broken at its
/// spaces (and, a word wider still, at the edge).
pub fn flow(pieces: Vec<Piece>, sep: &str, max: usize) -> Vec<Line<'static>> {
    let max = max.max(1);
    let mut rows: Vec<Line> = Vec::new();
    let mut row: Vec<Span> = Vec::new();
    let mut used = 0;
    let gap = sep.chars().count();
    for piece in pieces {
        let w = width(&piece);
        if w > max {
            if !row.is_empty() {
                rows.push(Line::from(std::mem::take(&mut row)));
            }
            rows.extend(break_piece(piece, max));
            used = 0;
            continue;
        }
        if !row.is_empty() && used + gap + w > max {
            rows.push(Line::from(std::mem::take(&mut row)));
            used = 0;
        }
        if !row.is_empty() {
            row.push(Span::raw(sep.to_string()));
            used += gap;
        }
        row.extend(piece);
        used += w;
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}

/// A piece too wide for a row, in rows broken at spaces; each word keeps
/// its span's style.
fn break_piece(piece: Piece, max: usize) -> Vec<Line<'static>> {
    let mut words: Vec<Span<'static>> = Vec::new();
    for span in piece {
        for (i, word) in span.content.split(' ').enumerate() {
            if i > 0 {
                words.push(Span::styled(" ", span.style));
            }
            if !word.is_empty() {
                words.push(Span::styled(word.to_string(), span.style));
            }
        }
    }
    let mut rows = Vec::new();
    let mut row: Vec<Span> = Vec::new();
    let mut used = 0;
    for word in words {
        let w = word.content.chars().count();
        if word.content == " " {
            if used > 0 && used < max {
                row.push(word);
                used += 1;
            }
            continue;
        }
        if used + w > max && used > 0 {
            trim_end(&mut row);
            rows.push(Line::from(std::mem::take(&mut row)));
            used = 0;
        }
        // A word longer than the row: cut at the edge, the rest below.
        let mut rest: String = word.content.to_string();
        while rest.chars().count() > max - used {
            let cut: String = rest.chars().take(max - used).collect();
            rest = rest.chars().skip(max - used).collect();
            row.push(Span::styled(cut, word.style));
            rows.push(Line::from(std::mem::take(&mut row)));
            used = 0;
        }
        used += rest.chars().count();
        row.push(Span::styled(rest, word.style));
    }
    trim_end(&mut row);
    if !row.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}

fn trim_end(row: &mut Vec<Span>) {
    while row.last().is_some_and(|s| s.content == " ") {
        row.pop();
    }
}

/// Plain words in rows of at most `max` characters.
pub fn wrap(text: &str, max: usize) -> Vec<Line<'static>> {
    if text.is_empty() {
        return vec![Line::default()];
    }
    break_piece(vec![Span::raw(text.to_string())], max.max(1))
}

/// The first of `candidates` (longest first) that fits in `max`
/// characters, or the last.
pub fn fit<'a>(candidates: &[&'a str], max: usize) -> &'a str {
    candidates
        .iter()
        .find(|c| c.chars().count() <= max)
        .or(candidates.last())
        .copied()
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    fn pieces(words: &[&str]) -> Vec<Piece> {
        words
            .iter()
            .map(|w| vec![Span::raw(w.to_string())])
            .collect()
    }

    #[test]
    fn pieces_wrap_whole() {
        let rows = flow(
            pieces(&["seat 0: 11 cards", "seat 1: 9 cards", "seat 2: 10 cards"]),
            "  ",
            36,
        );
        assert_eq!(
            text(&rows),
            ["seat 0: 11 cards  seat 1: 9 cards", "seat 2: 10 cards"]
        );
        assert_eq!(text(&flow(Vec::new(), " ", 10)), [""]);
    }

    #[test]
    fn a_piece_wider_than_the_row_breaks_at_spaces() {
        let rows = flow(pieces(&["ab", "one two three four"]), " ", 9);
        assert_eq!(text(&rows), ["ab", "one two", "three", "four"]);
        assert_eq!(text(&wrap("abcdefghij k", 4)), ["abcd", "efgh", "ij k"]);
    }

    #[test]
    fn the_longest_candidate_that_fits() {
        assert_eq!(fit(&["team 0 (seats 0, 2)", "team 0"], 12), "team 0");
        assert_eq!(
            fit(&["team 0 (seats 0, 2)", "team 0"], 30),
            "team 0 (seats 0, 2)"
        );
        assert_eq!(fit(&["long", "xx"], 1), "xx");
    }
}
