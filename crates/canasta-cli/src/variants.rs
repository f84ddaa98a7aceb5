//! `canasta variants`: the presets in a short table; one preset's rules
//! (every option with its default, the values it takes, its label and
//! what it does, by area) on request. `canasta rules`: the "How to play"
//! page of a variant with its house rules, as the browser shows it.

use crate::game::rules_from;
use crate::text::{excerpt, wrap};
use anyhow::bail;
use canasta_core::Rules;
use canasta_core::rules::{
    CatalogueEntry, OPTION_TABLE, Page, catalogue, catalogue_json, house_presets,
};
use clap::Args;
use serde_json::{Map, Value, json};
use std::process::ExitCode;

/// The width the listing is laid out for.
const WIDTH: usize = 80;

#[derive(Args, Debug)]
pub struct VariantsArgs {
    /// A preset to show in full: its options and the values they take.
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// Every option of every preset (as `canasta variants ID` for each).
    #[arg(long, conflicts_with = "id")]
    pub options: bool,
    /// The catalogue as one JSON object.
    ///
    /// {"variants": [{id, name, players, default_players, summary,
    /// description, provisional, options, forms, house_rules, house_presets,
    /// values}]}: `house_rules` lists every option with its label, what it
    /// does, its area and the values a form offers (docs/server-api.md);
    /// `options` holds every rule option with its
    /// default, `forms` the options that differ for other player counts or
    /// team choices, and `values` what each option takes ({"kind":
    /// "boolean" | "integer" | "choice" | "list" | "object" | "other"}, a
    /// choice with its `choices`; `nullable` when null means none). With an
    /// ID, only that preset.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The variant (`canasta variants` lists them).
    #[arg(value_name = "VARIANT", default_value = "classic")]
    pub variant: String,
    /// Number of players [default: the variant's].
    #[arg(long, short = 'p', value_name = "N")]
    pub players: Option<u8>,
    /// A house rule, KEY=VALUE (repeatable), as for `canasta play`.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The page as JSON: {"title", "summary", "sections": [{"area",
    /// "heading", "paragraphs", "tables": [{"caption", "columns",
    /// "rows"}]}]}, as the server's GET /api/rules answers.
    #[arg(long)]
    pub json: bool,
}

