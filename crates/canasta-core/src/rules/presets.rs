//! The named variants: each a preset of [`RulesSpec`] fields, with the
//! player counts it supports. A preset only sets values; every mechanism is
//! a field. Classic Canasta's values are also every area's default.

use super::*;
use crate::card::{Card, Rank};

/// A named preset: its id and name, the player counts it supports and a
/// summary in sentences a player reads (sources in parentheses).
#[derive(Clone, Copy, Debug)]
pub struct PresetInfo {
    pub id: &'static str,
    /// The variant's name as players say it ("Classic Canasta").
    pub name: &'static str,
    pub players: &'static [u8],
    pub default_players: u8,
    pub summary: &'static str,
    /// Options whose defaults no source settles: set by the engine until a
    /// source is found (shown as provisional by `canasta variants`).
    pub provisional: &'static [&'static str],
}

impl PresetInfo {
    /// Every form of the preset: each player count with its default teams,
    /// then any other team count it accepts (Classic 6: two teams of three).
    pub fn forms(&self) -> Vec<Rules> {
        let mut out = Vec::new();
        for &n in self.players {
            let Ok(default) = Rules::preset(self.id, Some(n), None) else {
                continue;
            };
            let teams = default.game.teams;
            out.push(default);
            for t in (1..=n).filter(|&t| t != teams && n % t == 0) {
                if let Ok(rules) = Rules::preset(self.id, Some(n), Some(t)) {
                    out.push(rules);
                }
            }
        }
        out
    }
}

/// Every form of every preset.
pub fn all_forms() -> Vec<Rules> {
    PRESETS.iter().flat_map(PresetInfo::forms).collect()
}

/// The presets this engine offers.
pub const PRESETS: &[PresetInfo] = &[
    PresetInfo {
        id: "classic",
        name: "Classic Canasta",
        players: &[2, 3, 4, 6],
        default_players: 4,
        summary: "Classic Canasta as pagat gives it (P-CAN): four players in two partnerships with two packs and four jokers, the game to 5000. With two or three players each draws two cards, and three players play to 7500 with a partnership for each hand. Six players use three packs in three partnerships of two, or two sides of three.",
        provisional: &[],
    },
    PresetInfo {
        id: "canastia",
        name: "Canastia",
        players: &[2, 3],
        default_players: 2,
        summary: "Canastia (S004): a 72-card deck with no nines, tens or jacks, for two or three players each for themselves. Threes meld like any rank, canastas are closed by choice, and a match is played to 100. Provisional: the source's scoring list is cut off, so canastas score 15 and going out nothing until it is found.",
        provisional: &[
            "natural_canasta_bonus",
            "mixed_canasta_bonus",
            "natural_ace_canasta_bonus",
            "mixed_ace_canasta_bonus",
            "going_out_bonus",
            "opening_counts_canasta_bonus",
            "upcard_wild_turns_again",
        ],
    },
    PresetInfo {
        id: "italian",
        name: "Italian Canasta",
        players: &[4, 6],
        default_players: 4,
        summary: "Italian Canasta as the US books give it (RG-ITA, HSW-ITA): four or six players with three packs and six jokers. The pile is always frozen, every opening must be clean, and wild canastas do not count toward going out. Low confidence: details the sources omit follow Canastone.",
        provisional: &[
            "max_upcards",
            "upcard_threes_turn_again",
            "wild_melds",
            "max_wilds",
            "wild_ratio",
            "wilds_on_canasta",
            "black_threes_meldable",
            "pile_needs_opened_side",
            "stock_end",
            "concealed_bonus",
            "unopened_hand_multiplier",
        ],
    },
    PresetInfo {
        id: "canastone",
        name: "Canastone",
        players: &[4, 6],
        default_players: 4,
        summary: "Canastone, the Italian game pagat describes (P-CNE): 162 cards, fifteen each, two drawn a turn, and a packet of face-down cards under the upcard. A side needs a clean and a dirty canasta to go out, wild canastas score big, and the game runs to 12,000. Four players in partnerships, or six in two sides of three.",
        provisional: &[],
    },
    PresetInfo {
        id: "samba",
        name: "Samba",
        players: &[2, 3, 4, 5, 6],
        default_players: 4,
        summary: "Samba (P-SAM, BIC-SAM): 162 cards, fifteen each, two drawn a turn, and sequences of one suit beside the usual melds; a sequence of seven is a samba worth 1500. A side needs two canastas or sambas to go out, and the game runs to 10,000. Four play in partnerships; two, three or five each for themselves; six in three partnerships.",
        provisional: &[],
    },
    PresetInfo {
        id: "pennies",
        name: "Pennies from Heaven",
        players: &[6],
        default_players: 6,
        summary: "Pennies from Heaven (P-PEN): six players with 216 cards, thirteen in hand and an eleven-card foot. No meld holds more than seven cards, and a side needs a clean, a dirty, a wild and a sevens canasta to go out; the game runs to 20,000. Two sides of three, or three partnerships of two (BIC-PEN).",
        provisional: &[],
    },
    PresetInfo {
        id: "mini",
        name: "Mini Canasta",
        players: &[2],
        default_players: 2,
        summary: "Mini Canasta, a small form for equilibrium methods such as CFR (no rule book): Micro Canasta with a joker, seven cards in all (three each of the four and five of spades, and the joker), for two players with two cards each, the game to 1 point. Every meld of three is a canasta, any meld opens, and one canasta goes out. One hand's tree as OpenSpiel holds it: 6,645 histories, 820 information sets.",
        provisional: &[],
    },
    PresetInfo {
        id: "micro",
        name: "Micro Canasta",
        players: &[2],
        default_players: 2,
        summary: "Micro Canasta, the smallest form for equilibrium methods such as CFR (no rule book): Classic Canasta on six cards, three each of the four and five of spades, for two players with two cards each, the game to 1 point. Every meld of three is a canasta, any meld opens, and one canasta goes out. One hand's tree as OpenSpiel holds it: 407 histories, 84 information sets.",
        provisional: &[],
    },
];

