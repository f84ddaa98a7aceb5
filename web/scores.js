// @ts-check
// The scores: a hand's itemised score, the score sheet of every hand so far,
// the game's summary at its end, and the move log's lines for both.

import { h } from './dom.js';
import * as api from './api.js';
import { cardElement } from './cards.js';
import { seatName } from './board.js';

const SCORE_KEYS = ['melded', 'canastas', 'red_threes', 'going_out', 'in_hand', 'other'];
const SCORE_WORDS = {
  melded: 'Cards melded',
  canastas: 'Canasta bonuses',
  red_threes: 'Red threes',
  going_out: 'Going out',
  in_hand: 'Cards left in hand',
  other: 'Other',
  foot: 'Foot',
  concealed: 'Going out concealed',
  total: 'Hand total',
};

const fmt = (n) => (n === undefined || n === null ? '' : String(n));
const teamSize = (teams, t) => (teams[t] && teams[t].seats ? teams[t].seats.length : 1);

/** `Ann & Bot 3`: a team by its seats' names. */
export function teamLabel(seats, teams, t, mySeat) {
  const team = teams[t];
  if (!team || !team.seats) return `Side ${t + 1}`;
  return team.seats.map((s) => (s === mySeat ? 'You' : seatName(seats, s))).join(' & ');
}

/** Why a hand ended, in words: `Ann went out`, `the stock ran out`, ... */
export function endWords(seats, r, mySeat) {
  if (r.reason === 'out') return r.seat === mySeat && mySeat !== undefined && mySeat !== null ? 'you went out' : `${seatName(seats, r.seat)} went out`;
  if (r.reason === 'stock') return 'the stock ran out';
  if (r.reason === 'blocked') return 'play was blocked (the player to act could not discard)';
  return r.reason || 'over';
}

/** `Bot 2 and Bot 4`: the seats a bot stood in for. */
const standInWords = (seats, list) => (list || []).map((s) => seatName(seats, s)).join(' and ');

/**
 * The move log's line for a hand's end: each side named with its points
 * this hand and its total ("You & Bot 3 785 (785 in all)"), not a bare
 * "785 – 1035" that leaves the reader to guess which side is which.
 */
export function handEndSummary(seats, msg, mySeat, teams = []) {
  const r = msg.result || {};
  const who = endWords(seats, r, mySeat);
  const sides = (r.totals || []).map((total, t) => {
    const hand = r.teams && r.teams[t] ? r.teams[t].total : undefined;
    return `${teamLabel(seats, teams, t, mySeat)} ${hand === undefined ? total : `${hand} (${total} in all)`}`;
  });
  const stood = msg.stand_ins && msg.stand_ins.length ? `; the bot stood in for ${standInWords(seats, msg.stand_ins)}` : '';
  return `Hand ${msg.hand || ''} over: ${who}${sides.length ? `. ${sides.join(', ')}` : ''}${stood}`;
}

/** The move log's line for the game's end, from this seat's side ("Your side wins"). */
export function gameEndSummary(seats, teams, msg, mySeat) {
  const w = winnerOf(msg);
  const mine = w !== null && w !== undefined && mySeat !== null && mySeat !== undefined && teams[w] && (teams[w].seats || []).includes(mySeat);
  const who = w === null ? 'a tie' : w === undefined ? 'game over' : mine ? (teamSize(teams, w) > 1 ? 'your side wins' : 'you win') : `${teamLabel(seats, teams, w, mySeat)} win${teamSize(teams, w) === 1 ? 's' : ''}`;
  return `Game over: ${who}. ${(msg.totals || []).map((t, i) => `${teamLabel(seats, teams, i, mySeat)} ${t}`).join(', ')}`;
}

function winnerOf(ge) {
  if (ge.winner !== undefined) return ge.winner;
  const totals = ge.totals || [];
  if (!totals.length) return undefined;
  const best = Math.max(...totals);
  const at = totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
  return at.length === 1 ? at[0] : null;
}

