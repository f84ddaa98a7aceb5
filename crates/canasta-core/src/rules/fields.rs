//! Reading a rule from outside the engine, and the one way in.
//!
//! A [`Rules`] value that exists is valid: its fields are private to the
//! engine, the other crates read them through the accessors below, and a
//! value is made only by a preset, by [`Rules::with_options`] or by
//! deserialising, all of which validate (shakmaty's `Setup` → `Position`:
//! [`RulesFields`] is the unchecked form, [`Rules`] the checked one).

use super::*;

/// Why the pile is frozen against a side ([`Rules::pile_freeze`]): taking
/// it then needs natural cards of the top card's rank from hand
/// ([`Rules::pile_take_naturals_frozen`]), never a meld on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freeze {
    /// A wild card (or, where the rules say so, a black three) is in it.
    ByCard,
    /// These rules freeze the pile for everyone, always.
    Always,
    /// The side has not melded yet.
    UntilOpened,
}

impl Rules {
    /// The preset's id, as in the record header (`classic`, ...).
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Number of teams `k`; seat `s` is on team `s mod k` (record spec).
    /// `k = players` means every player for themselves.
    pub fn teams(&self) -> u8 {
        self.teams
    }

    /// Classic 3 players (P-CAN): the first player to take the pile plays
    /// alone, the other two become partners for the hand.
    pub fn temporary_partnership(&self) -> bool {
        self.temporary_partnership
    }

    /// Standard 52-card packs in the deck.
    pub fn decks(&self) -> u8 {
        self.decks
    }

    /// Jokers in the deck (P-CAN: 4 with 2 packs; 6 with 3).
    pub fn jokers(&self) -> u8 {
        self.jokers
    }

    /// Cards dealt to each player (P-CAN: 11 for 4 players, 15 for 2, 13 for 3 and 6).
    pub fn hand_size(&self) -> u8 {
        self.hand_size
    }

    /// Cards in each player's foot: a face-down packet dealt after the hands
    /// and picked up after the discard that ends a turn in which the player
    /// completed a canasta (Pennies from Heaven: 11; P-CAN lists a foot as a
    /// Classic variation). 0: no foot.
    pub fn foot_size(&self) -> u8 {
        self.foot_size
    }

    /// Cards taken from the stock in one draw (P-CAN: 1; 2 with 2 or 3 players).
    pub fn draw_count(&self) -> u8 {
        self.draw_count
    }

    /// S001 also turns another upcard while the upcard is a black three
    /// (pagat turns again only for wild cards and red threes).
    pub fn upcard_black_three_turns_again(&self) -> bool {
        self.upcard_black_three_turns_again
    }

    /// When dealt red threes are laid out (P-CAN: after the deal).
    pub fn red_three_timing(&self) -> RedThreeTiming {
        self.red_three_timing
    }

    /// Smallest meld (P-CAN: 3).
    pub fn min_meld(&self) -> u8 {
        self.min_meld
    }

    /// Fewest naturals in a meld (P-CAN: 2).
    pub fn min_naturals(&self) -> u8 {
        self.min_naturals
    }

    /// Most wild cards in a meld (P-CAN: 3).
    pub fn max_wilds(&self) -> u8 {
        self.max_wilds
    }

    /// Wild cards relative to naturals (P-CAN: any, within the two limits above).
    pub fn wild_ratio(&self) -> WildRatio {
        self.wild_ratio
    }

    /// Cards that make a canasta (7).
    pub fn canasta_size(&self) -> u8 {
        self.canasta_size
    }

    /// A meld of `canasta_size` or more becomes a canasta only when its
    /// owner closes it (`canasta M`), and then takes no more cards (Canastia).
    pub fn canasta_by_choice(&self) -> bool {
        self.canasta_by_choice
    }

    /// Natural (clean) canasta bonus (500).
    pub fn natural_canasta_bonus(&self) -> i32 {
        self.natural_canasta_bonus
    }

    /// Mixed (dirty) canasta bonus (300).
    pub fn mixed_canasta_bonus(&self) -> i32 {
        self.mixed_canasta_bonus
    }

