// @ts-check
// A table: the store of its state (table-store.js, a pure reducer), the
// socket that feeds it (table-socket.js), the queue that shows the states one
// at a time (table-pace.js), and one render function per region of the page:
// the top bar, the notices, the felt (board.js), the hand (hand.js), the
// action bar, the side panel (the move log and the Advanced panel) and the
// boxes over the table (scores.js, help.js).

import { h, fill, copyText, plural } from './dom.js';
import * as api from './api.js';
import { meldAction, pickupAction, addAction, discardAction, matchingMelds, verbOf, SelectionError } from './actions.js';
import { renderBoard, seatName, teamsOf, clockText, seatChip } from './board.js';
import { helpOverlay, TABLE_KEYS, MOUSE_HELP } from './help.js';
import { scoresDialog, sheetDialog } from './scores.js';
import { renderLog } from './movelog.js';
import { noticeParts } from './waiting.js';
import { tableKeys } from './table-keys.js';
import { tableSocket } from './table-socket.js';
import { drawHand } from './hand.js';
import { drawLegal } from './legal.js';
import { createStore, initialState } from './table-store.js';
import { pacedQueue, present } from './table-pace.js';
import { sound, soundOn, setSoundOn } from './sound.js';
import { actionWords, refusalWords } from './table-words.js';
import { guideStep, guideRules, guideFor, GUIDE_KEY } from './table-guide.js';

const PREFS_KEY = 'canasta.table.prefs';

function loadPrefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS_KEY) || '{}') || {};
  } catch {
    return {};
  }
}

function savePrefs(s) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ advanced: s.advanced, speed: s.speed, sortBy: s.sortBy === 'suit' ? 'suit' : 'rank' }));
  } catch {
    /* private mode: the choice lasts the page */
  }
}

/** The guided first hand's memory (table-guide.js's `guideFor`), or null on a player's first table. */
function loadGuide() {
  try {
    const m = JSON.parse(localStorage.getItem(GUIDE_KEY) || 'null');
    return m && typeof m === 'object' && typeof m.table === 'string' ? m : null;
  } catch {
    return null;
  }
}

function saveGuide(m) {
  try {
    localStorage.setItem(GUIDE_KEY, JSON.stringify(m));
  } catch {
    /* private mode: the guide shows on this page only */
  }
}

/** `#/rules/VARIANT?players=N&options=...`: the rules page's route (web/rules-page.js's `rulesHref` when it is there). */
export function rulesRoute(variant, players, options) {
  const opts = options && Object.keys(options).length ? `&options=${encodeURIComponent(JSON.stringify(options))}` : '';
  return `#/rules/${encodeURIComponent(variant)}?players=${players}${opts}`;
}
let rulesHref = rulesRoute;
// @ts-ignore: web/rules-page.js comes with the rules page; until then the route is built here.
import('./rules-page.js')
  .then((m) => {
    if (typeof m.rulesHref === 'function') rulesHref = m.rulesHref;
  })
  .catch(() => {});

