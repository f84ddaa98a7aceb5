// A table's WebSocket: hello with the seat's kept token, pings, and
// reconnection with backoff until the table closes.

import * as api from './api.js';

/**
 * The connection of table `deps.id`. `deps`: `{st, id, say, renderTop,
 * renderAll, onMessage}` (see table.js). Returns `{connect, closeTable,
 * reconnectNow, send}`.
 */
export function tableSocket(deps) {
  const { st, id, say, renderTop, renderAll, onMessage } = deps;

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

  return { connect, closeTable, reconnectNow, send };
}