impl Rules {
    /// The variant's proper name, as the rule books write it: "Classic
    /// Canasta", "Canastone", "Pennies from Heaven"; a variant that is no
    /// preset goes by its id.
    pub fn variant_name(&self) -> &str {
        PRESETS
            .iter()
            .find(|p| p.id == self.game.variant)
            .map_or(&self.game.variant, |p| p.name)
    }

    /// The Classic Canasta rules for 4 players in partnerships (P-CAN §1.1).
    pub fn classic() -> Rules {
        Rules::of_preset(RulesSpec::classic())
    }

    /// The US book's "Italian Canasta" for 4 players ([`RulesSpec::italian`]).
    pub fn italian() -> Rules {
        Rules::of_preset(RulesSpec::italian())
    }

    /// Canastia for 2 players ([`RulesSpec::canastia`]).
    pub fn canastia() -> Rules {
        Rules::of_preset(RulesSpec::canastia())
    }

    /// Canastone for 4 players ([`RulesSpec::canastone`]).
    pub fn canastone() -> Rules {
        Rules::of_preset(RulesSpec::canastone())
    }

    /// Pennies from Heaven for 6 players ([`RulesSpec::pennies`]).
    pub fn pennies() -> Rules {
        Rules::of_preset(RulesSpec::pennies())
    }

    /// Mini Canasta for 2 players ([`RulesSpec::mini`]).
    pub fn mini() -> Rules {
        Rules::of_preset(RulesSpec::mini())
    }

    /// Micro Canasta for 2 players ([`RulesSpec::micro`]).
    pub fn micro() -> Rules {
        Rules::of_preset(RulesSpec::micro())
    }

    /// Samba for 4 players ([`RulesSpec::samba`]).
    pub fn samba() -> Rules {
        Rules::of_preset(RulesSpec::samba())
    }

    fn of_preset(spec: RulesSpec) -> Rules {
        Rules::new(spec).expect("every preset is valid")
    }