    /// Point values of cards.
    pub fn card_values(&self) -> CardValues {
        self.card_values
    }

    /// Opening minimum by the team's cumulative score, lowest row first.
    pub fn opening_table(&self) -> &[OpeningStep] {
        &self.opening_table
    }

    /// Canastas a team needs before a member may go out (P-CAN: 1; 2 with 2 or 6 players).
    pub fn canastas_to_go_out(&self) -> u8 {
        self.canastas_to_go_out
    }

    /// Canasta bonuses of groups long enough count toward the opening
    /// (Canastia's example: a seven-card canasta of fives with three twos
    /// opens with 7 + 15 = 22).
    pub fn opening_counts_canasta_bonus(&self) -> bool {
        self.opening_counts_canasta_bonus
    }

    /// A wild card in the pile freezes it (P-CAN, P-CNE; Canastia has no
    /// freezing).
    pub fn wilds_freeze_pile(&self) -> bool {
        self.wilds_freeze_pile
    }

    /// Canastas needed instead when going out on the turn the side opens
    /// (Canastia: 1); 0 means no such exception.
    pub fn canastas_to_go_out_concealed(&self) -> u8 {
        self.canastas_to_go_out_concealed
    }

    /// Bonus for going out (P-CAN: 100).
    pub fn going_out_bonus(&self) -> i32 {
        self.going_out_bonus
    }

    /// Extra bonus for going out concealed (P-CAN: a further 100, 200 in all).
    pub fn concealed_bonus(&self) -> i32 {
        self.concealed_bonus
    }

    /// Viennese option: no concealed bonus when the pile was taken that turn.
    pub fn concealed_bonus_if_pile_taken(&self) -> bool {
        self.concealed_bonus_if_pile_taken
    }

    /// A team that has not melded may go out concealed after drawing from
    /// the stock without meeting the opening minimum (P-CAN, S002).
    pub fn concealed_without_minimum(&self) -> bool {
        self.concealed_without_minimum
    }

    /// Value of a team's red threes by how many it has (index = count).
    /// P-CAN: 100 each, all four 800; six players: 4 = 400, 5 = 1000, 6 = 1200.
    pub fn red_three_values(&self) -> &[i32] {
        &self.red_three_values
    }

    /// When red threes count minus (P-CAN: the team melded nothing).
    pub fn red_three_penalty(&self) -> RedThreePenalty {
        self.red_three_penalty
    }

    /// S001/S002: a discarded black three freezes the pile (pagat: only stops
    /// the next player).
    pub fn black_three_freezes(&self) -> bool {
        self.black_three_freezes
    }

    /// Viennese option: a player holding one card may take a one-card pile
    /// (S001, S002, BRIT forbid it).
    pub fn one_card_may_take_one_card_pile(&self) -> bool {
        self.one_card_may_take_one_card_pile
    }

    /// P-CAN variation: the pile is always frozen.
    pub fn pile_always_frozen(&self) -> bool {
        self.pile_always_frozen
    }

    /// Why the pile is frozen against a side, the first cause that holds:
    /// a freezing card in it (`pile_frozen`, a wild card or a black three
    /// discarded or turned up), these rules, or the side not having melded
    /// yet. `None`: the pile is open to the side. The judge, the generator
    /// and every screen ask this one predicate.
    pub fn pile_freeze(&self, pile_frozen: bool, side_opened: bool) -> Option<Freeze> {
        if pile_frozen {
            Some(Freeze::ByCard)
        } else if self.pile_always_frozen {
            Some(Freeze::Always)
        } else if self.unopened_side_frozen && !side_opened {
            Some(Freeze::UntilOpened)
        } else {
            None
        }
    }

    /// An unfrozen pile may be taken with one natural and one wild card
    /// (P-CAN; variation (2) forbids it).
    pub fn take_with_natural_and_wild(&self) -> bool {
        self.take_with_natural_and_wild
    }

    /// An unfrozen pile may be taken by adding its top card to a completed
    /// canasta (P-CAN; variation (1) forbids it).
    pub fn take_onto_canasta(&self) -> bool {
        self.take_onto_canasta
    }

