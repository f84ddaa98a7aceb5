//! The reader: a text checked field by field, then as a whole (the deck's
//! cards, the melds under the rules), into a state.

use super::{NotationError, PHASE_WORDS, TURN_FLAG_WORDS};
use crate::card::{Card, CardCounts, FACES, PackedCounts, Rank, Suit};
use crate::error::IllegalReason;
use crate::meld::{Group, GroupShapeError, Meld};
use crate::rules::{PilePacket, Rules};
use crate::seat::{Seat, Side};
use crate::state::{GameState, MAX_MELDS, MAX_SEATS, Phase, Ruleset, TurnFlags};

/// Fields written once, the first six and the last two always.
const ONCE: [&str; 15] = [
    "rules",
    "scores",
    "hands-played",
    "dealer",
    "turn",
    "melds-at-start",
    "stock",
    "pile",
    "options",
    "turn-flags",
    "answer",
    "lone-hand",
    "melded",
    "first-turn",
    "packet",
];
/// [`ONCE`]'s fields that every position writes.
const REQUIRED: [&str; 8] = [
    "rules",
    "scores",
    "hands-played",
    "dealer",
    "turn",
    "melds-at-start",
    "stock",
    "pile",
];
/// Fields written once for each seat they concern: `field seat value`.
const PER_SEAT: [&str; 5] = ["hand", "known", "foot", "red-threes", "discarded"];
/// The one field that takes no value.
const FROZEN: &str = "frozen";
/// The one field written once for each meld, in meld order.
const MELD: &str = "meld";

/// A text's lines sorted by field, each checked to be written once.
#[derive(Default)]
struct Fields<'a> {
    once: Vec<(&'static str, &'a str)>,
    per_seat: Vec<(&'static str, usize, &'a str)>,
    melds: Vec<&'a str>,
    frozen: bool,
}

impl<'a> Fields<'a> {
    fn split(text: &'a str) -> Result<Fields<'a>, NotationError> {
        let mut f = Fields::default();
        for raw in text.lines() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let value = value.trim();
            if let Some(&k) = ONCE.iter().find(|&&k| k == key) {
                if f.once.iter().any(|(seen, _)| *seen == k) {
                    return Err(NotationError::Repeated(k.into()));
                }
                f.once.push((k, value));
            } else if let Some(&k) = PER_SEAT.iter().find(|&&k| k == key) {
                let (seat, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
                let seat = number(k, seat, "a seat number")?;
                if f.per_seat
                    .iter()
                    .any(|&(seen, s, _)| seen == k && s == seat)
                {
                    return Err(NotationError::RepeatedSeat { field: k, seat });
                }
                f.per_seat.push((k, seat, rest.trim()));
            } else if key == MELD {
                f.melds.push(value);
            } else if key == FROZEN {
                if f.frozen {
                    return Err(NotationError::Repeated(FROZEN.into()));
                }
                if !value.is_empty() {
                    return Err(NotationError::BadValue {
                        field: FROZEN,
                        text: value.into(),
                        expected: "empty (the line alone says the pile is frozen)",
                    });
                }
                f.frozen = true;
            } else {
                return Err(NotationError::UnknownField(key.into()));
            }
        }
        for k in REQUIRED {
            if !f.once.iter().any(|(seen, _)| *seen == k) {
                return Err(NotationError::Missing(k));
            }
        }
        Ok(f)
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        self.once.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    }

    /// A field [`REQUIRED`] holds.
    fn required(&self, key: &str) -> &'a str {
        self.get(key).expect("required fields are checked present")
    }

    /// The seats' values of a per-seat field.
    fn seats(&self, key: &'static str) -> impl Iterator<Item = (usize, &'a str)> + '_ {
        self.per_seat
            .iter()
            .filter(move |(k, _, _)| *k == key)
            .map(|&(_, s, v)| (s, v))
    }
}

fn number<T: std::str::FromStr>(
    field: &'static str,
    text: &str,
    expected: &'static str,
) -> Result<T, NotationError> {
    text.parse().map_err(|_| NotationError::BadValue {
        field,
        text: text.into(),
        expected,
    })
}

/// A list of cards, `-` for none.
fn cards(field: &'static str, text: &str) -> Result<Vec<Card>, NotationError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|t| {
            t.parse()
                .map_err(|error| NotationError::BadCard { field, error })
        })
        .collect()
}