    /// A preset by id and player count (`None`: the preset's default), with
    /// `teams` chosen where the preset allows a choice (Classic 6 players).
    pub fn preset(id: &str, players: Option<u8>, teams: Option<u8>) -> Result<Rules, RulesError> {
        let info = PRESETS
            .iter()
            .find(|p| p.id.eq_ignore_ascii_case(id))
            .ok_or_else(|| {
                let known: Vec<_> = PRESETS.iter().map(|p| p.id).collect();
                RulesError::one(RulesProblem::Preset(format!(
                    "unknown variant `{id}` (known: {})",
                    known.join(", ")
                )))
            })?;
        let players = players.unwrap_or(info.default_players);
        if !info.players.contains(&players) {
            // "2, 3, 4 or 6": the counts as a reader says them.
            let counts: Vec<String> = info.players.iter().map(u8::to_string).collect();
            let counts = match counts.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => counts.concat(),
            };
            return Err(RulesError::one(RulesProblem::Preset(format!(
                "variant `{}` is for {counts} players, not {players}",
                info.id
            ))));
        }
        let mut r = match info.id {
            "classic" => RulesSpec::classic_for(players, teams)?,
            "canastia" => {
                let mut r = RulesSpec::canastia();
                r.game.players = players;
                r.game.teams = players;
                r
            }
            "canastone" | "italian" => {
                let mut r = if info.id == "canastone" {
                    RulesSpec::canastone()
                } else {
                    RulesSpec::italian()
                };
                r.game.players = players;
                r
            }
            "samba" => {
                let mut r = RulesSpec::samba();
                r.game.players = players;
                // P-SAM: 2, 3 or 5 each for themselves; 6 as three teams of
                // two (partners two seats apart), 13 cards each.
                r.game.teams = match players {
                    4 => 2,
                    6 => 3,
                    n => n,
                };
                if players == 6 {
                    r.deal.hand_size = 13;
                }
                r
            }
            "mini" => RulesSpec::mini(),
            "micro" => RulesSpec::micro(),
            "pennies" => {
                let mut r = RulesSpec::pennies();
                // Option (Bicycle): three teams of two, seated A B C A B C.
                if teams == Some(3) {
                    r.game.teams = 3;
                }
                r
            }
            _ => unreachable!("every preset in PRESETS is built here"),
        };
        if let Some(t) = teams
            && t != r.game.teams
        {
            return Err(RulesError::one(RulesProblem::Preset(format!(
                "variant `{}` with {players} players cannot have {t} team{}",
                info.id,
                if t == 1 { "" } else { "s" }
            ))));
        }
        r.game.players = players;
        Rules::new(r)
    }
}

impl Default for RulesSpec {
    /// Classic Canasta for four players ([`RulesSpec::classic`]).
    fn default() -> RulesSpec {
        RulesSpec::classic()
    }
}

/// Every area's default is Classic Canasta's, so that a spec read with
/// fields left out reads as Classic in those fields.
macro_rules! classic_default {
    ($($area:ident: $ty:ty),*) => {$(
        impl Default for $ty {
            fn default() -> $ty {
                RulesSpec::classic().$area
            }
        }
    )*};
}
classic_default!(
    game: GameRules,
    deal: DealRules,
    melds: MeldRules,
    pile: PileRules,
    opening: OpeningRules,
    going_out: GoingOutRules,
    scoring: ScoringRules
);

impl Default for FreezeRules {
    fn default() -> FreezeRules {
        RulesSpec::classic().pile.freeze
    }
}

impl Default for GoingOutRequirement {
    fn default() -> GoingOutRequirement {
        RulesSpec::classic().going_out.requirement
    }
}

