// The replay of a finished game: every step of its record, every hand shown.

import { h, fill, typing } from './dom.js';
import * as api from './api.js';
import { renderBoard, annotateMelds, teamsOf, seatName } from './board.js';
import { helpOverlay, REPLAY_KEYS } from './help.js';
import { endWords } from './scores.js';

/** Mounts the replay of table `id` at `step`; returns the function that unmounts it. */
export function mountReplay(root, id, startStep = 0) {
  const st = { step: startStep, steps: null, data: null, table: null, canastaSize: 7, error: null, loading: false, closed: false, help: false, want: null, fetching: null };
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
      h('div.table-title', h('b', 'Replay'), st.table ? ` \u00b7 ${st.table.variant} \u00b7 ${st.table.players} players` : '', ` \u00b7 ${id}`),
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
    const ev = d.event || {};
    let line = d.line || '';
    if (ev.seat !== undefined && ev.action) line = `${seatName(seats, ev.seat)} (seat ${ev.seat}): ${ev.action}`;
    else if (ev.deal) line = `Hand ${d.hand} dealt`;
    else if (ev.hand_end) {
      const r = ev.hand_end;
      line = `Hand over: ${endWords(seats, r)}; this hand ${(r.teams || []).map((t) => t.total).join(' \u2013 ')}; totals ${(r.totals || []).join(' \u2013 ')}`;
    } else if (ev.game_end) {
      const g = ev.game_end;
      const team = g.winner === null || g.winner === undefined || !d.view ? null : teamsOf(null, d.view)[g.winner];
      const names = team ? team.seats.map((s) => seatName(seats, s)).join(' & ') : `team ${g.winner}`;
      line = `Game over: ${g.winner === null ? 'a tie' : `${names} win${team && team.seats.length > 1 ? '' : 's'}`}; totals ${(g.totals || []).join(' \u2013 ')}`;
    }
    if (!st.error) fill(el.info, h('div.replay-line', { testid: 'replay-line' }, h('span.quiet', `hand ${d.hand} \u00b7 `), line));
    const view = d.view;
    if (view) {
      renderBoard(el.board, {
        view,
        notes: { melds: annotateMelds(view, st.canastaSize), stop: undefined, pile_frozen_for_me: view.pile_frozen },
        seats,
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
