//! Setting up positions for the scenario tests. Positions come only from
//! deals: [`DealSpec`] builds a full deck (index 0 = top) that produces the
//! chosen hands, upcards and stock order under the record spec's deal order
//! (`docs/record-format.md`, "Deal"), and fills every card left
//! unspecified from the rest of the preset's deck.

#![allow(dead_code)]

use canasta_core::{
    Action, Card, CardCounts, DealOutcome, GameState, HandResult, IllegalReason, Phase, Rank,
    Rules, Seat, Side, Suit,
};

pub fn card(s: &str) -> Card {
    s.parse().unwrap_or_else(|e| panic!("bad card `{s}`: {e}"))
}

pub fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(card).collect()
}

pub fn counts(s: &str) -> CardCounts {
    CardCounts::from_cards(cards(s))
}

pub fn act(s: &str) -> Action {
    s.parse()
        .unwrap_or_else(|e| panic!("bad action `{s}`: {e}"))
}

pub fn classic(players: u8) -> Rules {
    Rules::preset("classic", Some(players), None).unwrap()
}

/// The Canastia preset (S004, research §6): 2 or 3 players, each for themselves.
pub fn canastia(players: u8) -> Rules {
    Rules::preset("canastia", Some(players), None).unwrap()
}

/// The Canastone preset (P-CNE): 4 players, or 6 in two teams of three.
pub fn samba(players: u8) -> Rules {
    Rules::preset("samba", Some(players), None).unwrap()
}

pub fn pennies() -> Rules {
    Rules::preset("pennies", None, None).unwrap()
}

pub fn canastone(players: u8) -> Rules {
    Rules::preset("canastone", Some(players), None).unwrap()
}

/// `rules` with house rules, written as the JSON object of a record
/// header's `options`.
pub fn rules_with(rules: Rules, options: &str) -> Rules {
    let options: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(options).expect("options are a JSON object");
    rules.with_options(&options).expect("valid options")
}

/// P-CNE: the face-down packet under the upcards holds as many cards as the
/// natural upcard's rank: 4 to 10 as numbered, J 11, Q 12, K 13, A 14
/// (written out here, not taken from the engine).
pub fn packet_size(upcard: Card) -> usize {
    match upcard.rank() {
        Some(Rank::Four) => 4,
        Some(Rank::Five) => 5,
        Some(Rank::Six) => 6,
        Some(Rank::Seven) => 7,
        Some(Rank::Eight) => 8,
        Some(Rank::Nine) => 9,
        Some(Rank::Ten) => 10,
        Some(Rank::Jack) => 11,
        Some(Rank::Queen) => 12,
        Some(Rank::King) => 13,
        Some(Rank::Ace) => 14,
        _ => panic!("{upcard} does not stop the turning of upcards"),
    }
}

/// Card values as P-CAN, S001 and S003 give them (written out here, not taken
/// from the engine): joker 50, A and 2 = 20, K-8 = 10, 7-4 = 5, black 3 = 5.
pub fn value(c: Card) -> i32 {
    match c.rank() {
        None => 50,
        Some(Rank::Two) | Some(Rank::Ace) => 20,
        Some(Rank::Three) => {
            assert!(c.is_black_three(), "red threes never stay in a hand");
            5
        }
        Some(r) if r >= Rank::Eight => 10,
        Some(_) => 5,
    }
}

pub fn hand_value(h: &CardCounts) -> i32 {
    h.iter().map(value).sum()
}