impl RulesSpec {
    /// The Classic Canasta rules for 4 players in partnerships (P-CAN §1.1).
    pub fn classic() -> RulesSpec {
        RulesSpec {
            game: GameRules {
                variant: "classic".into(),
                players: 4,
                teams: 2,
                temporary_partnership: false,
                target: 5000,
                tie_plays_on: false,
            },
            deal: DealRules {
                decks: 2,
                jokers: 4,
                excluded_faces: Vec::new(),
                hand_size: 11,
                foot_size: 0,
                draw_count: 1,
                random_first_player: false,
                red_three_timing: RedThreeTiming::AfterDeal,
            },
            melds: MeldRules {
                min_meld: 3,
                min_naturals: 2,
                max_wilds: 3,
                wild_ratio: WildRatio::Any,
                canasta_size: 7,
                canasta_by_choice: false,
                max_meld_size: None,
                wilds_on_canasta: true,
                wild_melds: false,
                wild_meld_reserves: WildMeldReserve::Nothing,
                pure_rank: None,
                special_canasta_rank: None,
                black_threes_meldable: true,
                threes_natural: false,
                sequences: false,
                several_melds_per_rank: false,
            },
            pile: PileRules {
                max_upcards: 0,
                upcard_wild_turns_again: true,
                upcard_threes_turn_again: false,
                upcard_black_three_turns_again: false,
                pile_packet: PilePacket::None,
                freeze: FreezeRules {
                    wild_cards: true,
                    black_three: false,
                    red_three_upcard: true,
                    always: false,
                    unopened_side: true,
                },
                pile_needs_opened_side: false,
                pile_take_naturals: 2,
                pile_take_naturals_frozen: 2,
                take_with_natural_and_wild: true,
                take_onto_meld: true,
                take_onto_canasta: true,
                top_card_to_sequence: false,
                pile_extra_draw: 0,
                one_card_may_take_one_card_pile: false,
                special_discard: SpecialDiscard::Free,
            },
            opening: OpeningRules {
                opening_table: vec![
                    OpeningStep {
                        from: None,
                        need: 15,
                    },
                    OpeningStep {
                        from: Some(0),
                        need: 50,
                    },
                    OpeningStep {
                        from: Some(1500),
                        need: 90,
                    },
                    OpeningStep {
                        from: Some(3000),
                        need: 120,
                    },
                ],
                opening_when_leading: None,
                clean_opening: CleanOpening::Never,
                open_before_draw: false,
                opening_counts_canasta_bonus: false,
                pile_opening_from_hand: false,
                concealed_without_minimum: true,
            },
            going_out: GoingOutRules {
                requirement: GoingOutRequirement {
                    canastas: 1,
                    canastas_if_concealed: 0,
                    natural_canastas: 0,
                    mixed_canastas: 0,
                    wild_canastas: 0,
                    special_canastas: 0,
                    wild_canastas_count: true,
                    needs_discard: false,
                    final_discard_natural: false,
                },
                asking_allowed: true,
                stock_end: StockEnd::TakePile,
                empty_stock_forces_pile: true,
            },
            scoring: ScoringRules {
                card_values: CardValues::CLASSIC,
                natural_canasta_bonus: 500,
                mixed_canasta_bonus: 300,
                natural_ace_canasta_bonus: 500,
                mixed_ace_canasta_bonus: 300,
                twos_canasta_bonus: 0,
                jokers_canasta_bonus: 0,
                wild_canasta_bonus: 0,
                wild_bonus_only_if_out: false,
                special_canasta_bonus: 0,
                samba_bonus: 0,
                many_canastas_bonuses: Vec::new(),
                going_out_bonus: 100,
                concealed_bonus: 100,
                concealed_bonus_if_pile_taken: true,
                red_three_values: vec![0, 100, 200, 300, 800],
                red_three_penalty: RedThreePenalty::NoMeld,
                red_three_scoring: RedThreeScoring::Table,
                unopened_hand_multiplier: 1,
            },
        }
    }

    /// The US book's "Italian Canasta" (RG-ITA, HSW-ITA, S002; research §3),
    /// a low-confidence preset of the same family: the pile is always frozen
    /// (a natural pair takes it, no extra stock card, and a side may open
    /// with it), openings are always clean, its own opening table, two
    /// canastas to go out of which wild ones do not count, red threes 100
    /// each (200 each from four), wild bonuses only for the side that went
    /// out, the US bonus list. What the sources leave unsaid follows
    /// Canastone and is listed as provisional in `docs/rules/italian.md`.
    pub fn italian() -> RulesSpec {
        let step = |from: Option<i32>, need: i32| OpeningStep { from, need };
        let many = |canastas: u8, clean: u8, dirty: u8, bonus: i32| ManyCanastas {
            canastas,
            clean,
            dirty,
            bonus,
        };
        let canastone = RulesSpec::canastone();
        RulesSpec {
            game: GameRules {
                variant: "italian".into(),
                ..canastone.game
            },
            deal: DealRules {
                // RG-ITA, HSW-ITA, S002: red threes are replaced before the
                // upcard is turned.
                red_three_timing: RedThreeTiming::BeforeUpcard,
                ..canastone.deal
            },
            melds: MeldRules {
                // RG-ITA: "if you make a meld of all twos, you cannot use any
                // other twos as wildcards until the canasta of twos is completed".
                wild_meld_reserves: WildMeldReserve::Twos,
                ..canastone.melds
            },
            pile: PileRules {
                freeze: FreezeRules {
                    always: true,
                    ..canastone.pile.freeze
                },
                pile_take_naturals_frozen: 2,
                pile_needs_opened_side: false,
                pile_extra_draw: 0,
                ..canastone.pile
            },
            opening: OpeningRules {
                opening_table: vec![
                    step(None, 15),
                    step(Some(0), 50),
                    step(Some(1500), 90),
                    step(Some(3000), 120),
                    step(Some(5000), 160),
                    step(Some(7500), 180),
                    step(Some(10000), 200),
                ],
                clean_opening: CleanOpening::Always,
                open_before_draw: false,
                ..canastone.opening
            },
            going_out: GoingOutRules {
                requirement: GoingOutRequirement {
                    canastas: 2,
                    natural_canastas: 0,
                    mixed_canastas: 0,
                    needs_discard: false,
                    final_discard_natural: false,
                    wild_canastas_count: false,
                    ..canastone.going_out.requirement
                },
                stock_end: StockEnd::TakePile,
                ..canastone.going_out
            },
            scoring: ScoringRules {
                red_three_values: vec![0, 100, 200, 300, 800, 1000, 1200],
                red_three_scoring: RedThreeScoring::Table,
                natural_ace_canasta_bonus: 500,
                mixed_ace_canasta_bonus: 300,
                twos_canasta_bonus: 3000,
                jokers_canasta_bonus: 2000,
                wild_canasta_bonus: 2000,
                wild_bonus_only_if_out: true,
                many_canastas_bonuses: vec![
                    many(5, 5, 0, 2000),
                    many(5, 4, 1, 1000),
                    many(10, 0, 0, 2000),
                ],
                unopened_hand_multiplier: 1,
                ..canastone.scoring
            },
        }
    }

