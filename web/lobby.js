// The lobby: the tables waiting or playing, joining a free seat, and the form
// that creates a table (variant, players, seats, house rules).

import { h, fill, plural, copyText } from './dom.js';
import * as api from './api.js';

const BOT_WORDS = {
  random: 'random (any legal move)',
  heuristic: 'heuristic (quick)',
  'ismcts-easy': 'ismcts easy',
  'ismcts-medium': 'ismcts medium',
  'ismcts-hard': 'ismcts hard',
  'ismcts-expert': 'ismcts expert (slow)',
};

/**
 * The preset's options for `players` seats (and `teams`, where the preset
 * offers a choice): its defaults with the form's differences. The preset's
 * own player count plays its defaults (a form for that count is an option,
 * as Pennies' three teams); another count plays its first form unless
 * `teams` names another.
 */
export function presetDefaults(preset, players, teams) {
  const base = { ...(preset.options || {}) };
  const forms = (preset.forms || []).filter((f) => f.players === players);
  let form = teams !== undefined ? forms.find((f) => f.teams === teams) : null;
  if (!form && players !== preset.default_players) form = forms[0];
  if (form && form.differs) Object.assign(base, form.differs);
  return base;
}

/** The seats partnered with seat `i` (seat `s` plays for team `s mod teams`). */
export function partnersOf(i, players, teams) {
  if (!(teams > 0)) return [];
  return [...Array(players).keys()].filter((s) => s !== i && s % teams === i % teams);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Mounts the lobby into `root`; returns the function that unmounts it. */
export function mountLobby(root) {
  const st = {
    variants: null,
    bots: [],
    tables: null,
    tablesError: null,
    variant: 'classic',
    players: null,
    teams: undefined,
    seats: [],
    joinSeat: 0,
    timeout: 60,
    options: {},
    optionErrors: {},
    name: api.loadName(),
    creating: false,
    rulesOpen: false,
    message: null,
    timer: null,
    closed: false,
  };

  const listEl = h('div.table-list', { testid: 'table-list' });
  const pastEl = h('div.table-list.past', { testid: 'past-tables' });
  const formEl = h('form.create', { testid: 'create-form', on: { submit: (e) => { e.preventDefault(); create(); } } });
  const msgEl = h('div.status', { testid: 'lobby-status', role: 'status', 'aria-live': 'polite' });
  const nameInput = h('input', {
    testid: 'player-name',
    id: 'player-name',
    maxLength: 24,
    placeholder: 'your name',
    value: st.name,
    on: { input: (e) => { st.name = e.target.value; api.saveName(st.name.trim()); } },
  });

  fill(
    root,
    h(
      'div.lobby',
      h('header.lobby-top', h('h1', h('span.logo', '\u2660\u2665'), ' Canasta'), h('div.name-field', h('label', { for: 'player-name' }, 'Your name '), nameInput)),
      msgEl,
      h(
        'div.lobby-grid',
        h(
          'div.lobby-col',
          h('section.panel', h('div.panel-head', h('h2', 'Tables'), h('button', { testid: 'refresh-tables', on: { click: refresh } }, 'Refresh')), listEl),
          pastEl,
        ),
        h('section.panel.create-panel', h('h2', 'New table'), formEl),
      ),
    ),
  );

  function say(text, kind = 'info') {
    st.message = text;
    msgEl.className = `status ${kind}`;
    msgEl.textContent = text || '';
  }

  async function refresh() {
    try {
      const r = await api.listTables();
      st.tables = r.tables || [];
      st.tablesError = null;
    } catch (e) {
      st.tablesError = e.message;
    }
    if (!st.closed) renderList();
  }

  /** The finished games this browser played (their seats are still kept). */
  async function loadPast() {
    const ids = api
      .seatedTables()
      .map((id) => ({ id, saved: (api.loadSeat(id) || {}).saved || 0 }))
      .sort((a, b) => b.saved - a.saved)
      .slice(0, 20);
    const out = [];
    for (const { id } of ids) {
      if (st.tables && st.tables.some((t) => t.id === id)) continue;
      try {
        const t = await api.getTable(id);
        if (t.status === 'finished') out.push(t);
      } catch (e) {
        if (e.status === 404) api.forgetSeat(id);
      }
      if (out.length >= 8) break;
    }
    if (st.closed) return;
    fill(
      pastEl,
      out.length
        ? h(
            'section.panel',
            h('h2', 'Your finished games'),
            out.map((t) =>
              h(
                'article.table-card',
                { testid: 'past-row', dataset: { table: t.id } },
                h('div.table-card-head', h('b', t.variant), ` \u00b7 ${plural(t.players, 'player')} \u00b7 ${plural(t.hand, 'hand')} \u00b7 ${(t.scores || []).join(' \u2013 ')}`, h('span.table-id', t.id)),
                h(
                  'div.table-card-buttons',
                  h('a.button.primary', { href: `#/replay/${t.id}` }, 'Replay'),
                  h('a.button', { href: api.recordUrl(t.id), download: `canasta-${t.id}.jsonl` }, 'Record'),
                  h('button', { on: { click: () => { api.forgetSeat(t.id); loadPast(); } } }, 'Forget'),
                ),
              ),
            ),
          )
        : null,
    );
  }

  function seatText(s) {
    if (s.kind === 'bot') return `${s.bot} bot`;
    if (s.claimed) return s.name || 'a player';
    return 'free';
  }

  function renderList() {
    const mine = new Set(api.seatedTables());
    if (st.tablesError) {
      fill(listEl, h('p.error', st.tablesError));
      return;
    }
    if (!st.tables) {
      fill(listEl, h('p.quiet', 'Loading\u2026'));
      return;
    }
    if (!st.tables.length) {
      fill(listEl, h('p.quiet', 'No tables yet: create one.'));
      return;
    }
    fill(
      listEl,
      st.tables.map((t) => {
        const free = (t.seats || []).filter((s) => s.kind === 'human' && !s.claimed);
        const kept = mine.has(t.id) ? api.loadSeat(t.id) : null;
        return h(
          'article.table-card',
          { testid: 'table-row', dataset: { table: t.id, status: t.status } },
          h(
            'div.table-card-head',
            h('b', t.variant),
            ` \u00b7 ${plural(t.players, 'player')} `,
            h('span.badge', { class: `badge status-${t.status}` }, t.status),
            t.status === 'playing' ? h('span.quiet', ` hand ${t.hand}, ${(t.scores || []).join(' \u2013 ')}`) : null,
            h('span.table-id', t.id),
          ),
          t.options && Object.keys(t.options).length
            ? h('div.quiet.small', `house rules: ${Object.entries(t.options).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`)
            : null,
          h(
            'ul.seats-inline',
            (t.seats || []).map((s) =>
              h('li', { class: s.kind === 'human' && !s.claimed ? 'free' : '' }, h('span.seatno', `${s.seat}`), ' ', seatText(s), s.kind === 'human' && s.claimed ? h('span', { class: `conn ${s.connected ? 'on' : 'off'}` }) : null),
            ),
          ),
          h(
            'div.table-card-buttons',
            kept
              ? h('a.button.primary', { href: `#/t/${t.id}`, testid: 'resume-table' }, `Back to seat ${kept.seat}`)
              : free.map((s) =>
                  h(
                    'button.primary',
                    { testid: 'join-seat', dataset: { table: t.id, seat: String(s.seat) }, on: { click: () => join(t.id, s.seat) } },
                    `Join seat ${s.seat}`,
                  ),
                ),
            h('a.button', { href: `#/t/${t.id}`, testid: 'watch-table' }, kept ? 'Open' : 'Watch'),
            free.length
              ? h(
                  'button',
                  {
                    testid: 'copy-link',
                    title: api.inviteUrl(t.id),
                    on: {
                      click: async () => {
                        const ok = await copyText(api.inviteUrl(t.id));
                        say(ok ? `Invite link copied: ${api.inviteUrl(t.id)}` : `Invite link: ${api.inviteUrl(t.id)}`);
                      },
                    },
                  },
                  'Copy invite link',
                )
              : null,
            t.status === 'finished' ? h('a.button', { href: `#/replay/${t.id}` }, 'Replay') : null,
          ),
        );
      }),
    );
  }

  async function join(id, seat) {
    const name = st.name.trim();
    try {
      const r = await api.claimSeat(id, seat, name || undefined);
      api.saveSeat(id, r.seat, r.token);
      location.hash = `#/t/${id}`;
    } catch (e) {
      say(e.message, 'error');
      refresh();
    }
  }

  // ---- the create form ----
  function preset() {
    return st.variants && st.variants.find((v) => v.id === st.variant);
  }

  /** The preset's rules for the players and `teams` (undefined: the default form). */
  function defaults(teams) {
    const p = preset();
    return p ? presetDefaults(p, st.players, teams) : {};
  }

  function resetSeats() {
    const n = st.players;
    const old = st.seats;
    st.seats = [...Array(n).keys()].map((i) => old[i] || (i === 0 ? { kind: 'human' } : { kind: 'bot', bot: 'heuristic' }));
    if (st.joinSeat !== null && (st.joinSeat >= n || st.seats[st.joinSeat].kind !== 'human')) {
      const firstHuman = st.seats.findIndex((s) => s.kind === 'human');
      st.joinSeat = firstHuman >= 0 ? firstHuman : null;
    }
  }

  function selectVariant(id) {
    st.variant = id;
    const p = preset();
    st.players = p ? p.default_players : 4;
    st.options = {};
    st.teams = undefined;
    st.optionErrors = {};
    resetSeats();
    renderForm();
  }

  function optionInput(key, def) {
    const current = key in st.options ? st.options[key] : def;
    const set = (value) => {
      if (same(value, def)) delete st.options[key];
      else st.options[key] = value;
      renderChanged();
    };
    const changedMark = () => row.classList.toggle('changed', key in st.options);
    let input;
    if (typeof def === 'boolean') {
      input = h('input', { type: 'checkbox', checked: !!current, on: { change: (e) => { set(e.target.checked); changedMark(); } } });
    } else if (typeof def === 'number') {
      input = h('input', {
        type: 'number',
        value: String(current),
        step: 'any',
        on: {
          input: (e) => {
            const v = e.target.value === '' ? def : Number(e.target.value);
            if (Number.isFinite(v)) set(v);
            changedMark();
          },
          // Another number of teams is another form of the preset: its
          // values are shown (and the partners).
          change: () => {
            if (key !== 'teams') return;
            st.teams = key in st.options ? st.options.teams : undefined;
            renderForm();
          },
        },
      });
    } else if (typeof def === 'string') {
      input = h('input', { type: 'text', value: current, on: { input: (e) => { set(e.target.value); changedMark(); } } });
    } else {
      // Lists, tables and nulls: edited as JSON.
      input = h('input.json', {
        type: 'text',
        value: JSON.stringify(current),
        title: 'JSON',
        on: {
          input: (e) => {
            try {
              set(JSON.parse(e.target.value));
              delete st.optionErrors[key];
              e.target.classList.remove('invalid');
            } catch {
              st.optionErrors[key] = true;
              e.target.classList.add('invalid');
            }
            changedMark();
          },
        },
      });
    }
    input.dataset.option = key;
    input.setAttribute('data-testid', 'option-input');
    input.id = `opt-${key}`;
    const row = h('div.option', { dataset: { option: key } }, h('label', { for: `opt-${key}` }, key.replace(/_/g, ' ')), input);
    changedMark();
    return row;
  }

  const changedEl = h('div.changed-options', { testid: 'changed-options' });
  function renderChanged() {
    const keys = Object.keys(st.options);
    fill(changedEl, keys.length ? `House rules sent: ${keys.map((k) => `${k}=${JSON.stringify(st.options[k])}`).join(', ')}` : 'The preset\u2019s rules, unchanged.');
  }

  function renderForm() {
    if (!st.variants) {
      fill(formEl, h('p.quiet', 'Loading the variants\u2026'));
      return;
    }
    const p = preset();
    const defs = defaults(st.teams); // the form of the teams chosen
    const variantSel = h(
      'select',
      { testid: 'variant-select', id: 'variant', on: { change: (e) => selectVariant(e.target.value) } },
      st.variants.map((v) => h('option', { value: v.id, selected: v.id === st.variant }, v.id)),
    );
    const playersSel = h(
      'select',
      {
        testid: 'players-select',
        id: 'players',
        on: {
          change: (e) => {
            st.players = Number(e.target.value);
            st.options = {};
            st.teams = undefined;
            resetSeats();
            renderForm();
          },
        },
      },
      (p ? p.players : [2, 4]).map((n) => h('option', { value: String(n), selected: n === st.players }, String(n))),
    );
    const seatRows = st.seats.map((s, i) => {
      const kindSel = h(
        'select',
        {
          testid: 'seat-kind',
          dataset: { seat: String(i) },
          'aria-label': `seat ${i}`,
          on: {
            change: (e) => {
              const v = e.target.value;
              st.seats[i] = v === 'human' ? { kind: 'human' } : { kind: 'bot', bot: v };
              if (v !== 'human' && st.joinSeat === i) st.joinSeat = null;
              if (v === 'human' && st.joinSeat === null) st.joinSeat = i;
              renderForm();
            },
          },
        },
        h('option', { value: 'human', selected: s.kind === 'human' }, 'a person'),
        st.bots.map((b) => h('option', { value: b, selected: s.kind === 'bot' && s.bot === b }, `bot: ${BOT_WORDS[b] || b}`)),
      );
      const sitHere = h('input', {
        type: 'radio',
        name: 'join-seat',
        testid: 'join-radio',
        dataset: { seat: String(i) },
        checked: st.joinSeat === i,
        disabled: s.kind !== 'human',
        on: { change: () => { st.joinSeat = i; } },
      });
      const partners = partnersOf(i, st.players, Number('teams' in st.options ? st.options.teams : defs.teams));
      return h(
        'tr',
        { testid: 'seat-row', dataset: { seat: String(i) } },
        h('td.seat-name', `Seat ${i}`, partners.length ? h('div.quiet.small', `${partners.length > 1 ? 'partners' : 'partner'}:\u00a0${partners.join(', ')}`) : null),
        h('td', kindSel),
        h('td', h('label.small', sitHere, ' I sit here')),
      );
    });
    const noJoin = h('label.small', h('input', { type: 'radio', name: 'join-seat', testid: 'join-none', checked: st.joinSeat === null, on: { change: () => { st.joinSeat = null; } } }), ' I only create it (everyone joins by the link)');
    // The teams option's default is the default form's: another value is sent.
    const optionRows = Object.keys(defs)
      .sort()
      .map((k) => optionInput(k, k === 'teams' ? defaults().teams : defs[k]));
    const optFilter = h('input', {
      placeholder: 'find a rule',
      'aria-label': 'find a rule',
      on: {
        input: (e) => {
          const q = e.target.value.toLowerCase().replace(/ /g, '_');
          for (const row of optionRows) row.hidden = q && !row.dataset.option.includes(q);
        },
      },
    });
    renderChanged();
    fill(
      formEl,
      h('div.field', h('label', { for: 'variant' }, 'Variant'), variantSel),
      p && p.summary ? h('p.summary.small', p.summary) : null,
      p && p.provisional && p.provisional.length ? h('p.small.warn', `Provisional rules: ${p.provisional.join(', ')}`) : null,
      h('div.field', h('label', { for: 'players' }, 'Players'), playersSel),
      h('table.seats', h('tbody', seatRows)),
      noJoin,
      h(
        'div.field',
        h('label', { for: 'timeout' }, 'Turn timeout (s)'),
        h('input#timeout', {
          type: 'number',
          min: '5',
          max: '3600',
          value: String(st.timeout),
          testid: 'timeout',
          on: { input: (e) => { st.timeout = Number(e.target.value) || 60; } },
        }),
      ),
      h('p.quiet.small', 'When a player is away that long on their turn, the heuristic bot plays for them until they are back.'),
      h(
        'details.house-rules',
        { testid: 'house-rules', open: st.rulesOpen, on: { toggle: (e) => { st.rulesOpen = e.target.open; } } },
        h('summary', 'House rules'),
        h('p.quiet.small', 'The preset\u2019s values for this many players; only the ones you change are sent.'),
        optFilter,
        h('div.options', optionRows),
      ),
      changedEl,
      h('button.primary.big', { type: 'submit', testid: 'create-table', disabled: st.creating }, st.creating ? 'Creating\u2026' : 'Create the table'),
    );
  }

  async function create() {
    if (Object.keys(st.optionErrors).length) {
      say(`not JSON: ${Object.keys(st.optionErrors).join(', ')}`, 'error');
      return;
    }
    const body = {
      variant: st.variant,
      players: st.players,
      options: { ...st.options },
      seats: st.seats.map((s) => (s.kind === 'human' ? { kind: 'human' } : { kind: 'bot', bot: s.bot })),
      timeout_secs: Math.max(5, Math.min(3600, st.timeout || 60)),
    };
    const name = st.name.trim();
    if (st.joinSeat !== null && st.seats[st.joinSeat] && st.seats[st.joinSeat].kind === 'human') {
      body.join = { seat: st.joinSeat };
      if (name) body.join.name = name;
    }
    st.creating = true;
    renderForm();
    try {
      const r = await api.createTable(body);
      if (r.token !== undefined && r.seat !== undefined) api.saveSeat(r.id, r.seat, r.token);
      location.hash = `#/t/${r.id}`;
    } catch (e) {
      say(e.message, 'error');
      st.creating = false;
      if (!st.closed) renderForm();
    }
  }

  api
    .variants()
    .then((r) => {
      st.variants = r.variants || [];
      st.bots = r.bots || ['heuristic'];
      if (!st.variants.find((v) => v.id === st.variant) && st.variants.length) st.variant = st.variants[0].id;
      if (!st.closed) selectVariant(st.variant);
    })
    .catch((e) => {
      say(`the variants cannot be read: ${e.message}`, 'error');
      fill(formEl, h('p.error', 'The server did not answer.'));
    });
  renderForm();
  renderList();
  refresh().then(loadPast);
  st.timer = setInterval(refresh, 5000);

  return () => {
    st.closed = true;
    clearInterval(st.timer);
  };
}
