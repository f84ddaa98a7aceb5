// The table as everybody sees it: each side's seats and melds, the stock and
// the discard pile. Drawn from a `view` (the bot protocol's observation) and
// its `annotations`; shared by the live table and the replay.

import { h, fill } from './dom.js';
import { cardElement, cardBack, meldCards, isWild, rankOf, isBlackThree, cardsText, handOrder } from './cards.js';

/** The seat's name as shown: its player's name, the bot, or `seat N`. */
export function seatName(seats, s) {
  const info = seats && seats[s];
  if (!info) return `Seat ${s}`;
  if (info.kind === 'bot') return `Bot ${s}`;
  if (info.name) return info.name;
  return info.claimed ? `Seat ${s}` : `Seat ${s} (free)`;
}

/** `Ann (seat 0)`: a seat for the move log and dialogs. */
export const seatLabel = (seats, s) => `${seatName(seats, s)} \u00b7 ${s}`;

/** The teams of the annotations (the doc calls them `sides`; accept `teams` too). */
export function teamsOf(notes, view) {
  const list = (notes && (notes.sides || notes.teams)) || null;
  if (list) return list;
  if (!view) return [];
  // Without annotations (a replay): teams from the scores, seat s on team s mod k.
  const k = (view.scores || []).length || 1;
  return (view.scores || []).map((score, t) => ({
    seats: [...Array(view.players).keys()].filter((s) => s % k === t),
    score,
    opening_needed: view.opening_needed ? view.opening_needed[t] : null,
  }));
}

/**
 * Meld annotations worked out from the view alone, for the replay (whose
 * steps carry no annotations): label by rank, canasta by size.
 */
export function annotateMelds(view, canastaSize = 7) {
  return (view.melds || []).map((side) =>
    side.map((m) => {
      const cards = meldCards(m);
      const naturals = cards.filter((c) => !isWild(c));
      let label = 'wild';
      if (naturals.length) {
        const ranks = [...new Set(naturals.map(rankOf))];
        label = ranks.length === 1 ? ranks[0] : `${ranks[0]}\u2013${ranks[ranks.length - 1]}`;
      }
      const canasta =
        cards.length >= canastaSize ? (naturals.length === cards.length || naturals.length === 0 ? 'natural' : 'mixed') : null;
      return { cards, label, canasta, closed: false };
    }),
  );
}

/** The sides that have seats, each `{side, seats: [...]}`. */
export function sidesOf(view) {
  const out = [];
  const sideOf = view.side_of || [...Array(view.players).keys()];
  for (let s = 0; s < view.players; s++) {
    const side = sideOf[s];
    let entry = out.find((e) => e.side === side);
    if (!entry) {
      entry = { side, seats: [] };
      out.push(entry);
    }
    entry.seats.push(s);
  }
  return out.sort((a, b) => a.side - b.side);
}

function redThrees(view, s) {
  const suits = view.red_three_suits && view.red_three_suits[s];
  if (suits) return [...Array(suits[0]).fill('3H'), ...Array(suits[1]).fill('3D')];
  const n = (view.red_threes && view.red_threes[s]) || 0;
  return Array(n).fill('3H');
}

function phaseWords(view, seats, mySeat) {
  if (!view) return '';
  const who = view.to_act === mySeat ? 'Your turn' : seatName(seats, view.to_act);
  switch (view.phase) {
    case 'draw':
      return `${who}: draw or take the pile`;
    case 'play':
      return `${who}: meld, add or discard`;
    case 'answer':
      return `${who}: answer \u2014 may ${view.current === mySeat ? 'you' : seatName(seats, view.current)} go out?`;
    case 'hand_over':
    case 'deal':
      return 'Between hands';
    case 'game_over':
      return 'Game over';
    default:
      return view.phase || '';
  }
}
export { phaseWords };