    /// Players may ask partner "may I go out?" (P-CAN: optional and binding).
    pub fn asking_allowed(&self) -> bool {
        self.asking_allowed
    }

    /// The pile is frozen against a side that has not melded (P-CAN); in
    /// P-CNE only a wild card freezes it.
    pub fn unopened_side_frozen(&self) -> bool {
        self.unopened_side_frozen
    }

    /// The game ends when a team reaches this total (P-CAN: 5000; 7500 with
    /// 3 players or three teams of six; 10000 with two teams of three).
    pub fn target(&self) -> i32 {
        self.target
    }

    /// Most upcards turned to start the pile; if every one is wild or a
    /// three the deal is void and the same dealer deals again (P-CNE: 3).
    /// 0: turn until a card that does not call for another (P-CAN).
    pub fn max_upcards(&self) -> u8 {
        self.max_upcards
    }

    /// Any three upcard calls for another (P-CNE); P-CAN only red threes.
    pub fn upcard_threes_turn_again(&self) -> bool {
        self.upcard_threes_turn_again
    }

    /// A wild upcard calls for another (P-CAN, P-CNE); Canastia turns one
    /// upcard only.
    pub fn upcard_wild_turns_again(&self) -> bool {
        self.upcard_wild_turns_again
    }

    /// A red three among the upcards freezes the pile (P-CAN; P-CNE only wild cards).
    pub fn red_three_upcard_freezes(&self) -> bool {
        self.red_three_upcard_freezes
    }

    /// Face-down cards under the upcards (P-CNE: by the upcard's rank).
    pub fn pile_packet(&self) -> PilePacket {
        self.pile_packet
    }

    /// A side that has not melded opens before drawing, from hand only, or
    /// not at all that turn (P-CNE); P-CAN opens after drawing.
    pub fn open_before_draw(&self) -> bool {
        self.open_before_draw
    }

    /// Only a side that has melded may take the pile (P-CNE); P-CAN lets a
    /// side open by taking it.
    pub fn pile_needs_opened_side(&self) -> bool {
        self.pile_needs_opened_side
    }

    /// The pile is closed to a side (nothing takes it) until the side has
    /// melded from hand (P-CNE). The judge, the generator and the screens
    /// ask this one predicate.
    pub fn pile_closed_to(&self, side_opened: bool) -> bool {
        self.pile_needs_opened_side && !side_opened
    }

    /// Naturals from hand needed to take an unfrozen pile (2).
    pub fn pile_take_naturals(&self) -> u8 {
        self.pile_take_naturals
    }

    /// Naturals from hand needed to take a frozen pile (P-CAN 2; P-CNE 3).
    pub fn pile_take_naturals_frozen(&self) -> u8 {
        self.pile_take_naturals_frozen
    }

    /// Naturals from hand needed to take the pile, frozen for the taker or
    /// not: the one count the generator, the opening search and the judge
    /// all ask for.
    pub fn pile_naturals(&self, frozen: bool) -> u8 {
        if frozen {
            self.pile_take_naturals_frozen
        } else {
            self.pile_take_naturals
        }
    }

    /// The pile may be taken by putting its top card on the side's meld of
    /// that rank (P-CAN; not in P-CNE).
    pub fn take_onto_meld(&self) -> bool {
        self.take_onto_meld
    }

    /// Cards drawn from the stock along with the pile (P-CNE: 1).
    pub fn pile_extra_draw(&self) -> u8 {
        self.pile_extra_draw
    }

    /// Wild cards may be added to a completed canasta (P-CAN, up to the wild
    /// limit; P-CNE: never).
    pub fn wilds_on_canasta(&self) -> bool {
        self.wilds_on_canasta
    }

    /// Melds of wild cards only are allowed (P-CNE); until such a meld is a
    /// canasta its side may not go out, use wild cards elsewhere, or discard one.
    pub fn wild_melds(&self) -> bool {
        self.wild_melds
    }

