// Unit tests of the client's pure logic (no browser): node web/tests/unit.mjs
import assert from 'node:assert/strict';
import { groupHand, handOrder, parseCard, compareCards } from '../cards.js';
import {
  isOneGroup,
  groupsFromSelection,
  meldAction,
  pickupAction,
  addAction,
  discardAction,
  matchingMelds,
  actionUses,
  actionCards,
  SelectionError,
} from '../actions.js';
import { presetDefaults, partnersOf, botLabel, ruleValueWords, optionsWords, matchingPreset } from '../lobby.js';
import { rulesHref, parseRulesQuery } from '../rules-page.js';
import { canastaWord, seatPositions, squaredOrder, pileWords, seatName } from '../board.js';
import { reduce, initialState, logFromHistory } from '../table-store.js';
import { cardWord, moveWords, actionWords, refusalWords, meldName } from '../table-words.js';
import { arrangeHand, cardsAdded } from '../cards.js';
import { handEndSummary, gameEndSummary } from '../scores.js';
import { pacedQueue } from '../table-pace.js';
import { guideStep, guideRules, guideFor } from '../table-guide.js';
import { replayLine } from '../replay.js';
import { gestureOf } from '../hand.js';

let passed = 0;
const pending = [];
function test(name, fn) {
  const fail = (e) => {
    console.error(`FAIL ${name}: ${e.message}`);
    process.exitCode = 1;
  };
  try {
    const r = fn();
    if (r && typeof r.then === 'function') pending.push(r.then(() => { passed++; }, fail));
    else passed++;
  } catch (e) {
    fail(e);
  }
}

test('cards parse', () => {
  assert.deepEqual(parseCard('kh'), { code: 'KH', rank: 'K', suit: 'H', wild: false, red: true, joker: false });
  assert.equal(parseCard('JK').joker, true);
  assert.equal(parseCard('2C').wild, true);
  assert.ok(compareCards('3C', 'AS') < 0);
  assert.ok(compareCards('AS', '2C') < 0);
  assert.ok(compareCards('2C', 'JK') < 0);
});

test('the hand is grouped by rank with the wild cards apart', () => {
  const hand = ['2C', '3C', '4S', '8H', '8H', '9D', 'TD', 'JS', 'JD', 'KD', 'AC', 'JK'];
  const { groups, wilds } = groupHand(hand);
  assert.deepEqual(groups, [['3C'], ['4S'], ['8H', '8H'], ['9D'], ['TD'], ['JD', 'JS'], ['KD'], ['AC']]);
  assert.deepEqual(wilds, ['2C', 'JK']);
  assert.equal(handOrder(hand).length, hand.length);
});

test('groups', () => {
  assert.ok(isOneGroup(['KS', 'KH', '2C']));
  assert.ok(isOneGroup(['JK', '2C']));
  assert.ok(!isOneGroup(['KS', 'QS', 'KH']));
  assert.ok(isOneGroup(['5H', '6H', '7H']));
  assert.deepEqual(groupsFromSelection([], ['7S', '7H', 'KS', 'KD', 'KC']), [['7S', '7H'], ['KS', 'KD', 'KC']]);
  assert.throws(() => groupsFromSelection([], ['7S', '7H', 'KS', 'KD', '2C']), SelectionError);
  assert.deepEqual(groupsFromSelection([['7S', '7H', '2C']], ['KS', 'KD', 'KC']), [['7S', '7H', '2C'], ['KS', 'KD', 'KC']]);
});

