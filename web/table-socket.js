// @ts-check
// A table's WebSocket: hello with the seat's kept token, pings, and
// reconnection with backoff until the table closes. A server that does not
// play the table (several servers on one database) says where it is played
// (`moved` with its url), and the socket reconnects there at once; a server
// that cannot be reached sends it back to this page's. It only emits events
// (`conn` changes and the server's messages); the table's store decides
// what they mean.

import * as api from './api.js';

/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./table-store.js').Conn} Conn */

/**
 * @typedef {object} SocketEvents
 * @property {(conn: Conn) => void} onConn
 * @property {(msg: ServerMsg) => void} onMessage
 * @property {(table: import('./types.js').TableSummary | null) => void} onClosed the table's game is over, or the table is gone
 */

/**
 * The connection of table `id`.
 * @param {string} id
 * @param {SocketEvents} events
 */
export function tableSocket(id, events) {
  /** @type {WebSocket | null} */
  let ws = null;
  let retry = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let pingTimer;
  let stopped = false;
  /** Where another server said the table is played; null: this page's server. */
  /** @type {string | null} */
  let target = null;
  /** The server said the table is elsewhere: reconnect without waiting. */
  let moved = false;
  /** Moves in a row with no other message between (a loop waits, as a failure). */
  let hops = 0;

  function connect() {
    if (stopped) return;
    clearTimeout(retryTimer);
    events.onConn('connecting');
    /** @type {WebSocket} */
    let sock;
    try {
      sock = new WebSocket(target || api.wsUrl(id));
    } catch {
      target = null;
      scheduleReconnect();
      return;
    }
    ws = sock;
    let opened = false;
    sock.onopen = () => {
      opened = true;
      const kept = api.loadSeat(id);
      sock.send(JSON.stringify(kept ? { type: 'hello', token: kept.token } : { type: 'hello' }));
      clearInterval(pingTimer);
      pingTimer = setInterval(() => send({ type: 'ping' }), 25000);
      retry = 0;
    };
    sock.onmessage = (ev) => {
      /** @type {ServerMsg} */
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === 'moved') {
        target = msg.url || null;
        moved = true;
        hops += 1;
        return;
      }
      hops = 0;
      events.onMessage(msg);
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      clearInterval(pingTimer);
      if (stopped) return;
      if (!opened) target = null;
      if (moved && hops <= 3) {
        moved = false;
        connect();
        return;
      }
      moved = false;
      // A finished game's table closes: then there is nothing to reconnect to.
      api
        .getTable(id)
        .then((t) => {
          if (t.status === 'finished') close(t);
          else scheduleReconnect();
        })
        .catch((e) => {
          if (e.status === 404) close(null);
          else scheduleReconnect();
        });
    };
    sock.onerror = () => {};
  }

  /** @param {import('./types.js').TableSummary | null} t */
  function close(t) {
    stop();
    events.onConn('closed');
    events.onClosed(t);
  }

  function scheduleReconnect() {
    if (stopped) return;
    const delay = Math.min(10000, 500 * 2 ** Math.min(retry, 5));
    retry += 1;
    events.onConn('reconnecting');
    retryTimer = setTimeout(connect, delay);
  }

  /** Drops the socket and opens another at once (after claiming a seat). */
  function reconnectNow() {
    const old = ws;
    ws = null;
    if (old) old.close();
    retry = 0;
    stopped = false;
    connect();
  }

  /**
   * Sends `msg`; false when the socket is not open.
   * @param {object} msg
   */
  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  function stop() {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    if (ws) {
      const old = ws;
      ws = null;
      old.close();
    }
  }

  return { connect, reconnectNow, send, stop };
}