function seatChip(model, s) {
  const { view, seats, mySeat } = model;
  const info = (seats && seats[s]) || {};
  const toAct = view.to_act === s && ['draw', 'play', 'answer'].includes(view.phase);
  const chip = h('div.seat', {
    testid: 'seat',
    dataset: { seat: String(s) },
    class: ['seat', toAct ? 'to-act' : '', s === mySeat ? 'me' : ''].filter(Boolean).join(' '),
  });
  const status =
    info.kind === 'bot'
      ? h('span.badge.bot', { title: `a bot plays this seat: ${info.bot || ''}` }, info.bot || 'bot')
      : info.claimed === false
        ? h('span.badge.free', 'free')
        : h('span.conn', {
            class: `conn ${info.connected ? 'on' : 'off'}`,
            title: info.connected ? 'connected' : 'not connected',
          });
  const name = h(
    'span.name',
    s === mySeat ? `${seatName(seats, s)} (you)` : seatName(seats, s),
  );
  const counts = [h('span.count', { testid: 'hand-size', title: 'cards in hand' }, h('span.mini-card'), `${view.hand_sizes ? view.hand_sizes[s] : '?'}`)];
  const foot = view.foot_sizes && view.foot_sizes[s];
  if (foot) counts.push(h('span.count.foot', { title: 'face-down foot' }, `foot ${foot}`));
  const head = h(
    'div.seat-head',
    status,
    name,
    h('span.seatno', `#${s}`),
    view.dealer === s ? h('span.badge.dealer', { title: 'dealer' }, 'D') : null,
    info.stand_in ? h('span.badge.stand-in', { title: 'away: the heuristic bot plays for this seat until the player is back' }, 'bot stands in') : null,
    toAct ? h('span.badge.acting', view.phase === 'answer' ? 'answering' : 'to play') : null,
    h('span.counts', counts),
  );
  chip.append(head);
  const reds = redThrees(view, s);
  if (reds.length) {
    chip.append(
      h(
        'div.red-threes',
        { testid: 'red-threes', title: 'red threes laid out' },
        reds.map((c) => cardElement(c, { small: true, testid: 'red-three' })),
      ),
    );
  }
  const known = view.known && view.known[s];
  if (known && known.length && s !== mySeat && !(model.hands && model.hands[s])) {
    chip.append(h('div.known', { title: 'cards this seat took with the pile and still holds' }, `holds ${cardsText(known)}`));
  }
  if (model.hands && model.hands[s]) {
    chip.append(
      h(
        'div.open-hand',
        { testid: 'open-hand' },
        handOrder(model.hands[s]).map((c) => cardElement(c, { small: true })),
        model.feet && model.feet[s] && model.feet[s].length
          ? [h('span.foot-label', 'foot'), model.feet[s].map((c) => cardElement(c, { small: true }))]
          : null,
      ),
    );
  }
  return chip;
}

/**
 * What a canasta is called: the server's `name` (`natural`, `mixed`, `wild`,
 * `samba`, or the rank of a canasta that scores on its own, as `sevens`);
 * for a replay's melds, worked out here, a canasta of wild cards alone is a
 * `wild` one and a run's (Samba) a `samba`.
 */
export function canastaWord(m) {
  if (!m.canasta) return null;
  if (m.name) return m.name;
  if (m.label === 'wild') return 'wild';
  if (m.label && m.label.length > 1) return 'samba';
  return m.canasta;
}

function meldElement(model, side, own, m, i) {
  const cards = meldCards(m);
  const kind = canastaWord(m);
  const el = h('div.meld', {
    testid: 'meld',
    dataset: { meld: String(i), side: String(side) },
    class: ['meld', own ? 'own' : '', m.canasta ? `canasta ${m.canasta}` : '', m.closed ? 'closed' : ''].filter(Boolean).join(' '),
    title: `meld ${i}: ${cards.join(' ')}${kind ? ` \u2014 ${kind === 'samba' ? 'a samba' : `${kind} canasta`}${m.bonus ? ` (${m.bonus} points)` : ''}` : ''}`,
  });
  // Ranks as printed on the cards: `10`, and `10\u2013Q\u2660` for a run.
  const label = m.label === 'wild' ? 'wild' : String(m.label).replace(/T/g, '10');
  el.append(
    h(
      'div.meld-head',
      h('span.meld-no', `${i}`),
      h('span.meld-label', label),
      h('span.meld-len', `${cards.length}`),
      kind ? h('span.canasta-mark', { testid: 'canasta', class: `canasta-mark ${m.canasta} ${kind}` }, kind) : null,
      m.closed ? h('span.badge.closed', 'closed') : null,
    ),
  );
  el.append(h('div.meld-cards', cards.map((c) => cardElement(c, { small: true, testid: 'meld-card' }))));
  if (own && model.closable && model.closable.has(i) && model.onClose) {
    el.append(
      h(
        'button.close-canasta',
        {
          testid: 'close-canasta',
          title: `close meld ${i} as a canasta (canasta ${i})`,
          on: { click: (e) => { e.stopPropagation(); model.onClose(i); } },
        },
        'Close canasta',
      ),
    );
  }
  if (own && model.onMeld) {
    el.classList.add('clickable');
    el.tabIndex = 0;
    el.addEventListener('click', () => model.onMeld(i));
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') model.onMeld(i);
    });
  }
  if (own && model.onDrop) dropTarget(el, (codes) => model.onDrop({ kind: 'meld', meld: i, cards: codes }));
  return el;
}

