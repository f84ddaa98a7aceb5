// @ts-check
// The table's keyboard shortcuts, those of the terminal client (`canasta
// play`); help.js lists them. Keys dispatch events to the table's store or
// call the table's handlers; they change nothing themselves.

import { typing } from './dom.js';

/**
 * The table's key handler. `deps`: `{get, dispatch, handlers, ownMelds,
 * dialogButton}` (see table.js).
 */
export function tableKeys(deps) {
  const { get, dispatch, handlers, ownMelds, dialogButton } = deps;
  return function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing()) {
      if (e.key === 'Escape' && document.activeElement instanceof HTMLElement) document.activeElement.blur();
      return;
    }
    const k = e.key;
    const s = get();
    if (s.dialog === 'help' || s.dialog === 'sheet') {
      if (k === 'Escape' || k === '?' || k === 'Enter') {
        dispatch({ type: 'dialog', dialog: null });
        e.preventDefault();
      }
      return;
    }
    if (s.dialog === 'scores') {
      if (k === 'Enter' || k === ' ') {
        const next = dialogButton();
        if (next) next.click();
        e.preventDefault();
      } else if (k === 'Escape') dispatch({ type: 'dialog', dialog: null });
      return;
    }
    if (s.mode === 'choose-meld') {
      if (/^[0-9]$/.test(k)) {
        const typed = s.typedMeld + k;
        const n = Number(typed);
        if (n === 0 || n * 10 >= ownMelds().length) {
          dispatch({ type: 'mode', mode: 'play' });
          handlers.addTo(n);
        } else dispatch({ type: 'mode', mode: 'choose-meld', typed });
      } else if (k === 'Enter' && s.typedMeld) {
        dispatch({ type: 'mode', mode: 'play' });
        handlers.addTo(Number(s.typedMeld));
      } else if (k === 'Escape') {
        dispatch({ type: 'mode', mode: 'play' });
        dispatch({ type: 'say', text: '', kind: 'info' });
      }
      e.preventDefault();
      return;
    }
    const n = s.order.length;
    const keys = {
      ArrowLeft: () => dispatch({ type: 'cursor', to: s.cursor - 1 }),
      ArrowRight: () => dispatch({ type: 'cursor', to: s.cursor + 1 }),
      Home: () => dispatch({ type: 'cursor', to: 0 }),
      End: () => dispatch({ type: 'cursor', to: n - 1 }),
      ' ': () => s.cursor < n && handlers.toggle(s.cursor),
      Escape: handlers.clear,
      g: handlers.group,
      d: handlers.draw,
      p: handlers.pickup,
      m: handlers.meld,
      a: handlers.add,
      x: handlers.discard,
      u: handlers.undo,
      k: handlers.ask,
      y: handlers.yes,
      n: handlers.no,
      h: handlers.hint,
      r: () => handlers.sort('rank'),
      s: () => handlers.sort('suit'),
      ':': handlers.focusTyped,
      l: handlers.focusLegal,
      '?': handlers.help,
    };
    const fn = keys[k];
    if (!fn) return;
    fn();
    e.preventDefault();
  };
}