    /// Canastia (S004 = canastia.com, the only source; research §6), for 2
    /// players (3 by `--players 3`), each for themselves: a 72-card deck, ten
    /// cards each, draw two, threes melded like any rank, canastas closed by
    /// choice, an opening of 10 (15 for a leader), two canastas to go out (one
    /// when going out on the opening turn), the hand over the moment the
    /// stock is emptied, the match to 100. The source's scoring list is cut
    /// off: the canasta bonuses (15 each) and the going-out bonus (none) are
    /// provisional, as `docs/rules/canastia.md` and `canasta variants` say.
    pub fn canastia() -> RulesSpec {
        let face = |s: &str| s.parse::<Card>().expect("a card");
        let mut excluded: Vec<Card> = ["9", "T", "J"]
            .iter()
            .flat_map(|r| ["S", "H", "D", "C"].map(|s| face(&format!("{r}{s}"))))
            .collect();
        excluded.extend(["2H", "2D", "3H", "3D", "AH", "AD"].map(face));
        let classic = RulesSpec::classic();
        RulesSpec {
            game: GameRules {
                variant: "canastia".into(),
                players: 2,
                teams: 2,
                target: 100,
                ..classic.game
            },
            deal: DealRules {
                hand_size: 10,
                draw_count: 2,
                excluded_faces: excluded,
                random_first_player: true,
                ..classic.deal
            },
            melds: MeldRules {
                min_meld: 3,
                min_naturals: 2,
                max_wilds: 6,
                wild_ratio: WildRatio::FewerThanNaturals,
                threes_natural: true,
                canasta_by_choice: true,
                ..classic.melds
            },
            pile: PileRules {
                take_onto_meld: false,
                take_onto_canasta: false,
                freeze: FreezeRules {
                    unopened_side: false,
                    wild_cards: false,
                    red_three_upcard: false,
                    ..classic.pile.freeze
                },
                upcard_wild_turns_again: false,
                ..classic.pile
            },
            opening: OpeningRules {
                opening_table: vec![OpeningStep {
                    from: None,
                    need: 10,
                }],
                opening_when_leading: Some(15),
                opening_counts_canasta_bonus: true,
                concealed_without_minimum: false,
                ..classic.opening
            },
            going_out: GoingOutRules {
                requirement: GoingOutRequirement {
                    canastas: 2,
                    canastas_if_concealed: 1,
                    ..classic.going_out.requirement
                },
                stock_end: StockEnd::Emptied,
                asking_allowed: false,
                ..classic.going_out
            },
            scoring: ScoringRules {
                card_values: CardValues {
                    joker: 1,
                    two: 1,
                    black_three: 1,
                    four: 1,
                    five: 1,
                    six: 1,
                    seven: 1,
                    eight: 1,
                    nine: 1,
                    ten: 1,
                    jack: 1,
                    queen: 2,
                    king: 2,
                    ace: 3,
                },
                natural_canasta_bonus: 15,
                mixed_canasta_bonus: 15,
                natural_ace_canasta_bonus: 15,
                mixed_ace_canasta_bonus: 15,
                going_out_bonus: 0,
                concealed_bonus: 0,
                red_three_values: vec![0],
                ..classic.scoring
            },
        }
    }

