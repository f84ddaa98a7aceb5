// @ts-check
// The table as everybody sees it: each side's seats and melds, the stock and
// the discard pile. Drawn from a `view` (the bot protocol's observation) and
// its `annotations`; shared by the live table and the replay.

import { h, fill } from './dom.js';
import { cardElement, cardBack, meldCards, isWild, rankOf, isBlackThree, cardsText, handOrder, isRedThree } from './cards.js';
import { cardWord, rankPlural } from './table-words.js';

/** The seat's name as shown: its player's name, `Bot 2`, `Player 3`, counted from 1. */
export function seatName(seats, s) {
  const info = seats && seats[s];
  if (!info) return `Player ${s + 1}`;
  if (info.kind === 'bot') return `Bot ${s + 1}`;
  if (info.name) return info.name;
  return info.claimed ? `Player ${s + 1}` : `Player ${s + 1} (free seat)`;
}

/** A bot's level as players say it: `easy`, `expert`, `basic` (the heuristic). */
export function botLevel(bot) {
  const b = String(bot || 'bot');
  if (b === 'heuristic') return 'basic';
  if (b === 'random') return 'random';
  const m = /^ismcts-?(\w+)?$/.exec(b);
  if (m) return m[1] || 'standard';
  return b.replace(/[-_]/g, ' ');
}

/**
 * Where each seat sits at the table, seen from `me` (at the bottom): play
 * goes clockwise, so the next seat is on the left, a partner across.
 * Returns one of `bottom`, `left`, `top-left`, `top`, `top-right`, `right`
 * for each seat.
 */
