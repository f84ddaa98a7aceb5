//! Perft as data (after shakmaty's `tests/*.perft`): the number of action
//! sequences of a given length from fixed positions, read from
//! `tests/data/*.perft`, each position written in the notation of
//! `docs/position-notation.md`. A change in the generator, in `apply` or
//! in the action space (`docs/decisions/action-space.md`) shows up as a
//! changed number here, from the same position.
//!
//! One file per preset (`FILES`). `cargo test` runs every line up to
//! [`NODE_LIMIT`]; the `#[ignore]`d `perft_deep` runs them all, and
//! `regenerate_perft` recounts the listed positions once a change has
//! stated its rule (see the header of `data/classic.perft`).

use canasta_core::{Action, GameState, Phase, Rules};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Lines with more nodes than this are skipped by the ordinary test.
const NODE_LIMIT: u64 = 200_000;
/// `regenerate_perft` adds depths while the count stays within this.
const DEEP_LIMIT: u64 = 5_000_000;
/// ... and never goes deeper than this.
const MAX_DEPTH: u32 = 7;

/// Number of action sequences of length `depth` from `state`, walking
/// `legal_actions` and `apply_unchecked` on clones. A position where the
/// hand (or game) is over is a leaf: it counts once, however deep the walk
/// was meant to go.
pub fn perft(state: &GameState, depth: u32) -> u64 {
    if depth == 0 || !in_hand(state) {
        return 1;
    }
    let actions = state.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&a| {
            let mut child = state.clone();
            child.apply_unchecked(a);
            perft(&child, depth - 1)
        })
        .sum()
}

fn in_hand(state: &GameState) -> bool {
    matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer)
}

/// One `id` block of a `.perft` file.
#[derive(Debug, Clone)]
struct Block {
    line: usize,
    id: String,
    /// What the position is there for ([`FEATURES`]).
    find: Vec<String>,
    /// Comment lines of the block, but the regenerator's summary.
    notes: Vec<String>,
    /// The position's lines, in notation.
    position: String,
    perft: Vec<(u32, u64)>,
}

/// A comment the regenerator writes (and rewrites) in each block.
const SUMMARY: &str = "# summary: ";

impl Block {
    fn position(&self) -> GameState {
        GameState::from_notation(&self.position)
            .unwrap_or_else(|e| panic!("{} (line {}): {e}", self.id, self.line))
    }
}

fn parse(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        if key == "id" {
            blocks.push(Block {
                line: i + 1,
                id: value.to_string(),
                find: Vec::new(),
                notes: Vec::new(),
                position: String::new(),
                perft: Vec::new(),
            });
            continue;
        }
        // Blank lines and the header's comments, before the first block.
        let Some(b) = blocks.last_mut() else {
            assert!(
                line.is_empty() || line.starts_with('#'),
                "line {}: `{key}` before any `id`",
                i + 1
            );
            continue;
        };
        let bad = || -> ! { panic!("line {}: cannot read `{line}`", i + 1) };
        match key {
            "" => {}
            _ if line.starts_with(SUMMARY) => {}
            _ if line.starts_with('#') => b.notes.push(line.to_string()),
            "find" => {
                b.find = value.split_whitespace().map(String::from).collect();
                for f in &b.find {
                    assert!(
                        FEATURES.iter().any(|(name, _)| name == f),
                        "line {}: unknown feature `{f}`",
                        i + 1
                    );
                }
            }
            "perft" => {
                let (d, n) = value.split_once(' ').unwrap_or_else(|| bad());
                let d = d.trim().parse().unwrap_or_else(|_| bad());
                let n = n.trim().parse().unwrap_or_else(|_| bad());
                b.perft.push((d, n));
            }
            _ => {
                b.position += line;
                b.position += "\n";
            }
        }
    }
    blocks
}

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn load(name: &str) -> (String, Vec<Block>) {
    let text = std::fs::read_to_string(path(name)).unwrap();
    let blocks = parse(&text);
    (text, blocks)
}

