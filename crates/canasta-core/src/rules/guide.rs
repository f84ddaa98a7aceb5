//! "How to play": the rules in force read out as a page of sections
//! (one per [`Area`]) with paragraphs and tables, generated from a
//! [`Rules`] value and never copied by hand, so a house rule changes the
//! page. Pure and deterministic; the browser and the terminal show it.

use super::house::{Area, option_info, preset_info, value_words};
use super::words::{card_value_rows, card_words, count, many_row, opening_rows, points, things};
use super::{
    CleanOpening, PilePacket, RedThreePenalty, RedThreeScoring, RedThreeTiming, Rules,
    SpecialDiscard, StockEnd, WildMeldReserve, WildRatio,
};
use crate::card::Rank;
use serde::Serialize;

/// A table of a section: a caption, its column heads and its rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub caption: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One area of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    pub area: Area,
    pub heading: String,
    pub paragraphs: Vec<String>,
    pub tables: Vec<Table>,
}

/// The whole page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Page {
    pub title: String,
    pub summary: String,
    pub sections: Vec<Section>,
}

/// One rank's plural with a capital: "Sevens".
fn ranks_title(rank: Rank) -> String {
    let p = rank.plural();
    p[..1].to_uppercase() + &p[1..]
}

fn two_columns(caption: &str, columns: [&str; 2], rows: Vec<(String, String)>) -> Table {
    Table {
        caption: caption.into(),
        columns: columns.iter().map(|c| (*c).to_string()).collect(),
        rows: rows.into_iter().map(|(a, b)| vec![a, b]).collect(),
    }
}

fn section(area: Area, paragraphs: Vec<String>, tables: Vec<Table>) -> Section {
    Section {
        area,
        heading: area.heading().into(),
        paragraphs,
        tables,
    }
}

impl Rules {
    /// The rules in force as a "How to play" page.
    pub fn how_to_play(&self) -> Page {
        let info = preset_info(&self.game.variant);
        let name = info.map_or(self.game.variant.as_str(), |i| i.name);
        let mut summary = info.map_or(String::new(), |i| i.summary.to_string());
        if let Ok(form) = Rules::preset(
            &self.game.variant,
            Some(self.game.players),
            Some(self.game.teams),
        ) {
            let changed = self.options_against(&form);
            if !changed.is_empty() {
                let list: Vec<String> = changed
                    .iter()
                    .map(|(k, v)| {
                        let label = option_info(k).map_or(k.as_str(), |(_, o)| o.label);
                        format!("{label}: {}", value_words(k, v))
                    })
                    .collect();
                summary.push_str(&format!(" House rules: {}.", list.join("; ")));
            }
        }
        Page {
            title: format!("How to play {name}"),
            summary: summary.trim().to_string(),
            sections: vec![
                self.deck_section(),
                self.melds_section(),
                self.pile_section(),
                self.opening_section(),
                self.going_out_section(),
                self.scoring_section(),
            ],
        }
    }

