// The browser client of the Canasta server: hash routes to the lobby
// (`#/`), a table (`#/t/{id}`, or `#/t/{id}/{secret}`: an invite-only
// table's invite link), a finished game's replay
// (`#/replay/{id}[/{step}]`) and a variant's rules
// (`#/rules/{variant}?players=N&options=JSON`).

import { mountLobby } from './lobby.js';
import { mountTable } from './table.js';
import { mountReplay } from './replay.js';
import { mountRules } from './rules-page.js';
import { h, fill } from './dom.js';
import { saveInvite } from './api.js';

const root = document.getElementById('app');
let unmount = null;
let current = null;

/** The route of a hash: `{name, id, step}` (`invite`: an invite link's secret). */
export function parseRoute(hash) {
  const path = hash.replace(/^#/, '').replace(/^\/?/, '/');
  let m = /^\/t\/([\w-]+)\/?$/.exec(path);
  if (m) return { name: 'table', id: m[1] };
  m = /^\/t\/([\w-]+)\/([\w-]+)\/?$/.exec(path);
  if (m) return { name: 'table', id: m[1], invite: m[2] };
  m = /^\/replay\/([\w-]+)(?:\/(\d+))?\/?$/.exec(path);
  if (m) return { name: 'replay', id: m[1], step: m[2] ? Number(m[2]) : 0 };
  m = /^\/rules\/([\w-]+)\/?(?:\?(.*))?$/.exec(path);
  if (m) return { name: 'rules', variant: m[1], query: m[2] || '' };
  if (path === '/' || path === '') return { name: 'lobby' };
  return { name: 'unknown', path };
}

function route() {
  const r = parseRoute(location.hash);
  if (r.name === 'table' && r.invite) {
    // Kept for claiming a seat; the address bar keeps the plain table link.
    saveInvite(r.id, r.invite);
    history.replaceState(null, '', `#/t/${r.id}`);
    r.invite = undefined;
  }
  const key = r.name === 'replay' ? `replay/${r.id}` : JSON.stringify(r);
  if (key === current) return; // the replay rewrites its own step into the hash
  current = key;
  if (unmount) unmount();
  unmount = null;
  window.scrollTo(0, 0);
  if (r.name === 'lobby') {
    document.title = 'Canasta';
    unmount = mountLobby(root);
  } else if (r.name === 'table') {
    document.title = `Canasta \u00b7 ${r.id}`;
    unmount = mountTable(root, r.id);
  } else if (r.name === 'replay') {
    document.title = `Canasta replay \u00b7 ${r.id}`;
    unmount = mountReplay(root, r.id, r.step);
  } else if (r.name === 'rules') {
    document.title = `How to play \u00b7 Canasta`;
    unmount = mountRules(root, r.variant, r.query);
  } else {
    fill(root, h('div.page-error', h('h2', 'Nothing here'), h('p', r.path), h('a', { href: '#/' }, 'Back to the lobby')));
  }
}

window.addEventListener('hashchange', route);
route();
