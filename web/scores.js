// The scores: the itemised score of a hand's end, the game's result, and
// the one-line summaries the move log keeps of both.

import { h } from './dom.js';
import * as api from './api.js';
import { cardElement } from './cards.js';
import { seatName, teamsOf } from './board.js';

const SCORE_KEYS = ['melded', 'canastas', 'red_threes', 'going_out', 'in_hand', 'other'];
const SCORE_WORDS = {
  melded: 'Cards melded',
  canastas: 'Canasta bonuses',
  red_threes: 'Red threes',
  going_out: 'Going out',
  in_hand: 'Cards left in hand',
  other: 'Other',
  foot: 'Foot',
  total: 'Hand total',
};

const fmt = (n) => (n === undefined || n === null ? '' : String(n));
const teamSize = (teams, t) => (teams[t] && teams[t].seats ? teams[t].seats.length : 1);

/** `Ann & Bot 2`: a team by its seats' names (`seats` as the table lists them). */
export function teamLabel(seats, teams, t) {
  const team = teams[t];
  if (!team || !team.seats) return `Team ${t}`;
  return team.seats.map((s) => seatName(seats, s)).join(' & ');
}

function winnerFromTotals(seats, totals, teams) {
  if (!totals || !totals.length) return '';
  const best = Math.max(...totals);
  const winners = totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
  if (winners.length > 1) return 'A tie.';
  return `${teamLabel(seats, teams, winners[0])} win${teamSize(teams, winners[0]) === 1 ? 's' : ''}.`;
}

function teamName(seats, teams, t) {
  const team = teams[t];
  const members = team && team.seats ? team.seats.map((s) => seatName(seats, s)).join(' & ') : '';
  return `Team ${t}${members ? ` (${members})` : ''}`;
}

/** Why a hand ended, in words: `Ann went out`, `the stock ran out`, ... */
export function endWords(seats, r) {
  if (r.reason === 'out') return `${seatName(seats, r.seat)} went out`;
  if (r.reason === 'stock') return 'the stock ran out';
  // Pennies: the player to act holds only sevens, which may not be discarded.
  if (r.reason === 'blocked') return 'play was blocked (the player to act could not discard)';
  return r.reason || 'over';
}

/** The move log's line for a hand's end. */
export function handEndSummary(seats, msg) {
  const r = msg.result || {};
  const who = endWords(seats, r);
  const totals = (r.totals || []).join(' \u2013 ');
  return `Hand ${msg.hand || ''} over: ${who}${r.teams ? `; this hand ${r.teams.map((t) => t.total).join(' \u2013 ')}` : ''}; totals ${totals}`;
}

/** The move log's line for the game's end. */
export function gameEndSummary(seats, teams, msg) {
  const w = msg.winner === null ? 'a tie' : msg.winner === undefined ? 'game over' : `${teamName(seats, teams, msg.winner)} wins`;
  return `Game over: ${w}; totals ${(msg.totals || []).join(' \u2013 ')}`;
}

/**
 * The box of a hand's scores (and the game's result once it is over).
 * `ctx`: the table's state and the functions it shares (see table.js).
 */