fn seat(field: &'static str, text: &str, players: usize) -> Result<usize, NotationError> {
    let s = number(field, text, "a seat number")?;
    check_seat(field, s, players)
}

fn check_seat(field: &'static str, seat: usize, players: usize) -> Result<usize, NotationError> {
    if seat < players {
        Ok(seat)
    } else {
        Err(NotationError::NoSuchSeat {
            field,
            seat,
            players,
        })
    }
}

/// Where a meld's line puts it, before the cards are checked.
struct MeldLine {
    side: usize,
    cards: Vec<Card>,
    closed: bool,
}

fn meld_line(value: &str) -> Result<MeldLine, NotationError> {
    let (side, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    let side = number(MELD, side, "a side number")?;
    let rest = rest.trim();
    let (rest, closed) = match rest.strip_suffix("closed") {
        Some(r) if r.is_empty() || r.ends_with(char::is_whitespace) => (r.trim_end(), true),
        _ => (rest, false),
    };
    Ok(MeldLine {
        side,
        cards: cards(MELD, rest)?,
        closed,
    })
}

fn shape_words(e: GroupShapeError) -> &'static str {
    match e {
        GroupShapeError::Empty => "it has no cards",
        GroupShapeError::MixedRanks(..) => "naturals of two ranks",
        GroupShapeError::WildInSequence(_) => "a sequence takes no wild card",
        GroupShapeError::ThreeInSequence(_) => "a sequence runs from four up",
    }
}

impl GameState {
    /// Reads a position written in the notation of
    /// `docs/position-notation.md` (what [`GameState::to_notation`] writes;
    /// lines may come in any order, `#` starts a comment line).
    ///
    /// # Errors
    /// A field that is unknown, repeated, missing or unreadable; cards that
    /// are not exactly the rules' deck; a meld the rules do not allow; a
    /// seat, side or count out of bounds (see [`NotationError`]).
    pub fn from_notation(text: &str) -> Result<GameState, NotationError> {
        let f = Fields::split(text)?;
        let rules = read_rules(f.required("rules"), f.get("options"))?;
        let n = rules.game.players as usize;
        let mut g = GameState::with_ruleset(Ruleset::new(rules));
        g.read_counters(&f)?;
        let (seat_cards, red_threes, melds, stock, pile) = read_cards(&f, n)?;
        g.check_deck(&seat_cards, &red_threes, &melds, &stock, &pile)?;
        g.place_cards(&f, seat_cards, red_threes, stock, pile)?;
        g.read_seat_marks(&f)?;
        g.read_melds(melds)?;
        g.read_turn(&f)?;
        g.face_up = g.count_face_up();
        Ok(g)
    }

    /// Scores, hands played, the dealer, and the partnership of the hand.
    fn read_counters(&mut self, f: &Fields<'_>) -> Result<(), NotationError> {
        let rules = &self.rs.rules;
        let n = self.players();
        let teams = rules.game.teams as usize;
        let scores: Vec<i32> = f
            .required("scores")
            .split_whitespace()
            .map(|t| number("scores", t, "a score"))
            .collect::<Result<_, _>>()?;
        if scores.len() != teams {
            return Err(NotationError::ScoreCount {
                have: scores.len(),
                need: teams,
            });
        }
        self.scores[..teams].copy_from_slice(&scores);
        self.hands_played = number(
            "hands-played",
            f.required("hands-played"),
            "a count of hands",
        )?;
        self.dealer = Seat::new(seat("dealer", f.required("dealer"), n)?);
        for s in rules.game.seats() {
            self.side_of[s] = rules.game.starting_side(s);
        }
        if let Some(text) = f.get("lone-hand") {
            if !rules.game.temporary_partnership {
                return Err(NotationError::NoPartnership);
            }
            let lone = seat("lone-hand", text, n)?;
            let lone = Seat::new(lone);
            self.lone_hand = Some(lone);
            // As `form_partnership_against`: the later of the two others
            // joins the earlier's side.
            let mut others = rules.game.seats().filter(|&s| s != lone);
            let (a, b) = (others.next(), others.next());
            if let (Some(a), Some(b)) = (a, b) {
                self.side_of[b] = self.side_of[a];
            }
        }
        Ok(())
    }

