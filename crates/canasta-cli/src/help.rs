//! Help that fits an 80-column terminal.
//!
//! clap wraps help only with its `wrap_help` feature (which reads the
//! terminal's width); without it every paragraph is one line. So the
//! command's texts are wrapped here, once, before parsing: each command's
//! long description to the full width, each option's text to the room clap
//! leaves it (after the column of option names in `-h`, or indented on the
//! next line in `--help`). Defaults are written into the text, so that they
//! are wrapped with it.

use crate::text::wrap;
use clap::{Arg, Command};

/// clap's indentation of an option's text on the line after its name
/// (`--help`): two spaces and then eight.
const NEXT_LINE_INDENT: usize = 10;

/// `cmd` and its subcommands, built, with every text wrapped to `width`
/// columns.
pub fn wrapped(mut cmd: Command, width: usize) -> Command {
    // Built, so that the options' names (and clap's own `--help`) are final.
    cmd.build();
    wrap_built(cmd, width)
}

fn wrap_built(mut cmd: Command, width: usize) -> Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |c| wrap_built(c, width));
    }
    if let Some(long) = cmd.get_long_about().map(ToString::to_string) {
        cmd = cmd.long_about(wrap(&long, width));
    }
    if let Some(after) = cmd.get_after_help().map(ToString::to_string) {
        cmd = cmd.after_help(wrap(&after, width));
    }
    // The `-h` column: clap aligns each section's texts after its longest
    // name (options and positional arguments are separate sections).
    let column = |positional: bool| {
        let longest = cmd
            .get_arguments()
            .filter(|a| !a.is_hide_set() && a.is_positional() == positional)
            .map(|a| a.to_string().chars().count() + if a.get_long().is_some() { 4 } else { 0 })
            .max()
            .unwrap_or(2)
            .max(2);
        longest + 4
    };
    let (options_column, positional_column) = (column(false), column(true));
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(&id, |a| {
            let column = if a.is_positional() {
                positional_column
            } else {
                options_column
            };
            wrap_arg(a, width, column)
        });
    }
    cmd
}

/// One option's texts wrapped: the short text to the room after `column`,
/// the long one to the room after the next-line indent.
fn wrap_arg(mut a: Arg, width: usize, column: usize) -> Arg {
    let Some(short) = a.get_help().map(ToString::to_string) else {
        return a;
    };
    let long = a.get_long_help().map(ToString::to_string);
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    let shows_default =
        !defaults.is_empty() && !a.is_hide_default_value_set() && a.get_action().takes_values();
    let room = width.saturating_sub(column).max(20);
    let long_room = width.saturating_sub(NEXT_LINE_INDENT);
    if shows_default {
        a = a.hide_default_value(true);
        let spec = format!("[default: {}]", defaults.join(", "));
        let long = long.unwrap_or_else(|| short.clone());
        a.help(wrap(&format!("{short} {spec}"), room))
            .long_help(wrap(&format!("{long}\n\n{spec}"), long_room))
    } else {
        // Without a long text of its own, the short one serves both.
        a = a.help(wrap(&short, room));
        match long {
            Some(long) => a.long_help(wrap(&long, long_room)),
            None => a,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cli;
    use clap::CommandFactory;

    fn too_wide(text: &str, width: usize) -> Vec<String> {
        text.lines()
            .filter(|l| l.chars().count() > width)
            .map(str::to_string)
            .collect()
    }

    /// Every help page, `-h` and `--help`, of every command fits 80 columns.
    #[test]
    fn every_help_page_fits_eighty_columns() {
        let mut cmd = wrapped(Cli::command(), 80);
        let mut pages = vec![
            ("canasta -h".to_string(), cmd.render_help().to_string()),
            (
                "canasta --help".to_string(),
                cmd.render_long_help().to_string(),
            ),
        ];
        for sub in cmd.get_subcommands_mut() {
            let name = sub.get_name().to_string();
            pages.push((format!("{name} -h"), sub.render_help().to_string()));
            pages.push((format!("{name} --help"), sub.render_long_help().to_string()));
        }
        for (page, text) in pages {
            assert_eq!(too_wide(&text, 80), Vec::<String>::new(), "{page}:\n{text}");
        }
    }
}
