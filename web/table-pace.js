// @ts-check
// The table's pace on this screen: the server's messages are queued and
// shown one at a time, each state drawn by `present`, the one place where
// web/motion.js's flight of the cards comes in.

// web/motion.js wires in by this one line becoming
// `import * as motion from './motion.js';`
/** @type {{snapshot: (root: Element) => unknown, animateTransition: (root: Element, snap: unknown, last: unknown, opts: object) => Promise<void>} | null} */
const motion = null;

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
 * and after (`animateTransition`). Without it the new state shows at once.
 * @param {Element} root
 * @param {() => void} render
 * @param {import('./types.js').LastAction | null} last
 * @param {{me: number | null, speed: 'normal' | 'fast' | 'instant'}} opts
 */
export async function present(root, render, last, opts) {
  if (!motion || opts.speed === 'instant') {
    render();
    return;
  }
  const snap = motion.snapshot(root);
  render();
  await motion.animateTransition(root, snap, last, opts);
}
