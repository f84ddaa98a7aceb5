// The notices above a table's board: the waiting room with its invite
// link, the bar a visitor takes a free seat with, a closed table's result.

import { h } from './dom.js';
import * as api from './api.js';
import { seatName } from './board.js';

/**
 * What shows above the board: the finished game's result (a closed table),
 * the waiting room, the bar that claims a free seat, or the spectator's note.
 * `ctx`: the table's state and the functions it shares (see table.js).
 */
export function noticeParts(ctx) {
  const { st, id, seats, status, send, say, copyInvite, claim } = ctx;
  const s = status();
  const list = seats();
  const free = list.filter((x) => x.kind === 'human' && !x.claimed);
  const parts = [];
  if (s === 'finished' && !st.state) {
    const t = st.table || {};
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
              h('b', `Seat ${x.seat}`),
              ' ',
              x.kind === 'bot'
                ? `Bot ${x.seat} (${x.bot})`
                : x.claimed
                  ? [x.name || 'a player', x.seat === st.seat ? ' (you)' : '', x.connected ? ' \u2014 here' : ' \u2014 away']
                  : 'free',
            ),
          ),
        ),
        h(
          'div.invite',
          h('label', { for: 'invite-link' }, 'Invite link: '),
          h('input#invite-link', { testid: 'invite-link', readOnly: true, value: api.inviteUrl(id), on: { focus: (e) => e.target.select() } }),
          h('button', { on: { click: copyInvite } }, 'Copy'),
        ),
        st.seat !== null
          ? h(
              'button.primary',
              { testid: 'start-now', on: { click: () => { if (send({ type: 'start' })) say('starting\u2026', 'pending'); } } },
              'Start now (bots fill free seats)',
            )
          : null,
      ),
    );
  }
  if (st.seat === null && free.length && s !== 'finished') {
    const nameInput = h('input', {
      testid: 'join-name',
      placeholder: 'your name',
      maxLength: 24,
      value: st.joinName,
      on: { input: (e) => { st.joinName = e.target.value; } },
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
            `Sit at seat ${x.seat}`,
          ),
        ),
      ),
    );
  } else if (st.seat === null && st.state) {
    parts.push(h('div.watching', { testid: 'watching' }, 'You are watching this table.'));
  }
  return parts;
}