    /// Black threes may be melded when going out (P-CAN; never in P-CNE).
    pub fn black_threes_meldable(&self) -> bool {
        self.black_threes_meldable
    }

    /// Threes are an ordinary rank: melded at any time, with wild cards,
    /// added to, made into canastas (Canastia, S004). They still stop the pile.
    pub fn threes_natural(&self) -> bool {
        self.threes_natural
    }

    /// An opening whose minimum is at most this must be of clean melds only
    /// (P-CNE: 50; P-CAN: 0, no such rule).
    pub fn clean_opening(&self) -> CleanOpening {
        self.clean_opening
    }

    /// Natural (clean) and mixed (dirty) canastas needed to go out, besides
    /// `canastas_to_go_out` in all (P-CNE: one of each).
    pub fn go_out_natural_canastas(&self) -> u8 {
        self.go_out_natural_canastas
    }

    /// The rule `go_out_mixed_canastas` (see [`Rules`]).
    pub fn go_out_mixed_canastas(&self) -> u8 {
        self.go_out_mixed_canastas
    }

    /// Going out needs a final discard (P-CNE); P-CAN may meld out.
    pub fn go_out_needs_discard(&self) -> bool {
        self.go_out_needs_discard
    }

    /// The final discard must be a natural card, not a wild card or a three (P-CNE).
    pub fn final_discard_natural(&self) -> bool {
        self.final_discard_natural
    }

    /// How a low stock ends the hand.
    pub fn stock_end(&self) -> StockEnd {
        self.stock_end
    }

    /// With the stock empty, a pile that matches a meld must be taken (P-CAN);
    /// false where taking it is the player's choice (P-PEN, P-SAM).
    pub fn empty_stock_forces_pile(&self) -> bool {
        self.empty_stock_forces_pile
    }

    /// A side that never melded loses its hand cards this many times (P-CNE: 2).
    pub fn unopened_hand_multiplier(&self) -> i32 {
        self.unopened_hand_multiplier
    }

    /// Canasta bonuses for aces (P-CNE: 1000 clean, 500 dirty; P-CAN as others).
    pub fn natural_ace_canasta_bonus(&self) -> i32 {
        self.natural_ace_canasta_bonus
    }

    /// The rule `mixed_ace_canasta_bonus` (see [`Rules`]).
    pub fn mixed_ace_canasta_bonus(&self) -> i32 {
        self.mixed_ace_canasta_bonus
    }

    /// Wild canastas (P-CNE): seven twos; six jokers and a two; any other.
    pub fn twos_canasta_bonus(&self) -> i32 {
        self.twos_canasta_bonus
    }

    /// The rule `jokers_canasta_bonus` (see [`Rules`]).
    pub fn jokers_canasta_bonus(&self) -> i32 {
        self.jokers_canasta_bonus
    }

    /// The rule `wild_canasta_bonus` (see [`Rules`]).
    pub fn wild_canasta_bonus(&self) -> i32 {
        self.wild_canasta_bonus
    }

    /// Wild canastas count toward going out (P-CNE; not in the US book's
    /// Italian Canasta, RG-ITA, S002).
    pub fn wild_canastas_count_to_go_out(&self) -> bool {
        self.wild_canastas_count_to_go_out
    }

    /// Wild-canasta bonuses are scored only by a side that went out
    /// (HSW-ITA, S002); otherwise only their card values count.
    pub fn wild_bonus_only_if_out(&self) -> bool {
        self.wild_bonus_only_if_out
    }

    /// Bonuses for many canastas; the best row met applies (P-CNE).
    pub fn many_canastas_bonuses(&self) -> &[ManyCanastas] {
        &self.many_canastas_bonuses
    }

    /// Faces taken out of the deck altogether (Canastia: all nines, tens and
    /// jacks, the red twos, red threes and red aces).
    pub fn excluded_faces(&self) -> &[Card] {
        &self.excluded_faces
    }

    /// The first player of each hand is chosen at random (Canastia); the
    /// record's deal line names it as `first`. Otherwise it is the dealer's left.
    pub fn random_first_player(&self) -> bool {
        self.random_first_player
    }