test('actions from the selection', () => {
  assert.equal(meldAction([], ['KS', 'KH', 'KD']), 'meld KS KH KD');
  assert.equal(meldAction([['KS', 'KH', 'KD']], ['7S', '7H', 'JK']), 'meld KS KH KD / 7S 7H JK');
  assert.throws(() => meldAction([], []), SelectionError);
  assert.equal(pickupAction([], []), 'pickup');
  assert.equal(pickupAction([['JS', 'JD', '2C']], ['8H', '8H'], '8D'), 'pickup 8H 8H / JS JD 2C');
  assert.equal(pickupAction([], ['8H', '8H'], '8D'), 'pickup 8H 8H');
  assert.equal(addAction(0, ['KC']), 'add 0 KC');
  assert.throws(() => addAction(0, ['KC', 'QD']), SelectionError);
  assert.equal(discardAction(['4H'], 'KS'), 'discard 4H');
  assert.equal(discardAction([], 'KS'), 'discard KS');
  assert.throws(() => discardAction(['4H', '5H'], null), SelectionError);
});

test('melds a selection matches', () => {
  const melds = [{ label: '7' }, { label: 'K' }, { label: 'wild' }];
  assert.deepEqual(matchingMelds(melds, ['KC', '2D']), [1]);
  assert.deepEqual(matchingMelds(melds, ['2D']), []);
  assert.deepEqual(matchingMelds(melds, ['5C']), []);
  const samba = [{ label: '8\u2013J\u2666', cards: ['8D', '9D', 'TD', 'JD'] }, { label: '7', cards: ['7S', '7S', '2H'] }];
  assert.deepEqual(matchingMelds(samba, ['7D']), [0, 1]);
  assert.deepEqual(matchingMelds(samba, ['7S']), [1]);
  assert.deepEqual(matchingMelds(samba, ['QD', 'KD']), [0]);
});

test('legal moves using the selection', () => {
  assert.deepEqual(actionCards('pickup 8H 8H / JS JD 2C'), ['8H', '8H', 'JS', 'JD', '2C']);
  assert.ok(actionUses('pickup 8H 8H / JS JD 2C', ['8H', '8H']));
  assert.ok(!actionUses('pickup 8H 2C', ['8H', '8H']));
  assert.ok(!actionUses('draw', ['8H']));
  assert.ok(actionUses('draw', []));
});

test('the lobby shows the form of the preset it creates', () => {
  const classic = {
    default_players: 4,
    options: { teams: 2, target: 5000 },
    forms: [
      { players: 6, teams: 3, differs: { teams: 3, target: 7500 } },
      { players: 6, teams: 2, differs: { target: 10000 } },
    ],
  };
  assert.deepEqual(presetDefaults(classic, 4), { teams: 2, target: 5000 });
  assert.deepEqual(presetDefaults(classic, 6), { teams: 3, target: 7500 });
  assert.deepEqual(presetDefaults(classic, 6, 2), { teams: 2, target: 10000 });
  // Pennies: six players is the preset's own count; three teams an option.
  const pennies = { default_players: 6, options: { teams: 2 }, forms: [{ players: 6, teams: 3, differs: { teams: 3 } }] };
  assert.equal(presetDefaults(pennies, 6).teams, 2);
  assert.equal(presetDefaults(pennies, 6, 3).teams, 3);
  assert.deepEqual(partnersOf(0, 6, 2), [2, 4]);
  assert.deepEqual(partnersOf(1, 6, 3), [4]);
  assert.deepEqual(partnersOf(0, 4, 2), [2]);
  assert.deepEqual(partnersOf(0, 3, 3), []);
});

test('canastas by their names', () => {
  assert.equal(canastaWord({ label: 'K', canasta: 'natural' }), 'natural');
  assert.equal(canastaWord({ label: 'K', canasta: 'mixed' }), 'mixed');
  assert.equal(canastaWord({ label: 'wild', canasta: 'mixed' }), 'wild');
  assert.equal(canastaWord({ label: '4\u20139\u2666', canasta: 'natural' }), 'samba');
  assert.equal(canastaWord({ label: 'K', canasta: null }), null);
});

// ---- the table's store: events in, state out ----

