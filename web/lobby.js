// The lobby: the tables waiting or playing, joining a free seat, and the form
// that creates a table (variant, players, seats, pace, house rules as
// named, described choices grouped by area, and the variant's house presets).

import { h, fill, plural, copyText } from './dom.js';
import * as api from './api.js';
import { rulesHref } from './rules-page.js';

/** The bots by their level names, weakest first. */
const BOT_LEVELS = {
  random: 'Beginner',
  heuristic: 'Quick',
  'ismcts-easy': 'Easy',
  'ismcts-medium': 'Medium',
  'ismcts-hard': 'Hard',
  'ismcts-expert': 'Expert (slow)',
};
/** The bot a new bot seat gets: the terminal's default level. */
const DEFAULT_BOT = 'ismcts-medium';

/** A bot's level as a player reads it ("Easy"), for any bot name. */
export function botLabel(bot) {
  if (BOT_LEVELS[bot]) return BOT_LEVELS[bot];
  const m = /^ismcts(?:-(\w+))?/.exec(bot || '');
  if (m) return BOT_LEVELS[`ismcts-${m[1] || 'medium'}`] || bot;
  return bot;
}

/** How fast bots play at the table (the server's `pace`). */
export const PACES = [
  { value: 'relaxed', label: 'Relaxed' },
  { value: 'normal', label: 'Normal' },
  { value: 'fast', label: 'Fast' },
];

/** The areas of the rule book, in the order the form shows them. */
export const AREAS = [
  { id: 'deck', label: 'The cards and the deal' },
  { id: 'melds', label: 'Melds and canastas' },
  { id: 'pile', label: 'The discard pile' },
  { id: 'opening', label: 'The first meld' },
  { id: 'going_out', label: 'Going out' },
  { id: 'scoring', label: 'Scoring' },
];

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A value of a house rule in words: a choice's label, On or Off, a number,
 * the server's words for the preset's own default, else the JSON.
 */
export function ruleValueWords(rule, value) {
  if (rule && rule.choices) {
    const c = rule.choices.find((x) => same(x.value, value));
    if (c) return c.label;
  }
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  if (typeof value === 'number') return String(value);
  if (rule && same(rule.default, value) && rule.default_label) return rule.default_label;
  return JSON.stringify(value);
}

/** Options as a player reads them: "Pile always frozen: On; Game target: 3000". */
export function optionsWords(rules, options) {
  return Object.entries(options || {})
    .map(([k, v]) => {
      const rule = (rules || []).find((r) => r.key === k);
      return `${rule ? rule.label : k}: ${ruleValueWords(rule, v)}`;
    })
    .join('; ');
}