fn run(name: &str, limit: u64) {
    let (_, blocks) = load(name);
    assert!(!blocks.is_empty());
    let mut failures = Vec::new();
    let mut ran = 0;
    for b in &blocks {
        let g = b.position();
        for &(depth, expected) in &b.perft {
            if expected > limit {
                continue;
            }
            ran += 1;
            let got = perft(&g, depth);
            if got != expected {
                failures.push(format!(
                    "{} (line {}): perft {depth} = {got}, file says {expected}",
                    b.id, b.line
                ));
            }
        }
    }
    assert!(ran > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The perft files, one per preset.
const FILES: &[&str] = &[
    "classic.perft",
    "canastone.perft",
    "italian.perft",
    "samba.perft",
    "pennies.perft",
    "canastia.perft",
    "mini.perft",
    "micro.perft",
];

#[test]
fn perft_files() {
    for name in FILES {
        run(name, NODE_LIMIT);
    }
}

#[test]
#[ignore = "deep perft: every line of every file"]
fn perft_deep() {
    for name in FILES {
        run(name, u64::MAX);
    }
}

type Test = fn(&GameState) -> bool;

fn opened(g: &GameState) -> bool {
    !g.melds(g.side_of(g.to_act())).is_empty()
}

fn count(g: &GameState, f: fn(&Action) -> bool) -> usize {
    g.legal_actions().iter().filter(|a| f(a)).count()
}

fn pickups(g: &GameState) -> usize {
    count(g, |a| {
        matches!(a, Action::Pickup { .. } | Action::PickupOnto)
    })
}

/// What a fixture position can be there for (a block's `find` line), as
/// tests of the position and the walk that reached it.
const FEATURES: &[(&str, Test)] = &[
    // The hand's first decision: nobody has discarded or laid a card.
    ("first-decision", |g| {
        g.phase() == Phase::Draw
            && g.seats()
                .all(|s| g.discarded_ranks(s) == 0 && !g.seat_melded(s))
    }),
    // A side that has not opened, after drawing, with several openings.
    ("opening-melds", |g| {
        g.phase() == Phase::Play && !opened(g) && count(g, |a| matches!(a, Action::Meld(_))) >= 2
    }),
    // ... and with none.
    ("no-opening", |g| {
        g.phase() == Phase::Play && !opened(g) && count(g, |a| matches!(a, Action::Meld(_))) == 0
    }),
    // A side that has not opened may take the pile (opening with it).
    ("opening-with-pile", |g| {
        g.phase() == Phase::Draw && !opened(g) && pickups(g) > 0
    }),
    // ... with melds laid from hand in the same act.
    ("opening-with-pile-and-melds", |g| {
        g.phase() == Phase::Draw
            && !opened(g)
            && count(
                g,
                |a| matches!(a, Action::Pickup { also, .. } if !also.is_empty()),
            ) > 0
    }),
    ("pile-onto-meld", |g| {
        g.legal_actions().contains(&Action::PickupOnto)
    }),
    ("pile-natural-and-wild", |g| {
        opened(g)
            && count(
                g,
                |a| matches!(a, Action::Pickup { with, .. } if with.wild_count() > 0),
            ) > 0
    }),
    ("pile-frozen-pair", |g| {
        g.phase() == Phase::Draw && opened(g) && g.pile_frozen() && pickups(g) > 0
    }),
    ("mid-hand-play", |g| {
        g.phase() == Phase::Play && opened(g) && g.legal_actions().len() >= 15
    }),
    ("short-hand", |g| {
        g.phase() == Phase::Play && opened(g) && g.hand(g.to_act()).total() <= 3
    }),
    ("partnership-formed", |g| g.lone_hand().is_some()),
    // Classic 3 players: nobody has taken the pile yet.
    ("no-partnership-yet", |g| {
        g.rules().game.temporary_partnership && g.lone_hand().is_none()
    }),
    ("ask", |g| g.legal_actions().contains(&Action::Ask)),
    ("answer", |g| g.phase() == Phase::Answer),
    ("late-stock", |g| {
        g.phase() == Phase::Draw && g.stock_len() < 6
    }),
    ("must-take-pile", |g| {
        g.phase() == Phase::Draw && !g.legal_actions().contains(&Action::Draw)
    }),
    // P-CNE: a side that has not opened opens before drawing.
    ("opening-before-draw", |g| {
        g.phase() == Phase::Draw && !opened(g) && count(g, |a| matches!(a, Action::Meld(_))) >= 1
    }),
    // P-CNE: having opened before the draw, lay more before drawing.
    ("laying-before-draw", |g| {
        g.phase() == Phase::Draw && opened(g) && count(g, |a| matches!(a, Action::Add { .. })) >= 1
    }),
    // A meld of wild cards only may be begun (P-CNE, P-PEN).
    ("wild-meld", |g| {
        count(
            g,
            |a| matches!(a, Action::Meld(gs) if gs.iter().any(|x| x.is_wild_only())),
        ) >= 1
    }),
    // Samba: a sequence may be begun, or extended.
    ("sequence", |g| {
        count(
            g,
            |a| matches!(a, Action::Meld(gs) if gs.iter().any(|x| x.is_sequence())),
        ) >= 1
    }),
    ("sequence-on-table", |g| {
        g.phase() == Phase::Play && g.melds_of(g.to_act()).iter().any(|m| m.cards.is_sequence())
    }),
    // Samba: a second meld of a rank the side has melded.
    ("second-meld-of-a-rank", |g| {
        let melds = g.melds_of(g.to_act());
        g.phase() == Phase::Play
            && count(g, |a| matches!(a, Action::Meld(_))) >= 1
            && melds
                .iter()
                .enumerate()
                .any(|(i, m)| m.rank().is_some() && melds[..i].iter().any(|o| o.rank() == m.rank()))
    }),
    // Pennies: a meld at its cap (seven), which takes nothing more.
    ("full-meld", |g| {
        let rules = g.rules();
        g.phase() == Phase::Play && g.melds_of(g.to_act()).iter().any(|m| m.is_full(rules))
    }),
    // Canastia: a meld of seven or more may be closed as a canasta.
    ("close-canasta", |g| {
        count(g, |a| matches!(a, Action::CloseCanasta(_))) >= 1
    }),
    // Canastia: threes melded as an ordinary rank.
    ("threes-meld", |g| {
        count(
            g,
            |a| matches!(a, Action::Meld(gs) if gs.iter().any(|x| x.rank() == Some(canasta_core::Rank::Three))),
        ) >= 1
    }),
    // A canasta on the table.
    ("canasta-on-table", |g| {
        let rules = g.rules();
        g.phase() == Phase::Play && g.melds_of(g.to_act()).iter().any(|m| m.is_canasta(rules))
    }),
];

fn holds(feature: &str, g: &GameState) -> bool {
    let (_, test) = FEATURES
        .iter()
        .find(|(name, _)| *name == feature)
        .unwrap_or_else(|| panic!("unknown feature `{feature}`"));
    test(g)
}

/// A one-line summary of a position and its legal actions by kind.
fn summary(g: &GameState) -> String {
    let seat = g.to_act();
    let side = g.side_of(seat);
    let actions = g.legal_actions();
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for a in &actions {
        let k = match a {
            Action::Draw => "draw",
            Action::PickupOnto | Action::Pickup { .. } => "pickup",
            Action::Meld(_) => "meld",
            Action::Add { .. } => "add",
            Action::CloseCanasta(_) => "canasta",
            Action::Discard(_) => "discard",
            Action::Ask => "ask",
            Action::Answer(_) => "answer",
        };
        match kinds.iter_mut().find(|(n, _)| *n == k) {
            Some((_, c)) => *c += 1,
            None => kinds.push((k, 1)),
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let mut s = format!(
        "{SUMMARY}{:?}, seat {seat} to act (side {side}, {}), {} card(s) in hand; pile {}",
        g.phase(),
        if g.melds(side).is_empty() {
            "not opened"
        } else {
            "opened"
        },
        g.hand(seat).total(),
        g.pile().len(),
    );
    if let Some(top) = g.pile_top() {
        let _ = write!(
            s,
            " (top {top}{})",
            if g.pile_frozen() { ", frozen" } else { "" }
        );
    }
    let _ = write!(s, ", stock {}", g.stock_len());
    if g.lone_hand().is_some() {
        s += ", partnership formed";
    }
    let _ = write!(s, "; {} actions: {}", actions.len(), kinds.join(", "));
    s
}

/// The file must keep covering what it was written to cover: each block's
/// position has the features its `find` line names, and every Classic form
/// has its first decision, openings to enumerate, a pile that a side may
/// take to open and one an opened side may take, a mid-hand play position,
/// and (with partners) `ask` offered and a partner answering.
#[test]
fn perft_covers_every_form() {
    let mut all: Vec<Block> = Vec::new();
    for name in FILES {
        let (_, blocks) = load(name);
        let ids: BTreeSet<&str> = blocks.iter().map(|b| b.id.as_str()).collect();
        assert_eq!(ids.len(), blocks.len(), "{name}: ids are unique");
        for b in &blocks {
            assert!(!b.perft.is_empty(), "{}: no perft lines", b.id);
            assert!(
                b.perft.iter().any(|&(_, n)| n <= NODE_LIMIT),
                "{}: no line within the node limit",
                b.id
            );
            assert!(!b.find.is_empty(), "{}: no `find` line", b.id);
            let g = b.position();
            assert_eq!(
                g.to_notation(),
                b.position,
                "{}: the position is written as the writer writes it",
                b.id
            );
            for f in &b.find {
                assert!(holds(f, &g), "{}: not `{f}`", b.id);
            }
        }
        all.extend(blocks);
    }
    // Every form of every preset: its first decision, an opening, the
    // middle of a hand, and (where the form has partners) asking.
    for rules in canasta_core::rules::all_forms() {
        let form = form_name(&rules);
        let found: BTreeSet<&str> = all
            .iter()
            .filter(|b| form_name(b.position().rules()) == form)
            .flat_map(|b| b.find.iter().map(String::as_str))
            .collect();
        // A tiny form (Micro, Mini: two cards each) never has fifteen
        // actions: its middle of a hand is a short hand of an opened side.
        let middle = if rules.deal.hand_size <= 3 {
            "short-hand"
        } else {
            "mid-hand-play"
        };
        for w in ["first-decision", middle] {
            assert!(found.contains(w), "{form}: no block finds `{w}`");
        }
        assert!(
            ["opening-melds", "opening-before-draw", "opening-with-pile"]
                .iter()
                .any(|w| found.contains(w)),
            "{form}: no block with an opening"
        );
    }
    let found = |w: &str| all.iter().any(|b| b.find.iter().any(|f| f == w));
    for w in [
        "ask",
        "answer",
        "opening-before-draw",
        "wild-meld",
        "sequence",
        "second-meld-of-a-rank",
        "full-meld",
        "close-canasta",
        "threes-meld",
        "pile-frozen-pair",
        "pile-natural-and-wild",
    ] {
        assert!(found(w), "no block finds `{w}`");
    }
}

/// A form as a `rules` line names it (teams only where there is a choice).
fn form_name(r: &Rules) -> String {
    if r.game.players == 6 {
        format!("{} {} {}", &r.game.variant, r.game.players, r.game.teams)
    } else {
        format!("{} {}", &r.game.variant, r.game.players)
    }
}

/// Recounts every block's listed depths from its position (a block with
/// no perft lines gets depths 1 up while the count stays within
/// `DEEP_LIMIT`, at most `MAX_DEPTH`) and rewrites its summary comment.
/// Positions never move: a block's position is written back as read.
/// Writes the file when `CANASTA_PERFT_WRITE=1`, else prints it.
#[test]
#[ignore = "recounts tests/data/*.perft (CANASTA_PERFT_FILE=name for one); see classic.perft's header"]
fn regenerate_perft() {
    let only = std::env::var("CANASTA_PERFT_FILE").ok();
    for name in FILES {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        regenerate(name);
    }
}

fn regenerate(name: &str) {
    let (text, blocks) = load(name);
    let mut out = String::new();
    // The header: everything before the first `id` line.
    for line in text.lines() {
        if line.trim_start().starts_with("id ") {
            break;
        }
        out += line;
        out += "\n";
    }
    for b in &blocks {
        let g = b.position();
        let _ = writeln!(out, "id {}", b.id);
        if !b.find.is_empty() {
            let _ = writeln!(out, "find {}", b.find.join(" "));
        }
        for note in &b.notes {
            let _ = writeln!(out, "{note}");
        }
        out += &b.position;
        let _ = writeln!(out, "{}", summary(&g));
        let depths: Vec<u32> = if b.perft.is_empty() {
            new_depths(&g)
        } else {
            b.perft.iter().map(|&(d, _)| d).collect()
        };
        for depth in depths {
            let _ = writeln!(out, "perft {depth} {}", perft(&g, depth));
        }
        out += "\n";
        eprintln!("{} done", b.id);
    }
    let out = out.trim_end().to_string() + "\n";
    if std::env::var("CANASTA_PERFT_WRITE").as_deref() == Ok("1") {
        std::fs::write(path(name), &out).unwrap();
    } else {
        print!("{out}");
    }
}

/// The depths a new position lists: 1 up while the count stays within
/// `DEEP_LIMIT`, at most `MAX_DEPTH`.
fn new_depths(g: &GameState) -> Vec<u32> {
    let mut depths = Vec::new();
    let (mut last, mut prev) = (1u64, 1u64);
    for depth in 1..=MAX_DEPTH {
        // Skip a depth that the last branching factor says is far beyond
        // the limit (deterministic, and spares minutes of counting).
        if depth > 2 && prev.saturating_mul(prev / last.max(1)) > 4 * DEEP_LIMIT {
            break;
        }
        let n = perft(g, depth);
        if n > DEEP_LIMIT {
            break;
        }
        depths.push(depth);
        last = prev;
        prev = n;
    }
    depths
}
