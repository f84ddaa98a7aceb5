//! House rules as a player reads them: every option of [`Rules`] with a
//! label, one sentence, the area of the rule book it belongs to, the values
//! it takes (with their labels) and its source; and a few named sets of
//! options per variant that the rule books describe (house presets).
//!
//! One table, grouped by area ([`OPTION_TABLE`]): the lobby's form, the
//! terminal's `canasta variants` and the server's `/api/variants` all read
//! it. Its tests hold it to the presets: every option of every form has an
//! entry, no entry is stale, and every listed choice is accepted.

use super::{PRESETS, PresetInfo, Rules, words};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The parts of a rule book an option belongs to, in the order a "How to
/// play" page reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    Deck,
    Melds,
    Pile,
    Opening,
    GoingOut,
    Scoring,
}

impl Area {
    pub const ALL: [Area; 6] = [
        Area::Deck,
        Area::Melds,
        Area::Pile,
        Area::Opening,
        Area::GoingOut,
        Area::Scoring,
    ];

    /// The area's name in JSON (`"going_out"`).
    pub const fn id(self) -> &'static str {
        match self {
            Area::Deck => "deck",
            Area::Melds => "melds",
            Area::Pile => "pile",
            Area::Opening => "opening",
            Area::GoingOut => "going_out",
            Area::Scoring => "scoring",
        }
    }

    /// The area as a heading.
    pub const fn heading(self) -> &'static str {
        match self {
            Area::Deck => "The cards and the deal",
            Area::Melds => "Melds and canastas",
            Area::Pile => "The discard pile",
            Area::Opening => "The first meld",
            Area::GoingOut => "Going out and the end of a hand",
            Area::Scoring => "Scoring",
        }
    }
}

/// What an option takes.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Bool,
    /// A whole number in a range a form offers (the engine may accept more).
    Int {
        min: i32,
        max: i32,
    },
    /// Named values: each a JSON value (as text) and its label.
    Choice(&'static [(&'static str, &'static str)]),
    /// A table or list, shown in words and changed as JSON.
    Text,
}

impl OptionKind {
    /// The kind's name in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int { .. } => "int",
            OptionKind::Choice(_) => "choice",
            OptionKind::Text => "text",
        }
    }
}

/// One option as a player reads it.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    /// The field of [`Rules`] it sets (as in a record header's `options`).
    pub key: &'static str,
    pub label: &'static str,
    /// One sentence saying what the option does.
    pub description: &'static str,
    pub kind: OptionKind,
    /// The rule text it encodes (tags of the rules research: P-CAN, S003, ...).
    pub source: &'static str,
}

/// The options of one area.
pub struct AreaOptions {
    pub area: Area,
    pub options: &'static [OptionInfo],
}

const fn yes_no(
    key: &'static str,
    label: &'static str,
    description: &'static str,
    source: &'static str,
) -> OptionInfo {
    OptionInfo {
        key,
        label,
        description,
        kind: OptionKind::Bool,
        source,
    }
}

const fn number(
    key: &'static str,
    label: &'static str,
    description: &'static str,
    (min, max): (i32, i32),
    source: &'static str,
) -> OptionInfo {
    OptionInfo {
        key,
        label,
        description,
        kind: OptionKind::Int { min, max },
        source,
    }
}

const fn choice(
    key: &'static str,
    label: &'static str,
    description: &'static str,
    choices: &'static [(&'static str, &'static str)],
    source: &'static str,
) -> OptionInfo {
    OptionInfo {
        key,
        label,
        description,
        kind: OptionKind::Choice(choices),
        source,
    }
}

const fn table(
    key: &'static str,
    label: &'static str,
    description: &'static str,
    source: &'static str,
) -> OptionInfo {
    OptionInfo {
        key,
        label,
        description,
        kind: OptionKind::Text,
        source,
    }
}

/// Bonus amounts a form offers.
const BONUS: (i32, i32) = (0, 10_000);
/// Canastas of one kind a side may be asked for.
const FEW: (i32, i32) = (0, 4);
const RANKS: &[(&str, &str)] = &[("null", "None"), ("\"7\"", "Sevens"), ("\"A\"", "Aces")];

