// Cards: parsing the two-character notation, ordering a hand, and drawing
// cards as DOM elements (faces from web/card-face.js, drawn as SVG).

import { cardSvg, backSvg } from './card-face.js';

export const RANK_ORDER = ['3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2'];
export const SUIT_ORDER = ['C', 'D', 'H', 'S'];
const SUIT_SYMBOL = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };
const SUIT_NAME = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const RANK_NAME = {
  A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: 'ten', 9: 'nine', 8: 'eight', 7: 'seven',
  6: 'six', 5: 'five', 4: 'four', 3: 'three', 2: 'two',
};

/** `{code, rank, suit, wild, red, joker}` for a card such as `KS`, `TD`, `JK`. */
export function parseCard(text) {
  const code = String(text).trim().toUpperCase();
  if (code === 'JK') return { code, rank: null, suit: null, wild: true, red: false, joker: true };
  const rank = code[0];
  const suit = code[1];
  return {
    code,
    rank,
    suit,
    wild: rank === '2',
    red: suit === 'H' || suit === 'D',
    joker: false,
  };
}

export const isWild = (code) => code === 'JK' || code[0] === '2';
export const isBlackThree = (code) => code === '3C' || code === '3S';
export const isRedThree = (code) => code === '3H' || code === '3D';
export const rankOf = (code) => (code === 'JK' ? null : code[0]);

/** How a card is read aloud: `king of spades`, `joker`. */
export function cardName(code) {
  const c = parseCard(code);
  if (c.joker) return 'joker';
  return `${RANK_NAME[c.rank] || c.rank} of ${SUIT_NAME[c.suit] || c.suit}`;
}

/** A card's rank as printed on it (`10` for `T`). */
export const rankLabel = (rank) => (rank === 'T' ? '10' : rank);

function rankIndex(code) {
  if (code === 'JK') return 100;
  const i = RANK_ORDER.indexOf(code[0]);
  return i < 0 ? 50 : i;
}

/** Sort key: naturals by rank (3 .. A), then twos, then jokers; suits C D H S. */
export function compareCards(a, b) {
  const r = rankIndex(a) - rankIndex(b);
  if (r) return r;
  return SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]);
}

/**
 * The hand as the terminal shows it: natural cards grouped by rank
 * (3 .. A), and the wild cards (twos and jokers) apart at the end.
 * Returns `{groups: [[code...]...], wilds: [code...]}`.
 */
export function groupHand(cards) {
  const sorted = [...cards].map((c) => String(c).toUpperCase()).sort(compareCards);
  const groups = [];
  const wilds = [];
  for (const c of sorted) {
    if (isWild(c)) {
      wilds.push(c);
      continue;
    }
    const last = groups[groups.length - 1];
    if (last && last[0][0] === c[0]) last.push(c);
    else groups.push([c]);
  }
  return { groups, wilds };
}

/** The hand in display order (the order of `groupHand`, flattened). */
export function handOrder(cards) {
  const { groups, wilds } = groupHand(cards);
  return [...groups.flat(), ...wilds];
}

/**
 * A card's face as markup: the one place a face is drawn (web/card-face.js's
 * SVG; the element around it carries the card's name for screen readers).
 * `small` cards (melds, the pile, fanned rows) get the large corner index,
 * which reads when only a card's left edge shows.
 * @param {string} code
 * @param {{small?: boolean}} [opts]
 */
export function cardFace(code, opts = {}) {
  return cardSvg(code, { label: false, index: opts.small ? 'large' : 'normal' });
}

/**
 * A card element: class `card`, `data-card` its code. Options: `small`
 * (melds, pile, other hands), `fresh` (just drawn or taken), `testid`
 * (default `card`).
 */
export function cardElement(code, opts = {}) {
  const c = parseCard(code);
  const el = document.createElement('div');
  el.className = 'card';
  if (opts.small) el.classList.add('small');
  if (c.joker) el.classList.add('joker');
  else el.classList.add(c.red ? 'red' : 'black');
  if (c.wild) el.classList.add('wild');
  if (!c.joker && c.rank === '3') el.classList.add(c.red ? 'red-three' : 'black-three');
  el.dataset.card = c.code;
  if (opts.fresh) el.dataset.fresh = '';
  el.setAttribute('data-testid', opts.testid || 'card');
  el.title = cardName(c.code);
  el.setAttribute('aria-label', cardName(c.code));
  el.innerHTML = cardFace(c.code, { small: opts.small });
  return el;
}

/** A face-down card (the stock, a foot, the pile's hidden packet). */
export function cardBack(opts = {}) {
  const el = document.createElement('div');
  el.className = 'card back';
  el.dataset.card = '';
  if (opts.small) el.classList.add('small');
  if (opts.testid) el.setAttribute('data-testid', opts.testid);
  el.innerHTML = backSvg({ label: false });
  return el;
}

/** Cards written in text with suit symbols: `K\u2660 K\u2665 JK`. */
export function cardsText(codes) {
  return codes
    .map((code) => {
      const c = parseCard(code);
      return c.joker ? 'JK' : `${rankLabel(c.rank)}${SUIT_SYMBOL[c.suit] || c.suit}`;
    })
    .join(' ');
}

/** Splits a meld's text (`"7S 7H 7D"`) or list into card codes. */
export function meldCards(meld) {
  if (Array.isArray(meld)) return meld.map((c) => String(c).toUpperCase());
  if (meld && typeof meld === 'object' && Array.isArray(meld.cards)) return meldCards(meld.cards);
  return String(meld || '')
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => c.toUpperCase());
}

/** Sort key by suit: clubs, diamonds, hearts, spades, each 3 .. A; wild cards last. */
export function compareBySuit(a, b) {
  const wa = isWild(a) ? 1 : 0;
  const wb = isWild(b) ? 1 : 0;
  if (wa !== wb) return wa - wb;
  if (!wa) {
    const s = SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]);
    if (s) return s;
  }
  return compareCards(a, b);
}

/**
 * The hand in the order the player sees it: `by` is `rank` (grouped by rank,
 * wild cards apart), `suit` (Samba's sequences), or `own` (the order the
 * player dragged the cards into: `previous` kept for the cards still held,
 * the new ones after them by rank).
 */
export function arrangeHand(cards, by, previous = []) {
  const codes = cards.map((c) => String(c).toUpperCase());
  if (by === 'suit') return [...codes].sort(compareBySuit);
  if (by !== 'own') return handOrder(codes);
  const left = [...codes];
  const kept = [];
  for (const c of previous) {
    const i = left.indexOf(c);
    if (i >= 0) {
      kept.push(c);
      left.splice(i, 1);
    }
  }
  return [...kept, ...handOrder(left)];
}

/** The cards of `after` not in `before`, counted with copies (two decks). */
export function cardsAdded(before, after) {
  const left = [...before];
  const out = [];
  for (const c of after) {
    const i = left.indexOf(c);
    if (i >= 0) left.splice(i, 1);
    else out.push(c);
  }
  return out;
}
