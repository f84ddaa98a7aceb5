// @ts-check
// A table's state and the one pure function that changes it: events in (the
// server's messages, the connection's changes, the player's clicks), a new
// state out. No DOM and no clock here (an event carries its time `at`), so
// tests/unit.mjs runs it under Node; table.js draws the state it returns.

import { arrangeHand, cardsAdded } from './cards.js';

/** @typedef {import('./types.js').StateMsg} StateMsg */
/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./types.js').TableSummary} TableSummary */
/** @typedef {import('./types.js').SeatInfo} SeatInfo */
/** @typedef {import('./types.js').HandEndMsg} HandEndMsg */
/** @typedef {import('./types.js').GameEndMsg} GameEndMsg */
/** @typedef {import('./types.js').LogItem} LogItem */

/**
 * @typedef {object} MoveEntry
 * @property {'move'} kind
 * @property {number} [hand]
 * @property {number} seat
 * @property {string} action
 * @property {number} [took]
 * @property {boolean} [stand_in]
 * @property {string} [meld] the label of the meld an `add` or `canasta` names, as it stood after
 * @property {number} [side] the side of the seat that played it
 *
 * @typedef {object} HandEndEntry
 * @property {'hand-end'} kind
 * @property {HandEndMsg} end
 *
 * @typedef {object} GameEndEntry
 * @property {'game-end'} kind
 * @property {GameEndMsg} end
 *
 * @typedef {object} DealEntry
 * @property {'deal'} kind
 * @property {number} hand
 * @property {boolean} [first] the game's first deal
 *
 * @typedef {MoveEntry | HandEndEntry | GameEndEntry | DealEntry} LogEntry
 *
 * @typedef {'connecting' | 'open' | 'reconnecting' | 'closed'} Conn
 * @typedef {'rank' | 'suit' | 'own'} SortBy
 * @typedef {'normal' | 'fast' | 'instant'} Speed
 * @typedef {{text: string, kind: string, code?: string}} Status
 * @typedef {{action: string, advice: string, figures: string, numbers: boolean}} Hint
 * @typedef {null | 'scores' | 'help' | 'menu' | 'sheet'} Dialog
 *
 * @typedef {object} TableState
 * @property {string} id
 * @property {number | null} seat this connection's seat, null when watching
 * @property {TableSummary | null} table
 * @property {StateMsg | null} game the state shown
 * @property {number | null} deadlineAt when a stand-in plays for the seat to act (ms since the epoch)
 * @property {Conn} conn
 * @property {{seats: SeatInfo[], at: number} | null} seatsInfo the seats as last heard of
 * @property {LogEntry[]} log
 * @property {boolean} skipLast the next state's `last` is in the welcome's log already
 * @property {HandEndMsg[]} hands every hand's end so far (the score sheet)
 * @property {HandEndMsg | null} handEnd the last hand's end while it is shown
 * @property {GameEndMsg | null} gameEnd
 * @property {Dialog} dialog the box open over the table
 * @property {boolean} nextSent
 * @property {string[]} order the hand in the order shown
 * @property {SortBy} sortBy
 * @property {number[]} selected indexes into `order`
 * @property {number[][]} marked groups of indexes marked for one meld
 * @property {number} cursor
 * @property {string[]} fresh cards just drawn or taken (with copies), marked until the turn ends
 * @property {'play' | 'choose-meld'} mode
 * @property {string} typedMeld
 * @property {Status} status
 * @property {Hint | null} hint
 * @property {string | null} pending the action sent and not yet answered
 * @property {string | null} refused the action the last refusal answered
 * @property {boolean} advanced the legal-move list and the typed action shown
 * @property {Speed} speed the viewer's pace
 * @property {string | null} rematch the id of the rematch's table
 * @property {boolean} wasDown the connection dropped since the last welcome
 */

const LOG_KEPT = 600;

/**
 * A table's state before anything is heard of it.
 * @param {string} id
 * @param {{advanced?: boolean, speed?: Speed, sortBy?: SortBy}} [prefs]
 * @returns {TableState}
 */