    /// Every card counted against the rules' deck before any is placed, so
    /// that no count can pass what a state holds.
    fn check_deck(
        &self,
        seat_cards: &[SeatCards],
        red_threes: &[Vec<Card>],
        melds: &[MeldLine],
        stock: &[Card],
        pile: &[Card],
    ) -> Result<(), NotationError> {
        let mut have = [0usize; FACES];
        let all = seat_cards
            .iter()
            .flat_map(|s| s.hand.iter().chain(&s.foot))
            .chain(red_threes.iter().flatten())
            .chain(melds.iter().flat_map(|m| &m.cards))
            .chain(stock)
            .chain(pile);
        for c in all {
            have[c.index()] += 1;
        }
        let deck = self.rs.deck;
        for (i, (&have, &need)) in have.iter().zip(deck.as_array()).enumerate() {
            if have != usize::from(need) {
                return Err(NotationError::Cards {
                    card: Card::from_index(i),
                    have,
                    need,
                });
            }
        }
        Ok(())
    }

    /// Hands, what others know of them, feet, red threes, the stock and
    /// the pile.
    fn place_cards(
        &mut self,
        f: &Fields<'_>,
        seat_cards: Vec<SeatCards>,
        red_threes: Vec<Vec<Card>>,
        stock: Vec<Card>,
        pile: Vec<Card>,
    ) -> Result<(), NotationError> {
        if f.seats("foot").next().is_some() && !self.rs.rules.deal.has_feet() {
            return Err(NotationError::NoFeet);
        }
        for (s, sc) in seat_cards.into_iter().enumerate() {
            self.hands[s] = CardCounts::from_cards(sc.hand);
            let known = CardCounts::from_cards(sc.known);
            if let Some(card) = known
                .faces()
                .find(|&(c, k)| self.hands[s].count(c) < k)
                .map(|(c, _)| c)
            {
                return Err(NotationError::KnownNotHeld { seat: s, card });
            }
            self.known[s] = PackedCounts::from(&known);
            self.feet[s] = PackedCounts::from(&CardCounts::from_cards(sc.foot));
        }
        let hearts = Card::new(Rank::Three, Suit::Hearts);
        let diamonds = Card::new(Rank::Three, Suit::Diamonds);
        for (s, reds) in red_threes.iter().enumerate() {
            for &c in reds {
                match c {
                    c if c == hearts => self.red_threes[s][0] += 1,
                    c if c == diamonds => self.red_threes[s][1] += 1,
                    c => return Err(NotationError::NotRedThree(c)),
                }
            }
        }
        for &c in stock.iter().rev() {
            self.stacks.push_stock(c);
        }
        for &c in &pile {
            self.stacks.push_pile(c);
        }
        if let Some(text) = f.get("packet") {
            let packet: usize = number("packet", text, "a count of cards")?;
            if packet > 0 && self.rs.rules.pile.pile_packet == PilePacket::None {
                return Err(NotationError::NoPacket);
            }
            if packet > pile.len() {
                return Err(NotationError::PacketTooLarge {
                    packet,
                    pile: pile.len(),
                });
            }
            self.pile_hidden = packet as u16;
        }
        self.pile_frozen = f.frozen;
        Ok(())
    }

    /// Which seats have melded, have a first turn to come, and which ranks
    /// each has discarded.
    fn read_seat_marks(&mut self, f: &Fields<'_>) -> Result<(), NotationError> {
        let n = self.players();
        for (field, marks) in [
            ("melded", &mut self.seat_melded),
            ("first-turn", &mut self.first_turn_pending),
        ] {
            for t in f.get(field).unwrap_or("").split_whitespace() {
                marks[seat(field, t, n)?] = true;
            }
        }
        for (s, text) in f.seats("discarded") {
            let s = check_seat("discarded", s, n)?;
            for t in text.split_whitespace() {
                let mut letters = t.chars();
                let rank = match (letters.next(), letters.next()) {
                    (Some(l), None) => Rank::from_letter(l),
                    _ => None,
                }
                .ok_or_else(|| NotationError::BadValue {
                    field: "discarded",
                    text: t.into(),
                    expected: "a rank (A 2-9 T J Q K)",
                })?;
                self.discarded_ranks[s] |= 1 << rank.index();
            }
        }
        Ok(())
    }