/// Every option, by area. Each entry states its option once.
pub const OPTION_TABLE: &[AreaOptions] = &[
    AreaOptions {
        area: Area::Deck,
        options: &[
            choice(
                "teams",
                "Sides",
                "How many sides the players form; partners sit apart, so that the sides take turns around the table.",
                &[
                    ("1", "One side"),
                    ("2", "Two sides"),
                    ("3", "Three sides"),
                    ("4", "Four sides"),
                    ("5", "Five sides"),
                    ("6", "Six sides"),
                ],
                "P-CAN, P-PEN, BIC-PEN",
            ),
            yes_no(
                "temporary_partnership",
                "Temporary partnership",
                "With three players, the first to take the pile plays alone and the other two become partners for the hand.",
                "P-CAN",
            ),
            number(
                "decks",
                "Packs",
                "How many 52-card packs are shuffled together.",
                (1, 4),
                "P-CAN",
            ),
            number(
                "jokers",
                "Jokers",
                "How many jokers the deck holds.",
                (0, 8),
                "P-CAN",
            ),
            number(
                "hand_size",
                "Cards dealt",
                "How many cards each player is dealt.",
                (1, 20),
                "P-CAN",
            ),
            number(
                "foot_size",
                "Foot",
                "Cards in each player's foot, a face-down packet picked up after the player completes a canasta (0: no foot).",
                (0, 13),
                "P-PEN, P-CAN",
            ),
            number(
                "draw_count",
                "Cards drawn",
                "How many cards a player takes from the stock in one draw.",
                (1, 3),
                "P-CAN",
            ),
            table(
                "excluded_faces",
                "Cards left out",
                "Cards taken out of the deck altogether.",
                "S004",
            ),
            yes_no(
                "random_first_player",
                "Random first player",
                "The first player of each hand is chosen at random instead of the dealer's left.",
                "S004",
            ),
            choice(
                "red_three_timing",
                "Dealt red threes",
                "When a player lays out the red threes they were dealt and draws replacements.",
                &[
                    ("\"after_deal\"", "At once after the deal"),
                    (
                        "\"before_upcard\"",
                        "After the deal, before the upcard is turned",
                    ),
                    ("\"first_turn\"", "On the player's first turn"),
                ],
                "P-CAN, RG-ITA, S002",
            ),
        ],
    },
    AreaOptions {
        area: Area::Melds,
        options: &[
            number(
                "min_meld",
                "Smallest meld",
                "The fewest cards a new meld may have.",
                (3, 4),
                "P-CAN",
            ),
            number(
                "min_naturals",
                "Naturals in a meld",
                "The fewest natural cards a meld must hold.",
                (1, 4),
                "P-CAN",
            ),
            number(
                "max_wilds",
                "Wild cards in a meld",
                "The most wild cards one meld may hold.",
                (0, 7),
                "P-CAN",
            ),
            choice(
                "wild_ratio",
                "Wild cards against naturals",
                "How many wild cards a meld may hold compared with its natural cards.",
                &[
                    ("\"any\"", "Any number within the limit"),
                    ("\"not_more_than_naturals\"", "No more than the naturals"),
                    ("\"fewer_than_naturals\"", "Fewer than the naturals"),
                    (
                        "\"at_most_half_naturals\"",
                        "At most half as many as the naturals",
                    ),
                ],
                "P-CAN, S003, S002, P-SAM",
            ),
            number(
                "canasta_size",
                "Canasta size",
                "How many cards make a meld a canasta.",
                (3, 9),
                "P-CAN",
            ),
            yes_no(
                "canasta_by_choice",
                "Canastas closed by choice",
                "A meld long enough becomes a canasta only when its owner closes it, and then takes no more cards.",
                "S004",
            ),
            choice(
                "max_meld_size",
                "Largest meld",
                "The most cards one meld may hold; a full meld takes nothing more and its side may start another of the rank.",
                &[
                    ("null", "No limit"),
                    ("7", "7 cards"),
                    ("8", "8 cards"),
                    ("9", "9 cards"),
                    ("10", "10 cards"),
                ],
                "P-PEN",
            ),
            yes_no(
                "wilds_on_canasta",
                "Wild cards on a canasta",
                "Wild cards may be added to a finished canasta, up to the wild-card limit.",
                "P-CAN, P-CNE",
            ),
            yes_no(
                "wild_melds",
                "Melds of wild cards",
                "Melds of wild cards only (twos and jokers) are allowed and make wild canastas.",
                "P-CAN, P-CNE, P-PEN",
            ),
            choice(
                "wild_meld_reserves",
                "An unfinished wild meld holds back",
                "What a side may not use elsewhere while its wild meld is short of a canasta.",
                &[
                    ("\"nothing\"", "Nothing"),
                    ("\"wild_cards\"", "Every wild card, from melds and the pile"),
                    ("\"twos\"", "Twos, from other melds"),
                ],
                "P-CNE, RG-ITA, P-PEN",
            ),
            choice(
                "pure_rank",
                "A rank without wild cards",
                "Melds of this rank may hold no wild card.",
                RANKS,
                "P-PEN, BIC-PEN, RG-PEN, S002",
            ),
            choice(
                "special_canasta_rank",
                "A canasta of its own",
                "A canasta of this rank is a kind of its own, with its own bonus.",
                RANKS,
                "P-PEN",
            ),
            yes_no(
                "black_threes_meldable",
                "Black threes melded going out",
                "Black threes may be melded, without wild cards, by a player who goes out.",
                "P-CAN, P-CNE",
            ),
            yes_no(
                "threes_natural",
                "Threes are an ordinary rank",
                "Threes meld at any time, with wild cards, and make canastas; they still stop the pile.",
                "S004",
            ),
            yes_no(
                "sequences",
                "Sequences",
                "Three or more natural cards of one suit in a row (four low, ace high) make a meld; seven of them are a samba.",
                "P-SAM, BIC-SAM",
            ),
            yes_no(
                "several_melds_per_rank",
                "Several melds of a rank",
                "A side may keep several melds of one rank apart.",
                "P-SAM, BIC-SAM",
            ),
        ],
    },
    AreaOptions {
        area: Area::Pile,
        options: &[
            number(
                "max_upcards",
                "Upcards turned",
                "The most upcards turned to start the pile; if all are wild cards or threes the deal is void (0: turn until a plain card).",
                (0, 5),
                "P-CNE",
            ),
            yes_no(
                "upcard_wild_turns_again",
                "A wild upcard turns another",
                "A wild card turned as the upcard is covered by another upcard.",
                "P-CAN, P-CNE",
            ),
            yes_no(
                "upcard_threes_turn_again",
                "A three upcard turns another",
                "Any three turned as the upcard is covered by another upcard (otherwise only a red three).",
                "P-CNE",
            ),
            yes_no(
                "upcard_black_three_turns_again",
                "A black three upcard turns another",
                "A black three turned as the upcard is covered by another upcard.",
                "S001",
            ),
            yes_no(
                "red_three_upcard_freezes",
                "A red three upcard freezes",
                "A red three among the upcards freezes the pile.",
                "P-CAN",
            ),
            choice(
                "pile_packet",
                "Packet under the upcard",
                "Face-down cards put under the upcard when the pile is started.",
                &[
                    ("\"none\"", "None"),
                    (
                        "\"by_rank\"",
                        "As many as the upcard's rank (jack 11 to ace 14)",
                    ),
                ],
                "P-CNE",
            ),
            yes_no(
                "wilds_freeze_pile",
                "Wild cards freeze the pile",
                "A wild card discarded onto the pile freezes it.",
                "P-CAN, P-CNE",
            ),
            yes_no(
                "black_three_freezes",
                "Black threes freeze the pile",
                "A discarded black three freezes the pile instead of only stopping the next player.",
                "S001, S002",
            ),
            yes_no(
                "pile_always_frozen",
                "Pile always frozen",
                "The pile is always frozen: only a natural pair matching the top card takes it.",
                "P-CAN, P-SAM, RG-ITA",
            ),
            yes_no(
                "unopened_side_frozen",
                "Frozen until a side opens",
                "The pile is frozen against a side that has not melded yet.",
                "P-CAN",
            ),
            yes_no(
                "pile_needs_opened_side",
                "Only an opened side takes the pile",
                "A side must have melded before it may take the pile.",
                "P-CNE",
            ),
            number(
                "pile_take_naturals",
                "Naturals to take the pile",
                "Natural cards from hand matching the top card needed to take an unfrozen pile.",
                (1, 3),
                "P-CAN",
            ),
            number(
                "pile_take_naturals_frozen",
                "Naturals to take a frozen pile",
                "Natural cards from hand matching the top card needed to take a frozen pile.",
                (2, 3),
                "P-CAN, P-CNE",
            ),
            yes_no(
                "take_with_natural_and_wild",
                "Take with a natural and a wild card",
                "An unfrozen pile may be taken with one matching natural and one wild card.",
                "P-CAN",
            ),
            yes_no(
                "take_onto_meld",
                "Take onto a meld",
                "An unfrozen pile may be taken by putting its top card on the side's meld of that rank.",
                "P-CAN, BIC-SAM",
            ),
            yes_no(
                "take_onto_canasta",
                "Take onto a canasta",
                "An unfrozen pile may be taken by adding its top card to a finished canasta.",
                "P-CAN",
            ),
            yes_no(
                "top_card_to_sequence",
                "Top card onto a sequence",
                "Instead of drawing, a player may take the top card alone to extend one of the side's sequences.",
                "P-SAM",
            ),
            number(
                "pile_extra_draw",
                "Stock cards with the pile",
                "Cards the taker also draws from the stock.",
                (0, 2),
                "P-CNE",
            ),
            yes_no(
                "one_card_may_take_one_card_pile",
                "One card takes a one-card pile",
                "A player holding one card may take a pile of one card.",
                "P-CAN",
            ),
            choice(
                "special_discard",
                "Discarding sevens",
                "When cards of the special rank may be discarded (never as the last discard).",
                &[
                    ("\"free\"", "Like any card"),
                    (
                        "\"until_every_side\"",
                        "Once every side has a canasta of them",
                    ),
                    ("\"until_own_side\"", "Once your side has a canasta of them"),
                ],
                "P-PEN, BIC-PEN, S002",
            ),
        ],
    },
    AreaOptions {
        area: Area::Opening,
        options: &[
            table(
                "opening_table",
                "Opening minimum",
                "The points a side's first meld must be worth, by the side's score so far.",
                "P-CAN, P-CNE, P-SAM, P-PEN",
            ),
            choice(
                "opening_when_leading",
                "Opening when in the lead",
                "From the second hand on, a player ahead of everyone needs this opening instead.",
                &[
                    ("null", "The table's minimum"),
                    ("15", "15 points"),
                    ("20", "20 points"),
                ],
                "S004",
            ),
            choice(
                "clean_opening",
                "Clean openings",
                "Whether the first meld must be of natural cards only.",
                &[
                    ("\"never\"", "Never"),
                    ("{\"up_to\": 50}", "While the minimum is 50 or less"),
                    ("\"always\"", "Always"),
                ],
                "P-CNE, RG-ITA",
            ),
            yes_no(
                "open_before_draw",
                "Open before drawing",
                "A side that has not melded opens before drawing, from hand only.",
                "P-CNE",
            ),
            yes_no(
                "opening_counts_canasta_bonus",
                "Canasta bonus counts to open",
                "The bonus of a canasta laid in the first meld counts toward the minimum.",
                "S004",
            ),
            yes_no(
                "pile_opening_from_hand",
                "Open from hand when taking the pile",
                "A side opening by taking the pile must meet the minimum with cards from hand, not counting the top card and its pair.",
                "P-PEN",
            ),
            yes_no(
                "concealed_without_minimum",
                "Concealed going out skips the minimum",
                "A player going out concealed after drawing need not meet the opening minimum.",
                "P-CAN, S002",
            ),
        ],
    },
    AreaOptions {
        area: Area::GoingOut,
        options: &[
            number(
                "canastas_to_go_out",
                "Canastas to go out",
                "How many canastas a side needs before a member may go out.",
                (1, 4),
                "P-CAN",
            ),
            number(
                "canastas_to_go_out_concealed",
                "Canastas to go out on the opening turn",
                "Canastas needed instead when a side goes out on the turn it opens (0: no exception).",
                FEW,
                "S004",
            ),
            number(
                "go_out_natural_canastas",
                "Clean canastas to go out",
                "Natural canastas a side needs among them.",
                FEW,
                "P-CNE",
            ),
            number(
                "go_out_mixed_canastas",
                "Dirty canastas to go out",
                "Mixed canastas a side needs among them.",
                FEW,
                "P-CNE",
            ),
            number(
                "go_out_wild_canastas",
                "Wild canastas to go out",
                "Wild canastas a side needs among them.",
                FEW,
                "P-PEN",
            ),
            number(
                "go_out_special_canastas",
                "Sevens canastas to go out",
                "Canastas of the special rank a side needs among them.",
                FEW,
                "P-PEN",
            ),
            yes_no(
                "wild_canastas_count_to_go_out",
                "Wild canastas count to go out",
                "A wild canasta counts among the canastas needed to go out.",
                "P-CNE, RG-ITA",
            ),
            yes_no(
                "go_out_needs_discard",
                "Going out needs a discard",
                "A player goes out only by discarding the last card, not by melding it.",
                "P-CNE",
            ),
            yes_no(
                "final_discard_natural",
                "Last discard natural",
                "The card that goes out must be a natural card, not a wild card or a three.",
                "P-CNE",
            ),
            yes_no(
                "asking_allowed",
                "May I go out?",
                "A player may ask their partner for permission to go out, and the answer binds.",
                "P-CAN",
            ),
            choice(
                "stock_end",
                "When the stock runs out",
                "What ends a hand when the stock runs low.",
                &[
                    ("\"take_pile\"", "Play on while players take the pile"),
                    (
                        "\"short_stock\"",
                        "When a turn begins with too few cards to draw",
                    ),
                    ("\"emptied\"", "The moment a draw empties the stock"),
                ],
                "P-CAN, P-CNE, S004",
            ),
            yes_no(
                "empty_stock_forces_pile",
                "Empty stock forces the pile",
                "With the stock empty, a player must take a pile that matches a meld of the side.",
                "P-CAN, P-PEN, P-SAM",
            ),
        ],
    },
    AreaOptions {
        area: Area::Scoring,
        options: &[
            table(
                "card_values",
                "Card values",
                "Points of each card, plus when melded and minus when left in hand.",
                "P-CAN",
            ),
            number(
                "natural_canasta_bonus",
                "Clean canasta",
                "Bonus for a natural canasta, one without wild cards.",
                BONUS,
                "P-CAN",
            ),
            number(
                "mixed_canasta_bonus",
                "Dirty canasta",
                "Bonus for a mixed canasta, one with wild cards.",
                BONUS,
                "P-CAN",
            ),
            number(
                "natural_ace_canasta_bonus",
                "Clean canasta of aces",
                "Bonus for a natural canasta of aces.",
                BONUS,
                "P-CNE",
            ),
            number(
                "mixed_ace_canasta_bonus",
                "Dirty canasta of aces",
                "Bonus for a mixed canasta of aces.",
                BONUS,
                "P-CNE",
            ),
            number(
                "twos_canasta_bonus",
                "Canasta of twos",
                "Bonus for a wild canasta of seven twos.",
                BONUS,
                "P-CNE",
            ),
            number(
                "jokers_canasta_bonus",
                "Canasta of jokers",
                "Bonus for a wild canasta of six jokers and a two.",
                BONUS,
                "P-CNE",
            ),
            number(
                "wild_canasta_bonus",
                "Other wild canasta",
                "Bonus for any other wild canasta.",
                BONUS,
                "P-CNE",
            ),
            yes_no(
                "wild_bonus_only_if_out",
                "Wild bonuses only going out",
                "Wild-canasta bonuses count only for the side that went out.",
                "HSW-ITA, S002",
            ),
            number(
                "special_canasta_bonus",
                "Sevens canasta",
                "Bonus for a canasta of the special rank.",
                BONUS,
                "P-PEN",
            ),
            number(
                "samba_bonus",
                "Samba",
                "Bonus for a samba, a sequence of seven.",
                BONUS,
                "P-SAM",
            ),
            table(
                "many_canastas_bonuses",
                "Many canastas",
                "Bonuses for many canastas; the best row a side meets applies.",
                "P-CNE",
            ),
            number(
                "going_out_bonus",
                "Going out",
                "Bonus for the side that goes out.",
                (0, 1000),
                "P-CAN",
            ),
            number(
                "concealed_bonus",
                "Going out concealed",
                "Extra bonus for going out in one turn without having melded before.",
                (0, 1000),
                "P-CAN",
            ),
            yes_no(
                "concealed_bonus_if_pile_taken",
                "Concealed bonus after taking the pile",
                "The concealed bonus is paid even when the player took the pile that turn.",
                "P-CAN",
            ),
            table(
                "red_three_values",
                "Red threes",
                "What a side's red threes are worth, by how many it has.",
                "P-CAN",
            ),
            choice(
                "red_three_penalty",
                "Red threes count minus",
                "When a side's red threes count against it.",
                &[
                    ("\"no_meld\"", "When the side melded nothing"),
                    ("\"no_canasta\"", "When the side has no canasta"),
                    (
                        "\"below_going_out\"",
                        "When the side lacks the canastas to go out",
                    ),
                ],
                "P-CAN, S003, P-SAM",
            ),
            choice(
                "red_three_scoring",
                "How red threes score",
                "The scheme red threes follow.",
                &[
                    ("\"table\"", "By count, as the red-three table says"),
                    ("\"canastone\"", "100 each, the sign by the side's canastas"),
                    (
                        "\"needs_special_canasta\"",
                        "Plus with a sevens canasta, minus without",
                    ),
                ],
                "P-CAN, P-CNE, P-PEN",
            ),
            number(
                "unopened_hand_multiplier",
                "Cards of a side that never melded",
                "A side that never melded loses its cards in hand this many times over.",
                (1, 3),
                "P-CNE",
            ),
            number(
                "target",
                "Game target",
                "The game ends when a side reaches this total.",
                (1, 50_000),
                "P-CAN",
            ),
            yes_no(
                "tie_plays_on",
                "A tie plays on",
                "A tie for the lead at the target is played on with another hand.",
                "P-PEN",
            ),
        ],
    },
];