const seats4 = [0, 1, 2, 3].map((seat) => ({ seat, kind: seat === 0 ? 'human' : 'bot', bot: 'heuristic', claimed: seat === 0, name: seat === 0 ? 'Ann' : null }));
const view = (over = {}) => ({
  seat: 0, players: 4, phase: 'draw', to_act: 0, current: 0, hand: ['KS', '7H', '3C'], hand_sizes: [3, 11, 11, 11],
  melds: [[], []], side_of: [0, 1, 0, 1], pile: ['9C'], pile_frozen: false, stock: 60, scores: [0, 0], ...over,
});
const stateMsg = (id, over = {}, viewOver = {}) => ({
  type: 'state', state_id: id, status: 'playing', hand: 1, view: view(viewOver), legal: ['draw'], last: null,
  annotations: { melds: [[{ cards: ['JS', 'JD', 'JC'], label: 'J', canasta: null }], []], pile_frozen_for_me: false, pile_top: '9C', stop: false, teams: [{ seats: [0, 2], score: 0 }, { seats: [1, 3], score: 0 }] },
  ...over,
});
const run = (events, s = initialState('t1')) => events.reduce(reduce, s);
const server = (msg, at = 1000) => ({ type: 'server', msg, at });
const welcome = (log = []) => server({ type: 'welcome', seat: 0, table: { id: 't1', variant: 'classic', players: 4, options: {}, status: 'playing', hand: 1, scores: [0, 0], created: 0, seats: seats4 }, log });

test('the reducer is pure: the state it was given is unchanged', () => {
  const s0 = initialState('t1');
  const frozen = JSON.stringify(s0);
  const s1 = reduce(s0, welcome());
  assert.equal(JSON.stringify(s0), frozen);
  assert.notEqual(s1, s0);
  assert.equal(s1.seat, 0);
  assert.equal(s1.conn, 'open');
});

test('a game over when the page loads opens on its final scores; a reconnect keeps the dialog as it was', () => {
  const over = [{ hand: 1, hand_end: { scores: [560, -10] } }, { game_end: { totals: [560, -10], winner: 0 } }];
  let s = run([welcome(over)]);
  assert.equal(s.dialog, 'scores');
  assert.deepEqual(s.gameEnd.totals, [560, -10]);
  s = reduce(s, { type: 'dialog', dialog: null });
  s = reduce(s, welcome(over));
  assert.equal(s.dialog, null);
  assert.equal(run([welcome()]).dialog, null);
});

test('states: the hand arranged by rank, the move logged once, the countdown from deadline_ms', () => {
  let s = run([welcome([{ hand: 1, seat: 1, action: 'draw' }]), server(stateMsg(5, { last: { seat: 1, action: 'draw' }, deadline_ms: 30000 }), 2000)]);
  assert.deepEqual(s.order, ['3C', '7H', 'KS']);
  // The welcome's log holds the state's last action already.
  assert.equal(s.log.filter((e) => e.kind === 'move').length, 1);
  assert.equal(s.deadlineAt, 32000);
  s = reduce(s, server(stateMsg(6, { last: { seat: 1, action: 'discard 4D', stand_in: true } })));
  const last = s.log[s.log.length - 1];
  assert.equal(last.action, 'discard 4D');
  assert.equal(last.stand_in, true);
  assert.equal(s.deadlineAt, null);
});

test('cards just drawn are fresh until the turn ends', () => {
  let s = run([welcome(), server(stateMsg(1))]);
  s = reduce(s, server(stateMsg(2, { last: { seat: 0, action: 'draw' } }, { phase: 'play', hand: ['KS', '7H', '3C', '9D', 'KS'] })));
  assert.deepEqual(s.fresh.sort(), ['9D', 'KS']);
  s = reduce(s, server(stateMsg(3, { last: { seat: 0, action: 'meld KS KS 2C' } }, { phase: 'play', hand: ['7H', '3C', '9D'] })));
  assert.deepEqual(s.fresh, ['9D']);
  s = reduce(s, server(stateMsg(4, { last: { seat: 0, action: 'discard 3C' } }, { phase: 'draw', to_act: 1, current: 1, hand: ['7H', '9D'] })));
  assert.deepEqual(s.fresh, []);
});