    /// Canastone (P-CNE, §2 of the research; S000 is a damaged copy): 162
    /// cards, 15 each, draw two, the packet under the upcard, opening before
    /// drawing, the pile with two naturals (three when frozen) plus a stock
    /// card, one wild meld per side, closing with a clean and a dirty canasta
    /// and a natural discard, game to 12000.
    pub fn canastone() -> RulesSpec {
        let step = |from: Option<i32>, need: i32| OpeningStep { from, need };
        let classic = RulesSpec::classic();
        RulesSpec {
            game: GameRules {
                variant: "canastone".into(),
                target: 12000,
                ..classic.game
            },
            deal: DealRules {
                decks: 3,
                jokers: 6,
                hand_size: 15,
                draw_count: 2,
                ..classic.deal
            },
            melds: MeldRules {
                max_wilds: 2,
                wild_ratio: WildRatio::FewerThanNaturals,
                wilds_on_canasta: false,
                wild_melds: true,
                wild_meld_reserves: WildMeldReserve::WildCards,
                black_threes_meldable: false,
                ..classic.melds
            },
            pile: PileRules {
                take_with_natural_and_wild: false,
                max_upcards: 3,
                upcard_threes_turn_again: true,
                freeze: FreezeRules {
                    red_three_upcard: false,
                    unopened_side: false,
                    ..classic.pile.freeze
                },
                pile_packet: PilePacket::ByRank,
                pile_needs_opened_side: true,
                pile_take_naturals_frozen: 3,
                take_onto_meld: false,
                pile_extra_draw: 1,
                ..classic.pile
            },
            opening: OpeningRules {
                opening_table: vec![
                    step(None, 50),
                    step(Some(3000), 90),
                    step(Some(5000), 120),
                    step(Some(7000), 160),
                    step(Some(10000), 180),
                    step(Some(12000), 200),
                ],
                concealed_without_minimum: false,
                open_before_draw: true,
                clean_opening: CleanOpening::UpTo(50),
                ..classic.opening
            },
            going_out: GoingOutRules {
                requirement: GoingOutRequirement {
                    canastas: 2,
                    natural_canastas: 1,
                    mixed_canastas: 1,
                    needs_discard: true,
                    final_discard_natural: true,
                    ..classic.going_out.requirement
                },
                stock_end: StockEnd::ShortStock,
                ..classic.going_out
            },
            scoring: ScoringRules {
                going_out_bonus: 300,
                concealed_bonus: 0,
                red_three_values: vec![0, 100, 200, 300, 400, 500, 600],
                red_three_penalty: RedThreePenalty::NoMeld,
                unopened_hand_multiplier: 2,
                natural_ace_canasta_bonus: 1000,
                mixed_ace_canasta_bonus: 500,
                twos_canasta_bonus: 3000,
                jokers_canasta_bonus: 5000,
                wild_canasta_bonus: 2000,
                many_canastas_bonuses: vec![
                    ManyCanastas {
                        canastas: 5,
                        clean: 1,
                        dirty: 1,
                        bonus: 1000,
                    },
                    ManyCanastas {
                        canastas: 6,
                        clean: 5,
                        dirty: 1,
                        bonus: 2000,
                    },
                ],
                red_three_scoring: RedThreeScoring::Canastone,
                ..classic.scoring
            },
        }
    }

