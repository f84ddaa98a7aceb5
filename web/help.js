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
  ['u', 'undo your last move (against bots only)'],
  ['r / s', 'sort your hand by rank / by suit'],
  ['k', 'ask partner to go out'],
  ['y / n', 'answer partner: yes / no'],
  [':', 'type an action in the record notation (turns Advanced on)'],
  ['h', 'hint: what the strongest bot would play, and why (h again: its numbers)'],
  ['l', 'go to the list of legal moves (turns Advanced on)'],
  ['Enter', 'in the hand\u2019s score: ready for the next hand'],
  ['?', 'this help'],
];

export const MOUSE_HELP = [
  'Click (or tap) cards to select them. Double-click a card to discard it; when a discard is all your turn allows, one click does.',
  'Drag a card (or the selection) onto the pile to discard it, onto one of your melds to add, onto your side\u2019s area to meld; drag it along your hand to put it where you like.',
  'Click the stock to draw; click the pile to take it with the selected cards, or, after drawing, to discard the one selected card.',
  'The menu\u2019s Advanced switch shows every legal move and a box to type actions in the record notation.',
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