/** The house preset whose options are exactly `options` (null: none). */
export function matchingPreset(presets, options) {
  return (presets || []).find((p) => same(Object.keys(p.options).sort(), Object.keys(options).sort()) && Object.entries(p.options).every(([k, v]) => same(options[k], v))) || null;
}

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
    pace: 'normal',
    inviteOnly: false,
    openAreas: new Set(),
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
    if (s.kind === 'bot') return `${botLabel(s.bot)} bot`;
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
            ? h('div.quiet.small', { testid: 'table-house-rules' }, `House rules: ${optionsWords(houseRulesOf(t.variant), t.options)}`)
            : null,
          h(
            'ul.seats-inline',
            (t.seats || []).map((s) =>
              h('li', { class: s.kind === 'human' && !s.claimed ? 'free' : '' }, h('span.seatno', `${s.seat + 1}`), ' ', seatText(s), s.kind === 'human' && s.claimed ? h('span', { class: `conn ${s.connected ? 'on' : 'off'}` }) : null),
            ),
          ),
          h(
            'div.table-card-buttons',
            kept
              ? h('a.button.primary', { href: `#/t/${t.id}`, testid: 'resume-table' }, `Back to seat ${kept.seat + 1}`)
              : free.map((s) =>
                  h(
                    'button.primary',
                    { testid: 'join-seat', dataset: { table: t.id, seat: String(s.seat) }, on: { click: () => join(t.id, s.seat) } },
                    `Join seat ${s.seat + 1}`,
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
            h('a.button', { href: rulesHref(t.variant, t.players, t.options), testid: 'table-rules' }, 'Rules'),
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

  function houseRulesOf(variant) {
    const v = st.variants && st.variants.find((x) => x.id === variant);
    return (v && v.house_rules) || [];
  }

  /** The preset's rules for the players and `teams` (undefined: the default form). */
  function defaults(teams) {
    const p = preset();
    return p ? presetDefaults(p, st.players, teams) : {};
  }

  function resetSeats() {
    const n = st.players;
    const old = st.seats;
    const bot = st.bots.includes(DEFAULT_BOT) ? DEFAULT_BOT : st.bots[0] || 'heuristic';
    st.seats = [...Array(n).keys()].map((i) => old[i] || (i === 0 ? { kind: 'human' } : { kind: 'bot', bot }));
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

  /**
   * One house rule as a row: its label, what it does and its control (a
   * toggle, a number, a select of its values; a table is shown in words and
   * changed as JSON under "edit"), with the default said.
   */
  function ruleRow(rule, def) {
    const key = rule.key;
    const current = key in st.options ? st.options[key] : def;
    const row = h('div.house-rule', { dataset: { option: key }, testid: 'house-rule' });
    const id = `opt-${key}`;
    const set = (value) => {
      if (same(value, def)) delete st.options[key];
      else st.options[key] = value;
      row.classList.toggle('changed', key in st.options);
      renderChanged();
    };
    let control;
    if (rule.kind === 'bool') {
      control = h('input.toggle', { type: 'checkbox', id, role: 'switch', checked: !!current, on: { change: (e) => set(e.target.checked) } });
    } else if (rule.kind === 'int') {
      control = h('input', {
        type: 'number',
        id,
        min: rule.min !== undefined ? String(rule.min) : null,
        max: rule.max !== undefined ? String(rule.max) : null,
        step: '1',
        value: String(current),
        on: {
          input: (e) => {
            const v = e.target.value === '' ? def : Math.round(Number(e.target.value));
            if (Number.isFinite(v)) set(v);
          },
        },
      });
    } else if (rule.kind === 'choice') {
      const choices = [...(rule.choices || [])];
      if (!choices.some((c) => same(c.value, current))) choices.push({ value: current, label: ruleValueWords(rule, current) });
      control = h(
        'select',
        {
          id,
          on: {
            change: (e) => {
              set(choices[Number(e.target.value)].value);
              // Another number of sides is another form of the preset.
              if (key === 'teams') {
                st.teams = 'teams' in st.options ? st.options.teams : undefined;
                renderForm();
              }
            },
          },
        },
        choices.map((c, i) => h('option', { value: String(i), selected: same(c.value, current) }, c.label)),
      );
    } else {
      const words = h('span.house-rule-words', ruleValueWords(rule, current));
      const edit = h('input.json', {
        type: 'text',
        'aria-label': `${rule.label} as JSON`,
        value: JSON.stringify(current),
        on: {
          input: (e) => {
            try {
              const v = JSON.parse(e.target.value);
              delete st.optionErrors[key];
              e.target.classList.remove('invalid');
              set(v);
              words.textContent = ruleValueWords(rule, v);
            } catch {
              st.optionErrors[key] = rule.label;
              e.target.classList.add('invalid');
            }
          },
        },
      });
      control = h('details.house-rule-edit', h('summary', 'edit'), edit);
      control = h('div.house-rule-text', words, control);
    }
    if (control.tagName !== 'DIV') {
      control.dataset.option = key;
      control.setAttribute('data-testid', 'option-input');
    }
    fill(
      row,
      h(
        'div.house-rule-head',
        h('label', { for: rule.kind === 'text' ? null : id }, rule.label),
        h('div.house-rule-desc', rule.description, ' ', h('span.house-rule-default', `Default: ${ruleValueWords(rule, def)}.`)),
      ),
      h('div.house-rule-control', control),
    );
    row.classList.toggle('changed', key in st.options);
    return row;
  }

  const changedEl = h('div.changed-options', { testid: 'changed-options' });
  function renderChanged() {
    const keys = Object.keys(st.options);
    const p = preset();
    fill(
      changedEl,
      keys.length ? `House rules: ${optionsWords(p && p.house_rules, st.options)}.` : 'The variant\u2019s own rules.',
      ' ',
      p ? h('a', { href: rulesHref(st.variant, st.players, st.options), testid: 'rules-link-form' }, 'How to play with these rules') : null,
    );
    if (presetSel) {
      const m = p && matchingPreset(p.house_presets, st.options);
      presetSel.value = m ? m.id : keys.length ? '__own' : '';
    }
  }
  let presetSel = null;

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
      st.variants.map((v) => h('option', { value: v.id, selected: v.id === st.variant }, v.name || v.id)),
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
        st.bots.map((b) => h('option', { value: b, selected: s.kind === 'bot' && s.bot === b }, `Bot: ${botLabel(b)}`)),
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
        h('td.seat-name', `Seat ${i + 1}`, partners.length ? h('div.quiet.small', `${partners.length > 1 ? 'partners' : 'partner'}:\u00a0${partners.map((x) => x + 1).join(', ')}`) : null),
        h('td', kindSel),
        h('td', h('label.small', sitHere, ' I sit here')),
      );
    });
    const noJoin = h('label.small', h('input', { type: 'radio', name: 'join-seat', testid: 'join-none', checked: st.joinSeat === null, on: { change: () => { st.joinSeat = null; } } }), ' I only create it (everyone joins by the link)');
    // The teams option's default is the default form's: another value is sent.
    const rules = (p && p.house_rules) || [];
    const ruleRows = rules.filter((r) => r.key in defs).map((r) => ruleRow(r, r.key === 'teams' ? defaults().teams : defs[r.key]));
    const optFilter = h('input', {
      type: 'search',
      placeholder: 'find a rule',
      'aria-label': 'find a rule',
      testid: 'rule-filter',
      on: {
        input: (e) => {
          const q = e.target.value.toLowerCase().trim();
          for (const row of ruleRows) row.hidden = !!q && !row.textContent.toLowerCase().includes(q) && !row.dataset.option.includes(q.replace(/ /g, '_'));
          for (const g of groups) {
            g.hidden = [...g.querySelectorAll('.house-rule')].every((r) => r.hidden);
            if (q && !g.hidden) g.open = true;
          }
        },
      },
    });
    // Each area folds; one with a changed rule (or a search hit) opens.
    const shown = rules.filter((r) => r.key in defs);
    const groups = AREAS.map((area) => {
      const inArea = ruleRows.filter((row, i) => shown[i].area === area.id);
      if (!inArea.length) return null;
      const changed = shown.filter((r) => r.area === area.id && r.key in st.options).length;
      return h(
        'details.house-area',
        {
          dataset: { area: area.id },
          testid: 'house-area',
          open: st.openAreas.has(area.id) || changed > 0,
          on: { toggle: (e) => (e.target.open ? st.openAreas.add(area.id) : st.openAreas.delete(area.id)) },
        },
        h('summary', area.label, h('span.quiet.small', ` \u00b7 ${plural(inArea.length, 'rule')}${changed ? `, ${changed} changed` : ''}`)),
        inArea,
      );
    }).filter(Boolean);
    const presets = (p && p.house_presets) || [];
    presetSel = presets.length
      ? h(
          'select',
          {
            id: 'house-preset',
            testid: 'house-preset',
            on: {
              change: (e) => {
                const chosen = presets.find((x) => x.id === e.target.value);
                if (e.target.value === '__own') return;
                st.options = {};
                if (chosen) for (const [k, v] of Object.entries(chosen.options)) if (!same(v, defs[k])) st.options[k] = v;
                st.optionErrors = {};
                st.rulesOpen = true;
                renderForm();
              },
            },
          },
          h('option', { value: '' }, 'The variant\u2019s own rules'),
          presets.map((x) => h('option', { value: x.id }, x.label)),
          h('option', { value: '__own', disabled: true }, 'Your own choice'),
        )
      : null;
    const chosenPreset = p && matchingPreset(presets, st.options);
    const paceSel = h(
      'select#pace',
      { testid: 'pace-select', on: { change: (e) => { st.pace = e.target.value; } } },
      PACES.map((x) => h('option', { value: x.value, selected: x.value === st.pace }, x.label)),
    );
    renderChanged();
    fill(
      formEl,
      h('div.field', h('label', { for: 'variant' }, 'Variant'), variantSel),
      p ? h('p.summary.small', { testid: 'variant-description' }, p.description || p.summary, ' ', h('a', { href: rulesHref(p.id, st.players), testid: 'rules-link' }, 'How to play')) : null,
      p && p.provisional && p.provisional.length
        ? h('p.small.warn', `Provisional (no source settles them yet): ${p.provisional.map((k) => (rules.find((r) => r.key === k) || { label: k }).label).join(', ')}.`)
        : null,
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
      h('p.quiet.small', 'When a player is away that long on their turn, a bot plays that turn for them.'),
      h('div.field', h('label', { for: 'pace' }, 'Bots play'), paceSel),
      h(
        'div.field',
        h('label', { for: 'invite-only' }, 'Invite only'),
        h('input.toggle', {
          type: 'checkbox',
          id: 'invite-only',
          role: 'switch',
          checked: st.inviteOnly,
          testid: 'invite-only',
          on: { change: (e) => { st.inviteOnly = e.target.checked; } },
        }),
      ),
      h('p.quiet.small', 'An invite-only table is not listed here; only those with its invite link can take a seat.'),
      presetSel
        ? h(
            'div.field.house-preset-field',
            h('label', { for: 'house-preset' }, 'House rules'),
            presetSel,
            chosenPreset ? h('p.small.quiet.house-preset-desc', { testid: 'house-preset-description' }, chosenPreset.description) : null,
          )
        : null,
      h(
        'details.house-rules',
        { testid: 'house-rules', open: st.rulesOpen, on: { toggle: (e) => { st.rulesOpen = e.target.open; } } },
        h('summary', 'Change the rules'),
        h('p.quiet.small', 'The variant\u2019s rules for this many players, by part of the rule book; only what you change is sent.'),
        optFilter,
        h('div.house-areas', groups),
      ),
      changedEl,
      h('button.primary.big', { type: 'submit', testid: 'create-table', disabled: st.creating }, st.creating ? 'Creating\u2026' : 'Create the table'),
    );
  }

  async function create() {
    if (Object.keys(st.optionErrors).length) {
      say(`these rules cannot be read: ${Object.values(st.optionErrors).join(', ')}`, 'error');
      return;
    }
    const body = {
      variant: st.variant,
      players: st.players,
      options: { ...st.options },
      seats: st.seats.map((s) => (s.kind === 'human' ? { kind: 'human' } : { kind: 'bot', bot: s.bot })),
      timeout_secs: Math.max(5, Math.min(3600, st.timeout || 60)),
      pace: st.pace,
    };
    if (st.inviteOnly) body.invite_only = true;
    const name = st.name.trim();
    if (st.joinSeat !== null && st.seats[st.joinSeat] && st.seats[st.joinSeat].kind === 'human') {
      body.join = { seat: st.joinSeat };
      if (name) body.join.name = name;
    }
    st.creating = true;
    renderForm();
    try {
      const r = await api.createTable(body);
      if (r.invite_secret) api.saveInvite(r.id, r.invite_secret);
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
