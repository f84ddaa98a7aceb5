// The keyboard shortcuts (those of the terminal client, `canasta play`) and
// the help overlay that lists them.

import { h } from './dom.js';

export const TABLE_KEYS = [
  ['\u2190 / \u2192', 'move along your hand (Home / End: first / last card)'],
  ['Space', 'select / unselect the card under the cursor (or click a card)'],
  ['g', 'mark the selection as one group (for a meld of several groups)'],
  ['Esc', 'clear the selection and the groups (closes a box)'],
  ['d', 'draw from the stock (or click the stock)'],
  ['p', 'pick up the pile: with the selected cards (and groups), or with nothing selected onto your side\u2019s meld of its rank'],
  ['m', 'meld the groups and the selection (naturals split by rank)'],
  ['a', 'add the selection to a meld: the one of its rank, else type its number (or click the meld)'],
  ['x', 'discard the selected card (or the one under the cursor)'],
  ['k', 'ask partner to go out'],
  ['y / n', 'answer partner: yes / no'],
  [':', 'type an action in the record notation (meld 7H 7D 2C)'],
  ['h', 'hint: what the strongest bot would play, and why (h again: its numbers)'],
  ['l', 'go to the list of legal moves'],
  ['Enter', 'in the hand\u2019s score: ready for the next hand'],
  ['?', 'this help'],
];

export const MOUSE_HELP = [
  'Click cards to select them; drag a card (or the selection) onto one of your melds to add, onto the pile to discard, onto your side\u2019s melds to meld.',
  'Click one of your melds to add the selection to it; click the stock to draw, the pile to take it.',
  'The legal moves panel lists every move the rules allow now: click one to play it.',
  'Not on the server: undo, save, and the bots\u2019 pace (the terminal\u2019s u, s, +/-).',
];

export const REPLAY_KEYS = [
  ['\u2190 / \u2192', 'one step back / forward'],
  ['PgUp / PgDn', 'ten steps back / forward'],
  ['Home / End', 'the first / last step'],
  ['?', 'this help'],
];

/** The help overlay; `onClose` when dismissed. */
export function helpOverlay(keys, notes, onClose) {
  const box = h(
    'div.overlay',
    { testid: 'help', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'keyboard shortcuts' },
    h(
      'div.dialog.help',
      h('h2', 'Keys'),
      h(
        'table.keys',
        h('tbody', keys.map(([k, what]) => h('tr', h('th', h('kbd', k)), h('td', what)))),
      ),
      notes && notes.length ? h('ul.notes', notes.map((n) => h('li', n))) : null,
      h('div.dialog-buttons', h('button.primary', { testid: 'close-help', on: { click: onClose } }, 'Close')),
    ),
  );
  box.addEventListener('click', (e) => {
    if (e.target === box) onClose();
  });
  return box;
}
