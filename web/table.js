// A table: the WebSocket to the server, the player's hand and selection, the
// actions built from it, the score dialogs and the move log.

import { h, fill, typing, copyText, plural } from './dom.js';
import * as api from './api.js';
import { cardElement, handOrder, isWild } from './cards.js';
import {
  meldAction,
  pickupAction,
  addAction,
  discardAction,
  matchingMelds,
  actionCards,
  actionUses,
  verbOf,
  SelectionError,
} from './actions.js';
import { renderBoard, seatName, teamsOf, phaseWords } from './board.js';
import { helpOverlay, TABLE_KEYS, MOUSE_HELP } from './help.js';

const LEGAL_SHOWN = 300;
const LOG_KEPT = 600;
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

/** Mounts the table `id` into `root`; returns the function that unmounts it. */
export function mountTable(root, id) {
  const st = {
    id,
    seat: null,
    table: null,
    state: null,
    log: [],
    skipLast: false,
    hand: [],
    selected: new Set(),
    marked: [],
    cursor: 0,
    mode: 'play',
    typedMeld: '',
    status: { text: 'Connecting\u2026', kind: 'connmsg' },
    hint: null,
    handEnd: null,
    handEndOpen: false,
    nextSent: false,
    gameEnd: null,
    helpOpen: false,
    legalFilter: '',
    legalWithSelection: true,
    ws: null,
    conn: 'connecting',
    retry: 0,
    retryTimer: null,
    pingTimer: null,
    closed: false,
    joinName: api.loadName(),
  };

  // ---- skeleton ----
  const el = {};
  el.top = h('header.table-top');
  el.notice = h('div.notice-area');
  el.board = h('div.board', { testid: 'board' });
  el.turn = h('div.turn', { testid: 'turn' });
  el.hand = h('div.hand', { testid: 'hand', role: 'listbox', 'aria-multiselectable': 'true', 'aria-label': 'your hand' });
  el.actions = h('div.actions', { testid: 'actions' });
  el.status = h('div.status', { testid: 'status', role: 'status', 'aria-live': 'polite' });
  el.typeInput = h('input.type-action', {
    testid: 'action-input',
    placeholder: 'type an action: meld 7H 7D 2C',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: false,
    'aria-label': 'an action in the record notation',
  });
  el.typeForm = h(
    'form.type-form',
    { on: { submit: (e) => { e.preventDefault(); typedAction(); } } },
    el.typeInput,
    h('button', { type: 'submit', testid: 'action-send' }, 'Play'),
  );
  el.legalFilter = h('input.legal-filter', {
    testid: 'legal-filter',
    placeholder: 'filter',
    autocomplete: 'off',
    'aria-label': 'filter the legal moves',
    on: { input: () => { st.legalFilter = el.legalFilter.value; renderLegal(); } },
  });
  el.legalWithSel = h('input', {
    type: 'checkbox',
    checked: true,
    testid: 'legal-with-selection',
    on: { change: () => { st.legalWithSelection = el.legalWithSel.checked; renderLegal(); } },
  });
  el.legalCount = h('span.legal-count');
  el.legal = h('div.legal-list', { testid: 'legal-list', role: 'list' });
  el.log = h('ol.log', { testid: 'log' });
  el.overlay = h('div.overlay-root');
  const side = h(
    'aside.table-side',
    h(
      'details.panel.legal-panel',
      { open: window.innerWidth > 900 },
      h('summary', 'Legal moves ', el.legalCount),
      h('div.legal-tools', el.legalFilter, h('label.small', el.legalWithSel, ' with the selected cards')),
      el.legal,
    ),
    h('details.panel.log-panel', { open: true }, h('summary', 'Moves'), el.log),
  );
  fill(
    root,
    h(
      'div.table-page',
      el.top,
      el.notice,
      h(
        'div.table-grid',
        h(
          'main.table-main',
          el.board,
          h('section.hand-area', el.turn, el.hand),
          h('div.controls', el.status, el.actions, el.typeForm),
        ),
        side,
      ),
      el.overlay,
    ),
  );

  // ---- the connection ----
  function connect() {
    if (st.closed) return;
    clearTimeout(st.retryTimer);
    st.conn = 'connecting';
    renderTop();
    let ws;
    try {
      ws = new WebSocket(api.wsUrl(id));
    } catch (e) {
      say(`cannot open the connection: ${e.message}`, 'connmsg');
      scheduleReconnect();
      return;
    }
    st.ws = ws;
    ws.onopen = () => {
      const kept = api.loadSeat(id);
      ws.send(JSON.stringify(kept ? { type: 'hello', token: kept.token } : { type: 'hello' }));
      clearInterval(st.pingTimer);
      st.pingTimer = setInterval(() => send({ type: 'ping' }, true), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(msg);
    };
    ws.onclose = () => {
      if (st.ws !== ws) return;
      st.ws = null;
      clearInterval(st.pingTimer);
      if (st.closed || st.tableClosed) return;
      // A finished game's table closes: then there is nothing to reconnect to.
      api
        .getTable(id)
        .then((t) => {
          if (t.status === 'finished') closeTable(t);
          else scheduleReconnect();
        })
        .catch((e) => {
          if (e.status === 404) closeTable(null);
          else scheduleReconnect();
        });
    };
    ws.onerror = () => {};
  }

  /** The table's game is over and the table closed: no more connections. */
  function closeTable(t) {
    st.tableClosed = true;
    st.conn = 'closed';
    clearTimeout(st.retryTimer);
    if (t) {
      st.table = t;
      st.seatsInfo = { seats: t.seats, at: Date.now() };
    }
    if (st.ws) {
      const ws = st.ws;
      st.ws = null;
      ws.close();
    }
    if (['pending', 'connmsg'].includes(st.status.kind)) say('', 'info');
    renderAll();
  }

  function scheduleReconnect() {
    if (st.closed) return;
    const delay = Math.min(10000, 500 * 2 ** Math.min(st.retry, 5));
    st.retry += 1;
    st.conn = 'reconnecting';
    st.wasDown = true;
    st.reconnectAt = Date.now() + delay;
    renderTop();
    st.retryTimer = setTimeout(connect, delay);
  }

  /** Drops the socket and opens another at once (after claiming a seat). */
  function reconnectNow() {
    const old = st.ws;
    st.ws = null;
    if (old) old.close();
    st.retry = 0;
    connect();
  }

  function send(msg, quiet) {
    if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
      if (!quiet) say('not connected to the server: reconnecting\u2026', 'connmsg');
      return false;
    }
    st.ws.send(JSON.stringify(msg));
    return true;
  }

  function act(action) {
    if (!st.state) return;
    action = String(action).trim().replace(/\s+/g, ' ');
    if (!action) return;
    st.mode = 'play';
    if (send({ type: 'act', state_id: st.state.state_id, action })) {
      st.pending = action;
      say(`${action}\u2026`, 'pending');
    }
  }

  // ---- messages ----
  function onMessage(msg) {
    switch (msg.type) {
      case 'welcome':
        st.retry = 0;
        st.conn = 'open';
        st.seat = msg.seat === undefined ? null : msg.seat;
        st.table = msg.table || st.table;
        if (msg.table && msg.table.seats) st.seatsInfo = { seats: msg.table.seats, at: Date.now() };
        st.log = [];
        st.loggedHandEnd = null;
        st.loggedGameEnd = null;
        {
          let hand = null;
          for (const entry of msg.log || []) {
            // The log holds no deals: a new hand number starts a hand.
            if (entry && entry.action !== undefined && entry.hand !== undefined && entry.hand !== hand) {
              st.log.push({ kind: 'deal', text: `Hand ${entry.hand}` });
            }
            if (entry && entry.hand !== undefined) hand = entry.hand;
            if (entry && entry.hand_end) st.loggedHandEnd = { type: 'hand_end', hand: entry.hand, result: entry.hand_end };
            if (entry && entry.game_end) st.loggedGameEnd = { type: 'game_end', ...entry.game_end };
            st.log.push(logEntry(entry));
          }
        }
        st.skipLast = true;
        if (st.seat === null && api.loadSeat(id)) {
          api.forgetSeat(id);
        }
        if (['pending', 'connmsg'].includes(st.status.kind)) say('', 'info');
        else if (st.wasDown) say('Reconnected.', 'info');
        st.wasDown = false;
        renderAll();
        break;
      case 'state':
        onState(msg);
        break;
      case 'hand_end':
        st.handEnd = msg;
        st.handEndOpen = true;
        st.nextSent = false;
        st.log.push({ kind: 'hand-end', text: handEndSummary(msg) });
        renderLog();
        renderOverlay();
        break;
      case 'game_end':
        st.gameEnd = msg;
        st.handEndOpen = true;
        st.log.push({ kind: 'game-end', text: gameEndSummary(msg) });
        renderLog();
        renderOverlay();
        break;
      case 'hint':
        if (st.state && msg.state_id === st.state.state_id) {
          st.hint = msg.action;
          say(`Hint: ${msg.action}`, 'hint');
          renderHand();
        }
        break;
      case 'error':
        onError(msg);
        break;
      case 'shutdown':
        say(`${msg.message || 'the server is stopping'} \u2014 reconnecting when it is back`, 'connmsg');
        break;
      case 'pong':
        break;
      default:
        break;
    }
  }

  function onError(msg) {
    st.pending = null;
    if (msg.code === 'bad_token') {
      api.forgetSeat(id);
      say(`${msg.message} \u2014 watching instead`, 'error');
      reconnectNow();
      return;
    }
    if (msg.code === 'unavailable') {
      api
        .getTable(id)
        .then((t) => closeTable(t))
        .catch(() => closeTable(null));
      return;
    }
    if (msg.code === 'rate_limited') {
      say(msg.message || 'too many messages: slow down', 'error');
      return;
    }
    say(msg.message || msg.code || 'refused', 'error', msg.code);
  }

  function onState(msg) {
    const prev = st.state;
    st.state = msg;
    if (msg.seats) st.seatsInfo = { seats: msg.seats, at: Date.now() };
    if (st.table && msg.status) st.table.status = msg.status;
    // The move log.
    if (msg.last && !st.skipLast) {
      st.log.push(logEntry({ ...msg.last, hand: msg.hand }));
    } else if (!msg.last && msg.view && prev && prev.view && prev.hand !== msg.hand) {
      st.log.push({ kind: 'deal', text: `Hand ${msg.hand} dealt` });
    } else if (!msg.last && msg.view && prev && !prev.view) {
      st.log.push({ kind: 'deal', text: `Hand ${msg.hand} dealt \u2014 the game starts` });
    }
    st.skipLast = false;
    if (st.log.length > LOG_KEPT) st.log.splice(0, st.log.length - LOG_KEPT);
    // A new hand closes the last one's scores.
    if (msg.status === 'playing' && prev && prev.status === 'hand_over') {
      st.handEnd = null;
      st.nextSent = false;
      if (!st.gameEnd) st.handEndOpen = false;
    }
    // After a reload, the scores come from the log.
    if ((msg.status === 'hand_over' || msg.status === 'finished') && !st.handEnd && st.loggedHandEnd) {
      st.handEnd = st.loggedHandEnd;
    }
    if (msg.status === 'hand_over' && !st.handEndOpen && (!prev || prev.status !== 'hand_over')) {
      st.handEndOpen = true;
    }
    if (msg.status === 'finished' && !st.gameEnd) {
      st.gameEnd = st.loggedGameEnd || { type: 'game_end', totals: teamsOf(msg.annotations, msg.view).map((t) => t.score), winner: undefined };
      st.handEndOpen = true;
    }
    // The hand: keep the selection while the cards are the same.
    const cards = handOrder((msg.view && msg.view.hand) || []);
    if (cards.join(' ') !== st.hand.join(' ')) {
      st.hand = cards;
      st.selected.clear();
      st.marked = [];
      st.cursor = Math.min(st.cursor, Math.max(0, cards.length - 1));
    }
    st.hint = null;
    if (st.pending) {
      st.pending = null;
      if (st.status.kind === 'pending') say('', 'info');
    } else if (st.status.kind === 'hint') {
      say('', 'info');
    }
    if (prev && prev.state_id !== msg.state_id && st.status.kind === 'error' && st.status.code === 'stale_state') say('', 'info');
    renderAll();
  }

  function logEntry(e) {
    if (e && typeof e === 'object' && e.action !== undefined && e.seat !== undefined) {
      return { kind: 'move', hand: e.hand, seat: e.seat, action: e.action };
    }
    if (e && typeof e === 'object' && (e.hand_end || e.result || e.type === 'hand_end')) {
      return { kind: 'hand-end', text: handEndSummary(e.hand_end ? { hand: e.hand, result: e.hand_end } : e) };
    }
    if (e && typeof e === 'object' && (e.game_end || e.type === 'game_end')) {
      return { kind: 'game-end', text: gameEndSummary(e.game_end || e) };
    }
    if (e && typeof e === 'object' && e.deal !== undefined) {
      return { kind: 'deal', text: `Hand ${e.hand || ''} dealt` };
    }
    return { kind: 'other', text: typeof e === 'string' ? e : JSON.stringify(e) };
  }

  // ---- helpers ----
  // The seats as last heard of: from a state, or from the table's summary
  // (polled: a seat connecting or leaving changes no state). This
  // connection's own seat is connected while the socket is open.
  const seats = () => {
    const list = (st.seatsInfo && st.seatsInfo.seats) || (st.table && st.table.seats) || [];
    if (st.seat === null || st.conn !== 'open') return list;
    return list.map((x) => (x.seat === st.seat ? { ...x, connected: true } : x));
  };
  const view = () => (st.state && st.state.view) || null;
  const notes = () => (st.state && st.state.annotations) || null;
  const legal = () => (st.state && st.state.legal) || [];
  const status = () => (st.state && st.state.status) || (st.table && st.table.status) || 'waiting';
  const myTurn = () => legal().length > 0;
  const selectedCards = () => [...st.selected].sort((a, b) => a - b).map((i) => st.hand[i]);
  const markedCards = () => st.marked.map((g) => g.map((i) => st.hand[i]));
  const isMarked = (i) => st.marked.some((g) => g.includes(i));
  const ownMelds = () => {
    const v = view();
    const n = notes();
    if (!v || st.seat === null || !n || !n.melds) return [];
    return n.melds[v.side_of[st.seat]] || [];
  };

  function teamName(t) {
    const team = teamsOf(notes(), view())[t];
    const members = team && team.seats ? team.seats.map((s) => seatName(seats(), s)).join(' & ') : '';
    return `Team ${t}${members ? ` (${members})` : ''}`;
  }

  function handEndSummary(msg) {
    const r = msg.result || {};
    const who =
      r.reason === 'out'
        ? `${seatName(seats(), r.seat)} went out`
        : r.reason === 'stock'
          ? 'the stock ran out'
          : r.reason || 'over';
    const totals = (r.totals || []).join(' \u2013 ');
    return `Hand ${msg.hand || ''} over: ${who}${r.teams ? `; this hand ${r.teams.map((t) => t.total).join(' \u2013 ')}` : ''}; totals ${totals}`;
  }

  function gameEndSummary(msg) {
    const w = msg.winner === null ? 'a tie' : msg.winner === undefined ? 'game over' : `${teamName(msg.winner)} wins`;
    return `Game over: ${w}; totals ${(msg.totals || []).join(' \u2013 ')}`;
  }

  function say(text, kind = 'info', code) {
    st.status = { text, kind, code };
    renderStatus();
  }

  // ---- building actions from the selection ----
  function tryAct(build) {
    try {
      act(build());
    } catch (e) {
      if (e instanceof SelectionError) say(e.message, 'error');
      else throw e;
    }
  }

  function doDraw() {
    act('draw');
  }
  function doPickup() {
    const n = notes();
    const v = view();
    const top = (n && n.pile_top) || (v && v.pile && v.pile.length ? v.pile[v.pile.length - 1] : null);
    tryAct(() => pickupAction(markedCards(), selectedCards(), top));
  }
  function doMeld() {
    tryAct(() => meldAction(markedCards(), selectedCards()));
  }
  function doDiscard() {
    tryAct(() => discardAction(selectedCards(), st.hand[st.cursor]));
  }
  function doAdd() {
    const sel = selectedCards();
    if (!sel.length) {
      say('select the cards to add first', 'error');
      return;
    }
    const matches = matchingMelds(ownMelds(), sel);
    if (matches.length === 1) {
      tryAct(() => addAction(matches[0], sel));
      return;
    }
    if (!ownMelds().length) {
      say('your side has no meld to add to', 'error');
      return;
    }
    st.mode = 'choose-meld';
    st.typedMeld = '';
    say('Add to which meld? Click it or type its number (Esc cancels)', 'prompt');
    renderBoardArea();
  }
  function addTo(i) {
    tryAct(() => addAction(i, selectedCards()));
  }
  function doGroup() {
    const picked = [...st.selected].sort((a, b) => a - b);
    if (!picked.length) {
      say('select the cards of a group first', 'error');
      return;
    }
    st.marked.push(picked);
    st.selected.clear();
    say(`${plural(st.marked.length, 'group')} marked: select the next, or meld / pick up`, 'info');
    renderHand();
  }
  function clearSelection() {
    st.selected.clear();
    st.marked = [];
    st.mode = 'play';
    say('', 'info');
    renderHand();
    renderBoardArea();
  }
  function doHint() {
    if (!st.state) return;
    if (!myTurn()) {
      say('a hint is for your turn', 'error');
      return;
    }
    if (send({ type: 'hint', state_id: st.state.state_id })) say('thinking\u2026', 'pending-hint');
  }
  function typedAction() {
    const text = el.typeInput.value.trim();
    if (!text) return;
    act(text);
    el.typeInput.value = '';
    el.typeInput.blur();
  }
  function toggle(i) {
    if (isMarked(i)) {
      st.marked = st.marked.filter((g) => !g.includes(i));
    } else if (st.selected.has(i)) st.selected.delete(i);
    else st.selected.add(i);
    st.cursor = i;
    renderHand();
    renderLegal();
  }

  function onDrop({ kind, meld, cards }) {
    if (kind === 'meld') tryAct(() => addAction(meld, cards));
    else if (kind === 'pile') {
      if (cards.length === 1) act(`discard ${cards[0]}`);
      else doPickup();
    } else if (kind === 'side') tryAct(() => meldAction(markedCards(), cards));
  }

  // ---- drawing ----
  function renderAll() {
    document.title = `${myTurn() ? '\u25cf Your turn \u00b7 ' : ''}Canasta \u00b7 ${id}`;
    root.firstElementChild.classList.toggle('my-turn', myTurn());
    renderTop();
    renderNotice();
    renderBoardArea();
    renderHand();
    renderActions();
    renderStatus();
    renderLegal();
    renderLog();
    renderOverlay();
  }

  function renderTop() {
    const t = st.table;
    const v = view();
    const conn = h(
      'span.conn-state',
      { testid: 'connection', class: `conn-state ${st.conn}` },
      st.conn === 'open' ? 'connected' : st.conn === 'connecting' ? 'connecting\u2026' : st.conn === 'closed' ? 'table closed' : 'reconnecting\u2026',
    );
    const teams = teamsOf(notes(), v);
    const scores = h(
      'div.scores',
      { testid: 'scores' },
      teams.length
        ? teams.map((team, i) =>
            h(
              'span.score',
              { class: `score${st.seat !== null && (team.seats || []).includes(st.seat) ? ' mine' : ''}`, dataset: { team: String(i) } },
              h('span.score-name', (team.seats || []).map((s) => seatName(seats(), s)).join(' & ') || `Team ${i}`),
              h('b', `${team.score ?? 0}`),
              team.opening_needed > 0 ? h('span.score-open', { title: 'opening minimum' }, `open ${team.opening_needed}`) : null,
            ),
          )
        : (t && t.scores ? t.scores : []).map((s, i, all) =>
            h(
              'span.score',
              h('span.score-name', [...Array(t.players).keys()].filter((x) => x % all.length === i).map((x) => seatName(seats(), x)).join(' & ') || `Team ${i}`),
              h('b', `${s}`),
            ),
          ),
    );
    fill(
      el.top,
      h('a.home', { href: '#/', title: 'the lobby' }, '\u2190 Lobby'),
      h(
        'div.table-title',
        h('b', t ? `${t.variant}` : 'table'),
        t ? ` \u00b7 ${plural(t.players, 'player')}` : '',
        st.state && st.state.hand ? ` \u00b7 hand ${st.state.hand}` : '',
        v ? h('span.stock-mini', ` \u00b7 stock ${v.stock}`) : '',
      ),
      scores,
      h(
        'div.top-buttons',
        conn,
        status() === 'finished' ? null : h('button.icon', { testid: 'copy-invite', title: 'copy the invite link', on: { click: copyInvite } }, 'Invite'),
        h('button.icon', { testid: 'help-button', title: 'keys (?)', on: { click: () => { st.helpOpen = true; renderOverlay(); } } }, '?'),
      ),
    );
  }

  async function copyInvite() {
    const ok = await copyText(api.inviteUrl(id));
    say(ok ? `Invite link copied: ${api.inviteUrl(id)}` : `Invite link: ${api.inviteUrl(id)}`, 'info');
  }

  function renderNotice() {
    const s = status();
    root.firstElementChild.classList.toggle('no-game', (s === 'finished' && !st.state) || (s === 'waiting' && !view()));
    const list = seats();
    const free = list.filter((x) => x.kind === 'human' && !x.claimed);
    const parts = [];
    if (s === 'finished' && !st.state) {
      const t = st.table || {};
      const totals = t.scores || [];
      const best = totals.length ? Math.max(...totals) : null;
      const winners = totals.map((x, i) => (x === best ? i : -1)).filter((i) => i >= 0);
      const teamSeats = (i) => [...Array(t.players || 0).keys()].filter((x) => x % totals.length === i);
      parts.push(
        h(
          'div.waiting.finished',
          { testid: 'finished' },
          h('h2', 'This game is over'),
          h(
            'p',
            totals.map((x, i) => `${teamSeats(i).map((s2) => seatName(seats(), s2)).join(' & ')}: ${x}`).join(' \u00b7 '),
          ),
          winners.length === 1 ? h('p.winner', `${teamSeats(winners[0]).map((s2) => seatName(seats(), s2)).join(' & ')} won.`) : totals.length ? h('p.winner', 'A tie.') : null,
          h(
            'p',
            h('a.button.primary', { href: `#/replay/${id}`, testid: 'replay-link' }, 'Watch the replay'),
            ' ',
            h('a.button', { href: api.recordUrl(id), download: `canasta-${id}.jsonl` }, 'Download the record'),
          ),
        ),
      );
    }
    if (s === 'waiting') {
      parts.push(
        h(
          'div.waiting',
          { testid: 'waiting' },
          h('h2', 'Waiting for players'),
          h('p.quiet', 'The game starts when every seat is taken. Send the invite link to the players you expect.'),
          h(
            'ul.seat-list',
            list.map((x) =>
              h(
                'li',
                { testid: 'waiting-seat', dataset: { seat: String(x.seat) } },
                h('b', `Seat ${x.seat}`),
                ' ',
                x.kind === 'bot'
                  ? `Bot ${x.seat} (${x.bot})`
                  : x.claimed
                    ? [x.name || 'a player', x.seat === st.seat ? ' (you)' : '', x.connected ? ' \u2014 here' : ' \u2014 away']
                    : 'free',
              ),
            ),
          ),
          h(
            'div.invite',
            h('label', { for: 'invite-link' }, 'Invite link: '),
            h('input#invite-link', { testid: 'invite-link', readOnly: true, value: api.inviteUrl(id), on: { focus: (e) => e.target.select() } }),
            h('button', { on: { click: copyInvite } }, 'Copy'),
          ),
          st.seat !== null
            ? h(
                'button.primary',
                { testid: 'start-now', on: { click: () => { if (send({ type: 'start' })) say('starting\u2026', 'pending'); } } },
                'Start now (bots fill free seats)',
              )
            : null,
        ),
      );
    }
    if (st.seat === null && free.length && s !== 'finished') {
      const nameInput = h('input', {
        testid: 'join-name',
        placeholder: 'your name',
        maxLength: 24,
        value: st.joinName,
        on: { input: (e) => { st.joinName = e.target.value; } },
      });
      parts.push(
        h(
          'div.join-bar',
          { testid: 'join-bar' },
          h('span', 'You are watching. Take a free seat: '),
          nameInput,
          free.map((x) =>
            h(
              'button.primary',
              { testid: 'claim-seat', dataset: { seat: String(x.seat) }, on: { click: () => claim(x.seat) } },
              `Sit at seat ${x.seat}`,
            ),
          ),
        ),
      );
    } else if (st.seat === null && st.state) {
      parts.push(h('div.watching', { testid: 'watching' }, 'You are watching this table.'));
    }
    fill(el.notice, parts);
  }

  async function claim(seat) {
    const name = (st.joinName || '').trim();
    if (name) api.saveName(name);
    try {
      const r = await api.claimSeat(id, seat, name || undefined);
      api.saveSeat(id, r.seat, r.token);
      say(`You sit at seat ${r.seat}`, 'info');
      reconnectNow();
    } catch (e) {
      say(e.message, 'error');
    }
  }

  function renderBoardArea() {
    const v = view();
    el.board.classList.toggle('choosing', st.mode === 'choose-meld');
    renderBoard(el.board, {
      view: v,
      notes: notes(),
      seats: seats(),
      mySeat: st.seat,
      onMeld: (i) => {
        if (st.selected.size) addTo(i);
        else say('select the cards to add to this meld first', 'error');
      },
      onDrop,
      closable: new Set(legal().filter((a) => verbOf(a) === 'canasta').map((a) => Number(a.split(' ')[1]))),
      onClose: (i) => act(`canasta ${i}`),
      onPile: () => {
        if (myTurn()) doPickup();
      },
      onStock: () => {
        if (myTurn()) doDraw();
      },
    });
  }

  function renderHand() {
    const v = view();
    const hintCards = st.hint ? actionCards(st.hint) : [];
    const hintLeft = [...hintCards];
    el.hand.replaceChildren();
    if (!v || st.seat === null) {
      el.hand.classList.add('empty');
      el.hand.append(h('div.hand-none', st.seat === null ? '' : 'Your cards come with the deal.'));
      renderTurn();
      return;
    }
    el.hand.classList.remove('empty');
    if (!st.hand.length) el.hand.append(h('div.hand-none', 'No cards in hand.'));
    let group = null;
    let prevKey = null;
    st.hand.forEach((code, i) => {
      const key = isWild(code) ? 'wild' : code[0];
      if (key !== prevKey) {
        group = h('div.hand-group', { class: `hand-group${key === 'wild' ? ' wilds' : ''}`, dataset: { rank: key } });
        if (key === 'wild') group.append(h('span.group-label', 'wild'));
        el.hand.append(group);
        prevKey = key;
      }
      const card = cardElement(code);
      card.dataset.index = String(i);
      card.setAttribute('role', 'option');
      card.setAttribute('aria-selected', st.selected.has(i) ? 'true' : 'false');
      if (st.selected.has(i)) card.classList.add('selected');
      const g = st.marked.findIndex((m) => m.includes(i));
      if (g >= 0) {
        card.classList.add('marked');
        card.dataset.group = String(g + 1);
      }
      if (i === st.cursor) card.classList.add('cursor');
      const hi = hintLeft.indexOf(code);
      if (hi >= 0) {
        hintLeft.splice(hi, 1);
        card.classList.add('hinted');
      }
      card.draggable = true;
      card.addEventListener('click', () => toggle(i));
      card.addEventListener('dragstart', (e) => {
        const codes = st.selected.has(i) ? selectedCards() : [code];
        e.dataTransfer.setData('application/x-canasta-cards', JSON.stringify(codes));
        e.dataTransfer.effectAllowed = 'move';
      });
      group.append(card);
    });
    renderTurn();
  }

  function renderTurn() {
    const v = view();
    const parts = [];
    if (v && ['draw', 'play', 'answer'].includes(v.phase)) {
      const mine = v.to_act === st.seat;
      parts.push(h('span.turn-text', { class: `turn-text${mine ? ' mine' : ''}` }, mine ? `Your turn \u2014 ${phaseWords(v, seats(), st.seat).replace(/^Your turn: /, '')}` : phaseWords(v, seats(), st.seat)));
      if (mine && v.asked && v.current === st.seat) {
        parts.push(h('span.turn-note', v.answer === true ? 'partner said yes: you must go out' : v.answer === false ? 'partner said no: you may not go out' : 'you asked partner to go out'));
      } else if (mine && v.must_go_out) parts.push(h('span.turn-note', 'you must go out this turn'));
    } else if (status() === 'waiting') {
      parts.push(h('span.turn-text', 'The game starts when every seat is taken.'));
    }
    if (st.seat !== null && st.hand.length) {
      const sel = selectedCards();
      parts.push(h('span.hand-count', `${plural(st.hand.length, 'card')}${sel.length ? `, ${sel.length} selected` : ''}${st.marked.length ? `, ${plural(st.marked.length, 'group')}` : ''}`));
    }
    fill(el.turn, parts);
  }

  function renderActions() {
    const L = legal();
    const verbs = new Set(L.map(verbOf));
    const v = view();
    const btn = (testid, label, key, verb, fn, extra = {}) =>
      h(
        'button.act',
        {
          testid,
          class: `act ${verb ? (verbs.has(verb) ? 'legal' : 'not-legal') : ''} ${extra.cls || ''}`,
          title: `${extra.title || label} (${key})`,
          on: { click: fn },
        },
        label,
        h('kbd', key),
      );
    const answering = v && v.phase === 'answer' && v.to_act === st.seat;
    const buttons = [
      btn('draw-button', 'Draw', 'd', 'draw', doDraw),
      btn('pickup-button', 'Pick up', 'p', 'pickup', doPickup, { title: 'take the pile with the selected cards' }),
      btn('meld-button', 'Meld', 'm', 'meld', doMeld, { title: 'meld the selection' }),
      btn('add-button', 'Add', 'a', 'add', doAdd, { title: 'add the selection to a meld' }),
      btn('discard-button', 'Discard', 'x', 'discard', doDiscard),
      btn('group-button', 'Group', 'g', null, doGroup, { title: 'mark the selection as one group', cls: 'minor' }),
      btn('clear-button', 'Clear', 'Esc', null, clearSelection, { title: 'clear the selection', cls: 'minor' }),
      verbs.has('ask') ? btn('ask-button', 'Ask partner', 'k', 'ask', () => act('ask')) : null,
      answering || verbs.has('yes') ? btn('yes-button', 'Yes', 'y', 'yes', () => act('yes')) : null,
      answering || verbs.has('no') ? btn('no-button', 'No', 'n', 'no', () => act('no')) : null,
      btn('hint-button', 'Hint', 'h', null, doHint, { cls: 'minor' }),
    ];
    fill(el.actions, buttons);
    el.actions.classList.toggle('my-turn', myTurn());
    el.actions.classList.toggle('hidden', st.seat === null);
    el.typeForm.classList.toggle('hidden', st.seat === null);
    el.hand.parentElement.classList.toggle('hidden', st.seat === null);
  }

  function renderStatus() {
    const s = st.status;
    el.status.className = `status ${s.kind || 'info'}`;
    fill(
      el.status,
      s.text ? h('span.status-text', s.text) : h('span.status-text.quiet', statusHint()),
      s.kind === 'hint' && st.hint
        ? h('button.small', { testid: 'play-hint', on: { click: () => act(st.hint) } }, 'Play it')
        : null,
    );
  }

  function statusHint() {
    if (st.seat === null) return '';
    const v = view();
    if (!v) return '';
    if (!myTurn()) return '';
    if (v.phase === 'draw') return 'Draw (d) or take the pile (select cards, then p). ? shows the keys.';
    if (v.phase === 'play') return 'Select cards to meld (m) or add (a); discard one (x) to end your turn.';
    if (v.phase === 'answer') return 'Partner asks to go out: yes (y) or no (n).';
    return '';
  }

  function renderLegal() {
    const L = legal();
    const sel = selectedCards();
    const filter = st.legalFilter.trim().toLowerCase();
    let list = L;
    if (filter) list = list.filter((a) => a.toLowerCase().includes(filter));
    if (st.legalWithSelection && sel.length) list = list.filter((a) => actionUses(a, sel));
    el.legalCount.textContent = L.length ? `(${L.length})` : '';
    const items = list.slice(0, LEGAL_SHOWN).map((a) =>
      h(
        'button.legal-action',
        { testid: 'legal-action', dataset: { action: a }, role: 'listitem', title: a, on: { click: () => act(a) } },
        a,
      ),
    );
    fill(
      el.legal,
      L.length === 0 ? h('div.quiet', myTurn() ? '' : 'Nothing to play: it is not your turn.') : null,
      L.length && !list.length ? h('div.quiet', 'No legal move uses these cards.') : null,
      items,
      list.length > LEGAL_SHOWN ? h('div.quiet', `${list.length - LEGAL_SHOWN} more: select cards or filter`) : null,
    );
  }

  function logText(e) {
    if (e.kind !== 'move') return e.text;
    const who = e.seat === st.seat ? 'You' : seatName(seats(), e.seat);
    return `${who}: ${e.action}`;
  }

  function renderLog() {
    const atBottom = el.log.scrollHeight - el.log.scrollTop - el.log.clientHeight < 30;
    fill(
      el.log,
      st.log.map((e) =>
        h('li', { class: `log-${e.kind}${e.kind === 'move' && e.seat === st.seat ? ' mine' : ''}`, testid: 'log-entry' }, logText(e)),
      ),
    );
    if (atBottom || st.log.length < 20) el.log.scrollTop = el.log.scrollHeight;
  }

  function renderOverlay() {
    el.overlay.replaceChildren();
    if (st.handEndOpen && (st.handEnd || st.gameEnd || status() === 'hand_over')) {
      el.overlay.append(handEndDialog());
    } else if (status() === 'hand_over' || st.gameEnd) {
      el.overlay.append(
        h(
          'button.reopen',
          { testid: 'show-scores', on: { click: () => { st.handEndOpen = true; renderOverlay(); } } },
          st.gameEnd ? 'Show the final scores' : 'Show the hand\u2019s scores',
        ),
      );
    }
    if (st.helpOpen) {
      el.overlay.append(
        helpOverlay(TABLE_KEYS, MOUSE_HELP, () => {
          st.helpOpen = false;
          renderOverlay();
        }),
      );
    }
  }

  function handEndDialog() {
    const he = st.handEnd;
    const r = (he && he.result) || null;
    const teams = teamsOf(notes(), view());
    const body = [];
    if (r && r.teams) {
      const keys = [...SCORE_KEYS];
      for (const t of r.teams) for (const k of Object.keys(t)) if (!keys.includes(k) && k !== 'total') keys.push(k);
      const shown = keys.filter((k) => r.teams.some((t) => t[k] !== undefined && t[k] !== 0));
      body.push(
        h('p.reason', r.reason === 'out' ? `${seatName(seats(), r.seat)} went out.` : r.reason === 'stock' ? 'The stock ran out.' : `Ended: ${r.reason}.`),
        h(
          'table.score-table',
          { testid: 'hand-score' },
          h('thead', h('tr', h('th', ''), r.teams.map((_, t) => h('th', { class: teamHas(t) ? 'mine' : '' }, teamLabel(teams, t))))),
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
        ge.winner === null ? 'A tie.' : ge.winner === undefined ? winnerFromTotals(ge.totals, teams) : `${teamLabel(teams, ge.winner)} ${teamHas(ge.winner) ? '(you) ' : ''}win${teamSize(teams, ge.winner) === 1 ? 's' : ''}.`;
      body.push(
        h(
          'div.game-end',
          { testid: 'game-end' },
          h('h3', 'Game over'),
          h('p.winner', { testid: 'winner' }, winner),
          ge.totals ? h('p', `Final totals: ${ge.totals.map((t, i) => `${teamLabel(teams, i)} ${t}`).join(', ')}`) : null,
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

  const teamHas = (t) => {
    const team = teamsOf(notes(), view())[t];
    return st.seat !== null && team && (team.seats || []).includes(st.seat);
  };
  const teamSize = (teams, t) => (teams[t] && teams[t].seats ? teams[t].seats.length : 1);
  function teamLabel(teams, t) {
    const team = teams[t];
    if (!team || !team.seats) return `Team ${t}`;
    return team.seats.map((s) => seatName(seats(), s)).join(' & ');
  }
  function winnerFromTotals(totals, teams) {
    if (!totals || !totals.length) return '';
    const best = Math.max(...totals);
    const winners = totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
    if (winners.length > 1) return 'A tie.';
    return `${teamLabel(teams, winners[0])} win${teamSize(teams, winners[0]) === 1 ? 's' : ''}.`;
  }
  const fmt = (n) => (n === undefined || n === null ? '' : String(n));

  // ---- keys ----
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing()) {
      if (e.key === 'Escape') document.activeElement.blur();
      return;
    }
    const k = e.key;
    if (st.helpOpen) {
      if (k === 'Escape' || k === '?' || k === 'Enter') {
        st.helpOpen = false;
        renderOverlay();
        e.preventDefault();
      }
      return;
    }
    if (st.handEndOpen && (st.handEnd || st.gameEnd || status() === 'hand_over')) {
      if (k === 'Enter' || k === ' ') {
        const next = el.overlay.querySelector('[data-testid="next-hand"]:not([disabled])');
        if (next) next.click();
        e.preventDefault();
      } else if (k === 'Escape') {
        st.handEndOpen = false;
        renderOverlay();
      }
      return;
    }
    if (st.mode === 'choose-meld') {
      if (/^[0-9]$/.test(k)) {
        st.typedMeld += k;
        const n = Number(st.typedMeld);
        if (n === 0 || n * 10 >= ownMelds().length) addTo(n);
        else say(`Add to meld ${st.typedMeld}\u2026 (another digit, or Enter)`, 'prompt');
      } else if (k === 'Enter' && st.typedMeld) addTo(Number(st.typedMeld));
      else if (k === 'Backspace') st.typedMeld = st.typedMeld.slice(0, -1);
      else if (k === 'Escape') {
        st.mode = 'play';
        say('', 'info');
        renderBoardArea();
      }
      e.preventDefault();
      return;
    }
    const n = st.hand.length;
    let handled = true;
    switch (k) {
      case 'ArrowLeft':
        st.cursor = Math.max(0, st.cursor - 1);
        renderHand();
        break;
      case 'ArrowRight':
        st.cursor = Math.min(Math.max(0, n - 1), st.cursor + 1);
        renderHand();
        break;
      case 'Home':
        st.cursor = 0;
        renderHand();
        break;
      case 'End':
        st.cursor = Math.max(0, n - 1);
        renderHand();
        break;
      case ' ':
        if (st.cursor < n) toggle(st.cursor);
        break;
      case 'Escape':
        clearSelection();
        break;
      case 'g':
        doGroup();
        break;
      case 'd':
        doDraw();
        break;
      case 'p':
        doPickup();
        break;
      case 'm':
        doMeld();
        break;
      case 'a':
        doAdd();
        break;
      case 'x':
        doDiscard();
        break;
      case 'k':
        act('ask');
        break;
      case 'y':
        act('yes');
        break;
      case 'n':
        act('no');
        break;
      case 'h':
        doHint();
        break;
      case ':':
        el.typeInput.focus();
        break;
      case 'l': {
        const details = el.legal.closest('details');
        if (details) details.open = true;
        const first = el.legal.querySelector('button');
        (first || el.legalFilter).focus();
        break;
      }
      case '?':
        st.helpOpen = true;
        renderOverlay();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  // ---- start ----
  renderAll();
  api
    .getTable(id)
    .then((t) => {
      if (!st.table) st.table = t;
      renderAll();
    })
    .catch((e) => {
      if (e.status === 404) {
        st.closed = true;
        if (st.ws) st.ws.close();
        fill(root, h('div.page-error', { testid: 'no-table' }, h('h2', 'No such table'), h('p', e.message), h('a', { href: '#/' }, 'Back to the lobby')));
      }
    });
  connect();
  st.summaryTimer = setInterval(async () => {
    if (st.conn !== 'open' || document.hidden) return;
    const asked = Date.now();
    try {
      const t = await api.getTable(id);
      if (!st.seatsInfo || st.seatsInfo.at < asked) {
        st.seatsInfo = { seats: t.seats, at: asked };
        renderBoardArea();
        renderTop();
        if (status() === 'waiting') renderNotice();
      }
    } catch {
      /* the socket's reconnection says what is wrong */
    }
  }, 8000);

  return () => {
    st.closed = true;
    clearInterval(st.summaryTimer);
    clearTimeout(st.retryTimer);
    clearInterval(st.pingTimer);
    document.removeEventListener('keydown', onKey);
    if (st.ws) {
      const ws = st.ws;
      st.ws = null;
      ws.close();
    }
  };
}