export function initialState(id, prefs = {}) {
  return {
    id,
    seat: null,
    table: null,
    game: null,
    deadlineAt: null,
    conn: 'connecting',
    seatsInfo: null,
    log: [],
    skipLast: false,
    hands: [],
    handEnd: null,
    gameEnd: null,
    dialog: null,
    nextSent: false,
    order: [],
    sortBy: prefs.sortBy || 'rank',
    selected: [],
    marked: [],
    cursor: 0,
    fresh: [],
    mode: 'play',
    typedMeld: '',
    status: { text: 'Connecting\u2026', kind: 'connmsg' },
    hint: null,
    pending: null,
    refused: null,
    advanced: !!prefs.advanced,
    speed: prefs.speed || 'normal',
    rematch: null,
    wasDown: false,
  };
}

/**
 * @typedef {{type: 'server', msg: ServerMsg, at: number}
 *   | {type: 'conn', conn: Conn}
 *   | {type: 'summary', table: TableSummary, at: number}
 *   | {type: 'sent', action: string}
 *   | {type: 'say', text: string, kind?: string, code?: string}
 *   | {type: 'toggle', index: number}
 *   | {type: 'clear'}
 *   | {type: 'group'}
 *   | {type: 'cursor', to: number}
 *   | {type: 'sort', by: SortBy}
 *   | {type: 'move-card', from: number, to: number}
 *   | {type: 'mode', mode: 'play' | 'choose-meld', typed?: string}
 *   | {type: 'advanced', on: boolean}
 *   | {type: 'speed', speed: Speed}
 *   | {type: 'dialog', dialog: Dialog}
 *   | {type: 'next-sent'}
 *   | {type: 'hint-numbers'}
 *   | {type: 'seat-lost'}} TableEvent
 */

/**
 * The state after `event`.
 * @param {TableState} s
 * @param {TableEvent} e
 * @returns {TableState}
 */
export function reduce(s, e) {
  switch (e.type) {
    case 'server':
      return onServer(s, e.msg, e.at);
    case 'conn':
      return {
        ...s,
        conn: e.conn,
        // An action sent on a connection that dropped is answered by nobody.
        pending: e.conn === 'open' ? s.pending : null,
        wasDown: s.wasDown || e.conn === 'reconnecting',
        status: e.conn === 'closed' && ['pending', 'connmsg'].includes(s.status.kind) ? quiet() : s.status,
      };
    case 'summary':
      if (s.seatsInfo && s.seatsInfo.at > e.at) return { ...s, table: { ...e.table } };
      return { ...s, table: e.table, seatsInfo: { seats: e.table.seats, at: e.at } };
    case 'sent':
      return { ...s, pending: e.action, mode: 'play', status: { text: '', kind: 'pending' } };
    case 'say':
      return { ...s, status: { text: e.text, kind: e.kind || 'info', code: e.code } };
    case 'toggle': {
      const i = e.index;
      if (i < 0 || i >= s.order.length) return s;
      if (s.marked.some((g) => g.includes(i))) return { ...s, marked: s.marked.filter((g) => !g.includes(i)), cursor: i };
      const selected = s.selected.includes(i) ? s.selected.filter((x) => x !== i) : [...s.selected, i].sort((a, b) => a - b);
      return { ...s, selected, cursor: i };
    }
    case 'clear':
      return { ...s, selected: [], marked: [], mode: 'play', status: quiet() };
    case 'group':
      if (!s.selected.length) return { ...s, status: { text: 'Select the cards of a group first.', kind: 'error' } };
      return {
        ...s,
        marked: [...s.marked, s.selected],
        selected: [],
        status: { text: `${s.marked.length + 1} group${s.marked.length ? 's' : ''} marked: select the next, or meld.`, kind: 'info' },
      };
    case 'cursor':
      return { ...s, cursor: Math.max(0, Math.min(e.to, s.order.length - 1)) };
    case 'sort': {
      const order = arrangeHand(s.order, e.by, s.order);
      return { ...s, sortBy: e.by, order, ...keepChoice(s, order) };
    }
    case 'move-card': {
      const { from, to } = e;
      if (from === to || from < 0 || from >= s.order.length) return s;
      const order = [...s.order];
      const [card] = order.splice(from, 1);
      const at = Math.max(0, Math.min(to > from ? to - 1 : to, order.length));
      order.splice(at, 0, card);
      return { ...s, order, sortBy: 'own', selected: [], marked: [], cursor: at };
    }
    case 'mode':
      return { ...s, mode: e.mode, typedMeld: e.typed || '' };
    case 'advanced':
      return { ...s, advanced: e.on };
    case 'speed':
      return { ...s, speed: e.speed };
    case 'dialog':
      return { ...s, dialog: e.dialog };
    case 'next-sent':
      return { ...s, nextSent: true };
    case 'hint-numbers':
      return s.hint ? { ...s, hint: { ...s.hint, numbers: !s.hint.numbers } } : s;
    case 'seat-lost':
      return { ...s, seat: null };
    default:
      return s;
  }
}