    fn deck_section(&self) -> Section {
        let mut p = Vec::new();
        let n = self.game.players;
        let t = self.game.teams;
        let seating = if self.game.temporary_partnership {
            format!(
                "{} players, each playing alone until the discard pile is first taken.",
                count(n)
            )
        } else if t == n {
            format!("{} players, each playing for themselves.", count(n))
        } else if n / t == 2 {
            format!(
                "{} players in {} partnerships of two; partners sit opposite each other.",
                count(n),
                count(t)
            )
        } else {
            format!(
                "{} players in {} sides of {}; the sides alternate around the table.",
                count(n),
                count(t),
                count(n / t)
            )
        };
        p.push(capitalize(&seating));
        if self.game.temporary_partnership {
            p.push(
                "The first player to take the discard pile plays alone for the rest of the hand; \
                 the other two become partners."
                    .into(),
            );
        }
        let mut deck = format!(
            "The deck is {} of 52 cards with {}, {} cards in all",
            things(self.deal.decks, "pack", "packs"),
            things(self.deal.jokers, "joker", "jokers"),
            self.deal.deck_size()
        );
        if !self.deal.excluded_faces.is_empty() {
            let left: Vec<String> = self
                .deal
                .excluded_faces
                .iter()
                .map(|&c| card_words(c))
                .collect();
            deck.push_str(&format!(" once these are taken out: {}", left.join(" ")));
        }
        deck.push('.');
        p.push(deck);
        let mut deal = format!(
            "Each player is dealt {}",
            things(self.deal.hand_size, "card", "cards")
        );
        if self.deal.foot_size > 0 {
            deal.push_str(&format!(
                " and a foot of {} face down, which they pick up after the discard that ends a \
                 turn in which they completed a canasta",
                self.deal.foot_size
            ));
        }
        deal.push_str(
            ". The rest is the stock; its top card is turned face up to start the discard pile.",
        );
        p.push(deal);
        let mut upcard = Vec::new();
        if self.pile.upcard_wild_turns_again {
            upcard.push("a wild card");
        }
        if self.pile.upcard_threes_turn_again {
            upcard.push("a three");
        } else {
            if self.deal.deck().red_threes() > 0 {
                upcard.push("a red three");
            }
            if self.pile.upcard_black_three_turns_again {
                upcard.push("a black three");
            }
        }
        let mut up = if upcard.is_empty() {
            "One upcard is turned, whatever it is".to_string()
        } else {
            format!(
                "While the upcard is {}, another card is turned onto it",
                or_list(&upcard)
            )
        };
        if self.pile.max_upcards > 0 {
            up.push_str(&format!(
                ", at most {} in all; if every one of them calls for another, the deal is void and the same dealer deals again",
                count(self.pile.max_upcards)
            ));
        }
        up.push('.');
        p.push(up);
        if self.pile.pile_packet == PilePacket::ByRank {
            p.push(
                "Then as many cards as the upcard's rank (4 to 10 as numbered, jack 11, queen 12, \
                 king 13, ace 14) are put face down under it."
                    .into(),
            );
        }
        p.push(if self.deal.random_first_player {
            "The first player of each hand is chosen at random.".into()
        } else {
            "The player to the dealer's left plays first.".to_string()
        });
        let mut turn = format!(
            "On your turn you draw {} from the stock or take the discard pile",
            things(self.deal.draw_count, "card", "cards")
        );
        if self.pile.pile_extra_draw > 0 {
            turn.push_str(&format!(
                " (and {} from the stock with it)",
                things(self.pile.pile_extra_draw, "card", "cards")
            ));
        }
        turn.push_str("; then you may meld; then you discard one card onto the pile.");
        p.push(turn);
        p.push("Twos and jokers are wild: they stand for any natural card in a meld.".into());
        if self.melds.threes_natural {
            p.push("Threes are an ordinary rank here: they meld like any other.".into());
        } else {
            let when = match self.deal.red_three_timing {
                RedThreeTiming::AfterDeal => {
                    "Red threes are bonus cards: a player dealt one lays it out at once and draws a replacement, and one drawn later is laid out the same way."
                }
                RedThreeTiming::BeforeUpcard => {
                    "Red threes are bonus cards: a player dealt one lays it out and draws a replacement before the upcard is turned, and one drawn later is laid out the same way."
                }
                RedThreeTiming::FirstTurn => {
                    "Red threes are bonus cards: a player dealt one lays it out on their first turn and draws a replacement, and one drawn later is laid out the same way."
                }
            };
            p.push(when.into());
        }
        section(Area::Deck, p, Vec::new())
    }