/// A deal described by what matters to a test.
#[derive(Clone, Debug)]
pub struct DealSpec {
    pub rules: Rules,
    pub dealer: usize,
    /// The cards dealt to each seat (red threes included: they are laid out
    /// and replaced after the upcards, or before them under
    /// `red_three_timing: before_upcard`). A short hand is filled up.
    pub hands: Vec<Vec<Card>>,
    /// Each seat's foot (Pennies from Heaven), filled up like a hand.
    pub feet: Vec<Vec<Card>>,
    /// The upcards in the order they are turned; the last is the pile's top.
    /// For a deal the rules annul (P-CNE), every upcard turned.
    pub upcards: Vec<Card>,
    /// The face-down packet put under the upcards (P-CNE), in deck order
    /// (its first card ends at the bottom of the pile). A short packet is
    /// filled up to the size the upcard calls for.
    pub packet: Vec<Card>,
    /// The stock, top first: red-three replacements are taken from here
    /// first, then draws. It follows the upcards and the packet in the deck,
    /// except that under `red_three_timing: before_upcard` the replacements
    /// (which must then all be named here) come before the upcards.
    pub stock: Vec<Card>,
    /// The last cards of the deck, bottom card last.
    pub bottom: Vec<Card>,
    /// The seat that plays first, where the variant chooses it at random
    /// (Canastia; the deal line's `first`); `None`: the dealer's left.
    pub first: Option<usize>,
}

impl DealSpec {
    pub fn new(rules: Rules, dealer: usize) -> DealSpec {
        let n = rules.game.players as usize;
        DealSpec {
            rules,
            dealer,
            hands: vec![Vec::new(); n],
            feet: vec![Vec::new(); n],
            upcards: Vec::new(),
            packet: Vec::new(),
            stock: Vec::new(),
            bottom: Vec::new(),
            first: None,
        }
    }

    /// The Canastia preset (S004) for 2 or 3 players.
    pub fn canastia(players: u8, dealer: usize) -> DealSpec {
        DealSpec::new(canastia(players), dealer)
    }

    /// Names the first player (record spec: the deal line's `first`).
    pub fn first(mut self, seat: usize) -> DealSpec {
        self.first = Some(seat);
        self
    }

    pub fn classic(players: u8, dealer: usize) -> DealSpec {
        DealSpec::new(classic(players), dealer)
    }

    pub fn canastone(players: u8, dealer: usize) -> DealSpec {
        DealSpec::new(canastone(players), dealer)
    }

    pub fn hand(mut self, seat: usize, s: &str) -> DealSpec {
        self.hands[seat] = cards(s);
        assert!(
            self.hands[seat].len() <= self.rules.deal.hand_size as usize,
            "seat {seat}: more cards than the hand size"
        );
        self
    }

    pub fn foot(mut self, seat: usize, s: &str) -> DealSpec {
        self.feet[seat] = cards(s);
        assert!(
            self.feet[seat].len() <= self.rules.deal.foot_size as usize,
            "seat {seat}: more cards than the foot size"
        );
        self
    }

    pub fn upcards(mut self, s: &str) -> DealSpec {
        self.upcards = cards(s);
        self
    }

    pub fn packet(mut self, s: &str) -> DealSpec {
        self.packet = cards(s);
        self
    }

    pub fn stock(mut self, s: &str) -> DealSpec {
        self.stock = cards(s);
        self
    }

    pub fn bottom(mut self, s: &str) -> DealSpec {
        self.bottom = cards(s);
        self
    }