/** Makes `el` accept cards dragged from the hand. */
export function dropTarget(el, fn) {
  el.addEventListener('dragover', (e) => {
    if (e.dataTransfer && [...e.dataTransfer.types].includes('application/x-canasta-cards')) {
      e.preventDefault();
      e.stopPropagation();
      el.classList.add('drop-over');
    }
  });
  el.addEventListener('dragleave', () => el.classList.remove('drop-over'));
  el.addEventListener('drop', (e) => {
    el.classList.remove('drop-over');
    const data = e.dataTransfer && e.dataTransfer.getData('application/x-canasta-cards');
    if (!data) return;
    e.preventDefault();
    e.stopPropagation();
    fn(JSON.parse(data));
  });
}

function sidePanel(model, entry, own) {
  const { view, notes } = model;
  const melds = (notes && notes.melds && notes.melds[entry.side]) || [];
  const teams = teamsOf(notes, view);
  // A side is one team, or (Classic for three, once two play together) the
  // seats of several, each with its own score and opening minimum.
  const sideTeams = teams.filter((t) => (t.seats || []).some((s) => entry.seats.includes(s)));
  const needOf = (s) => (view.opening_needed ? view.opening_needed[s] : (teams.find((t) => (t.seats || []).includes(s)) || {}).opening_needed);
  const needs = [...new Set(entry.seats.map(needOf))];
  const need = needs.length === 1 ? needs[0] : null;
  const panel = h('section.side', {
    testid: own ? 'own-side' : 'other-side',
    dataset: { side: String(entry.side) },
    class: `side ${own ? 'own' : 'other'}`,
  });
  const names = entry.seats.map((s) => seatName(model.seats, s)).join(' & ');
  const teamName = (t) => t.seats.filter((s) => entry.seats.includes(s)).map((s) => seatName(model.seats, s)).join(' & ');
  const scored = sideTeams.filter((t) => t.score !== undefined && t.score !== null);
  panel.append(
    h(
      'div.side-head',
      h('span.side-name', own ? `Your side \u2014 ${names}` : names),
      scored.length === 1
        ? h('span.side-score', `${scored[0].score} pts`)
        : scored.length > 1
          ? h('span.side-score', scored.map((t) => `${teamName(t)} ${t.score} pts`).join(' \u00b7 '))
          : null,
      need > 0
        ? h('span.badge.opening', { testid: 'opening-needed', title: 'points the opening meld needs' }, `opening ${need}`)
        : need === 0
          ? h('span.badge.opened', { title: 'this side has melded' }, 'opened')
          : needs.length > 1
            ? h(
                'span.badge.opening',
                { testid: 'opening-needed', title: 'points the opening meld needs' },
                `opening ${entry.seats.map((s) => `${seatName(model.seats, s)} ${needOf(s)}`).join(', ')}`,
              )
            : null,
    ),
  );
  panel.append(h('div.side-seats', entry.seats.map((s) => seatChip(model, s))));
  const meldRow = h(
    'div.melds',
    { testid: own ? 'own-melds' : 'melds' },
    melds.length ? melds.map((m, i) => meldElement(model, entry.side, own, m, i)) : h('div.no-melds', 'no melds yet'),
  );
  if (own && model.onDrop) dropTarget(meldRow, (codes) => model.onDrop({ kind: 'side', cards: codes }));
  panel.append(meldRow);
  return panel;
}