test('selection, groups, sorting by suit and the player\'s own order', () => {
  let s = run([welcome(), server(stateMsg(1, {}, { hand: ['KS', '7H', '3C', 'KH', '2D'] }))]);
  assert.deepEqual(s.order, ['3C', '7H', 'KH', 'KS', '2D']);
  s = run([{ type: 'toggle', index: 2 }, { type: 'toggle', index: 3 }], s);
  assert.deepEqual(s.selected, [2, 3]);
  s = reduce(s, { type: 'sort', by: 'suit' });
  assert.deepEqual(s.order, ['3C', '7H', 'KH', 'KS', '2D']);
  assert.deepEqual(s.selected.map((i) => s.order[i]).sort(), ['KH', 'KS']);
  s = reduce(s, { type: 'group' });
  assert.deepEqual(s.marked, [[2, 3]]);
  assert.deepEqual(s.selected, []);
  s = reduce(s, { type: 'move-card', from: 0, to: 5 });
  assert.deepEqual(s.order, ['7H', 'KH', 'KS', '2D', '3C']);
  assert.equal(s.sortBy, 'own');
  // A new card joins the player's order at its end.
  s = reduce(s, server(stateMsg(2, { last: { seat: 0, action: 'draw' } }, { hand: ['KS', '7H', '3C', 'KH', '2D', '4S'] })));
  assert.deepEqual(s.order, ['7H', 'KH', 'KS', '2D', '3C', '4S']);
});

test('refusals keep the action they answer; undone takes entries off the log', () => {
  let s = run([welcome([{ hand: 1, seat: 0, action: 'draw' }, { hand: 1, seat: 0, action: 'discard 9C' }]), server(stateMsg(3))]);
  s = reduce(s, { type: 'sent', action: 'discard KS' });
  s = reduce(s, server({ type: 'error', code: 'illegal_action', message: 'the turn starts with a draw', state_id: 3 }));
  assert.equal(s.refused, 'discard KS');
  assert.equal(s.status.kind, 'error');
  assert.equal(s.pending, null);
  // An action sent on a connection that drops is not waited for.
  assert.equal(run([{ type: 'sent', action: 'draw' }, { type: 'conn', conn: 'reconnecting' }], s).pending, null);
  const moves = s.log.filter((e) => e.kind === 'move').length;
  s = reduce(s, server({ type: 'undone', removed: 2 }));
  assert.equal(s.log.filter((e) => e.kind === 'move').length, moves - 2);
});

test('hands\' ends make the score sheet, from the history and live', () => {
  const result = { reason: 'out', seat: 0, teams: [{ total: 900 }, { total: 300 }], totals: [900, 300] };
  const h = logFromHistory([{ hand: 1, seat: 0, action: 'draw' }, { hand: 1, hand_end: result }, { hand: 2, seat: 1, action: 'draw' }]);
  assert.equal(h.hands.length, 1);
  assert.deepEqual(h.log.map((e) => e.kind), ['deal', 'move', 'hand-end', 'deal', 'move']);
  let s = run([welcome([{ hand: 1, hand_end: result }]), server({ type: 'hand_end', hand: 2, result, stand_ins: [2] })]);
  assert.equal(s.hands.length, 2);
  assert.equal(s.dialog, 'scores');
  s = reduce(s, server({ type: 'rematch', id: 'NEW' }));
  assert.equal(s.rematch, 'NEW');
});

test('bare pickups from the history name the meld of the last discard\'s rank', () => {
  const h = logFromHistory([
    { hand: 1, seat: 0, action: 'draw' },
    { hand: 1, seat: 0, action: 'discard 9H' },
    { hand: 1, seat: 1, action: 'pickup' },
    { hand: 1, seat: 1, action: 'discard JK' },
    { hand: 1, seat: 0, action: 'pickup 7S 7D' },
    { hand: 2, seat: 1, action: 'pickup' },
  ]);
  const pickups = h.log.filter((e) => e.kind === 'move' && e.action.startsWith('pickup'));
  assert.equal(pickups[0].meld, '9');
  assert.equal(pickups[1].meld, undefined);
  // A new hand's first pickup takes the upcard, which the history does not say.
  assert.equal(pickups[2].meld, undefined);
  assert.equal(moveWords(pickups[0], 'Bot 2', 'their'), 'Bot 2 took the pile onto their meld of nines');
});