/// The entry of an option and its area.
pub fn option_info(key: &str) -> Option<(Area, &'static OptionInfo)> {
    OPTION_TABLE.iter().find_map(|group| {
        group
            .options
            .iter()
            .find(|o| o.key == key)
            .map(|o| (group.area, o))
    })
}

/// A choice's value as JSON.
fn choice_value(text: &str) -> Value {
    serde_json::from_str(text).expect("the option table's choices are JSON")
}

/// A value of an option in words: a choice's label, on or off, a number,
/// or a table read out.
pub fn value_words(key: &str, value: &Value) -> String {
    let kind = option_info(key).map(|(_, o)| o.kind);
    match (kind, value) {
        (Some(OptionKind::Choice(choices)), v) => choices
            .iter()
            .find(|(c, _)| choice_value(c) == *v)
            .map_or_else(|| v.to_string(), |(_, label)| (*label).to_string()),
        (_, Value::Bool(true)) => "On".into(),
        (_, Value::Bool(false)) => "Off".into(),
        (_, Value::Number(n)) => n.to_string(),
        (Some(OptionKind::Text), v) => words::table_words(key, v).unwrap_or_else(|| v.to_string()),
        (_, v) => v.to_string(),
    }
}

/// Whether some form of the preset accepts `key` set to `value`.
fn accepted(info: &PresetInfo, key: &str, value: &Value) -> bool {
    let mut options = Map::new();
    options.insert(key.to_string(), value.clone());
    info.forms()
        .iter()
        .any(|form| Rules::from_header(info.id, Some(form.game.players), &options).is_ok())
}