/** @returns {Status} */
const quiet = () => ({ text: '', kind: 'info' });

/**
 * The selection and groups carried over to a new order of the same cards.
 * @param {TableState} s
 * @param {string[]} order
 */
function keepChoice(s, order) {
  const used = new Set();
  /** @param {number} i */
  const moved = (i) => {
    const code = s.order[i];
    let j = order.findIndex((c, k) => c === code && !used.has(k));
    if (j >= 0) used.add(j);
    return j;
  };
  const selected = s.selected.map(moved).filter((j) => j >= 0).sort((a, b) => a - b);
  const marked = s.marked.map((g) => g.map(moved).filter((j) => j >= 0));
  return { selected, marked, cursor: Math.min(s.cursor, Math.max(0, order.length - 1)) };
}

/**
 * @param {TableState} s
 * @param {ServerMsg} msg
 * @param {number} at
 * @returns {TableState}
 */
function onServer(s, msg, at) {
  switch (msg.type) {
    case 'welcome': {
      const history = logFromHistory(msg.log || []);
      return {
        ...s,
        conn: 'open',
        seat: msg.seat === undefined ? null : msg.seat,
        table: msg.table || s.table,
        seatsInfo: msg.table && msg.table.seats ? { seats: msg.table.seats, at } : s.seatsInfo,
        log: history.log,
        hands: history.hands,
        handEnd: s.handEnd,
        gameEnd: s.gameEnd || history.gameEnd,
        // A game already over when the page loads opens on its final scores.
        dialog: !s.gameEnd && history.gameEnd ? 'scores' : s.dialog,
        skipLast: true,
        pending: null,
        status: s.wasDown ? { text: 'Reconnected.', kind: 'info' } : s.status.kind === 'error' ? s.status : quiet(),
        wasDown: false,
      };
    }
    case 'state':
      return onState(s, msg, at);
    case 'presence':
      // A seat's player came or went: the seats and the turn's clock.
      return {
        ...s,
        seatsInfo: msg.seats ? { seats: msg.seats, at } : s.seatsInfo,
        deadlineAt: typeof msg.deadline_ms === 'number' ? at + msg.deadline_ms : null,
      };
    case 'hand_end':
      return {
        ...s,
        handEnd: msg,
        hands: [...s.hands.filter((x) => x.hand !== msg.hand), msg],
        dialog: 'scores',
        nextSent: false,
        log: trim([...s.log, { kind: 'hand-end', end: msg }]),
      };
    case 'game_end':
      return {
        ...s,
        gameEnd: msg,
        dialog: 'scores',
        log: trim([...s.log, { kind: 'game-end', end: msg }]),
      };
    case 'hint':
      if (!s.game || msg.state_id !== s.game.state_id) return s;
      return {
        ...s,
        hint: { action: msg.action, advice: msg.advice || msg.why || '', figures: msg.figures || '', numbers: false },
        status: { text: '', kind: 'hint' },
      };
    case 'error':
      return onError(s, msg);
    case 'undone': {
      // The last `removed` entries of the public log are gone (deals and
      // hands' ends are not in the server's count).
      let left = msg.removed;
      const log = [...s.log];
      while (left > 0 && log.length) {
        const e = log.pop();
        if (e && e.kind === 'move') left -= 1;
      }
      return { ...s, log, skipLast: true, status: { text: 'Taken back.', kind: 'info' } };
    }
    case 'rematch':
      return { ...s, rematch: msg.id };
    case 'closed':
      return { ...s, status: { text: msg.message || 'This table has closed.', kind: 'connmsg' } };
    case 'shutdown':
      return { ...s, status: { text: `${msg.message || 'The server is stopping'} \u2014 reconnecting when it is back.`, kind: 'connmsg' } };
    case 'storage':
      // The table waits for its last change to be saved, then plays on.
      return msg.ok
        ? { ...s, status: { text: 'Saved again; the game goes on.', kind: 'info' } }
        : { ...s, status: { text: 'The game waits: its last move could not be saved yet. It goes on by itself once it is.', kind: 'connmsg' } };
    default:
      return s;
  }
}