    /// From the second hand on, a player whose score is strictly above every
    /// other's needs this opening instead of the table's (Canastia: 15).
    pub fn opening_when_leading(&self) -> Option<i32> {
        self.opening_when_leading
    }

    /// How red threes score.
    pub fn red_three_scoring(&self) -> RedThreeScoring {
        self.red_three_scoring
    }

    /// Most cards one meld may hold (P-PEN: 7). A full meld takes nothing
    /// more, and its side may begin another meld of the same rank. 0: no limit.
    pub fn max_meld_size(&self) -> Option<u8> {
        self.max_meld_size
    }

    /// A rank whose melds take no wild cards (P-PEN: sevens; option
    /// `sevensMayBeMixed` after BIC-PEN, RG-PEN, S002 clears it).
    pub fn pure_rank(&self) -> Option<Rank> {
        self.pure_rank
    }

    /// A rank whose canasta is a kind of its own (P-PEN: sevens), with its
    /// own bonus; it does not count as a natural or mixed canasta.
    pub fn special_canasta_rank(&self) -> Option<Rank> {
        self.special_canasta_rank
    }

    /// The rule `special_canasta_bonus` (see [`Rules`]).
    pub fn special_canasta_bonus(&self) -> i32 {
        self.special_canasta_bonus
    }

    /// Canastas of the special rank needed to go out (P-PEN: 1).
    pub fn go_out_special_canastas(&self) -> u8 {
        self.go_out_special_canastas
    }

    /// Wild canastas needed to go out (P-PEN: 1). When above 0 a wild
    /// canasta is a kind of its own rather than a clean or dirty one (P-CNE).
    pub fn go_out_wild_canastas(&self) -> u8 {
        self.go_out_wild_canastas
    }

    /// When cards of the special rank may be discarded (P-PEN: sevens only
    /// once every side has a sevens canasta, never as the last discard).
    pub fn special_discard(&self) -> SpecialDiscard {
        self.special_discard
    }

    /// What a side's wild meld short of a canasta holds back: every wild
    /// card (P-CNE), twos only (RG-ITA), or nothing (P-PEN).
    pub fn wild_meld_reserves(&self) -> WildMeldReserve {
        self.wild_meld_reserves
    }

    /// An unopened side taking the pile must meet the opening minimum with
    /// the melds it lays from hand; the top card and its pair do not count
    /// (P-PEN: "must first lay down enough from hand").
    pub fn pile_opening_from_hand(&self) -> bool {
        self.pile_opening_from_hand
    }

    /// A tie for the lead at or over the target is played on (P-PEN).
    pub fn tie_plays_on(&self) -> bool {
        self.tie_plays_on
    }

    /// Sequences (Samba): `min_meld` or more naturals of one suit in
    /// consecutive ranks, four low and ace high, no wild cards and no threes;
    /// at `canasta_size` cards a samba, closed.
    pub fn sequences(&self) -> bool {
        self.sequences
    }

    /// Bonus for a samba (P-SAM, BIC-SAM: 1500).
    pub fn samba_bonus(&self) -> i32 {
        self.samba_bonus
    }

    /// A side may have several melds of one rank, kept apart (P-SAM,
    /// BIC-SAM); a new group of a melded rank is a new meld.
    pub fn several_melds_per_rank(&self) -> bool {
        self.several_melds_per_rank
    }

    /// P-SAM (Dutch): instead of drawing, a player may take the pile's top
    /// card alone to extend one of the side's sequences short of a samba
    /// (`pickup`); the rest of the pile stays. Needs `take_onto_meld` off.
    pub fn top_card_to_sequence(&self) -> bool {
        self.top_card_to_sequence
    }
}