test('the log\'s hand and game ends name each side with its points', () => {
  const seats = [{ seat: 0, kind: 'human', name: 'Ann' }, { seat: 1, kind: 'bot', bot: 'heuristic' }, { seat: 2, kind: 'bot', bot: 'heuristic' }, { seat: 3, kind: 'bot', bot: 'heuristic' }];
  const teams = [{ seats: [0, 2], score: 0 }, { seats: [1, 3], score: 0 }];
  const result = { reason: 'out', seat: 0, teams: [{ total: 785 }, { total: 1035 }], totals: [785, 1035] };
  const line = handEndSummary(seats, { type: 'hand_end', hand: 1, result }, 0, teams);
  assert.match(line, /^Hand 1 over: you went out\. You & \S.* 785 \(785 in all\), .* 1035 \(1035 in all\)$/);
  assert.match(gameEndSummary(seats, teams, { type: 'game_end', totals: [5100, 4000], winner: 0 }, 0), /^Game over: your side wins\. You & .* 5100, /);
  assert.match(gameEndSummary(seats, teams, { type: 'game_end', totals: [4000, 5100], winner: 1 }, 0), /^Game over: .* win\. You & .* 4000/);
  assert.doesNotMatch(gameEndSummary(seats, teams, { type: 'game_end', totals: [4000, 5100], winner: 1 }, 0), /Ann/);
});

test('the guided first hand says what to do at each step, from the state', () => {
  const rules = guideRules({ variants: [{ id: 'classic', options: { canasta_size: 7, canastas_to_go_out: 1, card_values: { joker: 50, two: 20, ace: 20, king: 10, eight: 10, seven: 5, four: 5 } }, forms: [{ players: 2, differs: { canastas_to_go_out: 2 } }] }] }, { variant: 'classic', players: 4, options: {} });
  assert.equal(rules.canastas_to_go_out, 1);
  assert.equal(guideRules({ variants: [{ id: 'classic', options: { canastas_to_go_out: 1 }, forms: [{ players: 2, differs: { canastas_to_go_out: 2 } }] }] }, { variant: 'classic', players: 2, options: {} }).canastas_to_go_out, 2);
  const unopened = { melds: [[], []], pile_frozen_for_me: false, pile_top: '9C', stop: false, teams: [{ seats: [0, 2], score: 0, opening_needed: 50 }, { seats: [1, 3], score: 0, opening_needed: 50 }] };
  // Another seat's turn: watch it, pointing at that seat.
  let s = run([welcome(), server(stateMsg(1, { legal: [], annotations: unopened }, { to_act: 1, current: 1 }))]);
  let g = guideStep(s, rules);
  assert.equal(g.id, 'watch');
  assert.equal(g.zone, 'seat-1');
  assert.match(g.why, /your melds are shared/);
  // The draw: the pile cannot be taken, so the stock, and what the pile needs.
  s = reduce(s, server(stateMsg(2, { annotations: unopened })));
  g = guideStep(s, rules);
  assert.equal(g.id, 'draw');
  assert.equal(g.zone, 'stock');
  assert.match(g.why, /9♣/);
  assert.match(g.why, /at least 50 points/);
  assert.ok(g.hint);
  // The pile's words, a label on the board, open the paragraph as a sentence.
  g = guideStep(reduce(s, server(stateMsg(2, { annotations: { ...unopened, pile_words: 'Frozen: only two natural nines from hand take it' } }))), rules);
  assert.match(g.why, /^Frozen: only two natural nines from hand take it\. To take the pile/);
  // With a pickup legal, the pile.
  s = reduce(s, server(stateMsg(3, { annotations: unopened, legal: ['draw', 'pickup 9H 9S'] })));
  assert.equal(guideStep(s, rules).zone, 'pile');
  // A first meld possible: what a meld is and the side's opening minimum.
  s = reduce(s, server(stateMsg(4, { annotations: unopened, legal: ['meld KS KS 2C', 'discard KS'], last: { seat: 0, action: 'draw' } }, { phase: 'play', hand: ['KS', 'KS', '2C', '7H'] })));
  g = guideStep(s, rules);
  assert.equal(g.id, 'open');
  assert.equal(g.zone, 'melds-0');
  assert.match(g.why, /three or more cards of one rank/);
  assert.match(g.why, /at least 50 points/);
  assert.match(g.why, /a joker 50/);
  // Opened, with an add: canastas and going out.
  s = reduce(s, server(stateMsg(5, { legal: ['add 0 JH', 'discard 7H'] }, { phase: 'play', hand: ['JH', '7H'], melds: [['JS JD JC'], []] })));
  g = guideStep(s, rules);
  assert.equal(g.id, 'meld-or-add');
  assert.match(g.why, /7 cards is a canasta/);
  assert.match(g.why, /needs 1 canasta\b/);
  // Only a discard left.
  s = reduce(s, server(stateMsg(6, { legal: ['discard 7H'] }, { phase: 'play', hand: ['7H'] })));
  g = guideStep(s, rules);
  assert.equal(g.id, 'discard');
  assert.equal(g.zone, 'hand');
  // The hand's end; a spectator sees no guide.
  s = reduce(s, server(stateMsg(7, { status: 'hand_over', legal: [] }, { phase: 'hand_over' })));
  assert.equal(guideStep(s, rules).id, 'hand-end');
  assert.equal(guideStep({ ...s, seat: null }, rules), null);
});

