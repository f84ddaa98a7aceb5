// The player's hand drawn as cards: grouped by rank with the wild cards
// apart (as the terminal shows it), the selection, the groups marked for a
// meld, the keyboard cursor and the hint's cards; click to select, drag to
// play.

import { h } from './dom.js';
import { cardElement, isWild } from './cards.js';
import { actionCards } from './actions.js';

/**
 * Draws `hand` (card codes in display order) into `el`. `opts`: `selected`
 * (a Set of indexes), `marked` (lists of indexes), `cursor`, `hint` (an
 * action whose cards to highlight), `onToggle(i)`, `dragged(i)` (the codes a
 * drag from card `i` carries).
 */
export function drawHand(el, hand, opts) {
  const { selected, marked, cursor, hint, onToggle, dragged } = opts;
  const hintLeft = hint ? actionCards(hint) : [];
  el.classList.remove('empty');
  if (!hand.length) el.append(h('div.hand-none', 'No cards in hand.'));
  let group = null;
  let prevKey = null;
  hand.forEach((code, i) => {
    const key = isWild(code) ? 'wild' : code[0];
    if (key !== prevKey) {
      group = h('div.hand-group', { class: `hand-group${key === 'wild' ? ' wilds' : ''}`, dataset: { rank: key } });
      if (key === 'wild') group.append(h('span.group-label', 'wild'));
      el.append(group);
      prevKey = key;
    }
    const card = cardElement(code);
    card.dataset.index = String(i);
    card.setAttribute('role', 'option');
    card.setAttribute('aria-selected', selected.has(i) ? 'true' : 'false');
    if (selected.has(i)) card.classList.add('selected');
    const g = marked.findIndex((m) => m.includes(i));
    if (g >= 0) {
      card.classList.add('marked');
      card.dataset.group = String(g + 1);
    }
    if (i === cursor) card.classList.add('cursor');
    const hi = hintLeft.indexOf(code);
    if (hi >= 0) {
      hintLeft.splice(hi, 1);
      card.classList.add('hinted');
    }
    card.draggable = true;
    card.addEventListener('click', () => onToggle(i));
    card.addEventListener('dragstart', (e) => {
      e.dataTransfer.setData('application/x-canasta-cards', JSON.stringify(dragged(i)));
      e.dataTransfer.effectAllowed = 'move';
    });
    group.append(card);
  });
}