/// Rules as read, before validation: the same fields, every one named
/// (`deny_unknown_fields`). Moving them into a [`Rules`] names every field
/// of both, so the two cannot drift apart.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFields {
    variant: String,
    players: u8,
    teams: u8,
    temporary_partnership: bool,
    decks: u8,
    jokers: u8,
    hand_size: u8,
    foot_size: u8,
    draw_count: u8,
    upcard_black_three_turns_again: bool,
    red_three_timing: RedThreeTiming,
    min_meld: u8,
    min_naturals: u8,
    max_wilds: u8,
    wild_ratio: WildRatio,
    canasta_size: u8,
    canasta_by_choice: bool,
    natural_canasta_bonus: i32,
    mixed_canasta_bonus: i32,
    card_values: CardValues,
    opening_table: Vec<OpeningStep>,
    canastas_to_go_out: u8,
    opening_counts_canasta_bonus: bool,
    wilds_freeze_pile: bool,
    canastas_to_go_out_concealed: u8,
    going_out_bonus: i32,
    concealed_bonus: i32,
    concealed_bonus_if_pile_taken: bool,
    concealed_without_minimum: bool,
    red_three_values: Vec<i32>,
    red_three_penalty: RedThreePenalty,
    black_three_freezes: bool,
    one_card_may_take_one_card_pile: bool,
    pile_always_frozen: bool,
    take_with_natural_and_wild: bool,
    take_onto_canasta: bool,
    asking_allowed: bool,
    unopened_side_frozen: bool,
    target: i32,
    max_upcards: u8,
    upcard_threes_turn_again: bool,
    upcard_wild_turns_again: bool,
    red_three_upcard_freezes: bool,
    pile_packet: PilePacket,
    open_before_draw: bool,
    pile_needs_opened_side: bool,
    pile_take_naturals: u8,
    pile_take_naturals_frozen: u8,
    take_onto_meld: bool,
    pile_extra_draw: u8,
    wilds_on_canasta: bool,
    wild_melds: bool,
    black_threes_meldable: bool,
    threes_natural: bool,
    clean_opening: CleanOpening,
    go_out_natural_canastas: u8,
    go_out_mixed_canastas: u8,
    go_out_needs_discard: bool,
    final_discard_natural: bool,
    stock_end: StockEnd,
    empty_stock_forces_pile: bool,
    unopened_hand_multiplier: i32,
    natural_ace_canasta_bonus: i32,
    mixed_ace_canasta_bonus: i32,
    twos_canasta_bonus: i32,
    jokers_canasta_bonus: i32,
    wild_canasta_bonus: i32,
    wild_canastas_count_to_go_out: bool,
    wild_bonus_only_if_out: bool,
    many_canastas_bonuses: Vec<ManyCanastas>,
    excluded_faces: Vec<Card>,
    random_first_player: bool,
    opening_when_leading: Option<i32>,
    red_three_scoring: RedThreeScoring,
    max_meld_size: Option<u8>,
    pure_rank: Option<Rank>,
    special_canasta_rank: Option<Rank>,
    special_canasta_bonus: i32,
    go_out_special_canastas: u8,
    go_out_wild_canastas: u8,
    special_discard: SpecialDiscard,
    wild_meld_reserves: WildMeldReserve,
    pile_opening_from_hand: bool,
    tie_plays_on: bool,
    sequences: bool,
    samba_bonus: i32,
    several_melds_per_rank: bool,
    top_card_to_sequence: bool,
}

impl TryFrom<RulesFields> for Rules {
    type Error = RulesError;