    /// Each meld on its side, in order, checked as the rules allow it.
    fn read_melds(&mut self, melds: Vec<MeldLine>) -> Result<(), NotationError> {
        for line in melds {
            let Some(side_id) = self
                .seats()
                .map(|s| self.side_of[s])
                .find(|s| s.index() == line.side)
            else {
                return Err(NotationError::NoSuchSide(line.side));
            };
            let side = line.side;
            let index = self.melds[side_id].len();
            let cards_text = || {
                let mut t = String::new();
                super::write::card_list(&mut t, line.cards.iter().copied());
                t
            };
            let group = Group::from_cards(&line.cards).map_err(|e| NotationError::NotAMeld {
                side,
                index,
                cards: cards_text(),
                problem: shape_words(e),
            })?;
            if index == MAX_MELDS {
                return Err(NotationError::TooManyMelds(side));
            }
            self.check_meld(side_id, index, &group, line.closed)
                .map_err(|reason| match reason {
                    MeldCheck::Rules(reason) => NotationError::BadMeld {
                        side,
                        index,
                        cards: cards_text(),
                        reason,
                    },
                    MeldCheck::Other(e) => e,
                })?;
            self.melds.push(
                side_id,
                Meld {
                    cards: group,
                    closed: line.closed,
                },
            );
        }
        Ok(())
    }

    /// Whether a meld of `group` may lie at `index` of `side`'s melds
    /// (those before it already there): its contents as the rules allow
    /// a meld to be, closed only where a canasta is closed by choice, and
    /// placed where laying it would have put it.
    fn check_meld(
        &self,
        side_id: Side,
        index: usize,
        group: &Group,
        closed: bool,
    ) -> Result<(), MeldCheck> {
        let rules = &self.rs.rules;
        let side = side_id.index();
        match crate::lay::meld_problem(rules, None, group, crate::meld::MeldId::new(index)) {
            None => {}
            // Classic 3's partners pool their melds, which may leave one
            // over the wild-card limit (see `meld_problem`).
            Some(IllegalReason::TooManyWilds { .. }) if self.lone_hand.is_some() => {}
            Some(reason) => return Err(MeldCheck::Rules(reason)),
        }
        let other = |e| Err(MeldCheck::Other(e));
        if closed && !rules.melds.closes_by_choice() {
            return other(NotationError::BadClosed {
                side,
                index,
                why: "these rules close no canasta by choice",
            });
        }
        if closed && !rules.melds.has_canasta_length(group.len()) {
            return other(NotationError::BadClosed {
                side,
                index,
                why: "it is too short for a canasta",
            });
        }
        let before = &self.melds[side_id];
        if group.is_wild_only() {
            if rules.melds.one_wild_meld() && before.iter().any(|m| m.cards.is_wild_only()) {
                return other(NotationError::SecondWildMeld { side, index });
            }
        } else if !group.is_sequence()
            && rules.melds.one_meld_a_rank()
            && let Some(first) = before.iter().position(|m| {
                !m.cards.is_sequence() && m.cards.rank() == group.rank() && !m.is_full(rules)
            })
        {
            return other(NotationError::SecondMeldOfRank { side, index, first });
        }
        Ok(())
    }

