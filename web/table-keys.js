// The table's keyboard shortcuts, those of the terminal client (`canasta
// play`); help.js lists them.

import { typing } from './dom.js';

/**
 * The table's key handler. `ctx`: the table's state and the functions it
 * shares (see table.js).
 */
export function tableKeys(ctx) {
  const { st, el, status, ownMelds, say, act, renderOverlay, renderHand, renderBoardArea } = ctx;
  const { addTo, toggle, clearSelection, doGroup, doDraw, doPickup, doMeld, doAdd, doDiscard, doHint } = ctx;
  return function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing()) {
      if (e.key === 'Escape') document.activeElement.blur();
      return;
    }
    const k = e.key;
    if (st.helpOpen) {
      if (k === 'Escape' || k === '?' || k === 'Enter') {
        st.helpOpen = false;
        renderOverlay();
        e.preventDefault();
      }
      return;
    }
    if (st.handEndOpen && (st.handEnd || st.gameEnd || status() === 'hand_over')) {
      if (k === 'Enter' || k === ' ') {
        const next = el.overlay.querySelector('[data-testid="next-hand"]:not([disabled])');
        if (next) next.click();
        e.preventDefault();
      } else if (k === 'Escape') {
        st.handEndOpen = false;
        renderOverlay();
      }
      return;
    }
    if (st.mode === 'choose-meld') {
      if (/^[0-9]$/.test(k)) {
        st.typedMeld += k;
        const n = Number(st.typedMeld);
        if (n === 0 || n * 10 >= ownMelds().length) addTo(n);
        else say(`Add to meld ${st.typedMeld}\u2026 (another digit, or Enter)`, 'prompt');
      } else if (k === 'Enter' && st.typedMeld) addTo(Number(st.typedMeld));
      else if (k === 'Backspace') st.typedMeld = st.typedMeld.slice(0, -1);
      else if (k === 'Escape') {
        st.mode = 'play';
        say('', 'info');
        renderBoardArea();
      }
      e.preventDefault();
      return;
    }
    const n = st.hand.length;
    let handled = true;
    switch (k) {
      case 'ArrowLeft':
        st.cursor = Math.max(0, st.cursor - 1);
        renderHand();
        break;
      case 'ArrowRight':
        st.cursor = Math.min(Math.max(0, n - 1), st.cursor + 1);
        renderHand();
        break;
      case 'Home':
        st.cursor = 0;
        renderHand();
        break;
      case 'End':
        st.cursor = Math.max(0, n - 1);
        renderHand();
        break;
      case ' ':
        if (st.cursor < n) toggle(st.cursor);
        break;
      case 'Escape':
        clearSelection();
        break;
      case 'g':
        doGroup();
        break;
      case 'd':
        doDraw();
        break;
      case 'p':
        doPickup();
        break;
      case 'm':
        doMeld();
        break;
      case 'a':
        doAdd();
        break;
      case 'x':
        doDiscard();
        break;
      case 'k':
        act('ask');
        break;
      case 'y':
        act('yes');
        break;
      case 'n':
        act('no');
        break;
      case 'h':
        doHint();
        break;
      case ':':
        el.typeInput.focus();
        break;
      case 'l': {
        const details = el.legal.closest('details');
        if (details) details.open = true;
        const first = el.legal.querySelector('button');
        (first || el.legalFilter).focus();
        break;
      }
      case '?':
        st.helpOpen = true;
        renderOverlay();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };
}
