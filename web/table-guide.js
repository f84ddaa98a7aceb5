// @ts-check
// The guided first hand: on a player's first table, a strip above the felt
// says at each step of the first hand what to do now and why, in a player's
// words, and points at the part of the table concerned. Everything here is
// pure (the table's state in, a step out), so tests/unit.mjs checks it under
// Node; table.js draws the step and keeps the guide's memory in localStorage.

import { pileWords, teamsOf, seatName } from './board.js';
import { cardWord } from './table-words.js';

/** @typedef {import('./table-store.js').TableState} TableState */

/**
 * The rules the guide speaks of, from `/api/variants`: the preset's options,
 * the player count's form over them, then the table's own options.
 * @typedef {{canasta_size: number, canastas_to_go_out: number, card_values?: Record<string, number>}} GuideRules
 */

/**
 * @param {{variants?: {id: string, options?: Record<string, any>, forms?: {players: number, differs?: Record<string, any>}[]}[]} | null} catalogue
 * @param {{variant: string, players: number, options?: Record<string, unknown>} | null} table
 * @returns {GuideRules}
 */
/** `words` ending as a sentence does (the pile's label has no full stop). */
export function sentence(words) {
  const trimmed = (words || '').trim();
  return trimmed && !/[.!?:]$/.test(trimmed) ? `${trimmed}.` : trimmed;
}

export function guideRules(catalogue, table) {
  const v = catalogue && catalogue.variants && table ? catalogue.variants.find((x) => x.id === table.variant) : null;
  const form = v && v.forms ? v.forms.find((f) => f.players === (table && table.players)) : null;
  const all = { ...((v && v.options) || {}), ...((form && form.differs) || {}), ...((table && table.options) || {}) };
  return {
    canasta_size: Number(all.canasta_size) || 7,
    canastas_to_go_out: all.canastas_to_go_out === undefined ? 1 : Number(all.canastas_to_go_out),
    card_values: all.card_values && typeof all.card_values === 'object' ? all.card_values : undefined,
  };
}

/**
 * One step of the guide.
 * @typedef {object} GuideStep
 * @property {string} id which step (tests and the page's memory use it)
 * @property {string} title what to do now
 * @property {string} why why, and what the rules ask
 * @property {string | null} zone the `data-zone` pointed at (`stock`, `pile`, `hand`, `melds-T`, `seat-N`)
 * @property {boolean} hint whether the hint button is offered
 */