    fn melds_section(&self) -> Section {
        let mut p = Vec::new();
        let ranks = if self.melds.threes_natural {
            "threes to aces"
        } else {
            "fours to aces"
        };
        p.push(format!(
            "A meld is {} or more cards of one rank ({ranks}), laid face up in front of your side. \
             It needs at least {} and may hold at most {}.",
            count(self.melds.min_meld),
            things(self.melds.min_naturals, "natural card", "natural cards"),
            things(self.melds.max_wilds, "wild card", "wild cards")
        ));
        match self.melds.wild_ratio {
            WildRatio::Any => {}
            WildRatio::NotMoreThanNaturals => {
                p.push("Wild cards may never outnumber the natural cards of a meld.".into())
            }
            WildRatio::FewerThanNaturals => {
                p.push("A meld must hold more natural cards than wild cards.".into())
            }
            WildRatio::AtMostHalfNaturals => p.push(
                "A meld must hold at least twice as many natural cards as wild cards.".into(),
            ),
        }
        if self.melds.sequences {
            p.push(format!(
                "A sequence is a meld too: {} or more natural cards of one suit in a row, four low \
                 and ace high, with no wild card and no three. At {} cards it is a samba and \
                 takes no more.",
                count(self.melds.min_meld),
                count(self.melds.canasta_size)
            ));
        }
        if self.melds.several_melds_per_rank {
            p.push("A side may have several melds of one rank and keep them apart.".into());
        } else if self.melds.max_meld_size.is_none() {
            p.push(
                "A side has one meld of each rank; more cards of that rank are added to it.".into(),
            );
        }
        let mut canasta = format!(
            "A meld of {} or more cards is a canasta: natural (clean) if it has no wild card, \
             mixed (dirty) if it has one.",
            count(self.melds.canasta_size)
        );
        if self.melds.canasta_by_choice {
            canasta.push_str(
                " It becomes a canasta only when its owner closes it, and then takes no more cards.",
            );
        }
        p.push(canasta);
        p.push(if self.melds.wilds_on_canasta {
            "Cards of its rank may be added to a canasta, and wild cards too within the limit; a \
             wild card makes a clean canasta dirty."
                .into()
        } else {
            "A canasta takes more natural cards of its rank but never a wild card.".to_string()
        });
        if let Some(cap) = self.melds.max_meld_size {
            p.push(format!(
                "No meld may hold more than {cap} cards; once one is full, its side may start \
                 another meld of the same rank."
            ));
        }
        if self.melds.wild_melds {
            let reserve = match self.melds.wild_meld_reserves {
                WildMeldReserve::Nothing => "",
                WildMeldReserve::WildCards => {
                    " Until it is a canasta, the side may not use a wild card elsewhere, discard one, or go out."
                }
                WildMeldReserve::Twos => {
                    " Until a meld of twos is a canasta, the side may not use a two as a wild card elsewhere."
                }
            };
            p.push(format!(
                "Wild cards may be melded on their own; seven of them make a wild canasta.{reserve}"
            ));
        }
        if let Some(rank) = self.melds.pure_rank {
            p.push(format!(
                "A meld of {} may hold no wild card.",
                rank.plural()
            ));
        }
        if !self.melds.threes_natural {
            p.push(if self.melds.black_threes_meldable {
                "Black threes can be melded only by a player going out, three or four together \
                 and without wild cards."
                    .into()
            } else {
                "Black threes are never melded.".to_string()
            });
        }
        let mut rows = vec![
            (
                "Natural (clean)".to_string(),
                points(self.scoring.natural_canasta_bonus),
            ),
            (
                "Mixed (dirty)".to_string(),
                points(self.scoring.mixed_canasta_bonus),
            ),
        ];
        if self.scoring.natural_ace_canasta_bonus != self.scoring.natural_canasta_bonus
            || self.scoring.mixed_ace_canasta_bonus != self.scoring.mixed_canasta_bonus
        {
            rows.push((
                "Natural of aces".into(),
                points(self.scoring.natural_ace_canasta_bonus),
            ));
            rows.push((
                "Mixed of aces".into(),
                points(self.scoring.mixed_ace_canasta_bonus),
            ));
        }
        if self.melds.wild_melds {
            if self.scoring.twos_canasta_bonus == self.scoring.jokers_canasta_bonus
                && self.scoring.twos_canasta_bonus == self.scoring.wild_canasta_bonus
            {
                rows.push((
                    "Wild (any seven wild cards)".into(),
                    points(self.scoring.wild_canasta_bonus),
                ));
            } else {
                rows.push(("Seven twos".into(), points(self.scoring.twos_canasta_bonus)));
                rows.push((
                    "Six jokers and a two".into(),
                    points(self.scoring.jokers_canasta_bonus),
                ));
                rows.push((
                    "Other wild canasta".into(),
                    points(self.scoring.wild_canasta_bonus),
                ));
            }
        }
        if let Some(rank) = self.melds.special_canasta_rank {
            rows.push((
                format!("{} (no wild card)", ranks_title(rank)),
                points(self.scoring.special_canasta_bonus),
            ));
        }
        if self.melds.sequences {
            rows.push((
                "Samba (a sequence of seven)".into(),
                points(self.scoring.samba_bonus),
            ));
        }
        let mut tables = vec![two_columns("Canasta bonuses", ["Canasta", "Bonus"], rows)];
        if self.melds.wild_melds && self.scoring.wild_bonus_only_if_out {
            tables[0]
                .caption
                .push_str(" (wild canastas: only for the side that goes out)");
        }
        section(Area::Melds, p, tables)
    }

