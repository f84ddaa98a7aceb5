// @ts-check
// The list of legal moves: the server's, filtered by a text and by the
// selected cards, each a button that plays it.

import { h, fill } from './dom.js';
import { actionUses } from './actions.js';

const LEGAL_SHOWN = 300;

/**
 * Draws `legal` into `el` and its count into `countEl`. `opts`: `filter`
 * (text), `selection` (cards every move shown must use; empty: any),
 * `myTurn`, `onPlay(action)`.
 */
export function drawLegal(el, countEl, legal, { filter, selection, myTurn, onPlay }) {
  const text = filter.trim().toLowerCase();
  let list = legal;
  if (text) list = list.filter((a) => a.toLowerCase().includes(text));
  if (selection.length) list = list.filter((a) => actionUses(a, selection));
  countEl.textContent = legal.length ? `(${legal.length})` : '';
  const items = list.slice(0, LEGAL_SHOWN).map((a) =>
    h(
      'button.legal-action',
      { testid: 'legal-action', dataset: { action: a }, role: 'listitem', title: a, on: { click: () => onPlay(a) } },
      a,
    ),
  );
  fill(
    el,
    legal.length === 0 ? h('div.quiet', myTurn ? '' : 'Nothing to play: it is not your turn.') : null,
    legal.length && !list.length ? h('div.quiet', 'No legal move uses these cards.') : null,
    items,
    list.length > LEGAL_SHOWN ? h('div.quiet', `${list.length - LEGAL_SHOWN} more: select cards or filter`) : null,
  );
}
