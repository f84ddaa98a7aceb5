// @ts-check
// The notices above a table's board: the waiting room with its invite
// link, the bar a visitor takes a free seat with, a closed table's result.

import { h } from './dom.js';
import * as api from './api.js';
import { seatName, botLevel } from './board.js';

/**
 * What shows above the board: the finished game's result (a closed table),
 * the waiting room, the bar that claims a free seat, or the spectator's note.
 * `ctx`: the table's state and the functions it shares (see table.js).
 */
export function noticeParts(model, on) {
  const { id, seat: mySeat, table, hasGame, joinName } = model;
  const s = model.status;
  const list = model.seats;
  const seats = () => list;
  const { copyInvite, claim } = on;
  const free = list.filter((x) => x.kind === 'human' && !x.claimed);
  const parts = [];
  if (s === 'finished' && !hasGame) {
    const t = table || {};
    const totals = t.scores || [];
    const best = totals.length ? Math.max(...totals) : null;
    const winners = totals.map((x, i) => (x === best ? i : -1)).filter((i) => i >= 0);
    const teamSeats = (i) => [...Array(t.players || 0).keys()].filter((x) => x % totals.length === i);
    parts.push(
      h(
        'div.waiting.finished',
        { testid: 'finished' },
        h('h2', 'This game is over'),
        h(
          'p',
          totals.map((x, i) => `${teamSeats(i).map((s2) => seatName(seats(), s2)).join(' & ')}: ${x}`).join(' \u00b7 '),
        ),
        winners.length === 1 ? h('p.winner', `${teamSeats(winners[0]).map((s2) => seatName(seats(), s2)).join(' & ')} won.`) : totals.length ? h('p.winner', 'A tie.') : null,
        h(
          'p',
          h('a.button.primary', { href: `#/replay/${id}`, testid: 'replay-link' }, 'Watch the replay'),
          ' ',
          h('a.button', { href: api.recordUrl(id), download: `canasta-${id}.jsonl` }, 'Download the record'),
        ),
      ),
    );
  }
  if (s === 'waiting') {
    parts.push(
      h(
        'div.waiting',
        { testid: 'waiting' },
        h('h2', 'Waiting for players'),
        h('p.quiet', 'The game starts when every seat is taken. Send the invite link to the players you expect.'),
        h(
          'ul.seat-list',
          list.map((x) =>
            h(
              'li',
              { testid: 'waiting-seat', dataset: { seat: String(x.seat) } },
              x.kind === 'bot'
                ? `${seatName(list, x.seat)} (${botLevel(x.bot)})`
                : x.claimed
                  ? [seatName(list, x.seat), x.seat === mySeat ? ' (you)' : '', x.connected ? ' \u2014 here' : ' \u2014 away']
                  : `${seatName(list, x.seat)}`,
            ),
          ),
        ),
        h(
          'div.invite',
          h('label', { for: 'invite-link' }, 'Invite link: '),
          h('input#invite-link', { testid: 'invite-link', readOnly: true, value: api.inviteUrl(id), on: { focus: (e) => e.target.select() } }),
          h('button', { on: { click: copyInvite } }, 'Copy'),
        ),
        mySeat !== null
          ? h(
              'button.primary',
              { testid: 'start-now', on: { click: on.start } },
              'Start now (bots fill free seats)',
            )
          : null,
      ),
    );
  }
  if (model.paused && s !== 'finished') {
    parts.push(h('div.watching.paused', { testid: 'paused' }, 'The table is paused: every player has left. It goes on when one of them returns.'));
  }
  if (mySeat === null && free.length && s !== 'finished') {
    const nameInput = h('input', {
      testid: 'join-name',
      placeholder: 'your name',
      maxLength: 24,
      value: joinName,
      on: { input: (e) => on.setName(e.target.value) },
    });
    parts.push(
      h(
        'div.join-bar',
        { testid: 'join-bar' },
        h('span', 'You are watching. Take a free seat: '),
        nameInput,
        free.map((x) =>
          h(
            'button.primary',
            { testid: 'claim-seat', dataset: { seat: String(x.seat) }, on: { click: () => claim(x.seat) } },
            `Sit as ${seatName(list, x.seat).replace(/ \(free seat\)$/, '')}`,
          ),
        ),
      ),
    );
  } else if (mySeat === null && hasGame) {
    parts.push(h('div.watching', { testid: 'watching' }, 'You are watching this table.'));
  }
  return parts;
}