export function handEndDialog(ctx) {
  const { st, id, seats, notes, view, status, send, renderOverlay } = ctx;
  const teamHas = (t) => {
    const team = teamsOf(notes(), view())[t];
    return st.seat !== null && team && (team.seats || []).includes(st.seat);
  };
  const teamLabelOf = (teams, t) => teamLabel(seats(), teams, t);
  const he = st.handEnd;
  const r = (he && he.result) || null;
  const teams = teamsOf(notes(), view());
  const body = [];
  if (r && r.teams) {
    const keys = [...SCORE_KEYS];
    for (const t of r.teams) for (const k of Object.keys(t)) if (!keys.includes(k) && k !== 'total') keys.push(k);
    const shown = keys.filter((k) => r.teams.some((t) => t[k] !== undefined && t[k] !== 0));
    body.push(
      h('p.reason', `${endWords(seats(), r).replace(/^./, (c) => c.toUpperCase())}.`),
      h(
        'table.score-table',
        { testid: 'hand-score' },
        h('thead', h('tr', h('th', ''), r.teams.map((_, t) => h('th', { class: teamHas(t) ? 'mine' : '' }, teamLabelOf(teams, t))))),
        h(
          'tbody',
          shown.map((k) =>
            h('tr', h('th', SCORE_WORDS[k] || k), r.teams.map((t) => h('td', fmt(t[k])))),
          ),
          h('tr.total', h('th', 'Hand total'), r.teams.map((t) => h('td', fmt(t.total)))),
          r.totals ? h('tr.cumulative', h('th', 'Game total'), r.totals.map((t) => h('td', { testid: 'game-total' }, String(t)))) : null,
        ),
      ),
    );
    if (he.hands && he.hands.some((x) => x && x.length)) {
      body.push(
        h(
          'div.left-hands',
          h('h3', 'Cards left in hand'),
          he.hands.map((cards, s) =>
            cards && cards.length
              ? h('div.left-hand', h('span', seatName(seats(), s)), h('span.cards-inline', cards.map((c) => cardElement(c, { small: true }))))
              : null,
          ),
        ),
      );
    }
  } else if (status() === 'hand_over') {
    body.push(h('p', 'The hand is over.'));
  }
  const ge = st.gameEnd;
  if (ge) {
    const winner =
      ge.winner === null ? 'A tie.' : ge.winner === undefined ? winnerFromTotals(seats(), ge.totals, teams) : `${teamLabelOf(teams, ge.winner)} ${teamHas(ge.winner) ? '(you) ' : ''}win${teamSize(teams, ge.winner) === 1 ? 's' : ''}.`;
    body.push(
      h(
        'div.game-end',
        { testid: 'game-end' },
        h('h3', 'Game over'),
        h('p.winner', { testid: 'winner' }, winner),
        ge.totals ? h('p', `Final totals: ${ge.totals.map((t, i) => `${teamLabelOf(teams, i)} ${t}`).join(', ')}`) : null,
        h(
          'p',
          h('a.button.primary', { href: `#/replay/${id}`, testid: 'replay-link' }, 'Watch the replay'),
          ' ',
          h('a.button', { href: api.recordUrl(id), download: `canasta-${id}.jsonl`, testid: 'record-link' }, 'Download the record'),
          ' ',
          h('a.button', { href: '#/' }, 'Lobby'),
        ),
      ),
    );
  }
  const ready = (st.state && st.state.ready) || [];
  const readyList = seats()
    .filter((x) => x.kind === 'human' && x.claimed)
    .map((x) => `${seatName(seats(), x.seat)} ${ready[x.seat] ? '\u2713' : '\u2026'}`);
  const buttons = [];
  if (!ge && status() === 'hand_over' && st.seat !== null) {
    buttons.push(
      h(
        'button.primary',
        {
          testid: 'next-hand',
          disabled: st.nextSent || !!ready[st.seat],
          on: {
            click: () => {
              if (send({ type: 'next' })) {
                st.nextSent = true;
                renderOverlay();
              }
            },
          },
        },
        st.nextSent || ready[st.seat] ? 'Waiting for the others\u2026' : 'Next hand',
      ),
    );
  }
  buttons.push(h('button', { testid: 'close-dialog', on: { click: () => { st.handEndOpen = false; renderOverlay(); } } }, 'Close'));
  return h(
    'div.overlay',
    { role: 'dialog', 'aria-modal': 'true' },
    h(
      'div.dialog.hand-end',
      { testid: 'hand-end-dialog' },
      h('h2', he ? `Hand ${he.hand} scores` : ge ? 'Game over' : 'Hand over'),
      body,
      !ge && status() === 'hand_over' && readyList.length ? h('p.ready', `Ready: ${readyList.join(', ')}`) : null,
      h('div.dialog-buttons', buttons),
    ),
  );
}