    /// Pennies from Heaven (P-PEN; research §5): six players in two teams
    /// of three seated alternately, four packs and eight jokers, 13 cards and
    /// an 11-card foot each, draw two; melds of at most seven, a new one of a
    /// rank once the last is full; natural (500), mixed (300), wild (1000) and
    /// sevens (pure, 1500) canastas, one of each to go out; no seven
    /// discarded until every side has a sevens canasta, nor as the last
    /// discard; red threes plus only with a sevens canasta; the x10 opening
    /// table; game to 20000, a tie plays on.
    pub fn pennies() -> RulesSpec {
        let step = |from: Option<i32>, need: i32| OpeningStep { from, need };
        let classic = RulesSpec::classic();
        RulesSpec {
            game: GameRules {
                variant: "pennies".into(),
                players: 6,
                teams: 2,
                target: 20000,
                tie_plays_on: true,
                ..classic.game
            },
            deal: DealRules {
                decks: 4,
                jokers: 8,
                hand_size: 13,
                foot_size: 11,
                draw_count: 2,
                ..classic.deal
            },
            melds: MeldRules {
                max_meld_size: Some(7),
                wild_melds: true,
                wild_meld_reserves: WildMeldReserve::Nothing,
                pure_rank: Some(Rank::Seven),
                special_canasta_rank: Some(Rank::Seven),
                ..classic.melds
            },
            pile: PileRules {
                special_discard: SpecialDiscard::UntilEverySide,
                take_with_natural_and_wild: false,
                take_onto_canasta: false,
                ..classic.pile
            },
            opening: OpeningRules {
                opening_table: vec![
                    step(None, 15),
                    step(Some(0), 50),
                    step(Some(5000), 90),
                    step(Some(10000), 120),
                    step(Some(15000), 150),
                ],
                concealed_without_minimum: false,
                pile_opening_from_hand: true,
                ..classic.opening
            },
            going_out: GoingOutRules {
                requirement: GoingOutRequirement {
                    canastas: 4,
                    natural_canastas: 1,
                    mixed_canastas: 1,
                    wild_canastas: 1,
                    special_canastas: 1,
                    wild_canastas_count: true,
                    ..classic.going_out.requirement
                },
                // P-PEN: play goes on while players "can and will" take the
                // discard; one who wants to draw ends it.
                empty_stock_forces_pile: false,
                ..classic.going_out
            },
            scoring: ScoringRules {
                twos_canasta_bonus: 1000,
                jokers_canasta_bonus: 1000,
                wild_canasta_bonus: 1000,
                special_canasta_bonus: 1500,
                going_out_bonus: 100,
                concealed_bonus: 0,
                red_three_values: vec![0, 100, 200, 300, 400, 500, 600, 700, 1000],
                red_three_scoring: RedThreeScoring::NeedsSpecialCanasta,
                ..classic.scoring
            },
        }
    }

    /// Samba (P-SAM, BIC-SAM; research §4) for four players in
    /// partnerships: three packs and six jokers, 15 cards each, draw two;
    /// groups of a rank (several allowed, at most two wild cards, naturals
    /// at least twice the wild cards) and sequences of one suit (a samba of
    /// seven, 1500); no wild melds; the US pile rule (a natural pair, or the
    /// top card on an incomplete meld when unfrozen); two canastas or
    /// sambas to go out, 200; red threes plus only with them; the Bicycle
    /// opening table (160 from 7000); game to 10000.
    pub fn samba() -> RulesSpec {
        let step = |from: Option<i32>, need: i32| OpeningStep { from, need };
        let classic = RulesSpec::classic();
        RulesSpec {
            game: GameRules {
                variant: "samba".into(),
                target: 10000,
                ..classic.game
            },
            deal: DealRules {
                decks: 3,
                jokers: 6,
                hand_size: 15,
                draw_count: 2,
                ..classic.deal
            },
            melds: MeldRules {
                max_wilds: 2,
                wild_ratio: WildRatio::AtMostHalfNaturals,
                sequences: true,
                several_melds_per_rank: true,
                ..classic.melds
            },
            pile: PileRules {
                take_with_natural_and_wild: false,
                take_onto_canasta: false,
                ..classic.pile
            },
            opening: OpeningRules {
                opening_table: vec![
                    step(None, 15),
                    step(Some(0), 50),
                    step(Some(1500), 90),
                    step(Some(3000), 120),
                    step(Some(7000), 160),
                ],
                concealed_without_minimum: false,
                ..classic.opening
            },
            going_out: GoingOutRules {
                requirement: GoingOutRequirement {
                    canastas: 2,
                    ..classic.going_out.requirement
                },
                // P-SAM: an empty stock ends play "when someone wants to draw".
                empty_stock_forces_pile: false,
                ..classic.going_out
            },
            scoring: ScoringRules {
                samba_bonus: 1500,
                going_out_bonus: 200,
                concealed_bonus: 0,
                red_three_values: vec![0, 100, 200, 300, 400, 500, 1000],
                red_three_penalty: RedThreePenalty::BelowGoingOut,
                ..classic.scoring
            },
        }
    }