    /// The full deck, index 0 = top.
    pub fn deck(&self) -> Vec<Card> {
        let rules = &self.rules;
        let n = rules.game.players as usize;
        let size = rules.deal.hand_size as usize;
        let mut pool = rules.deal.deck();
        let specified = self
            .hands
            .iter()
            .flatten()
            .chain(self.feet.iter().flatten())
            .chain(&self.upcards)
            .chain(&self.packet)
            .chain(&self.stock)
            .chain(&self.bottom);
        for &c in specified {
            assert!(
                pool.remove(c),
                "{c} is used more often than the deck holds it"
            );
        }
        // Filler, in the order it is used: plain naturals cycling through the
        // ranks (a filled hand of 11 holds no pair), then black threes, wild
        // cards, and red threes last (so they sit at the bottom of the stock).
        let mut filler = Vec::new();
        loop {
            let before = filler.len();
            for s in Suit::ALL {
                for r in Rank::MELDABLE {
                    let c = Card::new(r, s);
                    if pool.remove(c) {
                        filler.push(c);
                    }
                }
            }
            if filler.len() == before {
                break;
            }
        }
        for c in ["3S", "3C", "2S", "2H", "2D", "2C", "JK", "3H", "3D"] {
            let c = card(c);
            while pool.remove(c) {
                filler.push(c);
            }
        }
        assert!(pool.is_empty());
        let mut filler = filler.into_iter();
        let hands: Vec<Vec<Card>> = self
            .hands
            .iter()
            .map(|h| {
                let mut h = h.clone();
                while h.len() < size {
                    h.push(filler.next().expect("filler for a hand"));
                }
                h
            })
            .collect();
        // Upcards: turned while wild or a red three (P-CAN), or wild or any
        // three (P-CNE); Canastia turns one only. So every upcard but the
        // last must be one. A deal the rules annul (P-CNE: `max_upcards` of them) turns only such cards.
        let again = |c: &Card| {
            (c.is_wild() && rules.pile.upcard_wild_turns_again)
                || c.is_red_three()
                || (c.is_black_three()
                    && (rules.pile.upcard_black_three_turns_again
                        || rules.pile.upcard_threes_turn_again))
        };
        let annulled = rules.pile.max_upcards > 0
            && self.upcards.len() == rules.pile.max_upcards as usize
            && self.upcards.iter().all(again);
        if let Some((last, rest)) = self.upcards.split_last()
            && !annulled
        {
            assert!(rest.iter().all(again), "only a turning card is covered");
            assert!(!again(last), "the last upcard stops the turning");
            assert!(
                rules.pile.max_upcards == 0
                    || self.upcards.len() <= rules.pile.max_upcards as usize,
                "too many upcards"
            );
        }
        let mut deck = Vec::with_capacity(rules.deal.deck_size());
        // 1. Hands, one card at a time clockwise from the dealer's left.
        for i in 0..n * size {
            deck.push(hands[(self.dealer + 1 + i) % n][i / n]);
        }
        // 2. Feet, each seat's as one block, in the same seat order.
        let foot_size = rules.deal.foot_size as usize;
        for i in 0..n {
            let seat = (self.dealer + 1 + i) % n;
            let mut foot = self.feet[seat].clone();
            while foot.len() < foot_size {
                foot.push(filler.next().expect("filler for a foot"));
            }
            deck.extend(foot);
        }
        // 5. (US Italian) Red threes replaced before the upcard is turned:
        // the replacements come off the top of the named stock, a
        // replacement that is itself a red three replaced in turn.
        let mut stock = self.stock.as_slice();
        if rules.deal.red_three_timing == canasta_core::rules::RedThreeTiming::BeforeUpcard {
            let mut owed = hands.iter().flatten().filter(|c| c.is_red_three()).count();
            let mut taken = 0;
            while owed > 0 {
                let c = *stock
                    .get(taken)
                    .expect("name every red-three replacement in `stock`");
                taken += 1;
                owed = owed - 1 + usize::from(c.is_red_three());
            }
            deck.extend(&stock[..taken]);
            stock = &stock[taken..];
        }
        // 3. Upcards.
        deck.extend(&self.upcards);
        if self.upcards.is_empty() {
            let c = filler.next().expect("an upcard");
            deck.push(c);
        }
        // 4. The packet (P-CNE), as one block, filled up to its size.
        let packet = match (annulled, rules.pile.pile_packet) {
            (false, canasta_core::rules::PilePacket::ByRank) => packet_size(*deck.last().unwrap()),
            _ => 0,
        };
        assert!(
            self.packet.len() <= packet,
            "the packet holds {packet} cards"
        );
        deck.extend(&self.packet);
        for _ in self.packet.len()..packet {
            deck.push(filler.next().expect("filler for the packet"));
        }
        // 5./6. Replacements and the stock.
        deck.extend(stock);
        deck.extend(filler);
        deck.extend(&self.bottom);
        assert_eq!(deck.len(), rules.deal.deck_size());
        deck
    }

    /// A new game with this deal applied.
    pub fn game(&self) -> GameState {
        let mut g = GameState::new(self.rules.clone());
        self.deal_into(&mut g);
        g
    }