    fn pile_section(&self) -> Section {
        let mut p = Vec::new();
        let mut freeze = Vec::new();
        if self.pile.freeze.always {
            p.push("The pile is always frozen.".to_string());
        } else {
            if self.pile.freeze.wild_cards {
                freeze.push("a wild card is discarded onto it");
            }
            if self.pile.freeze.red_three_upcard && self.deal.deck().red_threes() > 0 {
                freeze.push("a red three is among the upcards");
            }
            if self.pile.freeze.black_three {
                freeze.push("a black three is discarded onto it");
            }
            if freeze.is_empty() {
                p.push("The pile is never frozen.".into());
            } else {
                p.push(format!(
                    "The pile is frozen when {}; it stays frozen until someone takes it.",
                    or_list(&freeze)
                ));
            }
            if self.pile.freeze.unopened_side {
                p.push("It is also frozen against a side that has not melded yet.".into());
            }
        }
        let stop = if self.melds.threes_natural {
            "A three on top stops the pile: nobody takes it that turn."
        } else if self.pile.freeze.black_three {
            "A black three on top stops the next player taking it."
        } else {
            "A black three on top stops the next player taking the pile (it does not freeze it)."
        };
        p.push(stop.into());
        if self.pile.pile_needs_opened_side {
            p.push("A side that has not melded may not take the pile.".into());
        }
        p.push(
            "Whoever takes the pile melds its top card at once, then takes the rest into their hand."
                .into(),
        );
        let frozen = format!(
            "{} from your hand matching the top card",
            things(
                self.pile.pile_take_naturals_frozen,
                "natural card",
                "natural cards"
            )
        );
        let mut open = vec![format!(
            "{} from your hand matching the top card",
            things(
                self.pile.pile_take_naturals,
                "natural card",
                "natural cards"
            )
        )];
        if self.pile.take_with_natural_and_wild {
            open.push("a matching natural and a wild card".into());
        }
        if self.pile.take_onto_meld {
            if self.pile.take_onto_canasta {
                open.push("the top card put on your side's meld or canasta of its rank".into());
            } else {
                open.push(
                    "the top card put on your side's meld of its rank (not a canasta)".into(),
                );
            }
        }
        let mut rows = Vec::new();
        let never_frozen =
            !self.pile.freeze.always && freeze.is_empty() && !self.pile.freeze.unopened_side;
        if never_frozen {
            rows.push(("Any pile".to_string(), capitalize(&or_list(&open))));
        } else {
            if !self.pile.freeze.always {
                rows.push(("Not frozen".to_string(), capitalize(&or_list(&open))));
            }
            rows.push(("Frozen".to_string(), capitalize(&frozen)));
        }
        if self.pile.top_card_to_sequence {
            p.push(
                "Instead of drawing, you may take the top card alone to extend one of your side's \
                 sequences; the rest of the pile stays."
                    .into(),
            );
        }
        if self.pile.one_card_may_take_one_card_pile {
            p.push("A player holding one card may take a pile of one card.".into());
        } else {
            p.push("A player holding one card may not take a pile of one card.".into());
        }
        if let Some(rank) = self.melds.special_canasta_rank {
            match self.pile.special_discard {
                SpecialDiscard::Free => {}
                SpecialDiscard::UntilEverySide => p.push(format!(
                    "{} may not be discarded until every side has a canasta of them, and never as the last card.",
                    ranks_title(rank)
                )),
                SpecialDiscard::UntilOwnSide => p.push(format!(
                    "{} may not be discarded until your side has a canasta of them, and never as the last card.",
                    ranks_title(rank)
                )),
            }
        }
        let tables = vec![two_columns(
            "Taking the pile",
            ["The pile", "You need"],
            rows,
        )];
        section(Area::Pile, p, tables)
    }