/** `Joker 50, 2 and A 20, K to 8 10, 7 to 4 5`: the cards' points, when the rules list them. */
function valuesWords(values) {
  if (!values) return '';
  const v = (k) => values[k];
  const parts = [];
  if (v('joker') !== undefined) parts.push(`a joker ${v('joker')}`);
  if (v('two') !== undefined && v('ace') !== undefined && v('two') === v('ace')) parts.push(`a 2 or an ace ${v('two')}`);
  else {
    if (v('two') !== undefined) parts.push(`a 2 ${v('two')}`);
    if (v('ace') !== undefined) parts.push(`an ace ${v('ace')}`);
  }
  if (v('king') !== undefined && v('eight') !== undefined && v('king') === v('eight')) parts.push(`K down to 8 ${v('king')} each`);
  if (v('seven') !== undefined && v('four') !== undefined && v('seven') === v('four')) parts.push(`7 down to 4 ${v('seven')} each`);
  return parts.length ? ` Cards count ${parts.join(', ')}.` : '';
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What the guide says now, or null when it has nothing to say (no game, a
 * spectator, or the first hand is over and its end was explained).
 * @param {TableState} s
 * @param {GuideRules} rules
 * @returns {GuideStep | null}
 */
export function guideStep(s, rules) {
  const game = s.game;
  const v = game && game.view;
  if (!game || !v || s.seat === null || !v.hand) return null;
  const me = s.seat;
  const notes = game.annotations;
  const side = v.side_of[me];
  const teams = teamsOf(notes, v);
  const team = teams[side] || null;
  const seats = (s.seatsInfo && s.seatsInfo.seats) || (s.table && s.table.seats) || [];
  const partners = team ? (team.seats || []).filter((x) => x !== me) : [];
  const partnerWords = partners.length ? ` Your side is you and ${partners.map((p) => seatName(seats, p)).join(' and ')}: your melds are shared.` : '';
  const melds = (notes && notes.melds && notes.melds[side]) || v.melds[side] || [];
  const canastas = notes && notes.melds ? (notes.melds[side] || []).filter((m) => m.canasta).length : 0;
  const need = team && typeof team.opening_needed === 'number' ? team.opening_needed : v.opening_needed ? v.opening_needed[side] : 0;
  const opened = !need && melds.length > 0;
  const legal = game.legal || [];
  const verbs = new Set(legal.map((a) => a.split(' ')[0]));

  if (game.status === 'hand_over' || game.status === 'finished') {
    return {
      id: 'hand-end',
      title: 'The hand is over: here are the scores.',
      why: 'Each side scores the cards it melded and its canasta bonuses (and red threes, and going out), less the cards still in its players\u2019 hands. The game goes on, hand after hand, until a side reaches the target. That was the guided hand: from now on the table is yours.',
      zone: null,
      hint: false,
    };
  }
  if (game.status !== 'playing') return null;

  const mine = v.to_act === me && legal.length > 0;
  if (!mine) {
    const who = seatName(seats, v.to_act);
    return {
      id: 'watch',
      title: `${who} is playing: watch where the cards go.`,
      why: `Each turn is a draw, then melds if the player likes, then one discard to the pile.${partnerWords} When your turn comes, this strip says what to do.`,
      zone: `seat-${v.to_act}`,
      hint: false,
    };
  }

  if (v.phase === 'answer') {
    return {
      id: 'answer',
      title: 'Your partner asks whether they may go out.',
      why: 'Say yes if your side has what it needs and you hold cards that would cost you points; yes binds them to go out this turn.',
      zone: null,
      hint: true,
    };
  }

  if (v.phase === 'draw') {
    const pile = v.pile || [];
    const top = pile.length ? pile[pile.length - 1] : null;
    const size = pile.length + (v.pile_hidden || 0);
    // The pile's words are a label on the board; here they open a paragraph.
    const words = sentence(pileWords(v, notes));
    const takeable = verbs.has('pickup');
    let why;
    if (!top) why = 'The pile is empty, so the stock it is.';
    else if (notes ? notes.stop : /^3[CS]$/.test(top)) why = `${words || 'A black 3 on top stops the pile.'} Draw from the stock; the pile can be taken again once a card is discarded on it.`;
    else if (takeable) {
      why = `You may take the pile (${plural(size, 'card')}): select the cards from your hand that meld with its top card, ${cardWord(top)}, and click the pile.${need ? ` As your side has not opened, they must make melds worth at least ${need} points together.` : ''} A big pile is worth taking; otherwise draw.`;
    } else {
      why = `${words ? `${words} ` : ''}To take the pile you need cards in your hand that meld with its top card, ${cardWord(top)}${need ? `, and melds worth at least ${need} points to open your side` : ''}. You cannot take it now: draw from the stock.`;
    }
    return {
      id: takeable ? 'draw-or-pile' : 'draw',
      title: takeable ? 'Your turn: draw from the stock, or take the pile.' : 'Your turn starts with a draw: click the stock.',
      why,
      zone: takeable ? 'pile' : 'stock',
      hint: true,
    };
  }

  if (v.phase === 'play') {
    const canMeld = verbs.has('meld');
    const canAdd = verbs.has('add');
    const canDiscard = verbs.has('discard');
    const wilds = 'Wild cards (2s and jokers) may stand in, but a meld needs more natural cards than wild ones.';
    if (canMeld && !opened) {
      return {
        id: 'open',
        title: 'You can lay down your first meld.',
        why: `A meld is three or more cards of one rank. ${wilds} Your side opens with melds worth at least ${need} points in all, laid down in one turn.${valuesWords(rules.card_values)} Select the cards (click them), then press Meld or drag them onto your side\u2019s area.`,
        zone: `melds-${side}`,
        hint: true,
      };
    }
    if (canMeld || canAdd) {
      const closeTo = (notes && notes.melds ? notes.melds[side] || [] : []).find((m) => !m.canasta && m.cards.length >= rules.canasta_size - 2);
      const canastaWords = `A meld of ${rules.canasta_size} cards is a canasta, which earns a bonus (more for one with no wild card).`;
      const outWords = rules.canastas_to_go_out > 0 ? ` To go out (meld your last cards) your side needs ${plural(rules.canastas_to_go_out, 'canasta')}${canastas ? `; it has ${canastas}` : ''}.` : '';
      return {
        id: 'meld-or-add',
        title: canAdd ? 'You can add to your side\u2019s melds, or lay down new ones.' : 'You can lay down a new meld.',
        why: `${canAdd ? 'Select a card and drag it onto the meld it fits, or press Add. ' : ''}${closeTo ? `Your meld of ${closeTo.cards.length} is close to a canasta. ` : ''}${canastaWords}${outWords} When you are done, discard.`,
        zone: `melds-${side}`,
        hint: true,
      };
    }
    if (canDiscard) {
      return {
        id: 'discard',
        title: 'End your turn with a discard: double-click a card, or drag it to the pile.',
        why: 'The next player may take the pile with your discard, so give away a card they cannot use (one they have not melded). A black 3 stops the next player taking the pile; a wild card freezes it.',
        zone: 'hand',
        hint: true,
      };
    }
  }
  return null;
}

/** The guide's memory: which table is the player's first, and whether they closed the guide. */
export const GUIDE_KEY = 'canasta.guide';

/**
 * Whether the guide shows at table `id`, given what was remembered (`memory`,
 * parsed from localStorage, or null on a player's first table) and the hand
 * shown; returns the memory to keep.
 * @param {{table: string, hand: number | null, closed?: boolean} | null} memory
 * @param {string} id
 * @param {number | null} hand the hand shown (null before the deal)
 * @returns {{show: boolean, memory: {table: string, hand: number | null, closed?: boolean}}}
 */
export function guideFor(memory, id, hand) {
  if (!memory) return { show: true, memory: { table: id, hand } };
  if (memory.closed || memory.table !== id) return { show: false, memory };
  if (memory.hand === null && hand !== null) return { show: true, memory: { ...memory, hand } };
  // The first hand and its scores; the next deal ends the guide.
  return { show: memory.hand === null || hand === null || hand === memory.hand, memory };
}