/** One hand's itemised score, a column per side. */
function handTable(model, he) {
  const { seats, teams, mySeat } = model;
  const r = he.result;
  const keys = [...SCORE_KEYS];
  for (const t of r.teams) for (const k of Object.keys(t)) if (!keys.includes(k) && k !== 'total') keys.push(k);
  const shown = keys.filter((k) => r.teams.some((t) => t[k] !== undefined && t[k] !== 0));
  const mine = (t) => mySeat !== null && teams[t] && (teams[t].seats || []).includes(mySeat);
  return h(
    'table.score-table',
    { testid: 'hand-score' },
    h('thead', h('tr', h('th', ''), r.teams.map((_, t) => h('th', { class: mine(t) ? 'mine' : '' }, teamLabel(seats, teams, t, mySeat))))),
    h(
      'tbody',
      shown.map((k) => h('tr', h('th', SCORE_WORDS[k] || k.replace(/_/g, ' ')), r.teams.map((t) => h('td', fmt(t[k]))))),
      h('tr.total', h('th', 'Hand total'), r.teams.map((t) => h('td', fmt(t.total)))),
      r.totals ? h('tr.cumulative', h('th', 'Game total'), r.totals.map((t) => h('td', { testid: 'game-total' }, String(t)))) : null,
    ),
  );
}

/** The score sheet: every hand so far, each side's hand total and running total. */
export function scoreSheet(model) {
  const { seats, teams, hands, mySeat } = model;
  if (!hands.length) return h('p.quiet', 'No hand has been scored yet.');
  const n = Math.max(...hands.map((x) => (x.result.teams || []).length));
  return h(
    'table.score-table.sheet',
    { testid: 'score-sheet' },
    h(
      'thead',
      h('tr', h('th', 'Hand'), [...Array(n).keys()].map((t) => h('th', { colspan: 2 }, teamLabel(seats, teams, t, mySeat))), h('th', 'Ended')),
      h('tr.sub', h('th', ''), [...Array(n).keys()].map(() => [h('th', 'hand'), h('th', 'total')]), h('th', '')),
    ),
    h(
      'tbody',
      hands.map((he) =>
        h(
          'tr',
          { testid: 'sheet-row' },
          h('th', String(he.hand)),
          [...Array(n).keys()].map((t) => [
            h('td', { title: itemsTitle(he.result.teams[t]) }, fmt(he.result.teams[t] && he.result.teams[t].total)),
            h('td.running', fmt(he.result.totals && he.result.totals[t])),
          ]),
          h('td.ended', endWords(seats, he.result, mySeat), he.stand_ins && he.stand_ins.length ? h('span.stand-in-note', { testid: 'sheet-stand-in' }, ` \u00b7 bot stood in for ${standInWords(seats, he.stand_ins)}`) : null),
        ),
      ),
    ),
  );
}

function itemsTitle(t) {
  if (!t) return '';
  return Object.entries(t)
    .filter(([k, v]) => k !== 'total' && v)
    .map(([k, v]) => `${SCORE_WORDS[k] || k}: ${v}`)
    .join(', ');
}

/**
 * The box of a hand's scores, the score sheet, and the game's summary once it
 * is over. `model`: `{id, seats, teams, mySeat, handEnd, hands, gameEnd,
 * status, ready, nextSent, rematch}`; `on`: `{next, close, rematch}`.
 */
