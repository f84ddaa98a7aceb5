// The "How to play" page of a variant (`#/rules/VARIANT?players=N&options=JSON`):
// the rules in force as the server generates them from the engine's rules
// (GET /api/rules), section by section with their tables.

import { h, fill } from './dom.js';
import * as api from './api.js';

/**
 * The hash of the rules page for a variant, a player count and house rules
 * (an object of options; empty or missing: the preset's own).
 */
export function rulesHref(variant, players, options) {
  const q = new URLSearchParams();
  if (players) q.set('players', String(players));
  if (options && Object.keys(options).length) q.set('options', JSON.stringify(options));
  const query = q.toString();
  return `#/rules/${encodeURIComponent(variant)}${query ? `?${query}` : ''}`;
}

/** The players and options of a rules page's query string (bad options: none, said). */
export function parseRulesQuery(query) {
  const q = new URLSearchParams(query || '');
  const players = Number(q.get('players')) || null;
  let options = {};
  let problem = null;
  const text = q.get('options');
  if (text) {
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) options = parsed;
      else problem = 'the house rules in the link are not a set of options';
    } catch {
      problem = 'the house rules in the link cannot be read';
    }
  }
  return { players, options, problem };
}

function tableEl(t) {
  return h(
    'div.rules-table-wrap',
    h(
      'table.rules-table',
      h('caption', t.caption),
      h('thead', h('tr', t.columns.map((c) => h('th', { scope: 'col' }, c)))),
      h(
        'tbody',
        t.rows.map((r) => h('tr', r.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', cell))))),
      ),
    ),
  );
}

/** Mounts the rules page into `root`; returns the function that unmounts it. */
export function mountRules(root, variant, query) {
  const { players, options, problem } = parseRulesQuery(query);
  let closed = false;
  const back = h(
    'a.button.rules-back',
    {
      href: '#/',
      testid: 'rules-back',
      on: {
        click: (e) => {
          // Back to where the player came from (the lobby or a table).
          if (history.length > 1) {
            e.preventDefault();
            history.back();
          }
        },
      },
    },
    '\u2190 Back',
  );
  const nav = h('nav.rules-variants', { 'aria-label': 'variants' });
  const body = h('div.rules-body', { testid: 'rules-body' }, h('p.quiet', 'Loading the rules\u2026'));
  fill(root, h('div.rules-page', { testid: 'rules-page' }, h('div.rules-top', back, nav), body));

  api
    .variants()
    .then((r) => {
      if (closed) return;
      fill(
        nav,
        (r.variants || []).map((v) =>
          h(
            'a.rules-variant',
            { href: rulesHref(v.id), class: v.id === variant ? 'rules-variant current' : 'rules-variant', 'aria-current': v.id === variant ? 'page' : null },
            v.name || v.id,
          ),
        ),
      );
    })
    .catch(() => {});

  api
    .getRules(variant, players, options)
    .then((page) => {
      if (closed) return;
      document.title = `${page.title} \u00b7 Canasta`;
      const toc = h(
        'ul.rules-toc',
        page.sections.map((s) =>
          h('li', h('button.linkish', { type: 'button', on: { click: () => document.getElementById(`rules-${s.area}`)?.scrollIntoView({ behavior: 'smooth' }) } }, s.heading)),
        ),
      );
      fill(
        body,
        h('h1', { testid: 'rules-title' }, page.title),
        problem ? h('p.error', `${problem}: the variant's own rules are shown.`) : null,
        h('p.rules-summary', page.summary),
        toc,
        page.sections.map((s) =>
          h(
            'section.rules-section',
            { id: `rules-${s.area}`, testid: 'rules-section', dataset: { area: s.area } },
            h('h2', s.heading),
            s.paragraphs.map((p) => h('p', p)),
            s.tables.length ? h('div.rules-tables', s.tables.map(tableEl)) : null,
          ),
        ),
        h('p', h('a.button', { href: '#/' }, 'To the lobby')),
      );
    })
    .catch((e) => {
      if (closed) return;
      fill(body, h('h1', 'How to play'), h('p.error', { testid: 'rules-error' }, e.message), h('a', { href: '#/' }, 'Back to the lobby'));
    });

  return () => {
    closed = true;
  };
}