    fn opening_section(&self) -> Section {
        let mut p = Vec::new();
        let mut first = "Your side's first meld (its opening) must be worth at least the minimum \
                         for your side's score so far, counting the cards melded in that turn"
            .to_string();
        if self.opening.opening_counts_canasta_bonus {
            first.push_str(" and the bonus of any canasta among them");
        } else {
            first.push_str("; bonuses and red threes do not count");
        }
        first.push('.');
        p.push(first);
        if let Some(need) = self.opening.opening_when_leading {
            p.push(format!(
                "From the second hand on, a player ahead of everyone else needs {need} instead."
            ));
        }
        match self.opening.clean_opening {
            CleanOpening::Never => {}
            CleanOpening::UpTo(up_to) => p.push(format!(
                "While the minimum is {up_to} or less, the opening must be of natural cards only."
            )),
            CleanOpening::Always => {
                p.push("The opening must always be of natural cards only.".into())
            }
        }
        if self.opening.open_before_draw {
            p.push(
                "A side that has not melded opens before drawing, from hand only, or not at all that turn."
                    .into(),
            );
        }
        if self.opening.pile_opening_from_hand {
            p.push(
                "To open by taking the pile, the melds you lay from hand must meet the minimum; \
                 the top card and its pair do not count."
                    .into(),
            );
        } else if !self.pile.pile_needs_opened_side {
            p.push(
                "You may open by taking the pile: the top card counts toward the minimum.".into(),
            );
        }
        if self.opening.concealed_without_minimum {
            p.push(
                "A player going out concealed after drawing from the stock need not meet the minimum."
                    .into(),
            );
        }
        let rows = opening_rows(&self.opening.opening_table)
            .into_iter()
            .map(|(range, need)| (range, points(need)))
            .collect();
        let tables = vec![two_columns(
            "Opening minimum",
            ["Your side's score", "First meld needs"],
            rows,
        )];
        section(Area::Opening, p, tables)
    }

