// The move log: its entries (from the welcome's history, each state's last
// action, deals and hands' ends) and the list drawn from them.

import { h, fill } from './dom.js';
import { seatName } from './board.js';
import { handEndSummary, gameEndSummary } from './scores.js';

/** An entry of the log from an item of the server's history. */
export function logEntry(seats, teams, e) {
  if (e && typeof e === 'object' && e.action !== undefined && e.seat !== undefined) {
    return { kind: 'move', hand: e.hand, seat: e.seat, action: e.action, took: e.took };
  }
  if (e && typeof e === 'object' && (e.hand_end || e.result || e.type === 'hand_end')) {
    return { kind: 'hand-end', text: handEndSummary(seats, e.hand_end ? { hand: e.hand, result: e.hand_end } : e) };
  }
  if (e && typeof e === 'object' && (e.game_end || e.type === 'game_end')) {
    return { kind: 'game-end', text: gameEndSummary(seats, teams, e.game_end || e) };
  }
  if (e && typeof e === 'object' && e.deal !== undefined) {
    return { kind: 'deal', text: `Hand ${e.hand || ''} dealt` };
  }
  return { kind: 'other', text: typeof e === 'string' ? e : JSON.stringify(e) };
}

/**
 * The welcome's history as the log: `{log, handEnd, gameEnd}`, the last
 * hand's and the game's end as the `hand_end` and `game_end` messages say
 * them (for the scores after a reload).
 */
export function logFromHistory(seats, teams, history) {
  const log = [];
  let handEnd = null;
  let gameEnd = null;
  let hand = null;
  for (const entry of history || []) {
    // The log holds no deals: a new hand number starts a hand.
    if (entry && entry.action !== undefined && entry.hand !== undefined && entry.hand !== hand) {
      log.push({ kind: 'deal', text: `Hand ${entry.hand}` });
    }
    if (entry && entry.hand !== undefined) hand = entry.hand;
    if (entry && entry.hand_end) handEnd = { type: 'hand_end', hand: entry.hand, result: entry.hand_end };
    if (entry && entry.game_end) gameEnd = { type: 'game_end', ...entry.game_end };
    log.push(logEntry(seats, teams, entry));
  }
  return { log, handEnd, gameEnd };
}

/** Draws `log` into the list `el`, following its end unless scrolled up. */
export function renderLog(el, log, seats, mySeat) {
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
  const took = (e) => (e.took ? ` (took ${e.took} card${e.took === 1 ? '' : 's'})` : '');
  const text = (e) => (e.kind !== 'move' ? e.text : `${e.seat === mySeat ? 'You' : seatName(seats, e.seat)}: ${e.action}${took(e)}`);
  fill(
    el,
    log.map((e) =>
      h('li', { class: `log-${e.kind}${e.kind === 'move' && e.seat === mySeat ? ' mine' : ''}`, testid: 'log-entry' }, text(e)),
    ),
  );
  if (atBottom || log.length < 20) el.scrollTop = el.scrollHeight;
}
