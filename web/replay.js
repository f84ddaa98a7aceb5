// The replay of a finished game: every step of its record, every hand shown.

import { h, fill, typing } from './dom.js';
import * as api from './api.js';
import { renderBoard, annotateMelds, teamsOf, seatName } from './board.js';
import { helpOverlay, REPLAY_KEYS } from './help.js';
import { entryText } from './movelog.js';
import { variantTitle } from './table.js';

/** Mounts the replay of table `id` at `step`; returns the function that unmounts it. */
export function mountReplay(root, id, startStep = 0) {
  const st = { step: startStep, steps: null, data: null, prevView: null, table: null, canastaSize: 7, error: null, loading: false, closed: false, help: false, want: null, fetching: null };
  // The views of the steps seen, for what a step's own view no longer shows
  // (the pile a pickup took).
  const views = new Map();
  const el = {
    top: h('header.table-top'),
    info: h('div.replay-info', { testid: 'replay-info' }),
    controls: h('div.replay-controls', { testid: 'replay-controls' }),
    board: h('div.board', { testid: 'board' }),
    overlay: h('div.overlay-root'),
  };
  fill(root, h('div.table-page.replay', el.top, el.controls, el.info, h('main.table-main', el.board), el.overlay));

  async function load(step) {
    st.want = step;
    if (st.loading) return;
    st.loading = true;
    while (st.want !== null) {
      const s = st.want;
      st.want = null;
      st.fetching = s;
      try {
        const d = await api.getReplay(id, s);
        if (st.closed) return;
        if (d.view) views.set(d.step, d.view);
        // A pickup's words need the pile before it: the step before's view.
        if (d.event && /^pickup\b/.test(d.event.action || '') && d.step > 0 && !views.has(d.step - 1)) {
          const before = await api.getReplay(id, d.step - 1).catch(() => null);
          if (st.closed) return;
          if (before && before.view) views.set(before.step, before.view);
        }
        st.prevView = views.get(d.step - 1) || null;
        st.data = d;
        st.step = d.step;
        st.steps = d.steps;
        st.error = null;
        history.replaceState(null, '', `#/replay/${id}/${d.step}`);
      } catch (e) {
        st.error = e.code === 'game_not_over' ? 'The game is not over yet: its replay opens when it ends.' : e.message;
      }
    }
    st.loading = false;
    st.fetching = null;
    render();
  }

  // Keys pressed faster than the steps load move the target on at once.
  const target = () => st.want ?? st.fetching ?? st.step;
  const go = (step) => {
    if (st.steps === null) return;
    load(Math.max(0, Math.min(st.steps - 1, step)));
  };
  const goBy = (delta) => go(target() + delta);

  function render() {
    const d = st.data;
    const seats = (st.table && st.table.seats) || [];
    fill(
      el.top,
      h('a.home', { href: '#/' }, '\u2190 Lobby'),
      h('div.table-title', h('b', 'Replay'), st.table ? ` \u00b7 ${variantTitle(st.table.variant)} \u00b7 ${st.table.players} players` : ''),
      d && d.view
        ? h(
            'div.scores',
            { testid: 'scores' },
            teamsOf(null, d.view).map((t, i) => h('span.score', h('span.score-name', t.seats.map((s) => seatName(seats, s)).join(' & ') || `Team ${i}`), h('b', String(t.score)))),
          )
        : null,
      h('div.top-buttons', h('a.button', { href: api.recordUrl(id), download: `canasta-${id}.jsonl` }, 'Record'), h('button.icon', { on: { click: () => { st.help = true; renderOverlay(); } } }, '?')),
    );
    if (st.error) {
      fill(el.info, h('p.status.error', { testid: 'status' }, st.error));
    }
    if (!d) {
      fill(el.controls);
      if (!st.error) fill(el.info, h('p.quiet', 'Loading\u2026'));
      return;
    }
    const last = st.steps - 1;
    const slider = h('input.replay-slider', {
      type: 'range',
      min: '0',
      max: String(last),
      value: String(st.step),
      testid: 'replay-slider',
      'aria-label': 'step',
      on: { change: (e) => go(Number(e.target.value)) },
    });
    fill(
      el.controls,
      h('button', { testid: 'replay-first', title: 'the first step (Home)', on: { click: () => go(0) }, disabled: st.step === 0 }, 'First'),
      h('button', { testid: 'replay-back10', title: '10 steps back (PgUp)', on: { click: () => goBy(-10) }, disabled: st.step === 0 }, '\u221210'),
      h('button.primary', { testid: 'replay-prev', title: 'one step back (\u2190)', on: { click: () => goBy(-1) }, disabled: st.step === 0 }, '\u25c0 Back'),
      h('span.replay-step', { testid: 'replay-step' }, `${st.step} / ${last}`),
      h('button.primary', { testid: 'replay-next', title: 'one step forward (\u2192)', on: { click: () => goBy(1) }, disabled: st.step >= last }, 'Next \u25b6'),
      h('button', { testid: 'replay-fwd10', title: '10 steps forward (PgDn)', on: { click: () => goBy(10) }, disabled: st.step >= last }, '+10'),
      h('button', { testid: 'replay-last', title: 'the last step (End)', on: { click: () => go(last) }, disabled: st.step >= last }, 'Last'),
      slider,
    );
    const line = replayLine(d, st.prevView, seats);
    if (!st.error) fill(el.info, h('div.replay-line', { testid: 'replay-line' }, h('span.quiet', `hand ${d.hand} \u00b7 `), line));
    const view = d.view;
    if (view) {
      renderBoard(el.board, {
        view,
        notes: { melds: annotateMelds(view, st.canastaSize), stop: undefined, pile_frozen_for_me: view.pile_frozen },
        // Who is connected now says nothing about the game replayed.
        seats: seats.map((x) => ({ ...x, connected: true })),
        mySeat: null,
        hands: d.hands,
        feet: d.feet,
      });
    }
  }

  function renderOverlay() {
    el.overlay.replaceChildren();
    if (st.help) el.overlay.append(helpOverlay(REPLAY_KEYS, [], () => { st.help = false; renderOverlay(); }));
  }

  function onKey(e) {
    if (typing() || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (st.help) {
      if (k === 'Escape' || k === '?' || k === 'Enter') {
        st.help = false;
        renderOverlay();
      }
      return;
    }
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (k in moves) goBy(moves[k]);
    else if (k === 'Home') go(0);
    else if (k === 'End' && st.steps !== null) go(st.steps - 1);
    else if (k === '?') {
      st.help = true;
      renderOverlay();
    } else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  Promise.all([api.getTable(id).catch(() => null), api.variants().catch(() => null)]).then(([t, v]) => {
    st.table = t;
    if (t && v) {
      const p = (v.variants || []).find((x) => x.id === t.variant);
      const size = (t.options && t.options.canasta_size) || (p && p.options && p.options.canasta_size);
      if (size) st.canastaSize = size;
    }
    render();
  });
  render();
  load(startStep);

  return () => {
    st.closed = true;
    document.removeEventListener('keydown', onKey);
  };
}

/**
 * A replay step's line in a player's words, as the table's move log says it
 * (movelog.js): "Bot 2 took the pile (5 cards) onto their meld of nines".
 * `d` is the replay's step (`event`, `view` after it, `hand`, `line`),
 * `before` the view of the step before (for a pickup: its pile), `seats` the
 * table's seats.
 */
export function replayLine(d, before, seats) {
  const ev = d.event || {};
  const view = d.view || before;
  const teams = view ? teamsOf(null, view) : [];
  const sideOf = view ? view.side_of : undefined;
  if (ev.seat !== undefined && ev.action) {
    const entry = { kind: 'move', hand: d.hand, seat: ev.seat, action: ev.action };
    const [verb, n] = ev.action.split(' ');
    const side = sideOf ? sideOf[ev.seat] : undefined;
    if ((verb === 'add' || verb === 'canasta') && d.view && side !== undefined) {
      const melds = annotateMelds(d.view)[side] || [];
      if (melds[Number(n)]) entry.meld = melds[Number(n)].label;
    }
    if (verb === 'pickup' && before) {
      const pile = before.pile || [];
      const took = pile.length + (before.pile_hidden || 0);
      if (took) entry.took = took;
      const top = pile.length ? pile[pile.length - 1] : null;
      if (ev.action === 'pickup' && top && top !== 'JK') entry.meld = top[0];
    }
    return entryText(entry, seats, null, sideOf, teams);
  }
  if (ev.deal) return d.hand === 1 ? `Hand ${d.hand} dealt: the game starts` : `Hand ${d.hand} dealt`;
  if (ev.hand_end) return entryText({ kind: 'hand-end', end: { type: 'hand_end', hand: d.hand, result: ev.hand_end } }, seats, null, sideOf, teams);
  if (ev.game_end) return entryText({ kind: 'game-end', end: { type: 'game_end', ...ev.game_end } }, seats, null, sideOf, teams);
  return d.line || '';
}