/**
 * @param {TableState} s
 * @param {import('./types.js').ErrorMsg} msg
 * @returns {TableState}
 */
function onError(s, msg) {
  const action = s.pending;
  const base = { ...s, pending: null };
  if (msg.code === 'bad_token') return { ...base, seat: null, status: { text: `${msg.message || 'That seat is not yours'} \u2014 watching instead.`, kind: 'error' } };
  // The reason alone: table.js says it after the action in a player's words.
  return { ...base, status: { text: msg.message || msg.code || 'refused', kind: 'error', code: msg.code }, refused: action };
}

/** @param {LogEntry[]} log */
const trim = (log) => (log.length > LOG_KEPT ? log.slice(log.length - LOG_KEPT) : log);

/**
 * @param {TableState} s
 * @param {StateMsg} msg
 * @param {number} at
 * @returns {TableState}
 */
function onState(s, msg, at) {
  const prev = s.game;
  /** @type {LogEntry[]} */
  let log = s.log;
  const view = msg.view;
  if (msg.last && !s.skipLast) {
    log = [...log, moveEntry(msg, prev)];
  } else if (!msg.last && view && prev && prev.view && prev.hand !== msg.hand) {
    log = [...log, { kind: 'deal', hand: msg.hand }];
  } else if (!msg.last && view && prev && !prev.view) {
    log = [...log, { kind: 'deal', hand: msg.hand, first: true }];
  }
  if (!log.length && view && msg.hand) log = [{ kind: 'deal', hand: msg.hand }];
  const next = {
    ...s,
    game: msg,
    log: trim(log),
    skipLast: false,
    deadlineAt: typeof msg.deadline_ms === 'number' ? at + msg.deadline_ms : null,
    seatsInfo: msg.seats ? { seats: msg.seats, at } : s.seatsInfo,
    table: s.table && msg.status ? { ...s.table, status: msg.status } : s.table,
    hint: null,
  };
  // A new hand closes the last one's scores.
  if (msg.status === 'playing' && prev && prev.status === 'hand_over') {
    next.handEnd = null;
    next.nextSent = false;
    if (!s.gameEnd && next.dialog === 'scores') next.dialog = null;
  }
  // After a reload, the scores come from the log.
  if ((msg.status === 'hand_over' || msg.status === 'finished') && !next.handEnd && s.hands.length) {
    next.handEnd = s.hands[s.hands.length - 1];
  }
  if (msg.status === 'hand_over' && (!prev || prev.status !== 'hand_over') && !next.dialog) next.dialog = 'scores';
  if (msg.status === 'finished' && !next.gameEnd) {
    const teams = (msg.annotations && (msg.annotations.teams || msg.annotations.sides)) || [];
    next.gameEnd = { type: 'game_end', totals: teams.map((t) => t.score), winner: undefined };
    next.dialog = 'scores';
  }
  // The hand: the player's order kept, the selection while the cards are the same.
  const cards = (view && view.hand) || [];
  const order = arrangeHand(cards, s.sortBy, s.order);
  if (order.join(' ') !== s.order.join(' ')) {
    next.order = order;
    next.selected = [];
    next.marked = [];
    next.cursor = Math.min(s.cursor, Math.max(0, order.length - 1));
  }
  next.fresh = freshCards(s, msg, cards);
  // The pending action answered; a hint, a stale refusal out of date.
  if (s.pending) {
    next.pending = null;
    if (s.status.kind === 'pending') next.status = quiet();
  } else if (s.status.kind === 'hint') next.status = quiet();
  if (prev && prev.state_id !== msg.state_id && s.status.kind === 'error' && s.status.code === 'stale_state') next.status = quiet();
  return next;
}

/**
 * The cards marked as just drawn or taken: those this seat's draw or pickup
 * brought, kept until its turn ends.
 * @param {TableState} s
 * @param {StateMsg} msg
 * @param {string[]} cards
 */
function freshCards(s, msg, cards) {
  const view = msg.view;
  if (!view || s.seat === null || !msg.last) return view && view.to_act === s.seat && s.fresh.length ? keepHeld(s.fresh, cards) : [];
  const mine = msg.last.seat === s.seat;
  const verb = msg.last.action.split(' ')[0];
  if (mine && (verb === 'draw' || verb === 'pickup')) {
    const before = (s.game && s.game.view && s.game.view.hand) || [];
    return [...keepHeld(s.fresh, cards), ...cardsAdded(before, cards)];
  }
  if (view.current !== s.seat) return [];
  return keepHeld(s.fresh, cards);
}