/// One option of a preset as the lobby's form shows it: `{key, label,
/// description, area, kind, default, default_label, choices | min + max,
/// source}`. Only the choices some form of the preset accepts are listed.
fn house_rule_json(info: &PresetInfo, area: Area, o: &OptionInfo, default: &Value) -> Value {
    let mut entry = json!({
        "key": o.key,
        "label": o.label,
        "description": o.description,
        "area": area.id(),
        "kind": o.kind.id(),
        "default": default,
        "default_label": value_words(o.key, default),
        "source": o.source,
    });
    match o.kind {
        OptionKind::Int { min, max } => {
            entry["min"] = json!(min);
            entry["max"] = json!(max);
        }
        OptionKind::Choice(choices) => {
            let listed: Vec<Value> = choices
                .iter()
                .map(|(value, label)| (choice_value(value), label))
                .filter(|(value, _)| value == default || accepted(info, o.key, value))
                .map(|(value, label)| json!({"value": value, "label": label}))
                .collect();
            entry["choices"] = Value::Array(listed);
        }
        OptionKind::Bool | OptionKind::Text => {}
    }
    entry
}

/// Every option a preset offers, in the table's order (by area), with its
/// default in the preset's default form.
pub fn house_rules(info: &PresetInfo) -> Vec<Value> {
    let Ok(base) = Rules::preset(info.id, Some(info.default_players), None) else {
        return Vec::new();
    };
    let defaults = match serde_json::to_value(&base) {
        Ok(Value::Object(map)) => map,
        _ => return Vec::new(),
    };
    OPTION_TABLE
        .iter()
        .flat_map(|group| group.options.iter().map(move |o| (group.area, o)))
        .filter_map(|(area, o)| {
            defaults
                .get(o.key)
                .map(|default| house_rule_json(info, area, o, default))
        })
        .collect()
}