/** The pile in words: `pile 4, top J\u2666 (frozen)`, `frozen` when it is for this seat. */
export function pileSummary(view, notes) {
  const pile = view.pile || [];
  const size = pile.length + (view.pile_hidden || 0);
  if (!size) return 'the pile is empty';
  const marks = [notes && notes.stop ? 'stop' : null, notes && notes.pile_frozen_for_me ? 'frozen' : null].filter(Boolean);
  return `pile ${size}${pile.length ? `, top ${cardsText([pile[pile.length - 1]])}` : ''}${marks.length ? ` (${marks.join(', ')})` : ''}`;
}

function pileArea(model) {
  const { view, notes } = model;
  const pile = view.pile || [];
  const hidden = view.pile_hidden || 0;
  const top = pile.length ? pile[pile.length - 1] : null;
  const frozenAll = !!view.pile_frozen;
  const frozenMe = !!(notes && notes.pile_frozen_for_me);
  const stop = notes ? !!notes.stop : top ? isBlackThree(top) : false;
  const stock = h(
    'div.stock',
    { testid: 'stock', title: 'the stock' },
    view.stock > 0 ? cardBack() : h('div.card.empty'),
    h('div.pile-count', `stock ${view.stock}`),
  );
  if (model.onStock) {
    stock.classList.add('clickable');
    stock.addEventListener('click', model.onStock);
  }
  const under = pile.length > 1 ? pile[pile.length - 2] : null;
  const stack = h(
    'div.pile-stack',
    under ? cardElement(under, { testid: 'pile-under' }) : null,
    top ? cardElement(top, { testid: 'pile-top' }) : h('div.card.empty', { testid: 'pile-empty' }, 'empty'),
  );
  if (frozenAll) stack.classList.add('frozen');
  const badges = h(
    'div.pile-badges',
    frozenAll
      ? h('span.badge.frozen', { testid: 'pile-frozen', title: 'frozen for everyone (a wild card or a red three in it)' }, '\u2744 frozen')
      : frozenMe
        ? h('span.badge.frozen-me', { testid: 'pile-frozen-me', title: 'frozen for your side: it takes a natural pair' }, '\u2744 frozen for you')
        : null,
    stop ? h('span.badge.stop', { testid: 'pile-stop', title: 'a black three on top: nobody may take the pile' }, 'stop') : null,
  );
  const pileEl = h(
    'div.pile',
    {
      testid: 'pile',
      title: pile.length
        ? `the discard pile, top last: ${cardsText(pile)}${hidden ? ` (and ${hidden} face down under it)` : ''}`
        : 'the discard pile (empty)',
    },
    stack,
    h(
      'div.pile-count',
      { testid: 'pile-size' },
      `pile ${pile.length + hidden}`,
      hidden ? h('span.hidden-count', { testid: 'pile-hidden' }, ` (${hidden} face down)`) : null,
    ),
    badges,
  );
  if (model.onPile) {
    pileEl.classList.add('clickable');
    pileEl.addEventListener('click', model.onPile);
  }
  if (model.onDrop) dropTarget(pileEl, (codes) => model.onDrop({ kind: 'pile', cards: codes }));
  return h('div.center', stock, pileEl, h('div.phase', { testid: 'phase' }, phaseWords(view, model.seats, model.mySeat)));
}

/**
 * Draws the board into `root`. `model`: `{view, notes, seats, mySeat, hands,
 * feet, onMeld(i), onDrop({kind, meld, cards}), onPile, onStock}`.
 */
export function renderBoard(root, model) {
  const { view } = model;
  if (!view) {
    fill(root, h('div.no-view', 'The cards are not dealt yet.'));
    return;
  }
  const sides = sidesOf(view);
  const mySide = model.mySeat !== null && model.mySeat !== undefined && view.side_of ? view.side_of[model.mySeat] : sides[0] && sides[0].side;
  const others = sides.filter((e) => e.side !== mySide);
  const mine = sides.find((e) => e.side === mySide);
  fill(
    root,
    h('div.others', { class: `others n${others.length}` }, others.map((e) => sidePanel(model, e, false))),
    pileArea(model),
    mine ? sidePanel(model, mine, model.mySeat !== null && model.mySeat !== undefined) : null,
  );
}

