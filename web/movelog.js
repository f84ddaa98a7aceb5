// @ts-check
// The move log drawn from the table's entries (table-store.js keeps them):
// each move a sentence in a player's words, deals and hands' ends between.

import { h, fill } from './dom.js';
import { seatName } from './board.js';
import { moveWords } from './table-words.js';
import { handEndSummary, gameEndSummary } from './scores.js';

/**
 * The text of one entry. `seats` as the table lists them, `mySeat` this
 * connection's seat, `sideOf` each seat's side (for "your meld" / "their meld").
 */
/** @param {(e: any) => string | undefined} [labelFor] */
export function entryText(e, seats, mySeat, sideOf, teams, labelFor = () => undefined) {
  switch (e.kind) {
    case 'move': {
      if (e.meld === undefined && /^(add|canasta) /.test(e.action)) {
        const label = labelFor(e);
        if (label) e = { ...e, meld: label };
      }
      const who = e.seat === mySeat ? 'You' : seatName(seats, e.seat);
      const mySide = sideOf && mySeat !== null && mySeat !== undefined ? sideOf[mySeat] : null;
      const their = e.seat === mySeat ? 'your' : mySide !== null && sideOf[e.seat] === mySide ? 'your side\u2019s' : 'their';
      return moveWords(e, who, their);
    }
    case 'deal':
      return e.first ? `Hand ${e.hand} dealt: the game starts` : `Hand ${e.hand}`;
    case 'hand-end':
      return handEndSummary(seats, e.end, mySeat, teams);
    case 'game-end':
      return gameEndSummary(seats, teams, e.end, mySeat);
    default:
      return '';
  }
}

/**
 * Draws `log` into the list `el`, following its end unless scrolled up.
 * `labelFor(entry)`: the label of the meld an add of the history names
 * (the current hand's melds keep their numbers).
 */
export function renderLog(el, log, { seats, mySeat, sideOf, teams, labelFor }) {
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
  fill(
    el,
    log.map((e) =>
      h(
        'li',
        {
          class: `log-${e.kind}${e.kind === 'move' && e.seat === mySeat ? ' mine' : ''}${e.stand_in ? ' stand-in' : ''}`,
          testid: 'log-entry',
        },
        entryText(e, seats, mySeat, sideOf, teams, labelFor),
      ),
    ),
  );
  if (atBottom || log.length < 20) el.scrollTop = el.scrollHeight;
}