test('the guide shows on a player\'s first table, for its first hand, until closed', () => {
  let g = guideFor(null, 'A', null);
  assert.ok(g.show);
  g = guideFor(g.memory, 'A', 1);
  assert.ok(g.show);
  assert.deepEqual(g.memory, { table: 'A', hand: 1 });
  assert.ok(guideFor(g.memory, 'A', 1).show);
  assert.ok(!guideFor(g.memory, 'A', 2).show);
  assert.ok(!guideFor(g.memory, 'B', 1).show);
  assert.ok(!guideFor({ ...g.memory, closed: true }, 'A', 1).show);
});

test('the replay\'s step line is the move log\'s words', () => {
  const seats = [{ seat: 0, kind: 'human', name: 'Ann' }, { seat: 1, kind: 'bot', bot: 'heuristic' }];
  const v = (over) => ({ players: 2, side_of: [0, 1], scores: [0, 0], melds: [[], []], pile: [], hand_sizes: [11, 11], ...over });
  assert.equal(replayLine({ hand: 1, event: { seat: 0, action: 'discard TD' }, view: v({ pile: ['TD'] }), line: 'seat 0: discard TD' }, null, seats), 'Ann discarded 10♦');
  // A bare pickup: the pile before it names the meld and the cards taken.
  const before = v({ pile: ['4C', '9H'] });
  const after = v({ melds: [[], ['9S 9D 9H']] });
  assert.equal(replayLine({ hand: 1, event: { seat: 1, action: 'pickup' }, view: after }, before, seats), `${seatName(seats, 1)} took the pile (2 cards) onto their meld of nines`);
  assert.match(replayLine({ hand: 1, event: { seat: 1, action: 'add 0 9C' }, view: v({ melds: [[], ['9S 9D 9H 9C']] }) }, null, seats), /to their meld of nines$/);
  assert.equal(replayLine({ hand: 1, event: { deal: true }, view: v({}) }, null, seats), 'Hand 1 dealt: the game starts');
  assert.match(replayLine({ hand: 2, event: { hand_end: { reason: 'out', seat: 0, teams: [{ total: 900 }, { total: 300 }], totals: [1900, 800] } }, view: v({}) }, null, seats), /^Hand 2 over: Ann went out\. Ann 900 \(1900 in all\), .* 300 \(800 in all\)$/);
  assert.doesNotMatch(replayLine({ hand: 1, event: { seat: 0, action: 'meld 7S 7H 2C' }, view: v({}) }, null, seats), /7S|seat 0/);
});

