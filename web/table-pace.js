// @ts-check
// The table's pace on this screen: the server's messages are queued and
// shown one at a time, each state drawn by `present`, the one place where
// web/motion.js's flight of the cards comes in.

import * as motion from './motion.js';
import { sound, soundFor } from './sound.js';

/** The viewer's speed setting as motion.js's duration scale. */
const SPEED_SCALE = { relaxed: 1.5, normal: 1, fast: 0.5, instant: 0 };

/**
 * A queue that hands its messages to `show` one at a time, waiting for each
 * (an animation) before the next.
 * @template T
 * @param {(item: T, waiting: number) => Promise<void> | void} show `waiting`: how many more are queued
 */
export function pacedQueue(show) {
  /** @type {T[]} */
  const queue = [];
  let busy = false;
  let stopped = false;
  async function drain() {
    busy = true;
    while (queue.length && !stopped) {
      const item = /** @type {T} */ (queue.shift());
      try {
        await show(item, queue.length);
      } catch (e) {
        console.error(e);
      }
    }
    busy = false;
  }
  return {
    /** @param {T} item */
    push(item) {
      queue.push(item);
      if (!busy) drain();
    },
    stop() {
      stopped = true;
      queue.length = 0;
    },
    get length() {
      return queue.length;
    },
  };
}

/**
 * Draws one new state: `render()` changes the page; web/motion.js flies the
 * cards the action `last` moved between the page before (`snapshot(root)`)
 * and after (`animateTransition`), and the action's sound plays (when the
 * player turned sounds on). At the speed `instant` the new state shows at
 * once.
 * @param {Element} root
 * @param {() => void} render
 * @param {import('./types.js').LastAction | null} last null: nothing moved
 *   (the first state after a welcome or an undo)
 * @param {{me: number | null, speed: 'normal' | 'fast' | 'instant', drawn?: number, teams?: number[][]}} opts
 *   `drawn`: how many cards the acting seat's hand grew by; `teams`: each side's seats
 */
export async function present(root, render, last, opts) {
  const scale = SPEED_SCALE[opts.speed] ?? 1;
  const name = last ? soundFor(last.action) : null;
  if (name) sound(name);
  if (scale === 0 || !last) {
    render();
    return;
  }
  const snap = motion.snapshot(root);
  render();
  // While cards fly, the page says so (tests wait for it before aiming at a card).
  root.setAttribute('data-moving', '');
  try {
    await motion.animateTransition(root, snap, last, { me: opts.me ?? undefined, speed: scale, drawn: opts.drawn, teams: opts.teams });
  } finally {
    root.removeAttribute('data-moving');
  }
}
