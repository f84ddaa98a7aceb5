//! Text shown to people: user input echoed in errors is shortened, and
//! long paragraphs are wrapped to the terminal's usual width.

/// How many characters of a long piece of user text an error shows.
pub const EXCERPT_CHARS: usize = 60;

/// Text up to this many characters is shown whole (shortening it would
/// not save much).
const SHOWN_WHOLE: usize = 80;

/// User-supplied text as an error may echo it: whole when short, else its
/// first [`EXCERPT_CHARS`] characters and how many more there were.
/// Control characters (a terminal's escape sequences, line breaks) are
/// written as escapes, so that echoing a bad line cannot upset the terminal.
///
/// `excerpt("draw")` is `draw`; a 100,000-character line becomes its first
/// 60 characters followed by `… (99940 more characters)`.
pub fn excerpt(s: &str) -> String {
    let count = s.chars().count();
    let shown = if count > SHOWN_WHOLE {
        EXCERPT_CHARS
    } else {
        count
    };
    let mut out = String::new();
    for c in s.chars().take(shown) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if shown < count {
        let more = count - shown;
        out.push_str(&format!(
            "… ({more} more character{})",
            if more == 1 { "" } else { "s" }
        ));
    }
    out
}

/// A message with every quoted span (between backticks or double quotes)
/// passed through [`excerpt`]: for errors whose text a library composed
/// around the user's input (`cannot read action `…``).
pub fn shorten_quoted(msg: &str) -> String {
    shorten_quoted_with(msg, &['`', '"'])
}

/// [`shorten_quoted`] with the given quote characters (clap quotes values
/// with `'`).
pub fn shorten_quoted_with(msg: &str, quotes: &[char]) -> String {
    let mut out = String::with_capacity(msg.len().min(4096));
    let mut rest = msg;
    while let Some(open) = rest.find(|c| quotes.contains(&c)) {
        let q = rest[open..].chars().next().expect("found");
        out.push_str(&rest[..open + q.len_utf8()]);
        let after = &rest[open + q.len_utf8()..];
        let (inner, tail) = match after.find(q) {
            Some(close) => (&after[..close], &after[close..]),
            // An unclosed quote: the rest is the quoted text.
            None => (after, ""),
        };
        // A span [`excerpt`] has already shortened is left as it is.
        let shortened = inner.ends_with(" more characters)") || inner.ends_with(" more character)");
        if inner.chars().count() > SHOWN_WHOLE && !shortened {
            out.push_str(&excerpt(inner));
        } else {
            out.push_str(inner);
        }
        match tail.chars().next() {
            Some(close) => {
                out.push(close);
                rest = &tail[close.len_utf8()..];
            }
            None => rest = "",
        }
    }
    out.push_str(rest);
    out
}

/// `text` with every line longer than `width` broken at spaces; a broken
/// line's continuation keeps its indentation. Words longer than the width
/// stay whole.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in text.split('\n') {
        if line.chars().count() <= width {
            out.push(line.to_string());
            continue;
        }
        let indent: String = line.chars().take_while(|c| *c == ' ').collect();
        let mut current = indent.clone();
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            let len = current.chars().count();
            if len > indent.len() && len + 1 + word.chars().count() > width {
                out.push(std::mem::replace(&mut current, indent.clone()));
            }
            if current.len() > indent.len() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push(current);
    }
    out.join("\n")
}

/// `n` and a noun, in the plural unless `n` is 1: `1 game`, `10,000 hands`.
pub fn count(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `n` with thousands separators: 12,000.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_shown_whole() {
        assert_eq!(excerpt("draw"), "draw");
        let eighty = "x".repeat(80);
        assert_eq!(excerpt(&eighty), eighty);
    }

    #[test]
    fn a_long_line_is_cut_with_the_count_of_the_rest() {
        let line = "x".repeat(100_000);
        let e = excerpt(&line);
        assert_eq!(e, format!("{}… (99940 more characters)", "x".repeat(60)));
        let e = excerpt(&"é".repeat(81));
        assert_eq!(e, format!("{}… (21 more characters)", "é".repeat(60)));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(excerpt("a\u{1b}[2Jb\n"), "a\\u{1b}[2Jb\\n");
    }

    #[test]
    fn quoted_spans_are_shortened_and_the_rest_kept() {
        let long = "k".repeat(5000);
        let msg = format!("line 3: cannot read action `{long}`: `{long}` is not a card");
        let short = shorten_quoted(&msg);
        let cut = format!("{}… (4940 more characters)", "k".repeat(60));
        assert_eq!(
            short,
            format!("line 3: cannot read action `{cut}`: `{cut}` is not a card")
        );
        let json = format!("invalid type: string \"{long}\", expected i32");
        assert_eq!(
            shorten_quoted(&json),
            format!("invalid type: string \"{cut}\", expected i32")
        );
        assert_eq!(shorten_quoted("option `target`: x"), "option `target`: x");
        let open = format!("unclosed `{long}");
        assert_eq!(shorten_quoted(&open), format!("unclosed `{cut}"));
        let twice = format!("option `{}`: x", excerpt(&long));
        assert_eq!(shorten_quoted(&twice), twice);
        let clap = format!("invalid value '{long}' for '--games <N>'");
        assert_eq!(
            shorten_quoted_with(&clap, &['\'']),
            format!("invalid value '{cut}' for '--games <N>'")
        );
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_keeps_the_indent() {
        let text = "  one two three four five six\nshort";
        assert_eq!(wrap(text, 14), "  one two\n  three four\n  five six\nshort");
        assert_eq!(wrap("a verylongword b", 5), "a\nverylongword\nb");
        for line in wrap(&"word ".repeat(100), 80).lines() {
            assert!(line.len() <= 80);
        }
    }

    #[test]
    fn counts_say_one_or_many() {
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(0, "game"), "0 games");
        assert_eq!(count(10_000, "hand"), "10,000 hands");
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
