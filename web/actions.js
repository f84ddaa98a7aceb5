// Building actions in the record notation from the cards a player selected.
// Pure functions (no DOM): tests/unit.mjs runs them under Node.

import { isWild, rankOf, RANK_ORDER } from './cards.js';

/** An error the player should read (a selection that makes no action). */
export class SelectionError extends Error {}

function isSequence(naturals) {
  // Naturals of one suit, distinct ranks: a run (Samba) with gaps the wild
  // cards may fill. The engine judges it; this only decides the grouping.
  if (naturals.length < 2) return false;
  const suit = naturals[0][1];
  if (!naturals.every((c) => c[1] === suit)) return false;
  const ranks = naturals.map((c) => RANK_ORDER.indexOf(c[0]));
  return new Set(ranks).size === ranks.length && !ranks.includes(RANK_ORDER.indexOf('2'));
}

/** Whether `cards` make one group: one rank (with wild cards), wild cards alone, or a run of one suit. */
export function isOneGroup(cards) {
  if (cards.length === 0) return false;
  const naturals = cards.filter((c) => !isWild(c));
  if (naturals.length === 0) return true;
  if (naturals.every((c) => rankOf(c) === rankOf(naturals[0]))) return true;
  return isSequence(naturals);
}

/**
 * The groups a selection makes: the marked groups, then the selection as one
 * group when it is one, else split by rank (wild cards then must be marked
 * in groups of their own, as the terminal asks).
 */
export function groupsFromSelection(marked, selection) {
  const out = [];
  for (const g of marked) {
    if (!isOneGroup(g)) {
      throw new SelectionError(`${g.join(' ')} is not one group: mark groups one at a time with g`);
    }
    out.push([...g]);
  }
  if (selection.length === 0) return out;
  if (isOneGroup(selection)) {
    out.push([...selection]);
    return out;
  }
  if (selection.some(isWild)) {
    throw new SelectionError(
      'with wild cards and several ranks selected, mark each group first (select it, then g or "Group")',
    );
  }
  const byRank = new Map();
  for (const c of selection) {
    const r = rankOf(c);
    if (!byRank.has(r)) byRank.set(r, []);
    byRank.get(r).push(c);
  }
  for (const g of byRank.values()) out.push(g);
  return out;
}

const groupsText = (groups) => groups.map((g) => g.join(' ')).join(' / ');

/** `meld G [/ G ...]` from the marked groups and the selection. */
export function meldAction(marked, selection) {
  const groups = groupsFromSelection(marked, selection);
  if (groups.length === 0) throw new SelectionError('select the cards to meld first');
  return `meld ${groupsText(groups)}`;
}

/**
 * `pickup` (nothing selected: onto the side's meld of the top card's rank)
 * or `pickup C C [/ G ...]`: the first group goes with the top card.
 */
export function pickupAction(marked, selection, topCard = null) {
  const groups = groupsFromSelection(marked, selection);
  if (groups.length === 0) return 'pickup';
  // The group that goes with the top card is written first.
  const top = topCard ? rankOf(String(topCard).toUpperCase()) : null;
  const first = groups.findIndex((g) => g.some((c) => !isWild(c) && rankOf(c) === top));
  if (first > 0) groups.unshift(...groups.splice(first, 1));
  return `pickup ${groupsText(groups)}`;
}

/** `add M C [C ...]`. */
export function addAction(meldIndex, selection) {
  if (selection.length === 0) throw new SelectionError('select the cards to add first');
  if (!isOneGroup(selection)) {
    throw new SelectionError(
      'cards added together must be of one rank (and wild cards), or of one suit in sequence where the variant has sequences',
    );
  }
  return `add ${meldIndex} ${selection.join(' ')}`;
}

/** `discard C`: the one selected card, else the card under the cursor. */
export function discardAction(selection, cursorCard) {
  if (selection.length === 1) return `discard ${selection[0]}`;
  if (selection.length === 0 && cursorCard) return `discard ${cursorCard}`;
  if (selection.length === 0) throw new SelectionError('select the card to discard');
  throw new SelectionError('a discard is one card: select one');
}

/**
 * The side's melds a selection could go on: those labelled with the rank of
 * its naturals (a meld label is its rank letter, `wild`, or a run's name),
 * and the runs of their suit (Samba). Wild cards alone match no meld by rank
 * (the player picks the meld); several matches make the player choose.
 */
export function matchingMelds(ownMelds, selection) {
  const naturals = selection.filter((c) => !isWild(c));
  if (!naturals.length) return [];
  const rank = rankOf(naturals[0]);
  const suit = naturals[0][1];
  const oneRank = naturals.every((c) => rankOf(c) === rank);
  const oneSuit = naturals.every((c) => c[1] === suit);
  const out = [];
  ownMelds.forEach((m, i) => {
    if (!m) return;
    if (oneRank && m.label === rank) out.push(i);
    else if (oneSuit && isRun(m) && runSuit(m) === suit) out.push(i);
  });
  return out;
}

const isRun = (m) => m.label !== 'wild' && m.label.length > 1 && Array.isArray(m.cards);
function runSuit(m) {
  const natural = m.cards.find((c) => !isWild(c));
  return natural ? natural[1] : null;
}

/** The cards an action names (for highlighting a hint), in order. */
export function actionCards(action) {
  return String(action)
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((t) => /^([2-9TJQKA][CDHS]|JK)$/i.test(t))
    .map((t) => t.toUpperCase());
}

/** Whether `action` uses every card of `selection` (counted with copies). */
export function actionUses(action, selection) {
  const have = new Map();
  for (const c of actionCards(action)) have.set(c, (have.get(c) || 0) + 1);
  for (const c of selection) {
    const n = have.get(c) || 0;
    if (n === 0) return false;
    have.set(c, n - 1);
  }
  return true;
}

/** An action's verb: `draw`, `pickup`, `meld`, `add`, `discard`, ... */
export const verbOf = (action) => String(action).trim().split(/\s+/)[0];
