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
import { canastaWord } from '../board.js';

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
