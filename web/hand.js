// @ts-check
// The player's hand drawn as cards (by rank with the wild cards apart, by
// suit, or in the player's own order), the selection, the groups marked for
// a meld, the cards just drawn or taken, the keyboard cursor and the hint's
// cards. Cards are clicked, double-clicked and dragged with pointer events,
// so a finger does on a phone what a mouse does on a desk.

import { h } from './dom.js';
import { cardElement, isWild } from './cards.js';
import { actionCards } from './actions.js';

const DOUBLE_MS = 400;
const DRAG_PX = 6;
// On a touch screen a sideways swipe scrolls the hand (as in the card apps);
// a card is dragged when the finger moves mostly up or down (to the pile, a
// meld, the side's area), or moves any way after a hold of HOLD_MS (to
// reorder the hand).
const HOLD_MS = 300;

/**
 * What a touch that moved (dx, dy) from where it began does: `'wait'` (not
 * far enough yet), `'scroll'` (a sideways swipe: the browser scrolls the
 * hand) or `'drag'`. A mouse or pen drags whichever way it goes.
 * @param {number} dx
 * @param {number} dy
 * @param {{touch: boolean, held: boolean}} how
 * @returns {'wait' | 'scroll' | 'drag'}
 */
export function gestureOf(dx, dy, { touch, held }) {
  if (Math.abs(dx) + Math.abs(dy) < DRAG_PX) return 'wait';
  if (!touch || held) return 'drag';
  return Math.abs(dy) >= Math.abs(dx) ? 'drag' : 'scroll';
}

/** Where a drag ended: the pile, one of this side's melds, this side's area, or a place in the hand. */
function dropAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const target = /** @type {HTMLElement | null} */ (el && el.closest('[data-drop]'));
  if (!target) return null;
  const kind = target.dataset.drop;
  if (kind === 'meld') return { kind, meld: Number(target.dataset.index) };
  if (kind === 'hand') {
    const card = /** @type {HTMLElement | null} */ (el && el.closest('.card[data-index]'));
    if (!card) return { kind, before: Infinity };
    const r = card.getBoundingClientRect();
    const i = Number(card.dataset.index);
    return { kind, before: x > r.left + r.width / 2 ? i + 1 : i };
  }
  return { kind };
}

let lastClick = { index: -1, at: 0 };

/**
 * Draws the hand into `el` (which becomes a drop target for reordering).
 * `model`: `{order, selected, marked, cursor, fresh, hint, sortBy}`;
 * `on`: `{click(i), double(i), drop(i, target)}`.
 */
export function drawHand(el, model, on) {
  const { order, selected, marked, cursor, fresh, hint, sortBy } = model;
  const hintLeft = hint ? actionCards(hint) : [];
  const freshLeft = [...(fresh || [])];
  el.replaceChildren();
  el.classList.remove('empty');
  el.dataset.drop = 'hand';
  if (!order.length) el.append(h('div.hand-none', 'No cards in hand.'));
  let group = null;
  let prevKey = null;
  order.forEach((code, i) => {
    const key = sortBy === 'own' ? 'own' : isWild(code) ? 'wild' : sortBy === 'suit' ? code[1] : code[0];
    if (key !== prevKey) {
      group = h('div.hand-group', { class: `hand-group${key === 'wild' ? ' wilds' : ''}`, dataset: { group: key } });
      el.append(group);
      prevKey = key;
    }
    const f = freshLeft.indexOf(code);
    if (f >= 0) freshLeft.splice(f, 1);
    const card = cardElement(code, { fresh: f >= 0 });
    card.dataset.index = String(i);
    card.setAttribute('role', 'option');
    card.setAttribute('aria-selected', selected.includes(i) ? 'true' : 'false');
    if (selected.includes(i)) card.classList.add('selected');
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
    card.draggable = false;
    card.addEventListener('pointerdown', (e) => startDrag(e, card, i, model, on));
    card.addEventListener('click', () => {
      if (card.dataset.dragged) return;
      const now = Date.now();
      if (lastClick.index === i && now - lastClick.at < DOUBLE_MS) {
        lastClick = { index: -1, at: 0 };
        on.double(i);
      } else {
        lastClick = { index: i, at: now };
        on.click(i);
      }
    });
    group.append(card);
  });
}

function startDrag(e, card, i, model, on) {
  if (e.button !== 0) return;
  const x0 = e.clientX;
  const y0 = e.clientY;
  const touch = e.pointerType === 'touch';
  let held = false;
  let ghost = null;
  let over = null;
  // A finger held still on a card picks it up.
  const holdTimer = touch
    ? setTimeout(() => {
        held = true;
        card.classList.add('held');
      }, HOLD_MS)
    : null;
  // While a card is carried (or held) the hand does not scroll under the finger.
  const noScroll = (ev) => {
    if (ghost || held) ev.preventDefault();
  };
  const carried = () => (model.selected.includes(i) ? model.selected.map((k) => model.order[k]) : [model.order[i]]);
  const cleanup = () => {
    if (holdTimer) clearTimeout(holdTimer);
    card.classList.remove('held');
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    window.removeEventListener('touchmove', noScroll);
  };
  const move = (ev) => {
    if (!ghost) {
      const g = gestureOf(ev.clientX - x0, ev.clientY - y0, { touch, held });
      if (g === 'wait') return;
      if (g === 'scroll') return cleanup();
      if (holdTimer) clearTimeout(holdTimer);
      ghost = h('div.drag-ghost', { testid: 'drag-ghost' }, carried().map((c) => cardElement(c)));
      document.body.append(ghost);
      document.body.classList.add('dragging');
      card.classList.add('drag-source');
    }
    ghost.style.transform = `translate(${ev.clientX - 20}px, ${ev.clientY - 30}px)`;
    const el = document.elementFromPoint(ev.clientX, ev.clientY);
    const target = el && el.closest('[data-drop]');
    if (target !== over) {
      if (over) over.classList.remove('drop-over');
      over = target;
      if (over) over.classList.add('drop-over');
    }
    ev.preventDefault();
  };
  const end = (ev) => {
    cleanup();
    if (over) over.classList.remove('drop-over');
    if (!ghost) return;
    ghost.remove();
    document.body.classList.remove('dragging');
    card.classList.remove('drag-source');
    // The click that follows a drag is not a click.
    card.dataset.dragged = '1';
    setTimeout(() => delete card.dataset.dragged, 0);
    if (ev.type === 'pointerup') {
      const target = dropAt(ev.clientX, ev.clientY);
      if (target) on.drop(i, target, carried());
    }
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
  if (touch) window.addEventListener('touchmove', noScroll, { passive: false });
}