/// A named set of house rules a rule book describes for a variant.
#[derive(Clone, Copy, Debug)]
pub struct HousePreset {
    pub variant: &'static str,
    pub id: &'static str,
    pub label: &'static str,
    /// What it changes, in sentences, naming its source.
    pub description: &'static str,
    /// The options it sets, as a JSON object.
    pub options: &'static str,
}

impl HousePreset {
    /// The options it sets.
    pub fn options(&self) -> Map<String, Value> {
        serde_json::from_str(self.options).expect("house presets are JSON objects")
    }
}

/// The house presets of every variant.
pub const HOUSE_PRESETS: &[HousePreset] = &[
    HousePreset {
        variant: "classic",
        id: "frozen-pile",
        label: "Pile always frozen",
        description: "The pile is always frozen, so only a natural pair matching the top card takes it. A variation pagat gives for Classic Canasta (P-CAN).",
        options: r#"{"pile_always_frozen": true}"#,
    },
    HousePreset {
        variant: "classic",
        id: "strict-pile",
        label: "Stricter pile",
        description: "The unfrozen pile can no longer be taken onto a finished canasta, nor with a natural and a wild card. Pagat's variations (1) and (2) together (P-CAN).",
        options: r#"{"take_onto_canasta": false, "take_with_natural_and_wild": false}"#,
    },
    HousePreset {
        variant: "classic",
        id: "viennese",
        label: "Viennese rules",
        description: "Red threes count plus only for a side with a canasta, wild cards may not outnumber naturals, no concealed bonus after taking the pile, and a player holding one card may take a one-card pile. Pagat's Viennese package (P-CAN), without its stop-card and hand-canasta rules.",
        options: r#"{"red_three_penalty": "no_canasta", "wild_ratio": "not_more_than_naturals", "concealed_bonus_if_pile_taken": false, "one_card_may_take_one_card_pile": true}"#,
    },
    HousePreset {
        variant: "classic",
        id: "black-threes-freeze",
        label: "Black threes freeze",
        description: "A discarded black three freezes the pile, and a black three turned as the upcard is covered by another. As the general rule pages tell it (S001, S002).",
        options: r#"{"black_three_freezes": true, "upcard_black_three_turns_again": true}"#,
    },
    HousePreset {
        variant: "canastone",
        id: "clean-always",
        label: "Always clean openings",
        description: "The first meld must be clean at every minimum, not only at 50. House rule 1 of pagat's list (P-CNE).",
        options: r#"{"clean_opening": "always"}"#,
    },
    HousePreset {
        variant: "canastone",
        id: "long-game",
        label: "Game to 15,000",
        description: "The game is played to 15,000 instead of 12,000. House rule 6 of pagat's list (P-CNE).",
        options: r#"{"target": 15000}"#,
    },
    HousePreset {
        variant: "canastone",
        id: "meld-out",
        label: "Go out by melding",
        description: "A player may go out by melding every card, with no final discard. House rule 8 of pagat's list (P-CNE).",
        options: r#"{"go_out_needs_discard": false, "final_discard_natural": false}"#,
    },
    HousePreset {
        variant: "canastone",
        id: "plain",
        label: "No asking, no five-canasta bonus",
        description: "Nobody may ask a partner to go out, and there are no bonuses for five or more canastas. House rules 10 and 11 of pagat's list (P-CNE).",
        options: r#"{"asking_allowed": false, "many_canastas_bonuses": []}"#,
    },
    HousePreset {
        variant: "italian",
        id: "wild-canastas-count",
        label: "Wild canastas count",
        description: "A wild canasta counts toward going out, as in Canastone (P-CNE), where the US books do not count it (RG-ITA).",
        options: r#"{"wild_canastas_count_to_go_out": true}"#,
    },
    HousePreset {
        variant: "italian",
        id: "dirty-openings",
        label: "Dirty openings above 50",
        description: "Only an opening at the 50 minimum must be clean, as in Canastone (P-CNE); the US books make every opening clean (RG-ITA).",
        options: r#"{"clean_opening": {"up_to": 50}}"#,
    },
    HousePreset {
        variant: "samba",
        id: "dutch",
        label: "Dutch pile rule",
        description: "The pile is always frozen: only a natural pair takes it, and instead of drawing a player may take the top card alone to extend a sequence. Pagat's Dutch rule (P-SAM), where the default follows Bicycle (BIC-SAM).",
        options: r#"{"pile_always_frozen": true, "take_onto_meld": false, "top_card_to_sequence": true}"#,
    },
    HousePreset {
        variant: "samba",
        id: "pagat-opening",
        label: "Opening 150 from 7,000",
        description: "From 7,000 points the first meld needs 150, not 160. Pagat's table (P-SAM); Bicycle says 160 (BIC-SAM).",
        options: r#"{"opening_table": [{"from": null, "need": 15}, {"from": 0, "need": 50}, {"from": 1500, "need": 90}, {"from": 3000, "need": 120}, {"from": 7000, "need": 150}]}"#,
    },
    HousePreset {
        variant: "pennies",
        id: "mixed-sevens",
        label: "Sevens may be mixed",
        description: "Melds of sevens may hold wild cards. As Bicycle, rummy-games and Hoyle speak of a mixed canasta of sevens (BIC-PEN, RG-PEN, S002).",
        options: r#"{"pure_rank": null}"#,
    },
    HousePreset {
        variant: "pennies",
        id: "own-sevens",
        label: "Your own sevens canasta",
        description: "Sevens may be discarded once your own side has a sevens canasta, not every side. The HowStuffWorks wording (S002, HSW-PEN).",
        options: r#"{"special_discard": "until_own_side"}"#,
    },
    HousePreset {
        variant: "pennies",
        id: "book-opening",
        label: "Book opening table",
        description: "The first meld needs 50, 90, 120 and 150 from 0, 500, 1,000 and 1,500 points, as the US books print it (BIC-PEN, RG-PEN), where pagat multiplies by ten (P-PEN).",
        options: r#"{"opening_table": [{"from": null, "need": 15}, {"from": 0, "need": 50}, {"from": 500, "need": 90}, {"from": 1000, "need": 120}, {"from": 1500, "need": 150}]}"#,
    },
    HousePreset {
        variant: "canastia",
        id: "classic-bonuses",
        label: "Classic bonuses",
        description: "Canastas score 500 clean and 300 dirty and going out 100, as in Classic Canasta (P-CAN), in place of the provisional values (the Canastia rules are cut off, S004).",
        options: r#"{"natural_canasta_bonus": 500, "mixed_canasta_bonus": 300, "natural_ace_canasta_bonus": 500, "mixed_ace_canasta_bonus": 300, "going_out_bonus": 100}"#,
    },
    HousePreset {
        variant: "canastia",
        id: "freezing",
        label: "Wild cards freeze",
        description: "A wild card discarded onto the pile freezes it, as in Classic Canasta (P-CAN); Canastia has no freezing (S004).",
        options: r#"{"wilds_freeze_pile": true}"#,
    },
    HousePreset {
        variant: "mini",
        id: "emptied-stock",
        label: "An emptied stock ends the hand",
        description: "The hand ends the moment a draw empties the stock, as in Canastia (S004): a shorter hand and a smaller tree.",
        options: r#"{"stock_end": "emptied"}"#,
    },
    HousePreset {
        variant: "mini",
        id: "no-freezing",
        label: "Wild cards do not freeze",
        description: "A wild card on the pile does not freeze it, as in Canastia (S004).",
        options: r#"{"wilds_freeze_pile": false}"#,
    },
    HousePreset {
        variant: "micro",
        id: "emptied-stock",
        label: "An emptied stock ends the hand",
        description: "The hand ends the moment a draw empties the stock, as in Canastia (S004): a shorter hand and a smaller tree.",
        options: r#"{"stock_end": "emptied"}"#,
    },
];