export function scoresDialog(model, on) {
  const { id, seats, teams, mySeat, handEnd: he, gameEnd: ge, status, ready, nextSent } = model;
  const body = [];
  /** @type {any[]} the game's result, shown above the last hand's scores */
  const result = [];
  if (he && he.result && he.result.teams) {
    body.push(h('p.reason', `${endWords(seats, he.result, mySeat).replace(/^./, (c) => c.toUpperCase())}.`), handTable(model, he));
    if (he.hands && he.hands.some((x) => x && x.length)) {
      body.push(
        h(
          'div.left-hands',
          h('h3', 'Cards left in hand'),
          he.hands.map((cards, s) =>
            cards && cards.length
              ? h('div.left-hand', h('span', s === mySeat ? 'You' : seatName(seats, s)), h('span.cards-inline', cards.map((c) => cardElement(c, { small: true }))))
              : null,
          ),
        ),
      );
    }
  } else if (status === 'hand_over') {
    body.push(h('p', 'The hand is over.'));
  }
  if (ge) {
    const w = winnerOf(ge);
    const youWin = w !== null && w !== undefined && mySeat !== null && teams[w] && (teams[w].seats || []).includes(mySeat);
    const winner = w === null ? 'A tie.' : w === undefined ? 'Game over.' : youWin ? (teamSize(teams, w) > 1 ? `Your side wins: ${teamLabel(seats, teams, w, mySeat)}.` : 'You win!') : `${teamLabel(seats, teams, w, mySeat)} win${teamSize(teams, w) === 1 ? 's' : ''}.`;
    const stood = ge.stand_ins || [...new Set(model.hands.flatMap((x) => x.stand_ins || []))];
    const canastas = (ge.totals || []).map((_, t) => model.hands.reduce((sum, x) => sum + ((x.result.teams[t] && x.result.teams[t].canastas) || 0), 0));
    const outs = model.hands.map((x) => `hand ${x.hand}: ${endWords(seats, x.result, mySeat)}`);
    result.push(
      h(
        'div.game-end',
        { testid: 'game-end' },
        h('p.winner', { testid: 'winner' }, winner),
        ge.totals ? h('p', `Final totals: ${ge.totals.map((t, i) => `${teamLabel(seats, teams, i, mySeat)} ${t}`).join(', ')}.`) : null,
        canastas.some((x) => x) ? h('p', { testid: 'canasta-points' }, `Canasta bonuses over the game: ${canastas.map((c, i) => `${teamLabel(seats, teams, i, mySeat)} ${c}`).join(', ')}.`) : null,
        outs.length ? h('p.quiet', `How each hand ended: ${outs.join('; ')}.`) : null,
        stood.length ? h('p.stand-in-note', { testid: 'game-stand-ins' }, `The bot stood in for ${standInWords(seats, stood)} at least once.`) : null,
      ),
    );
  }
  if (ge && he && he.result && he.result.teams) body.unshift(h('h3', `Hand ${he.hand}`));
  body.unshift(...result);
  if (model.hands.length > 1 || ge) body.push(h('h3', 'Score sheet'), scoreSheet(model));
  const buttons = [];
  if (!ge && status === 'hand_over' && mySeat !== null) {
    const waiting = nextSent || !!(ready && ready[mySeat]);
    buttons.push(h('button.primary', { testid: 'next-hand', disabled: waiting, on: { click: on.next } }, waiting ? 'Waiting for the other players\u2026' : 'Deal the next hand'));
  }
  if (ge) {
    if (model.rematch) buttons.push(h('button.primary', { testid: 'rematch-join', on: { click: on.rematch } }, 'Join the rematch'));
    else if (mySeat !== null) buttons.push(h('button.primary', { testid: 'rematch', on: { click: on.rematch } }, 'Rematch'));
    buttons.push(h('a.button', { href: `#/replay/${id}`, testid: 'replay-link' }, 'Watch the replay'));
    buttons.push(h('a.button', { href: api.recordUrl(id), download: `canasta-${id}.jsonl`, testid: 'record-link' }, 'Download the record'));
    buttons.push(h('a.button', { href: '#/' }, 'Lobby'));
  }
  buttons.push(h('button', { testid: 'close-dialog', on: { click: on.close } }, 'Close'));
  const waitingFor = seats.filter((x) => x.kind === 'human' && x.claimed && !(ready || [])[x.seat]).map((x) => (x.seat === mySeat ? 'you' : seatName(seats, x.seat)));
  return h(
    'div.overlay',
    { role: 'dialog', 'aria-modal': 'true' },
    h(
      'div.dialog.hand-end',
      { testid: 'hand-end-dialog' },
      h('h2', ge ? 'Game over' : he ? `Hand ${he.hand}: the scores` : 'Hand over'),
      body,
      !ge && status === 'hand_over' && waitingFor.length ? h('p.ready', `The next hand is dealt when ${waitingFor.join(' and ')} ${waitingFor.length === 1 && waitingFor[0] !== 'you' ? 'is' : 'are'} ready.`) : null,
      h('div.dialog-buttons', buttons),
    ),
  );
}

/** The score sheet alone, as a box (from the table's menu). */
export function sheetDialog(model, onClose) {
  return h(
    'div.overlay',
    { role: 'dialog', 'aria-modal': 'true' },
    h('div.dialog.hand-end', { testid: 'sheet-dialog' }, h('h2', 'Score sheet'), scoreSheet(model), h('div.dialog-buttons', h('button', { testid: 'close-dialog', on: { click: onClose } }, 'Close'))),
  );
}