    /// Whose turn, its phase, and what the turn has done so far.
    fn read_turn(&mut self, f: &Fields<'_>) -> Result<(), NotationError> {
        let n = self.players();
        let text = f.required("turn");
        let (who, phase) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let current = Seat::new(seat("turn", who, n)?);
        let phase = phase.trim();
        let (phase, word) = PHASE_WORDS
            .iter()
            .find(|(_, w)| *w == phase)
            .copied()
            .ok_or_else(|| NotationError::BadValue {
                field: "turn",
                text: phase.into(),
                expected: "a phase (draw, play or answer)",
            })?;
        if !matches!(phase, Phase::Draw | Phase::Play | Phase::Answer) {
            return Err(NotationError::NotInHand(word));
        }
        let mut turn = TurnFlags::default();
        for w in f.get("turn-flags").unwrap_or("").split_whitespace() {
            let (_, _, set) = TURN_FLAG_WORDS
                .iter()
                .find(|(name, _, _)| *name == w)
                .ok_or_else(|| NotationError::BadValue {
                    field: "turn-flags",
                    text: w.into(),
                    expected: "a turn flag (docs/position-notation.md lists them)",
                })?;
            set(&mut turn);
        }
        let side = self.side_of[current];
        let at_start: usize = number(
            "melds-at-start",
            f.required("melds-at-start"),
            "a count of melds",
        )?;
        let now = self.melds[side].len();
        if at_start > now {
            return Err(NotationError::MeldsAtStart {
                side,
                have: at_start,
                now,
            });
        }
        turn.melds_at_start = at_start as u8;
        if let Some(text) = f.get("answer") {
            turn.answer = Some(match text {
                "yes" => true,
                "no" => false,
                _ => {
                    return Err(NotationError::BadValue {
                        field: "answer",
                        text: text.into(),
                        expected: "yes or no",
                    });
                }
            });
            if !turn.asked {
                return Err(NotationError::AnswerWithoutQuestion);
            }
        }
        self.current = current;
        self.to_act = current;
        if phase == Phase::Answer {
            if !turn.asked {
                return Err(NotationError::AnswerUnasked);
            }
            if turn.answer.is_some() {
                return Err(NotationError::AnsweredTooSoon);
            }
            let partner = self
                .partner_of(current)
                .ok_or(NotationError::NoPartner(current))?;
            self.to_act = partner;
        }
        self.phase = phase;
        self.turn = turn;
        Ok(())
    }
}

/// Why a meld line is refused: by the rules' own reason, or the
/// notation's.
enum MeldCheck {
    Rules(IllegalReason),
    Other(NotationError),
}

/// One seat's hidden cards as written.
struct SeatCards {
    hand: Vec<Card>,
    known: Vec<Card>,
    foot: Vec<Card>,
}

type ReadCards = (
    Vec<SeatCards>,
    Vec<Vec<Card>>,
    Vec<MeldLine>,
    Vec<Card>,
    Vec<Card>,
);

/// Every card line read (not yet placed): by seat, the hand, what is known
/// of it and the foot; each seat's red threes; the melds; the stock; the pile.
fn read_cards(f: &Fields<'_>, n: usize) -> Result<ReadCards, NotationError> {
    let mut seats: Vec<Option<SeatCards>> = (0..n).map(|_| None).collect();
    for (s, text) in f.seats("hand") {
        let s = check_seat("hand", s, n)?;
        seats[s] = Some(SeatCards {
            hand: cards("hand", text)?,
            known: Vec::new(),
            foot: Vec::new(),
        });
    }
    let mut seats: Vec<SeatCards> = seats
        .into_iter()
        .enumerate()
        .map(|(s, c)| c.ok_or(NotationError::MissingHand(s)))
        .collect::<Result<_, _>>()?;
    for (s, text) in f.seats("known") {
        seats[check_seat("known", s, n)?].known = cards("known", text)?;
    }
    for (s, text) in f.seats("foot") {
        seats[check_seat("foot", s, n)?].foot = cards("foot", text)?;
    }
    let mut red_threes = vec![Vec::new(); n];
    for (s, text) in f.seats("red-threes") {
        red_threes[check_seat("red-threes", s, n)?] = cards("red-threes", text)?;
    }
    let melds = f
        .melds
        .iter()
        .map(|v| meld_line(v))
        .collect::<Result<Vec<_>, _>>()?;
    for m in &melds {
        if m.side >= MAX_SEATS {
            return Err(NotationError::NoSuchSide(m.side));
        }
    }
    let stock = cards("stock", f.required("stock"))?;
    let pile = cards("pile", f.required("pile"))?;
    Ok((seats, red_threes, melds, stock, pile))
}

/// The `rules` line (`variant players`) and the `options` line's JSON
/// object, as a record header names rules.
fn read_rules(text: &str, options: Option<&str>) -> Result<Rules, NotationError> {
    let (variant, players) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let players: u8 = number("rules", players.trim(), "a preset id and a player count")?;
    let options = match options {
        None => serde_json::Map::new(),
        Some(text) => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => {
                return Err(NotationError::BadValue {
                    field: "options",
                    text: text.into(),
                    expected: "a JSON object of options, as a record header's",
                });
            }
        },
    };
    Rules::from_header(variant, Some(players), &options).map_err(NotationError::Rules)
}