    pub fn deal_into(&self, g: &mut GameState) {
        let outcome = g
            .deal_with_first(
                &self.deck(),
                Seat::new(self.dealer),
                self.first.map(Seat::new),
            )
            .expect("deal");
        assert_eq!(outcome, DealOutcome::Dealt, "the deal stands");
    }

    /// Deals into `g` and returns what the deal did (P-CNE may annul it).
    pub fn deal_outcome(&self, g: &mut GameState) -> DealOutcome {
        g.deal_with_first(
            &self.deck(),
            Seat::new(self.dealer),
            self.first.map(Seat::new),
        )
        .expect("deal")
    }
}

/// A seat as the scenarios name it: by its number, as the record does, or
/// as the engine returns it.
pub trait AsSeat: Copy {
    fn seat(self) -> Seat;
}

impl AsSeat for usize {
    fn seat(self) -> Seat {
        Seat::new(self)
    }
}

impl AsSeat for Seat {
    fn seat(self) -> Seat {
        self
    }
}

/// A side by its number or as the engine returns it.
pub trait AsSide: Copy {
    fn side(self) -> Side;
}

impl AsSide for usize {
    fn side(self) -> Side {
        Side::new(self)
    }
}

impl AsSide for Side {
    fn side(self) -> Side {
        self
    }
}

/// Applies an action for a seat; panics with the position if it is refused.
#[track_caller]
pub fn play(g: &mut GameState, seat: impl AsSeat, text: &str) {
    let seat = seat.seat();
    if let Err(e) = g.apply_for(seat, act(text)) {
        panic!("seat {seat}: `{text}` refused: {e}\n{}", g.describe());
    }
}

/// Applies several actions of one seat.
#[track_caller]
pub fn play_all(g: &mut GameState, seat: impl AsSeat, texts: &[&str]) {
    let seat = seat.seat();
    for t in texts {
        play(g, seat, t);
    }
}

/// The reason an action is refused; checks the state is unchanged and that
/// `is_legal` agrees.
#[track_caller]
pub fn refused(g: &GameState, seat: impl AsSeat, text: &str) -> IllegalReason {
    let seat = seat.seat();
    let a = act(text);
    if seat == g.to_act() {
        assert!(!g.is_legal(&a), "`{text}` is_legal, expected refused");
    }
    let mut probe = g.clone();
    let before = format!("{probe:?}");
    match probe.apply_for(seat, a) {
        Ok(()) => panic!("`{text}` by seat {seat} was accepted\n{}", g.describe()),
        Err(e) => {
            assert_eq!(
                format!("{probe:?}"),
                before,
                "a refused action changed the state"
            );
            e.reason
        }
    }
}

/// The refusal of an action that would leave only `last` in hand, which
/// could not be discarded to go out `because`.
pub fn stranded(last: &str, because: IllegalReason) -> IllegalReason {
    IllegalReason::StrandedWith {
        card: card(last),
        because: Box::new(because),
    }
}

/// Whether `apply` accepts an action for the seat to act. (`is_legal` is
/// membership in the generated list, which holds minimal actions only; a
/// larger action is legal when it is a sequence of generated ones. Whatever
/// `is_legal` accepts, `apply` must accept.)
#[track_caller]
pub fn legal(g: &GameState, text: &str) -> bool {
    let a = act(text);
    let applies = g.clone().apply(a).is_ok();
    if g.is_legal(&a) {
        assert!(applies, "`{text}` is_legal but apply refuses it");
    }
    applies
}

/// The generated actions as texts.
pub fn legal_texts(g: &GameState) -> Vec<String> {
    g.legal_actions().iter().map(|a| a.to_string()).collect()
}

/// True if the generated list holds an action equal to `text` up to suits
/// where the rules cannot tell suits apart (the engine's choice key).
pub fn generated(g: &GameState, text: &str) -> bool {
    g.is_generated(&act(text))
}