/** Mounts the table `id` into `root`; returns the function that unmounts it. */
export function mountTable(root, id) {
  const store = createStore(initialState(id, loadPrefs()));
  let joinName = api.loadName();

  // ---- the page's regions ----
  const el = {
    top: h('header.table-top', { testid: 'table-top' }),
    notice: h('div.notice-area'),
    board: h('div.board', { testid: 'board' }),
    hand: h('div.hand', { testid: 'hand', role: 'listbox', 'aria-multiselectable': 'true', 'aria-label': 'your hand', dataset: { zone: 'hand' } }),
    handTools: h('div.hand-tools'),
    bar: h('div.action-bar', { testid: 'action-bar' }),
    turn: h('div.turn', { testid: 'turn' }),
    status: h('div.status', { testid: 'status', role: 'status', 'aria-live': 'polite' }),
    actions: h('div.actions', { testid: 'actions' }),
    log: h('ol.log', { testid: 'log' }),
    advanced: h('div.advanced-panel', { testid: 'advanced-panel' }),
    legal: h('div.legal-list', { testid: 'legal-list', role: 'list' }),
    legalCount: h('span.legal-count'),
    overlay: h('div.overlay-root'),
    guide: h('section.guide.hidden', { testid: 'guide', 'aria-live': 'polite' }),
  };
  el.typeInput = h('input.type-action', {
    testid: 'action-input',
    placeholder: 'meld 7H 7D 2C',
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
    on: { input: () => renderAdvanced(store.get()) },
  });
  el.legalWithSel = h('input', { type: 'checkbox', checked: true, testid: 'legal-with-selection', on: { change: () => renderAdvanced(store.get()) } });
  el.advanced.append(
    h('h3', 'Legal moves ', el.legalCount),
    h('div.legal-tools', el.legalFilter, h('label.small', el.legalWithSel, ' with the selected cards')),
    el.legal,
    h('label.small', { for: 'type-action' }, 'Type an action (record notation)'),
    el.typeForm,
  );
  el.typeInput.id = 'type-action';
  // The menu is built once (a redraw of the top bar keeps it open).
  el.speed = h(
    'select',
    { testid: 'speed-select', 'aria-label': 'how fast the table moves on this screen', on: { change: (e) => { dispatch({ type: 'speed', speed: e.target.value }); savePrefs(store.get()); } } },
    h('option', { value: 'normal' }, 'Normal'),
    h('option', { value: 'fast' }, 'Fast'),
    h('option', { value: 'instant' }, 'Instant'),
  );
  el.soundToggle = h('input', { type: 'checkbox', testid: 'sound-toggle', checked: soundOn(), on: { change: (e) => setSoundOn(e.target.checked) } });
  el.advancedToggle = h('input', { type: 'checkbox', testid: 'advanced-toggle', on: { change: (e) => setAdvanced(e.target.checked) } });
  el.inviteItem = h('button.menu-row', { testid: 'copy-invite', on: { click: () => { el.menu.open = false; copyInvite(); } } }, 'Copy the invite link');
  el.menu = h(
    'details.menu',
    { testid: 'table-menu' },
    h('summary', { testid: 'menu-button', title: 'the table\u2019s menu' }, 'Menu'),
    h(
      'div.menu-box',
      h('label.menu-row', 'Speed ', el.speed),
      h('label.menu-row', el.soundToggle, ' Sounds'),
      h('label.menu-row', el.advancedToggle, ' Advanced: legal moves and typed actions'),
      h('button.menu-row', { testid: 'sheet-button', on: { click: () => { el.menu.open = false; dispatch({ type: 'dialog', dialog: 'sheet' }); } } }, 'Score sheet'),
      el.inviteItem,
      h('button.menu-row', { testid: 'help-button', on: { click: () => { el.menu.open = false; handlers.help(); } } }, 'Keys and mouse'),
    ),
  );
  el.side = h('aside.table-side', { testid: 'side' }, h('section.panel.log-panel', h('h3', 'Moves', h('button.small.log-close', { testid: 'log-close', 'aria-label': 'close the moves', on: { click: () => page.classList.remove('show-side') } }, 'Close')), el.log), el.advanced);
  el.bar.append(h('div.bar-text', el.turn, el.status), el.actions);
  fill(
    root,
    h(
      'div.table-page',
      el.top,
      el.notice,
      h(
        'div.table-body',
        h('main.table-main', el.board, el.guide, h('section.hand-area', { testid: 'hand-area' }, el.handTools, el.hand), el.bar),
        el.side,
      ),
      el.overlay,
    ),
  );
  const page = /** @type {HTMLElement} */ (root.firstElementChild);

  // ---- reading the state ----
  const seatsOf = (s) => {
    const list = (s.seatsInfo && s.seatsInfo.seats) || (s.table && s.table.seats) || [];
    if (s.seat === null || s.conn !== 'open') return list;
    return list.map((x) => (x.seat === s.seat ? { ...x, connected: true } : x));
  };
  const viewOf = (s) => (s.game && s.game.view) || null;
  const notesOf = (s) => (s.game && s.game.annotations) || null;
  const legalOf = (s) => (s.game && s.game.legal) || [];
  const statusOf = (s) => (s.game && s.game.status) || (s.table && s.table.status) || 'waiting';
  const myTurn = (s) => legalOf(s).length > 0;
  const selectedCards = (s) => s.selected.map((i) => s.order[i]);
  const markedCards = (s) => s.marked.map((g) => g.map((i) => s.order[i]));
  const ownMelds = (s) => {
    const v = viewOf(s);
    const n = notesOf(s);
    if (!v || s.seat === null || !n || !n.melds) return [];
    return n.melds[v.side_of[s.seat]] || [];
  };
  const labelOf = (s) => (i) => (ownMelds(s)[i] || {}).label;
  const isLegal = (s, action) => legalOf(s).includes(action);
  const teams = (s) => teamsOf(notesOf(s), viewOf(s));

  /** Whether `game` (a state message) has `seat` to act in play. */
  const isMyTurn = (game, seat) =>
    !!game && seat !== null && seat !== undefined && game.status === 'playing' && !!game.view && game.view.to_act === seat && game.legal.length > 0;

  // ---- events ----
  const dispatch = (e) => store.dispatch(e);
  const say = (text, kind = 'info') => dispatch({ type: 'say', text, kind });

  const sock = tableSocket(id, {
    onConn: (conn) => dispatch({ type: 'conn', conn }),
    onMessage: (msg) => queue.push(msg),
    onClosed: (t) => {
      if (t) dispatch({ type: 'summary', table: t, at: Date.now() });
    },
  });

  // The first state after a welcome or an undo moved nothing on this screen.
  let nothingMoved = true;
  // The server's messages in order, each state shown before the next.
  const queue = pacedQueue(async (msg, waiting) => {
    if (msg.type === 'state') {
      const s = store.get();
      const speed = waiting > 2 ? 'instant' : s.speed;
      const last = nothingMoved ? null : msg.last || null;
      nothingMoved = false;
      const before = s.game && s.game.view ? s.game.view.hand_sizes : null;
      const after = msg.view ? msg.view.hand_sizes : null;
      const drawn = last && before && after ? Math.max(1, (after[last.seat] ?? 0) - (before[last.seat] ?? 0)) : 1;
      const teams = msg.annotations ? msg.annotations.teams.map((t) => t.seats) : undefined;
      const myTurnBefore = isMyTurn(s.game, s.seat);
      await present(page, () => dispatch({ type: 'server', msg, at: Date.now() }), last, { me: s.seat, speed, drawn, teams });
      if (!myTurnBefore && isMyTurn(msg, s.seat)) sound('your_turn');
      return;
    }
    if (msg.type === 'welcome' || msg.type === 'undone') nothingMoved = true;
    if (msg.type === 'hand_end') sound('hand_end');
    if (msg.type === 'welcome' && msg.seat === null && api.loadSeat(id)) api.forgetSeat(id);
    if (msg.type === 'error' && msg.code === 'bad_token') {
      api.forgetSeat(id);
      dispatch({ type: 'server', msg, at: Date.now() });
      sock.reconnectNow();
      return;
    }
    if (msg.type === 'error' && msg.code === 'unavailable') {
      api.getTable(id).then((t) => dispatch({ type: 'summary', table: t, at: Date.now() })).catch(() => {});
      return;
    }
    dispatch({ type: 'server', msg, at: Date.now() });
  });

  function act(action) {
    const s = store.get();
    if (!s.game) return;
    action = String(action).trim().replace(/\s+/g, ' ');
    if (!action || s.pending) return;
    if (sock.send({ type: 'act', state_id: s.game.state_id, action })) dispatch({ type: 'sent', action });
    else say('Not connected to the server: reconnecting\u2026', 'connmsg');
  }

  function tryAct(build) {
    try {
      act(build());
    } catch (e) {
      if (e instanceof SelectionError) say(e.message, 'error');
      else throw e;
    }
  }

  const pileTop = (s) => {
    const n = notesOf(s);
    const v = viewOf(s);
    return (n && n.pile_top) || (v && v.pile && v.pile.length ? v.pile[v.pile.length - 1] : null);
  };

  const handlers = {
    draw: () => act('draw'),
    pickup: () => {
      const s = store.get();
      tryAct(() => pickupAction(markedCards(s), selectedCards(s), pileTop(s)));
    },
    meld: () => {
      const s = store.get();
      tryAct(() => meldAction(markedCards(s), selectedCards(s)));
    },
    discard: () => {
      const s = store.get();
      tryAct(() => discardAction(selectedCards(s), s.order[s.cursor]));
    },
    add: () => {
      const s = store.get();
      const sel = selectedCards(s);
      if (!sel.length) return say('Select the cards to add first.', 'error');
      const matches = matchingMelds(ownMelds(s), sel);
      if (matches.length === 1) return tryAct(() => addAction(matches[0], sel));
      if (!ownMelds(s).length) return say('Your side has no meld to add to yet.', 'error');
      dispatch({ type: 'mode', mode: 'choose-meld' });
      say('Add to which meld? Click it, or type its number (Esc cancels).', 'prompt');
    },
    addTo: (i) => {
      const s = store.get();
      tryAct(() => addAction(i, selectedCards(s)));
    },
    undo: () => {
      const s = store.get();
      if (!s.game) return;
      if (!sock.send({ type: 'undo', state_id: s.game.state_id })) say('Not connected to the server: reconnecting\u2026', 'connmsg');
    },
    ask: () => act('ask'),
    yes: () => act('yes'),
    no: () => act('no'),
    hint: () => {
      const s = store.get();
      if (!s.game) return;
      if (s.hint && s.hint.figures) return dispatch({ type: 'hint-numbers' });
      if (!myTurn(s)) return say('A hint is for your turn.', 'error');
      if (sock.send({ type: 'hint', state_id: s.game.state_id })) say('Thinking\u2026', 'pending-hint');
    },
    group: () => dispatch({ type: 'group' }),
    clear: () => dispatch({ type: 'clear' }),
    toggle: (i) => dispatch({ type: 'toggle', index: i }),
    sort: (by) => {
      dispatch({ type: 'sort', by });
      savePrefs(store.get());
    },
    help: () => dispatch({ type: 'dialog', dialog: 'help' }),
    closeDialog: () => dispatch({ type: 'dialog', dialog: null }),
    focusTyped: () => {
      if (!store.get().advanced) setAdvanced(true);
      el.typeInput.focus();
    },
    focusLegal: () => {
      if (!store.get().advanced) setAdvanced(true);
      const first = el.legal.querySelector('button');
      (first || el.legalFilter).focus();
    },
  };

  function setAdvanced(on) {
    dispatch({ type: 'advanced', on });
    savePrefs(store.get());
  }

  /** A click on a card of the hand: it is discarded when a discard is all the turn allows, else selected. */
  function clickCard(i) {
    const s = store.get();
    if (s.pending) return;
    const L = legalOf(s);
    const code = s.order[i];
    if (s.mode === 'choose-meld') dispatch({ type: 'mode', mode: 'play' });
    if (L.length && L.every((a) => verbOf(a) === 'discard') && isLegal(s, `discard ${code}`) && !s.selected.length && !s.marked.length) {
      act(`discard ${code}`);
      return;
    }
    handlers.toggle(i);
  }

  function doubleClickCard(i) {
    const s = store.get();
    const code = s.order[i];
    if (isLegal(s, `discard ${code}`)) {
      dispatch({ type: 'clear' });
      act(`discard ${code}`);
    } else if (myTurn(s) && legalOf(s).some((a) => verbOf(a) === 'discard')) {
      say(`You cannot discard ${actionWords(`discard ${code}`).replace(/^discard /, '')} now.`, 'error');
    }
  }

  function dropCards(i, target, cards) {
    const s = store.get();
    const v = viewOf(s);
    if (target.kind === 'hand') {
      if (cards.length === 1) dispatch({ type: 'move-card', from: i, to: Number.isFinite(target.before) ? target.before : s.order.length });
      return;
    }
    if (!myTurn(s)) return say('Wait for your turn.', 'error');
    if (target.kind === 'pile') {
      if (v && v.phase === 'draw') tryAct(() => pickupAction(markedCards(s), cards, pileTop(s)));
      else if (cards.length === 1) act(`discard ${cards[0]}`);
      else say('A discard is one card: drag one card onto the pile.', 'error');
    } else if (target.kind === 'meld') tryAct(() => addAction(target.meld, cards));
    else if (target.kind === 'side') tryAct(() => meldAction(markedCards(s), cards));
  }

  function clickPile() {
    const s = store.get();
    const v = viewOf(s);
    if (!myTurn(s) || !v) return;
    if (v.phase === 'draw') return handlers.pickup();
    const sel = selectedCards(s);
    if (sel.length === 1) return act(`discard ${sel[0]}`);
    say(sel.length ? 'A discard is one card: select one.' : 'Select the card to discard, then click the pile (or double-click the card).', 'error');
  }

  function typedAction() {
    const text = el.typeInput.value.trim();
    if (!text) return;
    act(text);
    el.typeInput.value = '';
    el.typeInput.blur();
  }

  async function copyInvite() {
    const ok = await copyText(api.inviteUrl(id));
    say(ok ? `Invite link copied: ${api.inviteUrl(id)}` : `Invite link: ${api.inviteUrl(id)}`, 'info');
  }

  async function claim(seat) {
    const name = (joinName || '').trim();
    if (name) api.saveName(name);
    try {
      const r = await api.claimSeat(id, seat, name || undefined);
      api.saveSeat(id, r.seat, r.token);
      say('You have a seat.', 'info');
      sock.reconnectNow();
    } catch (/** @type {any} */ e) {
      say(e.message, 'error');
    }
  }

  async function rematch() {
    const s = store.get();
    const kept = api.loadSeat(id);
    if (s.rematch && !kept) {
      location.hash = `#/t/${s.rematch}`;
      return;
    }
    try {
      const r = await api.rematch(id, kept ? kept.token : '');
      api.saveSeat(r.id, r.seat, r.token);
      if (r.invite_secret) api.saveInvite(r.id, r.invite_secret);
      location.hash = `#/t/${r.id}`;
    } catch (/** @type {any} */ e) {
      if (s.rematch) location.hash = `#/t/${s.rematch}`;
      else say(e.status === 404 || e.status === 405 ? 'This server has no rematch yet: start a new table from the lobby.' : e.message, 'error');
    }
  }

  // ---- the regions, each drawn from the state ----
  function renderTop(s) {
    const t = s.table;
    const v = viewOf(s);
    const conn = h(
      'span.conn-state',
      { testid: 'connection', class: `conn-state ${s.conn}` },
      s.conn === 'open' ? 'connected' : s.conn === 'connecting' ? 'connecting\u2026' : s.conn === 'closed' ? 'table closed' : 'reconnecting\u2026',
    );
    const list = seatsOf(s);
    const tm = teams(s);
    const scores = h(
      'div.scores',
      { testid: 'scores' },
      tm.map((team, i) =>
        h(
          'span.score',
          { class: `score${s.seat !== null && (team.seats || []).includes(s.seat) ? ' mine' : ''}`, dataset: { team: String(i) } },
          h('span.score-name', (team.seats || []).map((x) => (x === s.seat ? 'You' : seatName(list, x))).join(' & ')),
          h('b', `${team.score ?? 0}`),
        ),
      ),
    );
    fill(
      el.top,
      h('a.home', { href: '#/', title: 'the lobby' }, '\u2190 Lobby'),
      h('div.table-title', h('b', t ? variantTitle(t.variant) : 'Table'), v && s.game.hand ? h('span.hand-no', ` \u00b7 hand ${s.game.hand}`) : ''),
      scores,
      h(
        'div.top-buttons',
        conn,
        t ? h('a.button.icon', { testid: 'rules-link', href: rulesHref(t.variant, t.players, t.options || {}), title: 'how to play this variant' }, 'How to play') : null,
        h('button.icon.log-toggle', { testid: 'log-button', title: 'the moves', on: { click: () => page.classList.toggle('show-side') } }, 'Moves'),
        el.menu,
      ),
    );
    el.speed.value = s.speed;
    el.advancedToggle.checked = s.advanced;
    el.inviteItem.classList.toggle('hidden', statusOf(s) === 'finished');
  }

  function renderNotice(s) {
    const st = statusOf(s);
    page.classList.toggle('no-game', (st === 'finished' && !s.game) || (st === 'waiting' && !viewOf(s)));
    fill(
      el.notice,
      noticeParts(
        { id, seat: s.seat, table: s.table, status: st, seats: seatsOf(s), hasGame: !!s.game, joinName, paused: !!(s.table && s.table.paused) },
        {
          copyInvite,
          claim,
          setName: (n) => { joinName = n; },
          start: () => { if (sock.send({ type: 'start' })) say('Starting\u2026', 'pending'); },
        },
      ),
      s.rematch && !(s.dialog === 'scores') ? h('div.watching', { testid: 'rematch-notice' }, 'A rematch is ready. ', h('button.primary', { on: { click: rematch } }, 'Join the rematch')) : null,
    );
  }

  function renderBoardArea(s) {
    const v = viewOf(s);
    el.board.classList.toggle('choosing', s.mode === 'choose-meld');
    // The state shown (tests read it; motion may too).
    if (s.game) el.board.dataset.stateId = String(s.game.state_id);
    const last = s.game && s.game.last;
    renderBoard(el.board, {
      view: v,
      notes: notesOf(s),
      seats: seatsOf(s),
      mySeat: s.seat,
      deadlineAt: s.deadlineAt,
      now: Date.now(),
      ownSeatApart: true,
      standIn: new Set(last && last.stand_in && v && v.to_act === last.seat ? [last.seat] : []),
      onMeld: (i) => {
        const cur = store.get();
        if (cur.selected.length) handlers.addTo(i);
        else say('Select the cards to add to this meld first.', 'error');
      },
      closable: new Set(legalOf(s).filter((a) => verbOf(a) === 'canasta').map((a) => Number(a.split(' ')[1]))),
      onClose: (i) => act(`canasta ${i}`),
      onPile: clickPile,
      onStock: () => { if (myTurn(store.get())) handlers.draw(); },
    });
    // On a small screen the felt scrolls: on this seat's turn the stock and
    // the pile come into its view, so the pile is read before the choice.
    const center = el.board.querySelector('[data-testid="center"]');
    if (center && myTurn(s) && (!prevGame || prevGame.view?.to_act !== s.seat || prevGame.view?.phase !== v.phase)) {
      const b = el.board.getBoundingClientRect();
      const c = center.getBoundingClientRect();
      if (c.top < b.top || c.bottom > b.bottom) el.board.scrollTop += c.top - b.top - Math.max(0, (b.height - c.height) / 2);
    }
    prevGame = s.game;
  }
  let prevGame = null;
  /** @type {string | null} */
  let prevFresh = null;
  /** A hand scrolled sideways fades at the edge where more cards are. */
  function markHandEdges() {
    const e = el.hand;
    const more = e.scrollWidth - e.clientWidth > 2;
    e.classList.toggle('more-left', more && e.scrollLeft > 2);
    e.classList.toggle('more-right', more && e.scrollLeft < e.scrollWidth - e.clientWidth - 2);
  }
  el.hand.addEventListener('scroll', markHandEdges, { passive: true });

  function renderHand(s) {
    const v = viewOf(s);
    if (!v || s.seat === null) {
      el.hand.replaceChildren(h('div.hand-none', s.seat === null ? '' : 'Your cards come with the deal.'));
      el.hand.classList.add('empty');
      fill(el.handTools);
      return;
    }
    const scrolled = el.hand.scrollLeft;
    drawHand(el.hand, { order: s.order, selected: s.selected, marked: s.marked, cursor: s.cursor, fresh: s.fresh, hint: s.hint && s.hint.action, sortBy: s.sortBy }, { click: clickCard, double: doubleClickCard, drop: dropCards });
    // A hand that scrolls sideways (a phone) keeps its place, and shows the cards just drawn or taken.
    el.hand.scrollLeft = scrolled;
    const fresh = s.fresh.join(' ') !== (prevFresh || '') ? /** @type {HTMLElement | null} */ (el.hand.querySelector('[data-fresh]')) : null;
    prevFresh = s.fresh.join(' ');
    if (fresh && el.hand.scrollWidth > el.hand.clientWidth) {
      const box = el.hand.getBoundingClientRect();
      const r = fresh.getBoundingClientRect();
      if (r.left < box.left || r.right > box.right) el.hand.scrollLeft += r.left - box.left - box.width / 3;
    }
    markHandEdges();
    const sortBtn = (by, label) => h('button.small.sort', { testid: `sort-${by}`, class: `small sort${s.sortBy === by ? ' on' : ''}`, 'aria-pressed': s.sortBy === by ? 'true' : 'false', on: { click: () => handlers.sort(by) } }, label);
    const sel = s.selected.length;
    const last = s.game && s.game.last;
    fill(
      el.handTools,
      seatChip(
        { view: v, seats: seatsOf(s), mySeat: s.seat, deadlineAt: s.deadlineAt, now: Date.now(), standIn: new Set(last && last.stand_in && v.to_act === last.seat ? [last.seat] : []) },
        s.seat,
        'bottom',
      ),
      // The seat's chip says how many cards the hand holds; this, what is picked.
      h('span.hand-count', [sel ? `${sel} selected` : '', s.marked.length ? plural(s.marked.length, 'group') : ''].filter(Boolean).join(', ')),
      h('span.sort-label', 'Sort:'),
      sortBtn('rank', 'by rank'),
      sortBtn('suit', 'by suit'),
      s.sortBy === 'own' ? h('span.quiet.small', 'your order') : null,
    );
  }

  function turnText(s) {
    const v = viewOf(s);
    const list = seatsOf(s);
    const st = statusOf(s);
    if (st === 'waiting') return 'The game starts when every seat is taken.';
    if (st === 'hand_over') return 'The hand is over.';
    if (st === 'finished') return 'The game is over.';
    if (!v) return '';
    const mine = v.to_act === s.seat;
    const who = mine ? 'Your turn' : `${seatName(list, v.to_act)}\u2019s turn`;
    if (v.phase === 'draw') return mine ? 'Your turn: draw from the stock, or take the pile.' : `${who}.`;
    if (v.phase === 'play') return mine ? 'Meld or add if you like; discard a card to end your turn.' : `${who}.`;
    if (v.phase === 'answer') return mine ? 'Your partner asks whether they may go out.' : `${seatName(list, v.to_act)} is answering: may ${v.current === s.seat ? 'you' : seatName(list, v.current)} go out?`;
    return '';
  }

  function renderBar(s) {
    const v = viewOf(s);
    const L = legalOf(s);
    const verbs = new Set(L.map(verbOf));
    const mine = myTurn(s);
    const timer = s.deadlineAt && v && v.to_act === s.seat ? h('span.timer', { testid: 'my-timer', dataset: { deadline: String(s.deadlineAt) } }, clockText(s.deadlineAt - Date.now())) : null;
    let note = null;
    if (v && mine && v.asked && v.current === s.seat && v.phase !== 'answer') {
      note = v.answer === true ? 'Your partner said yes: you must go out this turn.' : v.answer === false ? 'Your partner said no: you may not go out this turn.' : null;
    } else if (v && mine && v.must_go_out) note = 'You must go out this turn.';
    fill(el.turn, h('span.turn-text', { class: `turn-text${mine ? ' mine' : ''}` }, turnText(s)), timer, note ? h('span.turn-note', { testid: 'turn-note' }, note) : null);
    renderStatus(s);
    const btn = (testid, label, verb, fn, extra = {}) =>
      h(
        'button.act',
        {
          testid,
          class: `act ${verb ? (verbs.has(verb) ? 'legal' : 'not-legal') : ''} ${extra.cls || ''}`,
          title: extra.title || label,
          disabled: verb ? !verbs.has(verb) : !!extra.disabled,
          on: { click: fn },
        },
        label,
      );
    const canUndo = s.game && s.game.can_undo;
    fill(
      el.actions,
      btn('draw-button', 'Draw', 'draw', handlers.draw, { title: 'draw from the stock (d)' }),
      btn('pickup-button', 'Take pile', 'pickup', handlers.pickup, { title: 'take the pile with the selected cards (p)' }),
      btn('meld-button', 'Meld', 'meld', handlers.meld, { title: 'meld the selected cards (m)' }),
      btn('add-button', 'Add', 'add', handlers.add, { title: 'add the selected cards to a meld (a)' }),
      btn('discard-button', 'Discard', 'discard', handlers.discard, { title: 'discard the selected card (x)' }),
      verbs.has('ask') ? btn('ask-button', 'May I go out?', 'ask', handlers.ask, { title: 'ask your partner (k)' }) : null,
      s.game && s.game.can_undo !== undefined ? btn('undo-button', 'Undo', null, handlers.undo, { title: 'take back your last move (u)', disabled: !canUndo, cls: 'minor' }) : null,
      btn('hint-button', 'Hint', null, handlers.hint, { title: 'what the strongest bot would play (h)', disabled: !mine, cls: 'minor' }),
      s.selected.length || s.marked.length ? btn('group-button', 'Group', null, handlers.group, { title: 'mark the selection as one group of a meld (g)', cls: 'minor' }) : null,
      s.selected.length || s.marked.length ? btn('clear-button', 'Clear', null, handlers.clear, { title: 'clear the selection (Esc)', cls: 'minor' }) : null,
    );
    el.actions.classList.toggle('my-turn', mine);
    el.bar.classList.toggle('hidden', s.seat === null);
    el.hand.parentElement?.classList.toggle('hidden', s.seat === null);
    page.classList.toggle('my-turn', mine);
    page.classList.toggle('watching', s.seat === null);
    document.title = `${mine ? '\u25cf Your turn \u00b7 ' : ''}Canasta \u00b7 ${s.table ? variantTitle(s.table.variant) : id}`;
  }

  function renderStatus(s) {
    const st = s.status;
    el.status.className = `status ${st.kind || 'info'}`;
    let text = st.text;
    if (st.kind === 'error' && st.code === 'illegal_action') text = refusalWords(s.refused, st.text, labelOf(s));
    else if (st.kind === 'error' && st.code === 'cannot_undo') text = `You cannot undo: ${st.text}`;
    const hint = st.kind === 'hint' && s.hint ? s.hint : null;
    if (hint) text = `Hint: ${actionWords(hint.action, labelOf(s))} \u2014 ${hint.advice}`.replace(/ \u2014 $/, '');
    fill(
      el.status,
      text ? h('span.status-text', text) : null,
      hint ? h('button.small', { testid: 'play-hint', on: { click: () => act(hint.action) } }, 'Play it') : null,
      hint && hint.figures
        ? h('button.small.minor', { testid: 'hint-numbers', 'aria-expanded': hint.numbers ? 'true' : 'false', on: { click: () => dispatch({ type: 'hint-numbers' }) } }, hint.numbers ? 'Hide numbers' : 'Numbers')
        : null,
      hint && hint.numbers ? h('span.hint-figures', { testid: 'hint-figures' }, hint.figures) : null,
    );
  }

  function renderAdvanced(s) {
    page.classList.toggle('advanced', s.advanced);
    el.advanced.classList.toggle('hidden', !s.advanced || s.seat === null);
    if (!s.advanced) return;
    drawLegal(el.legal, el.legalCount, legalOf(s), {
      filter: el.legalFilter.value,
      selection: el.legalWithSel.checked ? [...markedCards(s).flat(), ...selectedCards(s)] : [],
      myTurn: myTurn(s),
      onPlay: act,
    });
  }

  function renderSide(s) {
    const v = viewOf(s);
    const n = notesOf(s);
    const labelFor = (e) => {
      if (!v || !n || !n.melds || !s.game || e.hand !== s.game.hand) return undefined;
      const meld = (n.melds[v.side_of[e.seat]] || [])[Number(e.action.split(' ')[1])];
      return meld && meld.label;
    };
    renderLog(el.log, s.log, { seats: seatsOf(s), mySeat: s.seat, sideOf: v && v.side_of, teams: teams(s), labelFor });
  }

  function renderOverlay(s) {
    el.overlay.replaceChildren();
    const st = statusOf(s);
    const v = viewOf(s);
    const model = { id, seats: seatsOf(s), teams: teams(s), mySeat: s.seat, handEnd: s.handEnd, hands: s.hands, gameEnd: s.gameEnd, status: st, ready: s.game && s.game.ready, nextSent: s.nextSent, rematch: s.rematch };
    if (s.dialog === 'scores' && (s.handEnd || s.gameEnd || st === 'hand_over')) {
      el.overlay.append(
        scoresDialog(model, {
          next: () => { if (sock.send({ type: 'next' })) dispatch({ type: 'next-sent' }); },
          close: handlers.closeDialog,
          rematch,
        }),
      );
    } else if (st === 'hand_over' || s.gameEnd) {
      el.overlay.append(h('button.reopen', { testid: 'show-scores', on: { click: () => dispatch({ type: 'dialog', dialog: 'scores' }) } }, s.gameEnd ? 'The final scores' : 'The hand\u2019s scores'));
    }
    if (s.dialog === 'sheet') el.overlay.append(sheetDialog(model, handlers.closeDialog));
    if (s.dialog === 'help') el.overlay.append(helpOverlay(TABLE_KEYS, MOUSE_HELP, handlers.closeDialog));
    if (v && v.phase === 'answer' && v.to_act === s.seat && s.seat !== null && st === 'playing') {
      const asker = seatName(seatsOf(s), v.current);
      el.overlay.append(
        h(
          'div.overlay',
          { role: 'dialog', 'aria-modal': 'true', testid: 'ask-dialog' },
          h(
            'div.dialog.ask',
            h('h2', `${asker} asks: \u201cMay I go out?\u201d`),
            h('p', 'Yes binds your partner to go out this turn; no means they may not go out this turn.'),
            h('div.dialog-buttons', h('button.primary', { testid: 'yes-button', disabled: !!s.pending, on: { click: handlers.yes } }, 'Yes, go out'), h('button', { testid: 'no-button', disabled: !!s.pending, on: { click: handlers.no } }, 'No, not yet')),
          ),
        ),
      );
    }
  }

  // ---- the guided first hand (table-guide.js says what; this draws it) ----
  let guideMemory = loadGuide();
  let rulesForGuide = guideRules(null, null);
  let rulesAsked = false;
  function renderGuide(s) {
    for (const t of page.querySelectorAll('.guide-target')) t.classList.remove('guide-target');
    const { show, memory } = guideFor(guideMemory, id, s.game ? s.game.hand : null);
    if (JSON.stringify(memory) !== JSON.stringify(guideMemory)) saveGuide((guideMemory = memory));
    const step = show ? guideStep(s, rulesForGuide) : null;
    el.guide.classList.toggle('hidden', !step);
    page.classList.toggle('guided', !!step);
    if (!step) return fill(el.guide);
    if (!rulesAsked && s.table) {
      rulesAsked = true;
      api.variants().then((c) => { rulesForGuide = guideRules(c, store.get().table); drawn[drawn.length - 1] = null; render(store.get()); }).catch(() => {});
    }
    el.guide.dataset.step = step.id;
    fill(
      el.guide,
      // The buttons first: on a phone they float right of the text's first line.
      h(
        'div.guide-buttons',
        step.hint && myTurn(s) ? h('button.small', { testid: 'guide-hint', on: { click: handlers.hint } }, 'Hint') : null,
        h('button.small.minor', { testid: 'guide-close', title: 'hide the guide for good', on: { click: () => { saveGuide((guideMemory = { ...guideMemory, table: id, hand: guideMemory ? guideMemory.hand : null, closed: true })); drawn[drawn.length - 1] = null; render(store.get()); } } }, 'Hide guide'),
      ),
      h('div.guide-text', h('strong.guide-title', { testid: 'guide-title' }, step.title), ' ', h('span.guide-why', { testid: 'guide-why' }, step.why)),
    );
    const target = step.zone ? page.querySelector(`[data-zone="${step.zone}"]`) : null;
    if (target) target.classList.add('guide-target');
  }

  // One render per region; each runs when what it draws from changed.
  /** @type {[(s: import('./table-store.js').TableState) => unknown[], (s: import('./table-store.js').TableState) => void][]} */
  const regions = [
    [(s) => [s.table, s.game, s.conn, s.seatsInfo, s.speed, s.advanced], renderTop],
    [(s) => [s.table, s.game, s.seat, s.seatsInfo, s.rematch, s.dialog, s.conn], renderNotice],
    [(s) => [s.game, s.seat, s.seatsInfo, s.mode, s.deadlineAt], renderBoardArea],
    [(s) => [s.order, s.selected, s.marked, s.cursor, s.fresh, s.hint, s.sortBy, s.game, s.seat, s.seatsInfo, s.deadlineAt], renderHand],
    [(s) => [s.game, s.status, s.hint, s.selected, s.marked, s.seat, s.deadlineAt, s.refused, s.pending], renderBar],
    [(s) => [s.game, s.advanced, s.selected, s.marked, s.seat], renderAdvanced],
    [(s) => [s.log, s.seatsInfo, s.seat, s.game], renderSide],
    [(s) => [s.dialog, s.handEnd, s.gameEnd, s.game, s.hands, s.nextSent, s.rematch, s.pending, s.seatsInfo], renderOverlay],
    // Last: it marks the zone it points at in what the others drew.
    [(s) => [s.game, s.seat, s.seatsInfo, s.mode, s.deadlineAt, s.table], renderGuide],
  ];
  /** @type {(unknown[] | null)[]} */
  const drawn = regions.map(() => null);
  function render(s) {
    regions.forEach(([deps, draw], i) => {
      const now = deps(s);
      const before = drawn[i];
      if (before && now.length === before.length && now.every((x, k) => x === before[k])) return;
      drawn[i] = now;
      draw(s);
    });
  }
  store.subscribe((s) => render(s));

  // ---- keys ----
  const onKey = tableKeys({
    get: store.get,
    dispatch,
    handlers,
    ownMelds: () => ownMelds(store.get()),
    dialogButton: () => el.overlay.querySelector('[data-testid="next-hand"]:not([disabled]), [data-testid="yes-button"]'),
  });
  document.addEventListener('keydown', onKey);
  // A click elsewhere closes the menu (and the drawer of the moves).
  const closeMenu = (e) => {
    const target = /** @type {Node} */ (e.target);
    if (el.menu.open && !el.menu.contains(target)) el.menu.open = false;
    // And the moves' drawer on a narrow screen.
    if (page.classList.contains('show-side') && !el.side.contains(target) && !(target instanceof Element && target.closest('[data-testid="log-button"]'))) page.classList.remove('show-side');
  };
  document.addEventListener('pointerdown', closeMenu);

  // ---- the countdowns ----
  const clock = setInterval(() => {
    for (const t of /** @type {NodeListOf<HTMLElement>} */ (page.querySelectorAll('[data-deadline]'))) t.textContent = clockText(Number(t.dataset.deadline) - Date.now());
  }, 1000);

  // ---- start ----
  render(store.get());
  api
    .getTable(id)
    .then((t) => {
      if (!store.get().table) dispatch({ type: 'summary', table: t, at: 0 });
    })
    .catch((e) => {
      if (e.status === 404) {
        sock.stop();
        fill(root, h('div.page-error', { testid: 'no-table' }, h('h2', 'No such table'), h('p', e.message), h('a', { href: '#/' }, 'Back to the lobby')));
      }
    });
  sock.connect();
  // The seats' connections change no state: the summary is polled for them.
  const summaryTimer = setInterval(async () => {
    if (store.get().conn !== 'open' || document.hidden) return;
    const asked = Date.now();
    try {
      const t = await api.getTable(id);
      dispatch({ type: 'summary', table: t, at: asked });
    } catch {
      /* the socket's reconnection says what is wrong */
    }
  }, 8000);

  return () => {
    clearInterval(summaryTimer);
    clearInterval(clock);
    queue.stop();
    sock.stop();
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('pointerdown', closeMenu);
  };
}

/** `Classic`, `Samba`, `Pennies from Heaven`: a variant's id as a title. */
export function variantTitle(v) {
  const names = { classic: 'Classic Canasta', canastone: 'Canastone', pennies: 'Pennies from Heaven' };
  return names[v] || String(v).replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
