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

let passed = 0;
function test(name, fn) {
  try {
    fn();
    passed++;
  } catch (e) {
    console.error(`FAIL ${name}: ${e.message}`);
    process.exitCode = 1;
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

console.log(`unit: ${passed} passed${process.exitCode ? ', some FAILED' : ''}`);