/// Draws for the seat and discards the card(s) just drawn, keeping the hand as
/// it was (with draw 2, discards the first new card found and keeps the other).
/// Returns the cards drawn.
#[track_caller]
pub fn draw_discard_drawn(g: &mut GameState, seat: impl AsSeat) -> Vec<Card> {
    let seat = seat.seat();
    let before = *g.hand(seat);
    play(g, seat, "draw");
    if g.phase() != Phase::Play {
        return Vec::new();
    }
    let mut new = *g.hand(seat);
    let mut drawn = Vec::new();
    for c in before.iter() {
        new.remove(c);
    }
    drawn.extend(new.iter());
    let d = drawn[0];
    play(g, seat, &format!("discard {d}"));
    drawn
}

/// Draws and discards a named card.
#[track_caller]
pub fn draw_discard(g: &mut GameState, seat: impl AsSeat, discard: &str) {
    let seat = seat.seat();
    play(g, seat, "draw");
    play(g, seat, &format!("discard {discard}"));
}

/// The score items of one team, as a tuple
/// (melded, in_hand, canastas, red_threes, going_out, total).
pub fn items(h: &HandResult, team: usize) -> (i32, i32, i32, i32, i32, i32) {
    let t = &h.teams[team];
    assert_eq!(
        t.melded + t.in_hand + t.canastas + t.red_threes + t.going_out + t.other + t.foot,
        t.total,
        "items add up to the total"
    );
    (
        t.melded,
        t.in_hand,
        t.canastas,
        t.red_threes,
        t.going_out,
        t.total,
    )
}

/// Every score item of one team, as a tuple
/// (melded, in_hand, canastas, red_threes, going_out, other, total).
pub fn all_items(h: &HandResult, team: usize) -> (i32, i32, i32, i32, i32, i32, i32) {
    let (melded, in_hand, canastas, red_threes, going_out, total) = items(h, team);
    (
        melded,
        in_hand,
        canastas,
        red_threes,
        going_out,
        h.teams[team].other,
        total,
    )
}

/// Melds of a side as texts (engine order: naturals by suit, twos, jokers).
pub fn meld_texts(g: &GameState, side: impl AsSide) -> Vec<String> {
    g.melds(side.side())
        .iter()
        .map(|m| m.cards.to_string())
        .collect()
}

// ---------------------------------------------------------------------
// Hand-made records (`tests/data/records`): each file is the scenario that
// writes it (`CANASTA_WRITE_RECORDS=1` rewrites them), or a game of
// `canasta sim` cut where the scenario needs it (the test says which).

pub fn record_path(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
}

/// The record of `hands` (each a deal and its seat-tagged actions), played in order.
pub fn record(rules: &Rules, hands: &[(DealSpec, Vec<(usize, String)>)]) -> String {
    let mut g = GameState::new(rules.clone());
    let mut lines = vec![canasta_core::record::write::header(rules, None)];
    for (spec, actions) in hands {
        lines.push(canasta_core::record::write::deal_with_first(
            &spec.deck(),
            Seat::new(spec.dealer),
            spec.first.map(Seat::new),
        ));
        spec.deal_into(&mut g);
        for (seat, a) in actions {
            play(&mut g, *seat, a);
            lines.push(canasta_core::record::write::action(
                Seat::new(*seat),
                &act(a),
            ));
        }
        if let Some(h) = g.last_hand()
            && matches!(g.phase(), Phase::HandOver | Phase::GameOver)
        {
            lines.push(canasta_core::record::write::hand_end(h));
        }
    }
    if let Some(end) = canasta_core::record::write::game_end(&g) {
        lines.push(end);
    }
    lines.join("\n") + "\n"
}

#[track_caller]
pub fn same_as_file(name: &str, text: &str) {
    if std::env::var_os("CANASTA_WRITE_RECORDS").is_some() {
        std::fs::write(record_path(name), text).unwrap();
    }
    let file = std::fs::read_to_string(record_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(file, text, "{name} differs from its scenario");
    let check = canasta_core::record::check_record(&file);
    assert!(check.error.is_none(), "{name}: {:?}", check.error);
    assert!(check.games[0].mismatches.is_empty());
}