    fn going_out_section(&self) -> Section {
        let mut p = Vec::new();
        let mut need = format!(
            "Your side needs {} before you may go out",
            things(self.going_out.requirement.canastas, "canasta", "canastas")
        );
        let mut kinds = Vec::new();
        if self.going_out.requirement.natural_canastas > 0 {
            kinds.push(things(
                self.going_out.requirement.natural_canastas,
                "clean canasta",
                "clean canastas",
            ));
        }
        if self.going_out.requirement.mixed_canastas > 0 {
            kinds.push(things(
                self.going_out.requirement.mixed_canastas,
                "dirty canasta",
                "dirty canastas",
            ));
        }
        if self.going_out.requirement.wild_canastas > 0 {
            kinds.push(things(
                self.going_out.requirement.wild_canastas,
                "wild canasta",
                "wild canastas",
            ));
        }
        if let Some(rank) = self.melds.special_canasta_rank
            && self.going_out.requirement.special_canastas > 0
        {
            kinds.push(format!(
                "{} of {}",
                things(
                    self.going_out.requirement.special_canastas,
                    "canasta",
                    "canastas"
                ),
                rank.plural()
            ));
        }
        if !kinds.is_empty() {
            need.push_str(&format!(", among them {}", and_list(&kinds)));
        }
        if self.melds.sequences {
            need.push_str(" (sambas count)");
        }
        need.push('.');
        p.push(need);
        if self.melds.wild_melds && !self.going_out.requirement.wild_canastas_count {
            p.push("A wild canasta does not count toward going out.".into());
        }
        if self.going_out.requirement.canastas_if_concealed > 0 {
            p.push(format!(
                "A side going out on the turn it opens needs only {}.",
                things(
                    self.going_out.requirement.canastas_if_concealed,
                    "canasta",
                    "canastas"
                )
            ));
        }
        let mut how = if self.going_out.requirement.needs_discard {
            "You go out by discarding your last card; melding it does not go out.".to_string()
        } else {
            "You go out by melding all your cards, or all but one and discarding it.".to_string()
        };
        if self.going_out.requirement.final_discard_natural {
            how.push_str(" That discard must be a natural card, not a wild card or a three.");
        }
        p.push(how);
        p.push(if self.going_out.asking_allowed {
            "Before going out you may ask your partner \"May I go out?\"; the answer binds you."
                .into()
        } else {
            "Nobody asks a partner before going out.".to_string()
        });
        p.push(match self.going_out.stock_end {
            StockEnd::TakePile => {
                let forced = if self.going_out.empty_stock_forces_pile {
                    " a player must take a pile that matches a meld of their side, and"
                } else {
                    " players may go on taking the pile, and"
                };
                format!(
                    "When the stock runs out,{forced} the hand ends when the next player wants to draw and cannot."
                )
            }
            StockEnd::ShortStock => {
                "The hand ends when a turn begins with fewer cards in the stock than a draw takes."
                    .into()
            }
            StockEnd::Emptied => {
                "The hand ends the moment a draw empties the stock, before the player who drew can meld."
                    .into()
            }
        });
        section(Area::GoingOut, p, Vec::new())
    }

