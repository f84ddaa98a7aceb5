// The server's HTTP API (docs/server-api.md) and what the browser keeps:
// seat tokens by table, the player's name.

/** An HTTP error with the server's code and message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', `the server cannot be reached (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data && data.error;
    throw new ApiError(
      res.status,
      (err && err.code) || `http_${res.status}`,
      (err && err.message) || text || `${res.status} ${res.statusText}`,
    );
  }
  return data === null ? text : data;
}

export const getVariants = () => request('GET', '/api/variants');
export const listTables = () => request('GET', '/api/tables');
export const getTable = (id) => request('GET', `/api/tables/${encodeURIComponent(id)}`);
export const createTable = (body) => request('POST', '/api/tables', body);
/** Claims seat `seat` of table `id`, with the table's invite secret when this browser has it (an invite-only table needs it). */
export function claimSeat(id, seat, name) {
  const body = name ? { name } : {};
  const invite = loadInvite(id);
  if (invite) body.invite = invite;
  return request('POST', `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, body);
}
export const getReplay = (id, step) =>
  request('GET', `/api/tables/${encodeURIComponent(id)}/replay/${step}`);
/** The How to play page of a variant with house rules (`options`: an object). */
export const getRules = (variant, players, options) => {
  const q = new URLSearchParams({ variant });
  if (players) q.set('players', String(players));
  if (options && Object.keys(options).length) q.set('options', JSON.stringify(options));
  return request('GET', `/api/rules?${q}`);
};
export const recordUrl = (id) => `/api/tables/${encodeURIComponent(id)}/record`;

let variantsCache = null;
/** The presets, fetched once per page. */
export function variants() {
  if (!variantsCache) {
    variantsCache = getVariants().catch((e) => {
      variantsCache = null;
      throw e;
    });
  }
  return variantsCache;
}

// ---- what the browser keeps ----

const tokenKey = (id) => `canasta.seat.${id}`;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** `{seat, token}` kept for table `id`, or null. */
export function loadSeat(id) {
  const s = storage();
  if (!s) return null;
  try {
    const v = JSON.parse(s.getItem(tokenKey(id)) || 'null');
    return v && typeof v.token === 'string' ? v : null;
  } catch {
    return null;
  }
}

export function saveSeat(id, seat, token) {
  const s = storage();
  if (s) s.setItem(tokenKey(id), JSON.stringify({ seat, token, saved: Date.now() }));
}

export function forgetSeat(id) {
  const s = storage();
  if (s) s.removeItem(tokenKey(id));
}

/** Table ids this browser holds a seat at. */
export function seatedTables() {
  const s = storage();
  if (!s) return [];
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k && k.startsWith('canasta.seat.')) out.push(k.slice('canasta.seat.'.length));
  }
  return out;
}

export function loadName() {
  const s = storage();
  return (s && s.getItem('canasta.name')) || '';
}

export function saveName(name) {
  const s = storage();
  if (s) s.setItem('canasta.name', name);
}

/** The WebSocket address of table `id`. */
export function wsUrl(id) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/api/tables/${encodeURIComponent(id)}/ws`;
}

/** The invite secret kept for the invite-only table `id`, or null. */
export function loadInvite(id) {
  const s = storage();
  return (s && s.getItem(`canasta.invite.${id}`)) || null;
}

/** Keeps the invite secret of table `id` (from its link or its creation). */
export function saveInvite(id, secret) {
  const s = storage();
  if (s && secret) s.setItem(`canasta.invite.${id}`, secret);
}

/** The invite link of table `id`, absolute: with its secret for an invite-only table. */
export const inviteUrl = (id) => {
  const invite = loadInvite(id);
  return `${location.origin}/#/t/${id}${invite ? `/${invite}` : ''}`;
};

/** Asks for a rematch of the finished table `id` with a seat's token: `{id, invite, seat, token}`. */
export const rematch = (id, token) => request('POST', `/api/tables/${encodeURIComponent(id)}/rematch`, { token });