/// `canasta rules`: the How to play page of the rules in force.
pub fn run_rules(args: &RulesArgs) -> anyhow::Result<ExitCode> {
    let rules = rules_from(&args.variant, args.players, &args.options)?;
    let page = rules.how_to_play();
    if args.json {
        outln!("{}", serde_json::to_string(&page)?);
    } else {
        for line in page_lines(&page, WIDTH) {
            outln!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A How to play page as lines of at most `width` columns: the title, the
/// summary, then each section's heading, paragraphs and tables.
pub fn page_lines(page: &Page, width: usize) -> Vec<String> {
    let mut out = vec![page.title.clone(), String::new()];
    let para = |out: &mut Vec<String>, text: &str| {
        out.extend(wrap(text, width).lines().map(str::to_string));
    };
    para(&mut out, &page.summary);
    for s in &page.sections {
        out.push(String::new());
        out.push(s.heading.to_uppercase());
        for p in &s.paragraphs {
            out.push(String::new());
            para(&mut out, p);
        }
        for t in &s.tables {
            out.push(String::new());
            out.push(format!("{}:", t.caption));
            let widths: Vec<usize> = (0..t.columns.len())
                .map(|i| {
                    std::iter::once(&t.columns[i])
                        .chain(t.rows.iter().map(|r| &r[i]))
                        .map(|c| c.chars().count())
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            // Every cell padded but the last, which wraps under itself.
            let row = |out: &mut Vec<String>, cells: &[String]| {
                let Some((last, init)) = cells.split_last() else {
                    return;
                };
                let head: String = init
                    .iter()
                    .zip(&widths)
                    .map(|(c, w)| format!("{c:<w$}   "))
                    .collect();
                let head = format!("  {head}");
                let room = width.saturating_sub(head.chars().count()).max(20);
                for (i, line) in wrap(last, room).lines().enumerate() {
                    let lead = if i == 0 {
                        head.clone()
                    } else {
                        " ".repeat(head.chars().count())
                    };
                    out.push(format!("{lead}{line}").trim_end().to_string());
                }
            };
            row(&mut out, &t.columns);
            for r in &t.rows {
                row(&mut out, r);
            }
        }
    }
    out
}

pub fn run(args: &VariantsArgs) -> anyhow::Result<ExitCode> {
    let list = catalogue();
    let chosen: Vec<&CatalogueEntry> = match &args.id {
        None => list.iter().collect(),
        Some(id) => {
            let Some(entry) = list.iter().find(|e| e.info.id.eq_ignore_ascii_case(id)) else {
                let ids: Vec<&str> = list.iter().map(|e| e.info.id).collect();
                bail!(
                    "no variant `{}` (the variants: {})",
                    excerpt(id),
                    ids.join(", ")
                );
            };
            vec![entry]
        }
    };
    if args.json {
        outln!("{}", json_of(&chosen));
    } else if args.id.is_some() || args.options {
        for (i, entry) in chosen.iter().enumerate() {
            if i > 0 {
                outln!();
            }
            for line in detail(entry) {
                outln!("{line}");
            }
        }
        outln!();
        outln!(
            "{}",
            wrap(
                "Set an option with -o KEY=VALUE (the value in JSON), or in a record \
                 header's \"options\". Provisional: no source settles the default; \
                 it is the engine's choice until one does.",
                WIDTH
            )
        );
    } else {
        for line in table(&list) {
            outln!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The catalogue's JSON with each preset's `values`.
fn json_of(chosen: &[&CatalogueEntry]) -> Value {
    let mut all = catalogue_json();
    let wanted: Vec<&str> = chosen.iter().map(|e| e.info.id).collect();
    if let Some(variants) = all["variants"].as_array_mut() {
        variants.retain(|v| v["id"].as_str().is_some_and(|id| wanted.contains(&id)));
        for (v, entry) in variants.iter_mut().zip(chosen) {
            let values: Map<String, Value> = entry
                .options
                .iter()
                .map(|(k, d)| (k.clone(), option_values(entry, k, d).json()))
                .collect();
            v["values"] = Value::Object(values);
        }
    }
    all
}

/// The short table: one line a preset, then where to read more.
fn table(list: &[CatalogueEntry]) -> Vec<String> {
    let mut lines = vec![format!(
        "{:<9} {:<19} {:>6}  {}",
        "variant", "players", "target", "what it is"
    )];
    let mut any_provisional = false;
    for e in list {
        let others: Vec<String> = e
            .info
            .players
            .iter()
            .filter(|&&p| p != e.info.default_players)
            .map(u8::to_string)
            .collect();
        let players = if others.is_empty() {
            e.info.default_players.to_string()
        } else {
            format!("{} (also {})", e.info.default_players, others.join(", "))
        };
        let target = e
            .options
            .get("target")
            .map_or(String::new(), Value::to_string);
        let mut what = short_summary(e.info.name, e.info.summary);
        if !e.info.provisional.is_empty() {
            what.push_str(" *");
            any_provisional = true;
        }
        let line = format!("{:<9} {players:<19} {target:>6}  ", e.info.id);
        let room = WIDTH.saturating_sub(line.len());
        if what.chars().count() > room {
            what = what.chars().take(room - 1).collect::<String>() + "…";
        }
        lines.push(line + &what);
    }
    if any_provisional {
        lines.push("* some options provisional: no source settles them".into());
    }
    lines.push(String::new());
    lines.extend(
        wrap(
            "`canasta variants ID` shows one variant's rules: its player counts and \
             every option with its default and the values it takes (provisional ones \
             marked). `canasta variants --options` shows that for every variant, \
             `--json` as JSON. Play with house rules: -o KEY=VALUE. \
             `canasta rules ID` explains how to play it.",
            WIDTH,
        )
        .lines()
        .map(str::to_string),
    );
    lines
}

/// A preset's name and the start of its summary (after its source).
fn short_summary(name: &str, summary: &str) -> String {
    match summary.split_once(": ") {
        Some((_, rest)) => format!("{name}: {rest}"),
        None => name.to_string(),
    }
}

/// One preset in full.
fn detail(e: &CatalogueEntry) -> Vec<String> {
    let info = e.info;
    let mut lines = Vec::new();
    let summary = info
        .summary
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    lines.extend(
        wrap(&format!("{}: {summary}", info.id), WIDTH)
            .lines()
            .map(str::to_string),
    );
    let players: Vec<String> = info.players.iter().map(u8::to_string).collect();
    lines.push(format!(
        "players: {} (default {}); the rules in full: docs/rules/{}.md",
        players.join(", "),
        info.default_players,
        info.id
    ));
    lines.push(String::new());
    lines.push(format!(
        "options, their defaults ({} players) and the values they take:",
        info.default_players
    ));
    let width = e.options.keys().map(String::len).max().unwrap_or(0);
    for group in OPTION_TABLE {
        let present: Vec<_> = group
            .options
            .iter()
            .filter_map(|o| e.options.get(o.key).map(|v| (o, v)))
            .collect();
        if present.is_empty() {
            continue;
        }
        lines.push(String::new());
        lines.push(format!("{}:", group.area.heading()));
        for (o, v) in present {
            let k = o.key;
            let mut values = option_values(e, k, v).text();
            if info.provisional.contains(&k) {
                values.push_str("; provisional");
            }
            let default = v.to_string();
            let rest = if default.len() <= 12 {
                format!("{default:<12}  {values}")
            } else {
                format!("{default}  ({values})")
            };
            lines.extend(hanging(&format!("  {k:width$}  "), &rest));
            lines.extend(hanging(
                "      ",
                &format!("{}: {} ({})", o.label, o.description, o.source),
            ));
        }
    }
    let presets: Vec<_> = house_presets(info.id).collect();
    if !presets.is_empty() {
        lines.push(String::new());
        lines.push("house presets (-o each of their options):".into());
        for p in presets {
            lines.extend(hanging(
                &format!("  {}: ", p.label),
                &format!("{} {}", p.description, p.options),
            ));
        }
    }
    for f in &e.forms {
        let teams = if f.teams == f.players {
            "each for themselves".to_string()
        } else {
            format!("in {} teams", f.teams)
        };
        let head = format!("with {} players {teams}: ", f.players);
        let differs: Vec<String> = f.differs.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let rest = if differs.is_empty() {
            "the same".to_string()
        } else {
            differs.join(", ")
        };
        lines.push(String::new());
        lines.extend(hanging(&head, &rest));
    }
    lines
}

/// `head` then `rest`, wrapped to [`WIDTH`] with the continuation lines
/// indented under the start of `rest` (or four spaces, if that is far).
fn hanging(head: &str, rest: &str) -> Vec<String> {
    let indent = if head.len() <= 40 { head.len() } else { 4 };
    let first = WIDTH.saturating_sub(head.len()).max(20);
    let mut out = Vec::new();
    let mut current = String::new();
    let mut room = first;
    // Break at spaces, and inside long JSON after commas.
    let words = rest.split(' ').flat_map(|w| {
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, c) in w.char_indices() {
            if c == ',' && i + 1 < w.len() {
                parts.push(&w[start..=i]);
                start = i + 1;
            }
        }
        parts.push(&w[start..]);
        let glued = parts.len() > 1;
        parts
            .into_iter()
            .enumerate()
            .map(move |(j, p)| (p, glued && j > 0))
    });
    for (word, glued) in words {
        let sep = if current.is_empty() || glued { "" } else { " " };
        if !current.is_empty() && current.len() + sep.len() + word.len() > room {
            out.push(std::mem::take(&mut current));
            room = WIDTH - indent;
        } else {
            current.push_str(sep);
        }
        current.push_str(word);
    }
    out.push(current);
    out.iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("{head}{l}")
            } else {
                format!("{:indent$}{l}", "")
            }
        })
        .collect()
}

/// What an option takes.
#[derive(Debug, PartialEq)]
enum Values {
    Boolean,
    /// A whole number; `true`: or null, for none.
    Integer(bool),
    /// Named choices; `Some(name)` for one that carries a value
    /// (`{"up_to": 50}`).
    Choice(Vec<(String, bool)>, bool),
    List,
    Object,
    /// Something the engine describes in its own words.
    Other(String, bool),
}

impl Values {
    fn text(&self) -> String {
        match self {
            Values::Boolean => "true/false".into(),
            Values::Integer(false) => "number".into(),
            Values::Integer(true) => "number | null".into(),
            Values::List => "a list like the default".into(),
            Values::Object => "an object like the default".into(),
            Values::Choice(choices, nullable) => {
                let mut names: Vec<String> = choices
                    .iter()
                    .map(|(c, data)| {
                        if *data {
                            format!("{{\"{c}\": …}}")
                        } else {
                            c.clone()
                        }
                    })
                    .collect();
                if *nullable {
                    names.push("null".into());
                }
                names.join(" | ")
            }
            Values::Other(what, nullable) => {
                if *nullable {
                    format!("{what} | null")
                } else {
                    what.clone()
                }
            }
        }
    }

    fn json(&self) -> Value {
        match self {
            Values::Boolean => json!({"kind": "boolean"}),
            Values::Integer(nullable) => json!({"kind": "integer", "nullable": nullable}),
            Values::List => json!({"kind": "list"}),
            Values::Object => json!({"kind": "object"}),
            Values::Choice(choices, nullable) => json!({
                "kind": "choice",
                "choices": choices.iter().map(|(c, _)| c).collect::<Vec<_>>(),
                "with_value": choices.iter().filter(|(_, d)| *d).map(|(c, _)| c).collect::<Vec<_>>(),
                "nullable": nullable,
            }),
            Values::Other(what, nullable) => {
                json!({"kind": "other", "description": what, "nullable": nullable})
            }
        }
    }
}

/// The preset's default form, for probing which values an option takes.
fn base(e: &CatalogueEntry) -> Option<Rules> {
    Rules::preset(e.info.id, Some(e.info.default_players), None).ok()
}

/// Whether the default form takes `value` for `key`.
fn accepts(base: &Rules, key: &str, value: Value) -> Result<(), String> {
    let mut map = Map::new();
    map.insert(key.to_string(), value);
    base.with_options(&map).map(|_| ()).map_err(|e| {
        let problems: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
        problems.join("; ")
    })
}

/// What option `key` (default `default`) takes: read from its default's
/// kind, and for named choices from the engine's answer to a name it does
/// not know (which lists the names it does).
fn option_values(e: &CatalogueEntry, key: &str, default: &Value) -> Values {
    const PROBE: &str = "?";
    if key == "teams" {
        // The team counts the player counts allow (the forms say which).
        let mut counts: Vec<u8> = e.forms.iter().map(|f| f.teams).collect();
        counts.extend(default.as_u64().and_then(|t| u8::try_from(t).ok()));
        counts.sort_unstable();
        counts.dedup();
        let counts: Vec<String> = counts.iter().map(u8::to_string).collect();
        return Values::Other(format!("{} (by players)", counts.join(" | ")), false);
    }
    match default {
        Value::Bool(_) => return Values::Boolean,
        Value::Number(_) => return Values::Integer(false),
        Value::Array(_) => return Values::List,
        Value::Object(map) if map.len() != 1 => return Values::Object,
        _ => {}
    }
    let Some(base) = base(e) else {
        return Values::Other("see the rules".into(), false);
    };
    let nullable = default.is_null();
    if nullable
        && [3, 7, 15]
            .iter()
            .any(|n| accepts(&base, key, json!(n)).is_ok())
    {
        return Values::Integer(true);
    }
    let Err(answer) = accepts(&base, key, json!(PROBE)) else {
        return Values::Other("text".into(), nullable);
    };
    let names: Vec<String> = answer
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| *w != key && *w != PROBE)
        .map(str::to_string)
        .collect();
    if names.is_empty() {
        // `unknown rank `?` (2-9, T, J, Q, K, A)`: the engine's own words.
        let what = answer
            .find('(')
            .zip(answer.rfind(')'))
            .map(|(a, b)| answer[a + 1..b].to_string());
        return match (what, default) {
            (Some(w), _) => Values::Other(w, nullable),
            (None, Value::Object(_)) => Values::Object,
            (None, _) => Values::Other("text".into(), nullable),
        };
    }
    let choices = names
        .into_iter()
        .map(|n| {
            let data = accepts(&base, key, json!(n)).is_err();
            (n, data)
        })
        .collect();
    Values::Choice(choices, nullable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_line_a_preset_and_fits_eighty_columns() {
        let list = catalogue();
        let lines = table(&list);
        // A header, a line a preset, the footnote and the hint.
        assert!(lines.len() <= list.len() + 7, "{lines:#?}");
        for e in &list {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("{} ", e.info.id))),
                "{}",
                e.info.id
            );
        }
        for l in &lines {
            assert!(l.chars().count() <= WIDTH, "{l}");
        }
        let classic = lines.iter().find(|l| l.starts_with("classic ")).unwrap();
        assert!(
            classic.contains("4 (also 2, 3, 6)") && classic.contains("5000"),
            "{classic}"
        );
    }

    #[test]
    fn the_detail_fits_and_names_the_values() {
        for e in &catalogue() {
            let lines = detail(e);
            for l in &lines {
                assert!(l.chars().count() <= WIDTH, "{}: {l}", e.info.id);
            }
            for p in e.info.provisional {
                // The option's line and its continuation lines.
                let at = lines
                    .iter()
                    .position(|l| l.starts_with(&format!("  {p} ")))
                    .unwrap();
                let block: Vec<&String> = std::iter::once(&lines[at])
                    .chain(
                        lines[at + 1..]
                            .iter()
                            .take_while(|l| l.starts_with("     ")),
                    )
                    .collect();
                assert!(block.iter().any(|l| l.contains("provisional")), "{block:?}");
            }
        }
        let classic = &catalogue()[0];
        let lines = detail(classic);
        let find = |k: &str| {
            lines
                .iter()
                .find(|l| l.starts_with(&format!("  {k} ")))
                .unwrap()
                .clone()
        };
        assert!(find("black_three_freezes").contains("true/false"));
        assert!(
            find("clean_opening").contains("never | {\"up_to\": …} | always"),
            "{}",
            find("clean_opening")
        );
        assert!(find("red_three_timing").contains("after_deal | before_upcard |"));
    }

    /// Every named choice the listing offers is one the engine accepts,
    /// and a choice option's default is among them.
    #[test]
    fn every_listed_choice_is_accepted() {
        for e in &catalogue() {
            let base = base(e).unwrap();
            for (k, d) in &e.options {
                if let Values::Choice(choices, nullable) = option_values(e, k, d) {
                    for (c, data) in &choices {
                        if !data {
                            assert_eq!(
                                accepts(&base, k, json!(c)),
                                Ok(()),
                                "{} {k} {c}",
                                e.info.id
                            );
                        }
                    }
                    let default = match d {
                        Value::String(s) => Some(s.clone()),
                        Value::Object(m) => m.keys().next().cloned(),
                        _ => None,
                    };
                    if let Some(default) = default {
                        assert!(
                            choices.iter().any(|(c, _)| *c == default),
                            "{} {k}",
                            e.info.id
                        );
                    } else {
                        assert!(nullable, "{} {k}", e.info.id);
                    }
                }
            }
        }
    }

    /// The How to play page fits the terminal, reads every area, and a
    /// house rule shows in it.
    #[test]
    fn the_rules_page_fits_and_follows_the_options() {
        for e in &catalogue() {
            let rules = base(e).unwrap();
            let lines = page_lines(&rules.how_to_play(), WIDTH);
            for l in &lines {
                assert!(l.chars().count() <= WIDTH, "{}: {l}", e.info.id);
            }
            assert!(lines.iter().any(|l| l == "SCORING"), "{}", e.info.id);
            assert!(
                lines.iter().any(|l| l == "Opening minimum:"),
                "{}",
                e.info.id
            );
        }
        let plain = page_lines(&Rules::classic().how_to_play(), WIDTH);
        let frozen = rules_from("classic", None, &["pile_always_frozen=true".into()]).unwrap();
        let frozen = page_lines(&frozen.how_to_play(), WIDTH);
        assert!(frozen.iter().any(|l| l == "The pile is always frozen."));
        assert!(!plain.iter().any(|l| l == "The pile is always frozen."));
    }
}