    fn scoring_section(&self) -> Section {
        let mut p = Vec::new();
        let mut end = "At the end of a hand each side scores the cards it melded and its bonuses, \
                       minus the cards left in its players' hands"
            .to_string();
        if self.deal.foot_size > 0 {
            end.push_str(" and in feet not picked up");
        }
        end.push('.');
        if self.scoring.unopened_hand_multiplier > 1 {
            end.push_str(&format!(
                " A side that never melded loses its cards in hand {} times over.",
                count(self.scoring.unopened_hand_multiplier)
            ));
        }
        p.push(end);
        let values = card_value_rows(&self.scoring.card_values, Some(self))
            .into_iter()
            .map(|(name, v)| (name, points(v)))
            .collect();
        let mut tables = vec![two_columns("Card values", ["Card", "Points"], values)];
        let mut bonuses = vec![(
            "Going out".to_string(),
            points(self.scoring.going_out_bonus),
        )];
        if self.scoring.concealed_bonus != 0 {
            let mut label = "Going out concealed (extra)".to_string();
            if !self.scoring.concealed_bonus_if_pile_taken {
                label.push_str(", not after taking the pile");
            }
            bonuses.push((label, points(self.scoring.concealed_bonus)));
        }
        for m in &self.scoring.many_canastas_bonuses {
            bonuses.push((capitalize(&many_row(m)), points(m.bonus)));
        }
        tables.push(two_columns("Bonuses", ["For", "Points"], bonuses));
        if !self.melds.threes_natural && self.deal.deck().red_threes() > 0 {
            match self.scoring.red_three_scoring {
                RedThreeScoring::Table | RedThreeScoring::NeedsSpecialCanasta => {
                    let when = match (self.scoring.red_three_scoring, self.scoring.red_three_penalty) {
                        (RedThreeScoring::NeedsSpecialCanasta, _) => match self.melds.special_canasta_rank {
                            Some(rank) => format!("has no canasta of {}", rank.plural()),
                            None => "has no special canasta".into(),
                        },
                        (_, RedThreePenalty::NoMeld) => "has melded nothing".into(),
                        (_, RedThreePenalty::NoCanasta) => "has no canasta".into(),
                        (_, RedThreePenalty::BelowGoingOut) => {
                            "lacks the canastas it needs to go out".into()
                        }
                    };
                    p.push(format!(
                        "A side's red threes count plus, as the table says, unless the side {when}: then they count as much minus."
                    ));
                    let rows = (1..=self.deal.deck().red_threes() as usize)
                        .map(|n| (capitalize(&things(n as i64, "red three", "red threes")), points(self.scoring.red_three_value(n))))
                        .collect();
                    tables.push(two_columns("Red threes", ["A side with", "Points"], rows));
                }
                RedThreeScoring::Canastone => p.push(
                    "Red threes are worth 100 each: plus for a side with a clean and a dirty canasta, \
                     nothing with only clean ones, minus with only dirty ones, and minus twice over \
                     with no canasta; four or more count double again."
                        .into(),
                ),
            }
        }
        let mut target = format!(
            "The game ends when a side reaches {} points; the highest total wins.",
            points(self.game.target)
        );
        if self.game.tie_plays_on {
            target.push_str(" A tie for the lead is played on with another hand.");
        }
        p.push(target);
        section(Area::Scoring, p, tables)
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

fn joined<T: AsRef<str>>(items: &[T], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => format!(
            "{} {word} {}",
            init.iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

fn or_list<T: AsRef<str>>(items: &[T]) -> String {
    joined(items, "or")
}

fn and_list<T: AsRef<str>>(items: &[T]) -> String {
    joined(items, "and")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::all_forms;
    use serde_json::Value;

    fn opts(json: serde_json::Value) -> serde_json::Map<String, Value> {
        json.as_object().unwrap().clone()
    }

    fn section_of(page: &Page, area: Area) -> &Section {
        page.sections.iter().find(|s| s.area == area).unwrap()
    }

    #[test]
    fn every_form_has_every_section_and_no_field_names() {
        for form in all_forms() {
            let page = form.how_to_play();
            assert_eq!(page.sections.len(), Area::ALL.len());
            for (s, area) in page.sections.iter().zip(Area::ALL) {
                assert_eq!(s.area, area);
                assert!(!s.paragraphs.is_empty(), "{} {:?}", form.game.variant, area);
                for t in &s.tables {
                    for r in &t.rows {
                        assert_eq!(r.len(), t.columns.len());
                    }
                }
            }
            let words: Vec<&String> = page
                .sections
                .iter()
                .flat_map(|s| {
                    s.paragraphs.iter().chain(
                        s.tables
                            .iter()
                            .flat_map(|t| t.columns.iter().chain(t.rows.iter().flatten())),
                    )
                })
                .chain([&page.title, &page.summary])
                .collect();
            for w in words {
                assert!(
                    !w.contains('_') && !w.contains('{'),
                    "{}: {w}",
                    form.game.variant
                );
            }
            assert_eq!(page, form.how_to_play(), "deterministic");
        }
    }

    #[test]
    fn classic_reads_its_values_bonuses_and_opening_table() {
        let page = Rules::classic().how_to_play();
        assert_eq!(page.title, "How to play Classic Canasta");
        let scoring = section_of(&page, Area::Scoring);
        let values = &scoring.tables[0];
        assert_eq!(values.rows[0], vec!["Joker", "50"]);
        assert!(
            values
                .rows
                .contains(&vec!["8 to K".to_string(), "10".into()]),
            "{values:?}"
        );
        assert!(
            values
                .rows
                .contains(&vec!["4 to 7".to_string(), "5".into()]),
            "{values:?}"
        );
        let opening = &section_of(&page, Area::Opening).tables[0];
        assert_eq!(
            opening.rows,
            vec![
                vec!["Below 0", "15"],
                vec!["0 to 1,499", "50"],
                vec!["1,500 to 2,999", "90"],
                vec!["3,000 or more", "120"],
            ]
        );
        let red = scoring
            .tables
            .iter()
            .find(|t| t.caption == "Red threes")
            .unwrap();
        assert_eq!(red.rows.last().unwrap(), &vec!["Four red threes", "800"]);
    }

    /// A house rule changes the page, and the summary names it.
    #[test]
    fn a_house_rule_changes_the_page() {
        let classic = Rules::classic();
        let frozen = classic
            .with_options(&opts(serde_json::json!({"pile_always_frozen": true})))
            .unwrap();
        let (a, b) = (classic.how_to_play(), frozen.how_to_play());
        assert_ne!(section_of(&a, Area::Pile), section_of(&b, Area::Pile));
        assert!(section_of(&b, Area::Pile).paragraphs[0].contains("always frozen"));
        assert!(
            b.summary.contains("Pile always frozen: On"),
            "{}",
            b.summary
        );
        let target = classic
            .with_options(&opts(serde_json::json!({"target": 7500})))
            .unwrap();
        let scoring = section_of(&target.how_to_play(), Area::Scoring)
            .paragraphs
            .join(" ");
        assert!(scoring.contains("7,500 points"), "{scoring}");
    }

    #[test]
    fn samba_and_pennies_show_their_own_canastas() {
        let samba = Rules::preset("samba", None, None).unwrap().how_to_play();
        let bonuses = &section_of(&samba, Area::Melds).tables[0];
        assert!(
            bonuses
                .rows
                .iter()
                .any(|r| r[0].starts_with("Samba") && r[1] == "1,500")
        );
        let pennies = Rules::preset("pennies", None, None).unwrap().how_to_play();
        let melds = section_of(&pennies, Area::Melds);
        assert!(
            melds.tables[0]
                .rows
                .iter()
                .any(|r| r[0].starts_with("Sevens"))
        );
        let going_out = section_of(&pennies, Area::GoingOut).paragraphs[0].clone();
        assert!(going_out.contains("canasta of sevens"), "{going_out}");
    }

    /// Canastia has no red threes, no freezing and ordinary threes: its
    /// page says so rather than Classic's words.
    #[test]
    fn canastia_reads_as_its_own_deck() {
        let page = Rules::preset("canastia", None, None).unwrap().how_to_play();
        let deck = section_of(&page, Area::Deck).paragraphs.join(" ");
        assert!(!deck.contains("red three"), "{deck}");
        assert!(deck.contains("One upcard is turned"), "{deck}");
        let pile = &section_of(&page, Area::Pile).tables[0];
        assert_eq!(pile.rows.len(), 1);
        assert_eq!(pile.rows[0][0], "Any pile");
        let values = &section_of(&page, Area::Scoring).tables[0];
        assert_eq!(
            values.rows.last().unwrap(),
            &vec!["3".to_string(), "1".into()]
        );
        let cards: Vec<&str> = values.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(cards, ["Joker", "2", "A", "K, Q", "4 to 8", "3"]);
    }
}