test('on a touch screen a sideways swipe scrolls the hand; an upward move or a hold drags', () => {
  const finger = { touch: true, held: false };
  assert.equal(gestureOf(2, 3, finger), 'wait');
  assert.equal(gestureOf(30, 4, finger), 'scroll');
  assert.equal(gestureOf(-30, -10, finger), 'scroll');
  assert.equal(gestureOf(5, -30, finger), 'drag');
  assert.equal(gestureOf(30, 4, { touch: true, held: true }), 'drag');
  // A mouse drags whichever way it goes.
  assert.equal(gestureOf(30, 0, { touch: false, held: false }), 'drag');
});

test('seats sit as at a card table: you at the bottom, the next seat on your left', () => {
  assert.deepEqual(seatPositions(4, 0), ['bottom', 'left', 'top', 'right']);
  assert.deepEqual(seatPositions(4, 2), ['top', 'right', 'bottom', 'left']);
  assert.deepEqual(seatPositions(2, 1), ['top', 'bottom']);
  assert.deepEqual(seatPositions(3, 0), ['bottom', 'left', 'right']);
  assert.deepEqual(seatPositions(5, 0), ['bottom', 'left', 'top-left', 'top-right', 'right']);
  assert.deepEqual(seatPositions(6, 3), ['top', 'top-right', 'right', 'bottom', 'left', 'top-left']);
});

test('canastas squared up with the rule books\' card on top', () => {
  const natural = squaredOrder(['KS', 'KC', 'KH', 'KS', 'KC', 'KD', 'KS'], 'natural');
  assert.ok(['H', 'D'].includes(natural[natural.length - 1][1]));
  const mixed = squaredOrder(['KH', 'KD', '2C', 'KH', 'KS', 'KD', 'JK'], 'mixed');
  assert.equal(mixed[mixed.length - 1], 'KS');
  assert.equal(squaredOrder(['2C', 'JK', '2D'], 'wild').pop(), 'JK');
});

test('the pile in words when the server sends none', () => {
  assert.equal(pileWords({ pile: ['9C'] }, { pile_words: 'Frozen for you', stop: false }), 'Frozen for you');
  assert.equal(pileWords({ pile: ['9C'] }, { pile_words: null }), '');
  assert.match(pileWords({ pile: ['3S'] }, { stop: true }), /black 3/);
  assert.match(pileWords({ pile: ['TD'] }, { stop: false, pile_frozen_for_me: true }), /pair of tens/);
  assert.match(pileWords({ pile: ['AH'], pile_frozen: true }, { stop: false }), /pair of aces/);
});

test('a player\'s words: cards as drawn, melds by rank, never notation', () => {
  assert.equal(cardWord('TD'), '10\u2666');
  assert.equal(cardWord('JS'), 'J\u2660');
  assert.equal(cardWord('JK'), 'Joker');
  assert.equal(meldName('J'), 'meld of jacks');
  assert.equal(moveWords({ action: 'discard 9C' }, 'Ann', 'their'), 'Ann discarded 9\u2663');
  assert.equal(moveWords({ action: 'add 0 7C', meld: '7' }, 'You', 'your'), 'You added 7\u2663 to your meld of sevens');
  assert.equal(moveWords({ action: 'pickup 7S 7H / KS KD JK', took: 9 }, 'Bot 2', 'their'), 'Bot 2 took the pile (9 cards) with 7\u2660 7\u2665, and melded K\u2660 K\u2666 Joker');
  assert.equal(moveWords({ action: 'meld TD TH 2C', stand_in: true }, 'Ann', 'their'), 'Ann melded 10\u2666 10\u2665 2\u2663 (the bot stood in)');
  assert.equal(actionWords('meld JS JS JC 2D'), 'meld J\u2660 J\u2660 J\u2663 2\u2666');
  assert.equal(refusalWords('add 0 7D', 'the meld of `7` is a canasta', () => '7'), 'You cannot add 7\u2666 to your meld of sevens: the meld of 7 is a canasta.');
  for (const text of [moveWords({ action: 'add 1 KD', meld: 'K' }, 'Ann', 'their'), actionWords('pickup 8H 8H / JS JD 2C')]) {
    assert.ok(!/\b(?:[2-9TJQKA][CDHS]|JK)\b/.test(text), `notation in "${text}"`);
  }
});