    fn try_from(f: RulesFields) -> Result<Rules, RulesError> {
        let rules = Rules {
            variant: f.variant,
            players: f.players,
            teams: f.teams,
            temporary_partnership: f.temporary_partnership,
            decks: f.decks,
            jokers: f.jokers,
            hand_size: f.hand_size,
            foot_size: f.foot_size,
            draw_count: f.draw_count,
            upcard_black_three_turns_again: f.upcard_black_three_turns_again,
            red_three_timing: f.red_three_timing,
            min_meld: f.min_meld,
            min_naturals: f.min_naturals,
            max_wilds: f.max_wilds,
            wild_ratio: f.wild_ratio,
            canasta_size: f.canasta_size,
            canasta_by_choice: f.canasta_by_choice,
            natural_canasta_bonus: f.natural_canasta_bonus,
            mixed_canasta_bonus: f.mixed_canasta_bonus,
            card_values: f.card_values,
            opening_table: f.opening_table,
            canastas_to_go_out: f.canastas_to_go_out,
            opening_counts_canasta_bonus: f.opening_counts_canasta_bonus,
            wilds_freeze_pile: f.wilds_freeze_pile,
            canastas_to_go_out_concealed: f.canastas_to_go_out_concealed,
            going_out_bonus: f.going_out_bonus,
            concealed_bonus: f.concealed_bonus,
            concealed_bonus_if_pile_taken: f.concealed_bonus_if_pile_taken,
            concealed_without_minimum: f.concealed_without_minimum,
            red_three_values: f.red_three_values,
            red_three_penalty: f.red_three_penalty,
            black_three_freezes: f.black_three_freezes,
            one_card_may_take_one_card_pile: f.one_card_may_take_one_card_pile,
            pile_always_frozen: f.pile_always_frozen,
            take_with_natural_and_wild: f.take_with_natural_and_wild,
            take_onto_canasta: f.take_onto_canasta,
            asking_allowed: f.asking_allowed,
            unopened_side_frozen: f.unopened_side_frozen,
            target: f.target,
            max_upcards: f.max_upcards,
            upcard_threes_turn_again: f.upcard_threes_turn_again,
            upcard_wild_turns_again: f.upcard_wild_turns_again,
            red_three_upcard_freezes: f.red_three_upcard_freezes,
            pile_packet: f.pile_packet,
            open_before_draw: f.open_before_draw,
            pile_needs_opened_side: f.pile_needs_opened_side,
            pile_take_naturals: f.pile_take_naturals,
            pile_take_naturals_frozen: f.pile_take_naturals_frozen,
            take_onto_meld: f.take_onto_meld,
            pile_extra_draw: f.pile_extra_draw,
            wilds_on_canasta: f.wilds_on_canasta,
            wild_melds: f.wild_melds,
            black_threes_meldable: f.black_threes_meldable,
            threes_natural: f.threes_natural,
            clean_opening: f.clean_opening,
            go_out_natural_canastas: f.go_out_natural_canastas,
            go_out_mixed_canastas: f.go_out_mixed_canastas,
            go_out_needs_discard: f.go_out_needs_discard,
            final_discard_natural: f.final_discard_natural,
            stock_end: f.stock_end,
            empty_stock_forces_pile: f.empty_stock_forces_pile,
            unopened_hand_multiplier: f.unopened_hand_multiplier,
            natural_ace_canasta_bonus: f.natural_ace_canasta_bonus,
            mixed_ace_canasta_bonus: f.mixed_ace_canasta_bonus,
            twos_canasta_bonus: f.twos_canasta_bonus,
            jokers_canasta_bonus: f.jokers_canasta_bonus,
            wild_canasta_bonus: f.wild_canasta_bonus,
            wild_canastas_count_to_go_out: f.wild_canastas_count_to_go_out,
            wild_bonus_only_if_out: f.wild_bonus_only_if_out,
            many_canastas_bonuses: f.many_canastas_bonuses,
            excluded_faces: f.excluded_faces,
            random_first_player: f.random_first_player,
            opening_when_leading: f.opening_when_leading,
            red_three_scoring: f.red_three_scoring,
            max_meld_size: f.max_meld_size,
            pure_rank: f.pure_rank,
            special_canasta_rank: f.special_canasta_rank,
            special_canasta_bonus: f.special_canasta_bonus,
            go_out_special_canastas: f.go_out_special_canastas,
            go_out_wild_canastas: f.go_out_wild_canastas,
            special_discard: f.special_discard,
            wild_meld_reserves: f.wild_meld_reserves,
            pile_opening_from_hand: f.pile_opening_from_hand,
            tie_plays_on: f.tie_plays_on,
            sequences: f.sequences,
            samba_bonus: f.samba_bonus,
            several_melds_per_rank: f.several_melds_per_rank,
            top_card_to_sequence: f.top_card_to_sequence,
        };
        rules.validate()?;
        Ok(rules)
    }
}