export function seatPositions(players, me) {
  const layouts = {
    1: ['bottom'],
    2: ['bottom', 'top'],
    3: ['bottom', 'left', 'right'],
    4: ['bottom', 'left', 'top', 'right'],
    5: ['bottom', 'left', 'top-left', 'top-right', 'right'],
    6: ['bottom', 'left', 'top-left', 'top', 'top-right', 'right'],
  };
  const layout = layouts[players] || layouts[4];
  const base = me === null || me === undefined ? 0 : me;
  return [...Array(players).keys()].map((s) => layout[(s - base + players) % players] || 'top');
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


/** `0:42`: the seconds left of a countdown. */
export function clockText(ms) {
  const secs = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/** A seat's place at the table: name, cards in hand, marks (dealer, to play, bot standing in), the countdown. */
export function seatChip(model, s, position) {
  const { view, seats, mySeat } = model;
  const info = (seats && seats[s]) || {};
  const toAct = view.to_act === s && ['draw', 'play', 'answer'].includes(view.phase);
  const standIn = !!(info.stand_in || (model.standIn && model.standIn.has(s)));
  const chip = h('div.seat', {
    testid: 'seat',
    dataset: { seat: String(s), zone: `seat-${s}`, position },
    class: ['seat', `at-${position}`, toAct ? 'to-act' : '', s === mySeat ? 'me' : '', standIn ? 'stood-in' : ''].filter(Boolean).join(' '),
  });
  const away = info.kind === 'human' && info.claimed && !info.connected && s !== mySeat;
  const size = view.hand_sizes ? view.hand_sizes[s] : null;
  const foot = view.foot_sizes && view.foot_sizes[s];
  chip.append(
    h(
      'div.seat-head',
      h('span.name', { title: seatName(seats, s) }, s === mySeat ? 'You' : seatName(seats, s)),
      info.kind === 'bot' ? h('span.badge.bot', { title: `a bot plays this seat (${botLevel(info.bot)})` }, botLevel(info.bot)) : null,
      info.kind === 'human' && info.claimed === false ? h('span.badge.free', 'free seat') : null,
      away ? h('span.badge.away', { title: 'not connected' }, 'away') : null,
      standIn ? h('span.badge.stand-in', { testid: 'stand-in', title: 'the bot plays this seat’s turn while the player is away' }, 'bot playing') : null,
      view.dealer === s ? h('span.badge.dealer', { title: 'dealer' }, 'dealer') : null,
      !standIn && info.stand_in_turns ? h('span.badge.stood', { testid: 'stand-in-turns', title: `the bot played ${info.stand_in_turns} turn${info.stand_in_turns === 1 ? '' : 's'} for this seat` }, `bot played ${info.stand_in_turns}\u00d7`) : null,
    ),
    h(
      'div.seat-line',
      h('span.count', { testid: 'hand-size', title: 'cards in hand' }, h('span.mini-card'), size === null ? '?' : `${size}`, h('span.count-word', size === 1 ? ' card' : ' cards')),
      foot ? h('span.count.foot', { title: 'face-down foot' }, `foot ${foot}`) : null,
      toAct ? h('span.badge.acting', view.phase === 'answer' ? 'answering' : view.phase === 'draw' ? 'to draw' : 'playing') : null,
      toAct && model.deadlineAt ? h('span.timer', { testid: 'turn-timer', dataset: { deadline: String(model.deadlineAt) } }, clockText(model.deadlineAt - (model.now || Date.now()))) : null,
    ),
  );
  const reds = redThrees(view, s);
  if (reds.length) {
    chip.append(h('div.red-threes', { testid: 'red-threes', title: 'red threes laid out' }, reds.map((c) => cardElement(c, { small: true, testid: 'red-three' }))));
  }
  const known = view.known && view.known[s];
  if (known && known.length && s !== mySeat && !(model.hands && model.hands[s])) {
    chip.append(h('div.known', { title: 'cards this seat took with the pile and still holds' }, `holds ${known.map(cardWord).join(' ')}`));
  }
  if (model.hands && model.hands[s]) {
    chip.append(
      h(
        'div.open-hand',
        { testid: 'open-hand' },
        handOrder(model.hands[s]).map((c) => cardElement(c, { small: true })),
        model.feet && model.feet[s] && model.feet[s].length ? [h('span.foot-label', 'foot'), model.feet[s].map((c) => cardElement(c, { small: true }))] : null,
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

/**
 * A canasta's cards squared up with the card the rule books put on top last:
 * a red natural on a natural canasta, a black one on a mixed canasta, a
 * wild card on a wild one, the run's highest card on a samba.
 */
export function squaredOrder(cards, kind) {
  const out = [...cards];
  let pick = -1;
  if (kind === 'wild') pick = out.findIndex((c) => c === 'JK') >= 0 ? out.findIndex((c) => c === 'JK') : out.length - 1;
  else if (kind === 'samba') pick = out.length - 1;
  else {
    const red = (c) => !isWild(c) && (c[1] === 'H' || c[1] === 'D');
    const black = (c) => !isWild(c) && (c[1] === 'C' || c[1] === 'S');
    const want = kind === 'mixed' ? black : red;
    pick = out.findIndex(want);
    if (pick < 0) pick = out.findIndex((c) => !isWild(c));
  }
  if (pick >= 0) out.push(out.splice(pick, 1)[0]);
  return out;
}

function meldElement(model, side, own, m, i) {
  const cards = meldCards(m);
  const kind = canastaWord(m);
  const label = m.label === 'wild' ? 'wild' : String(m.label).replace(/T/g, '10');
  const el = h('div.meld', {
    testid: 'meld',
    dataset: { meld: `${side}:${i}`, side: String(side), index: String(i) },
    class: ['meld', own ? 'own' : '', m.canasta ? `canasta ${m.canasta} squared kind-${kind}` : '', m.closed ? 'closed' : ''].filter(Boolean).join(' '),
    title: `${label}: ${cards.map(cardWord).join(' ')}${kind ? ` \u2014 ${kind === 'samba' ? 'a samba' : `${kind} canasta`}${m.bonus ? ` (${m.bonus} points)` : ''}` : ''}`,
  });
  if (own) {
    el.dataset.drop = 'meld';
  }
  const shown = m.canasta ? squaredOrder(cards, kind) : cards;
  el.append(
    h(
      'div.meld-cards',
      shown.map((c, k) => {
        const card = cardElement(c, { small: true, testid: 'meld-card' });
        card.style.setProperty('--k', String(k));
        return card;
      }),
    ),
    h(
      'div.meld-head',
      kind
        ? h('span.canasta-mark', { testid: 'canasta', class: `canasta-mark ${m.canasta} ${kind}` }, kind === 'samba' ? 'samba' : `${kind} canasta`)
        : h('span.meld-label', label),
      h('span.meld-len', `${cards.length}`),
      m.closed ? h('span.badge.closed', 'closed') : null,
    ),
  );
  if (own && model.closable && model.closable.has(i) && model.onClose) {
    el.append(h('button.close-canasta', { testid: 'close-canasta', title: 'close this meld as a canasta', on: { click: (e) => { e.stopPropagation(); model.onClose(i); } } }, 'Close canasta'));
  }
  if (own && model.onMeld) {
    el.classList.add('clickable');
    el.tabIndex = 0;
    el.addEventListener('click', () => model.onMeld(i));
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') model.onMeld(i);
    });
  }
  return el;
}

function sidePanel(model, entry, own) {
  const { view, notes } = model;
  const melds = (notes && notes.melds && notes.melds[entry.side]) || [];
  const teams = teamsOf(notes, view);
  const sideTeams = teams.filter((t) => (t.seats || []).some((s) => entry.seats.includes(s)));
  const needOf = (s) => (view.opening_needed ? view.opening_needed[s] : (teams.find((t) => (t.seats || []).includes(s)) || {}).opening_needed);
  const needs = [...new Set(entry.seats.map(needOf))];
  const need = needs.length === 1 ? needs[0] : null;
  const panel = h('section.side', {
    testid: own ? 'own-side' : 'other-side',
    dataset: { side: String(entry.side), zone: `melds-${entry.side}` },
    class: `side ${own ? 'own' : 'other'}`,
  });
  if (own) panel.dataset.drop = 'side';
  const names = entry.seats.map((s) => (s === model.mySeat ? 'you' : seatName(model.seats, s)));
  const scored = sideTeams.filter((t) => t.score !== undefined && t.score !== null);
  panel.append(
    h(
      'div.side-head',
      h('span.side-name', own ? (names.length > 1 ? `Your side: ${names.join(' & ')}` : 'Your melds') : names.join(' & ')),
      scored.length ? h('span.side-score', scored.map((t) => `${t.score}`).join(' \u00b7 ')) : null,
      need > 0
        ? h('span.badge.opening', { testid: 'opening-needed', title: 'points the first meld needs' }, `needs ${need} to open`)
        : need === 0
          ? h('span.badge.opened', { title: 'this side has melded' }, 'opened')
          : null,
    ),
  );
  panel.append(
    h(
      'div.melds',
      { testid: own ? 'own-melds' : 'melds' },
      melds.length ? melds.map((m, i) => meldElement(model, entry.side, own, m, i)) : h('div.no-melds', own && model.mySeat !== null && model.mySeat !== undefined ? 'No melds yet: drag cards here to meld' : 'no melds yet'),
    ),
  );
  return panel;
}

/**
 * What stops this seat taking the pile, in words: the server's
 * `pile_words`, else worked out from the freeze and the stop.
 */
export function pileWords(view, notes) {
  if (notes && typeof notes.pile_words === 'string') return notes.pile_words;
  if (notes && notes.pile_words === null) return '';
  const pile = view.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  if (!top) return 'The pile is empty.';
  if (notes ? notes.stop : isBlackThree(top)) return `A black 3 on top: nobody takes the pile this turn.`;
  if (isWild(top)) return 'A wild card on top: the pile is frozen.';
  if (notes && notes.pile_frozen_for_me) return `Frozen for your side: only a natural pair of ${rankPlural(top[0])} takes it.`;
  if (view.pile_frozen) return `Frozen: only a natural pair of ${rankPlural(top[0])} takes it.`;
  return '';
}

/** The pile in words: `pile of 4, top J\u2666 (frozen)`. */
export function pileSummary(view, notes) {
  const pile = view.pile || [];
  const size = pile.length + (view.pile_hidden || 0);
  if (!size) return 'the pile is empty';
  const marks = [notes && notes.stop ? 'stop' : null, notes && notes.pile_frozen_for_me ? 'frozen' : null].filter(Boolean);
  return `pile of ${size}${pile.length ? `, top ${cardWord(pile[pile.length - 1])}` : ''}${marks.length ? ` (${marks.join(', ')})` : ''}`;
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
    { testid: 'stock', title: `the stock: ${view.stock} cards`, dataset: { zone: 'stock' } },
    view.stock > 0 ? cardBack() : h('div.card.empty', 'empty'),
    h('div.pile-count', { testid: 'stock-size' }, `stock ${view.stock}`),
  );
  if (model.onStock) {
    stock.classList.add('clickable');
    stock.addEventListener('click', model.onStock);
  }
  const under = pile.length > 1 ? pile[pile.length - 2] : null;
  const stack = h(
    'div.pile-stack',
    hidden ? cardBack({ small: false }) : null,
    under ? cardElement(under, { testid: 'pile-under' }) : null,
    top ? cardElement(top, { testid: 'pile-top' }) : h('div.card.empty', { testid: 'pile-empty' }, 'empty'),
  );
  if (frozenAll) stack.classList.add('frozen');
  const words = pileWords(view, notes);
  const pileEl = h(
    'div.pile',
    {
      testid: 'pile',
      dataset: { zone: 'pile', drop: 'pile' },
      title: pile.length ? `the discard pile, top last: ${pile.map(cardWord).join(' ')}${hidden ? ` (and ${hidden} face down under it)` : ''}` : 'the discard pile (empty)',
    },
    stack,
    h(
      'div.pile-count',
      { testid: 'pile-size' },
      `pile ${pile.length + hidden}`,
      hidden ? h('span.hidden-count', { testid: 'pile-hidden' }, ` (${hidden} face down)`) : null,
    ),
  );
  if (model.onPile) {
    pileEl.classList.add('clickable');
    pileEl.addEventListener('click', model.onPile);
  }
  const badges = h(
    'div.pile-badges',
    frozenAll
      ? h('span.badge.frozen', { testid: 'pile-frozen', title: 'frozen for everyone' }, '\u2744 frozen')
      : frozenMe
        ? h('span.badge.frozen-me', { testid: 'pile-frozen-me', title: 'frozen for your side' }, '\u2744 frozen for you')
        : null,
    stop ? h('span.badge.stop', { testid: 'pile-stop', title: 'a black three on top' }, 'stop') : null,
  );
  return h(
    'div.center',
    { testid: 'center' },
    h('div.center-cards', stock, pileEl),
    h('div.pile-info', badges, words ? h('p.pile-words', { testid: 'pile-words' }, words) : null),
  );
}

/**
 * Draws the table into `root`: the seats around it (this seat at the
 * bottom), each side's melds, the stock and the pile. `model`: `{view,
 * notes, seats, mySeat, hands, feet, deadlineAt, now, standIn (a Set of
 * seats), closable, onClose(i), onMeld(i), onPile, onStock}`.
 */
export function renderBoard(root, model) {
  const { view } = model;
  if (!view) {
    fill(root, h('div.no-view', 'The cards are not dealt yet.'));
    return;
  }
  const mine = model.mySeat !== null && model.mySeat !== undefined;
  const positions = seatPositions(view.players, mine ? model.mySeat : 0);
  const spot = (name) => h(`div.spot.spot-${name}`, { class: `spot spot-${name}` });
  const spots = { top: spot('top'), left: spot('left'), right: spot('right'), bottom: spot('bottom') };
  const topOrder = ['top-left', 'top', 'top-right'];
  for (const pos of topOrder) {
    positions.forEach((p, s) => {
      if (p === pos) spots.top.append(seatChip(model, s, p));
    });
  }
  positions.forEach((p, s) => {
    // The live table draws this seat's place beside the hand (model.ownSeatApart).
    if (p === 'bottom' && model.ownSeatApart && mine) return;
    if (p === 'left' || p === 'right' || p === 'bottom') spots[p].append(seatChip(model, s, p));
  });
  const sides = sidesOf(view);
  const mySide = view.side_of ? view.side_of[mine ? model.mySeat : 0] : sides[0] && sides[0].side;
  const others = sides.filter((e) => e.side !== mySide);
  const ownEntry = sides.find((e) => e.side === mySide);
  root.classList.add('felt');
  root.dataset.players = String(view.players);
  fill(
    root,
    spots.top,
    spots.left,
    h(
      'div.felt-mid',
      h('div.others', { class: `others n${others.length}` }, others.map((e) => sidePanel(model, e, false))),
      pileArea(model),
      ownEntry ? sidePanel(model, ownEntry, mine) : null,
    ),
    spots.right,
    spots.bottom,
  );
}