test('hands arranged by rank, by suit, in the player\'s order', () => {
  assert.deepEqual(arrangeHand(['KS', '3H', 'JK', '5S', '3C'], 'suit'), ['3C', '3H', '5S', 'KS', 'JK']);
  assert.deepEqual(arrangeHand(['KS', '3H', '5S'], 'own', ['5S', 'KS']), ['5S', 'KS', '3H']);
  assert.deepEqual(cardsAdded(['KS', '3H'], ['KS', '3H', 'KS']), ['KS']);
});

test('the paced queue shows its items one at a time, in order', async () => {
  const seen = [];
  let release;
  const q = pacedQueue(async (x) => {
    seen.push(`start ${x}`);
    if (x === 1) await new Promise((r) => { release = r; });
    seen.push(`end ${x}`);
  });
  q.push(1);
  q.push(2);
  await Promise.resolve();
  assert.deepEqual(seen, ['start 1']);
  release();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(seen, ['start 1', 'end 1', 'start 2', 'end 2']);
});

await Promise.all(pending);

test('house rules read in words, presets found, bots by level', () => {
  const rules = [
    { key: 'pile_always_frozen', label: 'Pile always frozen', kind: 'bool', default: false },
    { key: 'clean_opening', label: 'Clean openings', kind: 'choice', default: 'never', choices: [{ value: 'never', label: 'Never' }, { value: { up_to: 50 }, label: 'While the minimum is 50 or less' }] },
    { key: 'card_values', label: 'Card values', kind: 'text', default: { joker: 50 }, default_label: 'Joker 50' },
  ];
  assert.equal(ruleValueWords(rules[1], { up_to: 50 }), 'While the minimum is 50 or less');
  assert.equal(ruleValueWords(rules[0], true), 'On');
  assert.equal(ruleValueWords(rules[2], { joker: 50 }), 'Joker 50');
  assert.equal(ruleValueWords(rules[2], { joker: 40 }), '{"joker":40}');
  assert.equal(optionsWords(rules, { pile_always_frozen: true, target: 3000 }), 'Pile always frozen: On; target: 3000');
  const presets = [{ id: 'frozen', options: { pile_always_frozen: true } }];
  assert.equal(matchingPreset(presets, { pile_always_frozen: true }).id, 'frozen');
  assert.equal(matchingPreset(presets, { pile_always_frozen: true, target: 3000 }), null);
  assert.equal(botLabel('ismcts-easy'), 'Easy');
  assert.equal(botLabel('ismcts'), 'Medium');
  assert.equal(botLabel('heuristic'), 'Quick');
});

test('the rules page has a route and a link', () => {
  assert.equal(rulesHref('samba'), '#/rules/samba');
  const href = rulesHref('classic', 4, { pile_always_frozen: true });
  const [path, query] = href.split('?');
  assert.equal(path, '#/rules/classic');
  assert.deepEqual(parseRulesQuery(query), { players: 4, options: { pile_always_frozen: true }, problem: null });
  assert.ok(parseRulesQuery('options=%7Bnot').problem);
});

console.log(`unit: ${passed} passed${process.exitCode ? ', some FAILED' : ''}`);
