// A table: its state, the messages of its WebSocket, the player's selection
// and the actions built from it, and the drawing of the page. The parts of
// their own: table-socket.js (the connection), hand.js (the hand's cards),
// legal.js (the legal moves), scores.js (the hand's and game's scores),
// movelog.js (the move log), waiting.js (the waiting room and the join bar)
// and table-keys.js (the keys).

import { h, fill, copyText, plural } from './dom.js';
import * as api from './api.js';
import { handOrder } from './cards.js';
import {
  meldAction,
  pickupAction,
  addAction,
  discardAction,
  matchingMelds,
  verbOf,
  SelectionError,
} from './actions.js';
import { renderBoard, seatName, teamsOf, phaseWords, pileSummary } from './board.js';
import { helpOverlay, TABLE_KEYS, MOUSE_HELP } from './help.js';
import { handEndDialog } from './scores.js';
import { logEntry as logFromServer, logFromHistory, renderLog as drawLog } from './movelog.js';
import { noticeParts } from './waiting.js';
import { tableKeys } from './table-keys.js';
import { tableSocket } from './table-socket.js';
import { drawHand } from './hand.js';
import { drawLegal } from './legal.js';

const LOG_KEPT = 600;

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
    // The hint's figures (the search's numbers) and whether they are shown.
    hintFigures: '',
    hintNumbers: false,
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
  const { connect, closeTable, reconnectNow, send } = tableSocket({
    st,
    id,
    say,
    renderTop,
    renderAll,
    onMessage: (msg) => onMessage(msg),
  });

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
        {
          const history = logFromHistory(seats(), teamsOf(notes(), view()), msg.log);
          st.log = history.log;
          st.loggedHandEnd = history.handEnd;
          st.loggedGameEnd = history.gameEnd;
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
        st.log.push(logEntry(msg));
        renderLog();
        renderOverlay();
        break;
      case 'game_end':
        st.gameEnd = msg;
        st.handEndOpen = true;
        st.log.push(logEntry(msg));
        renderLog();
        renderOverlay();
        break;
      case 'hint':
        if (st.state && msg.state_id === st.state.state_id) {
          st.hint = msg.action;
          st.hintFigures = msg.figures || '';
          st.hintNumbers = false;
          // The advice in a player's words (`why` from an older server).
          const advice = msg.advice || msg.why;
          say(advice ? `Hint: ${msg.action} \u2014 ${advice}` : `Hint: ${msg.action}`, 'hint');
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
    const action = st.pending;
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
    // The engine's reason, after the action it refuses (as the terminal says it).
    const reason = msg.message || msg.code || 'refused';
    say(msg.code === 'illegal_action' && action ? `\`${action}\` is refused: ${reason}` : reason, 'error', msg.code);
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
    // A game that started before this page came: its hand's heading first.
    if (!st.log.length && msg.view && msg.hand) st.log.push({ kind: 'deal', text: `Hand ${msg.hand}` });
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

  const logEntry = (e) => logFromServer(seats(), teamsOf(notes(), view()), e);

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

  // What the table's other modules (scores.js, waiting.js, table-keys.js)
  // read and call: the state, the elements, and these functions.
  const ctx = {
    st,
    el,
    id,
    seats,
    view,
    notes,
    status,
    ownMelds,
    send,
    act,
    say,
    copyInvite,
    claim,
    renderOverlay,
    renderHand,
    renderBoardArea,
    addTo,
    toggle,
    clearSelection,
    doGroup,
    doDraw,
    doPickup,
    doMeld,
    doAdd,
    doDiscard,
    doHint,
  };

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
    renderLegal();
  }
  function clearSelection() {
    st.selected.clear();
    st.marked = [];
    st.mode = 'play';
    say('', 'info');
    renderHand();
    renderBoardArea();
    renderLegal();
  }
  function doHint() {
    if (!st.state) return;
    // Asked again while the hint shows: its numbers, or hide them.
    if (st.hint && st.status.kind === 'hint' && st.hintFigures) {
      toggleHintNumbers();
      return;
    }
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
    fill(el.notice, noticeParts(ctx));
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
    el.hand.replaceChildren();
    if (!v || st.seat === null) {
      el.hand.classList.add('empty');
      el.hand.append(h('div.hand-none', st.seat === null ? '' : 'Your cards come with the deal.'));
      renderTurn();
      return;
    }
    drawHand(el.hand, st.hand, {
      selected: st.selected,
      marked: st.marked,
      cursor: st.cursor,
      hint: st.hint,
      onToggle: toggle,
      dragged: (i) => (st.selected.has(i) ? selectedCards() : [st.hand[i]]),
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
      // The pile as the player decides (on a phone the board is far above).
      if (mine && v.phase === 'draw') parts.push(h('span.turn-pile', { testid: 'turn-pile' }, pileSummary(v, notes())));
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
    el.legal.closest('details').classList.toggle('hidden', st.seat === null);
  }

  function toggleHintNumbers() {
    st.hintNumbers = !st.hintNumbers;
    renderStatus();
  }

  function renderStatus() {
    const s = st.status;
    el.status.className = `status ${s.kind || 'info'}`;
    const hinting = s.kind === 'hint' && st.hint;
    fill(
      el.status,
      s.text ? h('span.status-text', s.text) : statusHint() ? h('span.status-text.quiet', statusHint()) : null,
      hinting ? h('button.small', { testid: 'play-hint', on: { click: () => act(st.hint) } }, 'Play it') : null,
      hinting && st.hintFigures
        ? h(
            'button.small.minor',
            {
              testid: 'hint-numbers',
              'aria-expanded': st.hintNumbers ? 'true' : 'false',
              title: "the search's numbers (h again)",
              on: { click: toggleHintNumbers },
            },
            st.hintNumbers ? 'Hide numbers' : 'Numbers',
          )
        : null,
      hinting && st.hintNumbers && st.hintFigures ? h('span.hint-figures', { testid: 'hint-figures' }, st.hintFigures) : null,
    );
  }

  function statusHint() {
    if (st.seat === null) return '';
    const v = view();
    if (!v) return '';
    if (!myTurn()) return '';
    // A phone's player has no keys to press: the buttons' names instead.
    const touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
    if (v.phase === 'draw') {
      return touch
        ? 'Draw, or take the pile: select the cards that go with its top card, then Pick up.'
        : 'Draw (d) or take the pile (select cards, then p). ? shows the keys.';
    }
    if (v.phase === 'play') {
      return touch
        ? 'Select cards, then Meld or Add (or tap one of your melds); Discard a card to end your turn.'
        : 'Select cards to meld (m) or add (a); discard one (x) to end your turn.';
    }
    if (v.phase === 'answer') return touch ? 'Partner asks to go out: Yes or No.' : 'Partner asks to go out: yes (y) or no (n).';
    return '';
  }

  function renderLegal() {
    drawLegal(el.legal, el.legalCount, legal(), {
      filter: st.legalFilter,
      selection: st.legalWithSelection ? [...markedCards().flat(), ...selectedCards()] : [],
      myTurn: myTurn(),
      onPlay: act,
    });
  }

  function renderLog() {
    drawLog(el.log, st.log, seats(), st.seat);
  }

  function renderOverlay() {
    el.overlay.replaceChildren();
    if (st.handEndOpen && (st.handEnd || st.gameEnd || status() === 'hand_over')) {
      el.overlay.append(handEndDialog(ctx));
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

  // ---- keys ----
  const onKey = tableKeys(ctx);
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