    /// Micro Canasta: the smallest form whose one-hand game tree CFR
    /// walks in full (407 histories, 84 information sets; counted by
    /// `cargo run -p canasta-py --example tree_size -- micro`). No rule
    /// book has it: it is Classic for two ([`RulesSpec::tiny`]) on six
    /// cards, three each of two faces. Copies of one
    /// face rather than several suits keep the deal small: a chance outcome
    /// is a face, and suits make no difference to groups.
    pub fn micro() -> RulesSpec {
        RulesSpec::tiny("micro", &["4S", "5S"], 3, 0)
    }

    /// Mini Canasta: Micro's deck and a joker (6,645 histories, 820
    /// information sets), so that a wild card's freezing of the pile,
    /// mixed canastas and the joker's 50 points come into play.
    pub fn mini() -> RulesSpec {
        RulesSpec::tiny("mini", &["4S", "5S"], 3, 1)
    }

    /// Classic for two players on a tiny deck (`decks` copies of each of
    /// `faces`, and `jokers`): two cards each, one drawn a turn; a meld of
    /// three of a rank is a canasta and opens without a minimum, and one
    /// canasta goes out; no partner to ask. The game ends once a side's
    /// total is above zero (`target` 1); what an equilibrium method solves
    /// is one hand (OpenSpiel's default `episode="hand"`).
    fn tiny(variant: &str, faces: &[&str], decks: u8, jokers: u8) -> RulesSpec {
        let classic = RulesSpec::classic();
        let kept: Vec<Card> = faces.iter().map(|f| f.parse().expect("a face")).collect();
        let excluded = Card::all()
            .filter(|c| !c.is_joker() && !kept.contains(c))
            .collect();
        RulesSpec {
            game: GameRules {
                variant: variant.into(),
                players: 2,
                teams: 2,
                target: 1,
                ..classic.game
            },
            deal: DealRules {
                decks,
                jokers,
                excluded_faces: excluded,
                hand_size: 2,
                draw_count: 1,
                ..classic.deal
            },
            melds: MeldRules {
                canasta_size: 3,
                ..classic.melds
            },
            opening: OpeningRules {
                opening_table: vec![OpeningStep {
                    from: None,
                    need: 0,
                }],
                ..classic.opening
            },
            going_out: GoingOutRules {
                asking_allowed: false,
                ..classic.going_out
            },
            ..classic
        }
    }

    fn classic_for(players: u8, teams: Option<u8>) -> Result<RulesSpec, RulesError> {
        let mut r = RulesSpec::classic();
        r.game.players = players;
        match players {
            4 => {}
            // P-CAN §two, BIC-2H, RG-2: 15 cards, draw 2, two canastas.
            2 => {
                r.game.teams = 2;
                r.deal.hand_size = 15;
                r.deal.draw_count = 2;
                r.going_out.requirement.canastas = 2;
            }
            // P-CAN §three: 13 cards, draw 2, temporary partnership, 7500.
            3 => {
                r.game.teams = 3;
                r.game.temporary_partnership = true;
                r.deal.hand_size = 13;
                r.deal.draw_count = 2;
                r.game.target = 7500;
            }
            // P-CAN §six, RG-6: 162 cards, 13 each, two canastas, red-three table.
            6 => {
                r.deal.decks = 3;
                r.deal.jokers = 6;
                r.deal.hand_size = 13;
                r.going_out.requirement.canastas = 2;
                r.scoring.red_three_values = vec![0, 100, 200, 300, 400, 1000, 1200];
                match teams.unwrap_or(3) {
                    3 => {
                        r.game.teams = 3;
                        r.game.target = 7500;
                    }
                    2 => {
                        r.game.teams = 2;
                        r.game.target = 10000;
                        r.opening.opening_table.push(OpeningStep {
                            from: Some(7000),
                            need: 150,
                        });
                    }
                    t => {
                        return Err(RulesError::one(RulesProblem::field(
                            "teams",
                            format!("classic with 6 players is played by 2 or 3 teams, not {t}"),
                        )));
                    }
                }
            }
            _ => unreachable!("checked against PresetInfo::players"),
        }
        Ok(r)
    }
}
