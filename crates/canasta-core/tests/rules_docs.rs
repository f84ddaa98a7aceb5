//! The rule pages (`docs/rules/*.md`) name, for every rule, the file of
//! the core where it is written (their "code" column). This test holds the
//! column to the code: each option a row names in its field column lives
//! in the area file the code column names (the area of its path in
//! `OPTION_FIELDS`), and every named file exists, so moving a field or a
//! file fails here until the pages follow.

use canasta_core::rules::OPTION_FIELDS;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The cells of a Markdown table row (`| a | b |`), trimmed; `None` for a
/// line that is not a row.
fn cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// The words in backticks of a cell.
fn quoted(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The area file of an option: `/pile/freeze/always` is in `rules/pile.rs`.
fn area_file(option: &str) -> Option<String> {
    let (_, path) = OPTION_FIELDS.iter().find(|(name, _)| *name == option)?;
    let area = path.trim_start_matches('/').split('/').next()?;
    Some(format!("rules/{area}.rs"))
}

/// Every rules table of one page: (rule, field cell, code cell) per row.
fn rule_rows(text: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut rows = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let head = cells(lines[i]);
        let is_rules_table = head.as_ref().is_some_and(|h| {
            h.first() == Some(&"rule")
                && h.get(1).is_some_and(|c| c.starts_with("field"))
                && h.last() == Some(&"code")
        });
        if !is_rules_table {
            i += 1;
            continue;
        }
        let width = head.unwrap().len();
        i += 2; // the head and its rule line
        while let Some(row) = lines.get(i).and_then(|l| cells(l)) {
            assert_eq!(row.len(), width, "a row of another width: {}", lines[i]);
            rows.push((row[0].into(), row[1].into(), row[width - 1].into()));
            i += 1;
        }
    }
    rows
}

#[test]
fn every_rule_names_the_file_of_its_fields() {
    let pages = root().join("docs/rules");
    let src = root().join("crates/canasta-core/src");
    let mut pages_read = 0;
    let mut rows_read = 0;
    for entry in std::fs::read_dir(&pages).expect("docs/rules") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let page = path.file_name().unwrap().to_string_lossy().into_owned();
        let rows = rule_rows(&text);
        assert!(
            !rows.is_empty(),
            "{page}: no rules table with a code column"
        );
        pages_read += 1;
        for (rule, field, code) in rows {
            rows_read += 1;
            let named = quoted(&code);
            assert!(!named.is_empty(), "{page}: `{rule}` names no file");
            for file in &named {
                assert!(
                    src.join(file).is_file(),
                    "{page}: `{rule}` names {file}, which is not a file of the core"
                );
            }
            for option in quoted(&field) {
                if let Some(file) = area_file(option) {
                    assert!(
                        named.contains(&file.as_str()),
                        "{page}: `{rule}` lists `{option}`, written in {file}, but its code column says {code}"
                    );
                }
            }
        }
    }
    assert!(pages_read >= 6, "the six rule pages, found {pages_read}");
    assert!(rows_read > 100, "the pages' rules, found {rows_read}");
}