/// A variant's house presets.
pub fn house_presets(variant: &str) -> impl Iterator<Item = &'static HousePreset> + '_ {
    HOUSE_PRESETS.iter().filter(move |p| p.variant == variant)
}

/// A variant's house presets as JSON: `[{id, label, description, options}]`.
pub fn house_presets_json(variant: &str) -> Vec<Value> {
    house_presets(variant)
        .map(|p| {
            json!({
                "id": p.id,
                "label": p.label,
                "description": p.description,
                "options": p.options(),
            })
        })
        .collect()
}

/// The preset of an id.
pub fn preset_info(id: &str) -> Option<&'static PresetInfo> {
    PRESETS.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::all_forms;

    fn option_keys(rules: &Rules) -> Vec<String> {
        let json = serde_json::to_value(rules).unwrap();
        json.as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "variant" && *k != "players")
            .cloned()
            .collect()
    }

    #[test]
    fn every_option_of_every_form_has_an_entry() {
        for form in all_forms() {
            for key in option_keys(&form) {
                assert!(
                    option_info(&key).is_some(),
                    "{} {}: no entry for `{key}`",
                    form.game.variant,
                    form.game.players
                );
            }
        }
    }

    #[test]
    fn no_entry_is_stale_or_repeated() {
        let keys = option_keys(&Rules::classic());
        let mut seen = Vec::new();
        for group in OPTION_TABLE {
            for o in group.options {
                assert!(keys.iter().any(|k| k == o.key), "stale entry `{}`", o.key);
                assert!(!seen.contains(&o.key), "`{}` listed twice", o.key);
                seen.push(o.key);
                assert!(o.description.ends_with('.'), "{}: a sentence", o.key);
                assert!(!o.source.is_empty(), "{}: a source", o.key);
            }
        }
    }

    /// Every listed choice of every preset's house rules is accepted by
    /// `with_options` in some form of the preset; the default is listed.
    #[test]
    fn every_listed_choice_is_accepted() {
        for info in PRESETS {
            for entry in house_rules(info) {
                let key = entry["key"].as_str().unwrap();
                let Some(choices) = entry["choices"].as_array() else {
                    continue;
                };
                assert!(
                    choices.iter().any(|c| c["value"] == entry["default"]),
                    "{} {key}: the default {} is not among the choices",
                    info.id,
                    entry["default"]
                );
                for c in choices {
                    let mut options = Map::new();
                    options.insert(key.to_string(), c["value"].clone());
                    let ok = info.forms().iter().any(|form| {
                        let teams = options.get("teams").and_then(Value::as_u64);
                        let form = match teams {
                            Some(t) => {
                                Rules::preset(info.id, Some(form.game.players), Some(t as u8))
                            }
                            None => Ok(form.clone()),
                        };
                        form.and_then(|f| f.with_options(&options)).is_ok()
                    });
                    assert!(ok, "{} {key} {}", info.id, c["value"]);
                }
            }
        }
    }

    #[test]
    fn numbers_offer_a_range_holding_every_default() {
        for form in all_forms() {
            let json = serde_json::to_value(&form).unwrap();
            for group in OPTION_TABLE {
                for o in group.options {
                    if let OptionKind::Int { min, max } = o.kind {
                        let v = json[o.key].as_i64().unwrap();
                        assert!(
                            (i64::from(min)..=i64::from(max)).contains(&v),
                            "{} {}: {v} outside {min}..={max}",
                            form.game.variant,
                            o.key
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_house_rules_list_every_option_with_a_readable_default() {
        for info in PRESETS {
            let rules = house_rules(info);
            let base = Rules::preset(info.id, None, None).unwrap();
            assert_eq!(rules.len(), option_keys(&base).len(), "{}", info.id);
            for r in &rules {
                let words = r["default_label"].as_str().unwrap();
                assert!(!words.contains('{'), "{} {}: {words}", info.id, r["key"]);
            }
        }
        let classic = house_rules(&PRESETS[0]);
        let values = classic.iter().find(|r| r["key"] == "card_values").unwrap();
        assert_eq!(values["kind"], "text");
        assert!(
            values["default_label"]
                .as_str()
                .unwrap()
                .contains("Joker 50"),
            "{}",
            values["default_label"]
        );
    }

    /// Every house preset is accepted by its variant's default form, and
    /// sets only options of the table.
    #[test]
    fn house_presets_are_valid_and_sourced() {
        for info in PRESETS {
            let presets: Vec<_> = house_presets(info.id).collect();
            assert!(!presets.is_empty(), "{}: no house preset", info.id);
            for p in presets {
                let options = p.options();
                for key in options.keys() {
                    assert!(option_info(key).is_some(), "{} {}: `{key}`", info.id, p.id);
                }
                let rules = Rules::from_header(info.id, None, &options);
                assert!(rules.is_ok(), "{} {}: {rules:?}", info.id, p.id);
                assert_ne!(rules.unwrap(), Rules::preset(info.id, None, None).unwrap());
                assert!(
                    p.description.contains(&['(', ')'][..]),
                    "{}: a source",
                    p.id
                );
            }
        }
    }
}