/**
 * @param {string[]} fresh
 * @param {string[]} cards
 */
function keepHeld(fresh, cards) {
  const left = [...cards];
  return fresh.filter((c) => {
    const i = left.indexOf(c);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

/**
 * @param {StateMsg} msg
 * @param {StateMsg | null} prev the state the action was played in
 * @returns {MoveEntry}
 */
function moveEntry(msg, prev) {
  const last = /** @type {import('./types.js').LastAction} */ (msg.last);
  /** @type {MoveEntry} */
  const entry = { kind: 'move', hand: msg.hand, seat: last.seat, action: last.action };
  if (last.took) entry.took = last.took;
  if (last.stand_in) entry.stand_in = true;
  const view = msg.view;
  if (view && view.side_of) {
    const side = view.side_of[last.seat];
    entry.side = side;
    const [verb, n] = last.action.split(' ');
    const melds = msg.annotations && msg.annotations.melds && msg.annotations.melds[side];
    if ((verb === 'add' || verb === 'canasta') && melds && melds[Number(n)]) entry.meld = melds[Number(n)].label;
    // A bare pickup puts the top card on the side's meld of its rank.
    const pile = prev && prev.view && prev.view.pile;
    if (last.action === 'pickup' && pile && pile.length) {
      const top = pile[pile.length - 1];
      if (top !== 'JK') entry.meld = top[0];
    }
  }
  return entry;
}

/**
 * The welcome's history as the log, and the hands' and game's ends in it
 * (the score sheet after a reload).
 * @param {LogItem[]} history
 * @returns {{log: LogEntry[], hands: HandEndMsg[], gameEnd: GameEndMsg | null}}
 */
export function logFromHistory(history) {
  /** @type {LogEntry[]} */
  const log = [];
  /** @type {HandEndMsg[]} */
  const hands = [];
  /** @type {GameEndMsg | null} */
  let gameEnd = null;
  /** @type {number | null} */
  let hand = null;
  // The pile's top card as the history tells it: the last discard of the
  // hand (a pickup empties the pile, so the next pickup takes a later
  // discard). A hand's first upcard is not in the history: a pickup of it
  // stays unnamed.
  /** @type {string | null} */
  let top = null;
  for (const item of history) {
    if (!item || typeof item !== 'object') continue;
    if (item.action !== undefined && item.seat !== undefined) {
      if (item.hand !== undefined && item.hand !== hand) {
        log.push({ kind: 'deal', hand: item.hand });
        top = null;
      }
      /** @type {MoveEntry} */
      const entry = { kind: 'move', hand: item.hand, seat: item.seat, action: item.action };
      if (item.took) entry.took = item.took;
      if (item.stand_in) entry.stand_in = true;
      const [verb, card] = item.action.split(' ');
      // A bare pickup puts the top card on the side's meld of its rank, as live.
      if (item.action === 'pickup' && top && top !== 'JK') entry.meld = top[0];
      if (verb === 'discard' && card) top = card;
      else if (verb === 'pickup') top = null;
      log.push(entry);
    } else if (item.hand_end) {
      /** @type {HandEndMsg} */
      const end = { type: 'hand_end', hand: item.hand || hands.length + 1, result: item.hand_end };
      hands.push(end);
      log.push({ kind: 'hand-end', end });
    } else if (item.game_end) {
      gameEnd = { type: 'game_end', ...item.game_end };
      log.push({ kind: 'game-end', end: gameEnd });
    }
    if (item.hand !== undefined) hand = item.hand;
  }
  return { log, hands, gameEnd };
}

/**
 * A store: the state, `dispatch(event)` and listeners told after each change.
 * @param {TableState} state
 */
export function createStore(state) {
  /** @type {((s: TableState, prev: TableState) => void)[]} */
  const listeners = [];
  return {
    get: () => state,
    /** @param {TableEvent} e */
    dispatch(e) {
      const prev = state;
      state = reduce(state, e);
      if (state !== prev) for (const fn of listeners) fn(state, prev);
    },
    /** @param {(s: TableState, prev: TableState) => void} fn */
    subscribe(fn) {
      listeners.push(fn);
    },
  };
}
