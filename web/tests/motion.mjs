#!/usr/bin/env node
// Browser test of web/motion.js and web/sound.js on the static table of
// web/tests/motion-fixture.html (no server of the game needed).
//
//   PLAYWRIGHT_CORE=~/.cache/canasta-e2e/node_modules/playwright-core node web/tests/motion.mjs [--shots DIR]
//
// Serves web/ with `python3 -m http.server` on a free port (or uses
// --base URL), opens the fixture in Chromium and plays each move. The
// animations are paused and stepped by hand (Web Animations' currentTime),
// so what is checked does not depend on how fast the machine is: where the
// flyers start and go, which cards hide until they land, that every card
// shows at the end, and what speed 0, reduced motion, a hidden tab, a new
// move during a flight and a missing zone do. Exits 1 on the first failure.

import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const CHROMIUM = opt('chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const SHOTS = opt('shots', '');
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const require = createRequire(import.meta.url);
let chromium;
try {
  ({ chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core'));
} catch {
  console.error('playwright-core not found: set PLAYWRIGHT_CORE to its directory');
  process.exit(2);
}

/** Serves web/ on a free port; resolves to its base URL and the process. */
function serve() {
  return new Promise((resolve, reject) => {
    const py = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '-d', WEB], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    py.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/port (\d+)/);
      if (m) resolve({ base: `http://127.0.0.1:${m[1]}`, proc: py });
    });
    py.on('error', reject);
    py.on('exit', (code) => reject(new Error(`http.server exited (${code}): ${out}`)));
  });
}

let passed = 0;
const log = (...a) => console.log(`[motion] ${a.join(' ')}`);
function check(cond, message) {
  if (!cond) throw new Error(message);
}
const centre = (r) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });
const dist = (a, b) => Math.hypot(centre(a).x - centre(b).x, centre(a).y - centre(b).y);

async function main() {
  let server = null;
  let base = opt('base', '');
  if (!base) {
    server = await serve();
    base = server.base;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const errors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/favicon|404/.test(m.text())) errors.push(m.text());
      if (m.type() === 'warning' && /motion|sound/.test(m.text())) errors.push(m.text());
    });
    const open = async () => {
      await page.goto(`${base}/tests/motion-fixture.html`);
      await page.waitForSelector('body[data-ready]');
    };
    await open();

    const shot = async (name) => {
      if (!SHOTS) return;
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
    };

    /** Rects (viewport) of the cards matching `sel`, read before a move. */
    const rects = (sel) =>
      page.evaluate((sel) => [...document.querySelectorAll(sel)].map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height, code: e.dataset.card };
      }), sel);

    /**
     * Starts `move` and pauses every animation at its start. Returns the
     * flyers' rects at time 0 and the hidden destination count.
     */
    const start = (move, speed = 1, extra = {}) =>
      page.evaluate(({ move, speed, extra }) => {
        window.__layerAdds = 0;
        const layer = document.querySelector('[data-motion-layer]');
        if (layer) {
          window.__obs?.disconnect();
          window.__obs = new MutationObserver((ms) => ms.forEach((m) => (window.__layerAdds += m.addedNodes.length)));
          window.__obs.observe(layer, { childList: true });
        }
        window.__done = false;
        window.__p = window.fixture.apply(move, { speed, ...extra });
        window.__p.then(() => (window.__done = true));
        for (const a of document.getAnimations()) {
          a.pause();
          a.currentTime = 0;
        }
        return true;
      }, { move, speed, extra });

    /** Moves every paused animation to `ms` and reads the flyers. */
    const at = (ms) =>
      page.evaluate((ms) => {
        for (const a of document.getAnimations()) a.currentTime = ms;
        const layer = document.querySelector('[data-motion-layer]');
        const flyers = layer ? [...layer.children] : [];
        return flyers.map((f) => {
          const r = f.getBoundingClientRect();
          const faces = [...f.children].map((c) => ({ shows: c.dataset.flyer, opacity: Number(getComputedStyle(c).opacity) }));
          return { x: r.left, y: r.top, w: r.width, h: r.height, opacity: Number(getComputedStyle(f).opacity), faces };
        });
      }, ms);

    /** Rects and visibility of the cards matching `sel` now. */
    const targets = (sel) =>
      page.evaluate((sel) => [...document.querySelectorAll(sel)].map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height, code: e.dataset.card, visible: getComputedStyle(e).visibility === 'visible' };
      }), sel);

    /** Lets the animations finish (really playing them) and waits for the promise. */
    const finish = async (how = 'finish') => {
      await page.evaluate(async (how) => {
        for (const a of document.getAnimations()) (how === 'play' ? a.play() : a.finish());
        await window.__p;
      }, how);
      const left = await page.evaluate(() => document.querySelector('[data-motion-layer]')?.children.length ?? 0);
      check(left === 0, `${left} flyers left in the layer after the motion ended`);
      const hidden = await page.evaluate(() => [...document.querySelectorAll('.card')].filter((c) => getComputedStyle(c).visibility !== 'visible').length);
      check(hidden === 0, `${hidden} cards still hidden after the motion ended`);
    };

    const test = async (name, fn) => {
      const before = errors.length;
      await fn();
      check(errors.length === before, `${name}: page errors: ${errors.slice(before).join(' | ')}`);
      passed++;
      log('ok', name);
    };

    /**
     * A flight from `from` (rects) to the cards `toSel`: at 0 each flyer sits
     * on a source, halfway it is nearer its target, at the end on it; the
     * targets hide until then.
     */
    const flight = async (name, move, { from, toSel, count, tolerance = 6, back = false, midMs = 190, endMs = 1200 }) => {
      await start(move);
      const dests = await targets(toSel);
      check(dests.length >= count, `${name}: ${dests.length} destination cards for ${toSel}, wanted ${count}`);
      const t0 = await at(0);
      check(t0.length === count, `${name}: ${t0.length} flyers, wanted ${count}`);
      const hiddenDests = dests.filter((d) => !d.visible).length;
      check(hiddenDests === count, `${name}: ${hiddenDests} destination cards hidden during the flight, wanted ${count}`);
      for (const f of t0) {
        const near = Math.min(...from.map((s) => dist(f, s)));
        check(near <= tolerance, `${name}: a flyer starts ${near.toFixed(1)}px from every source`);
      }
      if (back) check(t0.every((f) => f.faces.some((c) => c.shows === 'back' && c.opacity === 1)), `${name}: flyers start face down`);
      const mid = await at(midMs);
      await shot(`${name}-mid`);
      const end = await at(endMs);
      for (let i = 0; i < count; i++) {
        const d0 = Math.min(...dests.map((d) => dist(t0[i], d)));
        const d1 = Math.min(...dests.map((d) => dist(mid[i], d)));
        const d2 = Math.min(...dests.map((d) => dist(end[i], d)));
        check(d1 < d0 || d0 < 1, `${name}: flyer ${i} is not nearer its card halfway (${d0.toFixed(1)} -> ${d1.toFixed(1)})`);
        check(d2 <= 2, `${name}: flyer ${i} ends ${d2.toFixed(1)}px from its card`);
      }
      if (back) check(end.every((f) => f.faces.some((c) => c.shows !== 'back' && c.opacity === 1)), `${name}: flyers land face up`);
      await finish();
      return { t0, mid, end, dests };
    };

    await test('draw to my hand, turned over on the way', async () => {
      const stock = await rects('[data-zone="stock"] .card');
      await flight('draw-me', 'draw-me', { from: stock, toSel: '[data-zone="hand"] [data-fresh]', count: 1, back: true });
    });

    await test('discard from my hand to the pile', async () => {
      await page.evaluate(() => window.fixture.reset());
      const jd = await rects('[data-zone="hand"] [data-card="JD"]');
      await flight('discard-me', 'discard-me', { from: jd, toSel: '[data-zone="pile"] [data-card="JD"]', count: 1 });
    });

    await test('the cards left in the hand slide together after a discard', async () => {
      await page.evaluate(() => window.fixture.reset());
      const before = await rects('[data-zone="hand"] [data-card="AS"]');
      await start('discard-me');
      const t0 = await targets('[data-zone="hand"] [data-card="AS"]');
      check(dist(t0[0], before[0]) < 1.5, `slide: AS starts ${dist(t0[0], before[0]).toFixed(1)}px from where it was`);
      await at(1200);
      await finish();
      const after = await targets('[data-zone="hand"] [data-card="AS"]');
      check(dist(after[0], before[0]) > 10, 'slide: AS did not move at all (the fixture should close the gap)');
      const anims = await page.evaluate(() => document.getAnimations().length);
      check(anims === 0, `slide: ${anims} animations left on the table`);
    });

    await test('meld from my hand', async () => {
      await page.evaluate(() => window.fixture.reset());
      const eights = await rects('[data-zone="hand"] [data-card^="8"]');
      await flight('meld-me', 'meld-me', { from: eights, toSel: '[data-meld="0:1"] .card', count: 3 });
    });

    await test('add to my meld 0', async () => {
      const from = await rects('[data-zone="hand"] [data-card="7C"], [data-zone="hand"] [data-card="2C"]');
      const r = await flight('add-me', 'add-me', { from, toSel: '[data-meld="0:0"] [data-card="7C"], [data-meld="0:0"] [data-card="2C"]', count: 2 });
      check(r.dests.length === 2, 'add-me: the meld holds the two added cards');
    });

    await test('an add to a canasta that shows its top card only goes into the meld', async () => {
      await page.evaluate(() => window.fixture.reset());
      await start('add-squared-me');
      const t0 = await at(0);
      check(t0.length === 1, `squared: ${t0.length} flyers`);
      const end = await at(1000);
      const meld = await targets('[data-meld="0:0"]');
      check(dist(end[0], meld[0]) < 2 && end[0].opacity < 0.05, `squared: ends ${dist(end[0], meld[0]).toFixed(1)}px from the meld, opacity ${end[0].opacity}`);
      await finish();
    });

    await test('pickup of 20 cards by me sweeps the pile into my hand', async () => {
      await page.evaluate(() => window.fixture.reset());
      // The fixture fills the pile to 20 (KD on top) when the move starts: read its rects then.
      await start('pickup-me');
      const t0 = await at(0);
      check(t0.length === 22, `pickup-me: ${t0.length} flyers, wanted 22 (19 into the hand, KD and two kings into the meld)`);
      const dests = await targets('[data-zone="hand"] [data-fresh]');
      check(dests.length === 19 && dests.every((d) => !d.visible), `pickup-me: ${dests.filter((d) => !d.visible).length} of ${dests.length} fresh cards hidden during the sweep`);
      const meld = await targets('[data-meld="0:1"] .card');
      check(meld.length === 3 && meld.every((d) => !d.visible), 'pickup-me: the new meld of kings is hidden until it lands');
      const pileBox = await page.evaluate(() => { const r = document.querySelector('[data-zone="pile"]').getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
      const fromPile = t0.filter((f) => f.x >= pileBox.x - 20 && f.x <= pileBox.x + pileBox.w + 20 && f.y >= pileBox.y - 20 && f.y <= pileBox.y + pileBox.h + 20);
      check(fromPile.length >= 20, `pickup-me: ${fromPile.length} flyers start on the pile, wanted 20`);
      await shot('pickup-me-0');
      const mid = await at(300);
      await shot('pickup-me-mid');
      // Staggered: the first card swept is further along than the last.
      const sweep = mid.slice(-19);
      const firstLeft = dist(sweep[0], t0[t0.length - 19]);
      const lastLeft = dist(sweep[18], t0[t0.length - 1]);
      check(firstLeft > lastLeft + 20, `pickup-me: not staggered (first moved ${firstLeft.toFixed(0)}px, last ${lastLeft.toFixed(0)}px)`);
      const end = await at(2000);
      for (let i = 0; i < end.length - 3; i++) {
        const near = Math.min(...dests.map((d) => dist(end[i + 3], d)));
        check(near <= 2, `pickup-me: card ${i} ends ${near.toFixed(1)}px from the hand`);
      }
      await finish('play');
    });

    await test('draw by seat 1: a back flies from the stock into the seat', async () => {
      await page.evaluate(() => window.fixture.reset());
      const stock = await rects('[data-zone="stock"] .card');
      const seat = await rects('[data-zone="seat-1"]');
      await start('draw-1');
      const t0 = await at(0);
      check(t0.length === 1 && t0[0].faces.every((c) => c.shows === 'back'), 'draw-1: one face-down flyer');
      check(dist(t0[0], stock[0]) < 3, 'draw-1: starts on the stock');
      const end = await at(1000);
      check(dist(end[0], seat[0]) < 3 && end[0].opacity < 0.05, 'draw-1: ends in the seat, faded out');
      await finish();
    });

    await test('a draw of two cards by seat 1 (drawn: 2) flies two backs', async () => {
      const n = await page.evaluate(async () => {
        const { animateTransition, snapshot } = await import('/motion.js');
        const root = document.getElementById('table');
        const p = animateTransition(root, snapshot(root), { seat: 1, action: 'draw' }, { me: 0, speed: 1, drawn: 2 });
        const flyers = document.querySelector('[data-motion-layer]').children.length;
        for (const a of document.getAnimations()) a.finish();
        await p;
        return flyers;
      });
      check(n === 2, `drawn 2: ${n} flyers`);
      await finish();
    });

    await test('discard by seat 1 and meld by seat 3 fly from their seats', async () => {
      const seat1 = await rects('[data-zone="seat-1"]');
      const seat3 = await rects('[data-zone="seat-3"]');
      const r = await flight('discard-1', 'discard-1', { from: seat1, toSel: '[data-zone="pile"] [data-card="9D"]', count: 1 });
      check(r.t0[0].opacity === 0, 'discard-1: the card appears out of the seat');
      await flight('meld-3', 'meld-3', { from: seat3, toSel: '[data-meld="1:1"] .card', count: 3 });
    });

    await test('pickup of 20 cards by seat 1', async () => {
      const seat1 = await rects('[data-zone="seat-1"]');
      await start('pickup-1');
      const t0 = await at(0);
      check(t0.length === 22, `pickup-1: ${t0.length} flyers, wanted 22`);
      const end = await at(2000);
      const intoSeat = end.filter((f) => dist(f, seat1[0]) < 3 && f.opacity < 0.05);
      check(intoSeat.length === 19, `pickup-1: ${intoSeat.length} cards end in seat 1, wanted 19`);
      await at(250);
      await shot('pickup-1-mid');
      await finish();
    });

    await test('canasta: the side\'s meld settles in place, told by teams or by what changed', async () => {
      for (const [move, key, noTeams] of [['canasta-me', '0:0', false], ['canasta-1', '1:0', false], ['canasta-1', '1:0', true]]) {
        await page.evaluate(() => window.fixture.reset());
        await start(move, 1, { noTeams });
        const t0 = await at(0);
        check(t0.length === 1, `${move}: ${t0.length} flyers`);
        const end = await at(1000);
        const meld = await targets(`[data-meld="${key}"]`);
        check(dist(end[0], meld[0]) < 2 && Math.abs(end[0].w - meld[0].w) < 2, `${move}: the flyer ends ${dist(end[0], meld[0]).toFixed(1)}px from meld ${key}`);
        await finish();
      }
    });

    await test('speed 0 resolves at once without a flyer', async () => {
      const r = await page.evaluate(async () => {
        const layer = document.querySelector('[data-motion-layer]');
        let added = 0;
        const obs = new MutationObserver((ms) => ms.forEach((m) => (added += m.addedNodes.length)));
        if (layer) obs.observe(layer, { childList: true });
        let done = false;
        window.fixture.apply('pickup-me', { speed: 0 }).then(() => (done = true));
        await Promise.resolve();
        await Promise.resolve();
        obs.disconnect();
        return { done, added, anims: document.getAnimations().length };
      });
      check(r.done && r.added === 0 && r.anims === 0, `speed 0: resolved ${r.done}, ${r.added} flyers, ${r.anims} animations`);
      await finish();
    });

    await test('a missing zone skips its flight', async () => {
      await page.evaluate(() => window.fixture.reset());
      const r = await page.evaluate(async () => {
        await window.fixture.apply('missing', { speed: 1 });
        // No pile either: a discard has nowhere to land.
        document.querySelector('[data-zone="pile"]').remove();
        const { animateTransition, snapshot } = await import('/motion.js');
        const root = document.getElementById('table');
        await animateTransition(root, snapshot(root), { seat: 2, action: 'discard 9C' }, { me: 0, speed: 1 });
        await animateTransition(root, snapshot(root), { seat: 0, action: 'pickup KS KH', took: 9 }, { me: 0, speed: 1 });
        await animateTransition(root, { zones: {}, melds: {}, cards: {}, pileFaces: [], meldLooks: {} }, { seat: 1, action: 'add 7 QC' }, { me: 0, speed: 1 });
        await animateTransition(null, null, null);
        return document.querySelector('[data-motion-layer]')?.children.length ?? 0;
      });
      check(r === 0, `missing zone: ${r} flyers`);
      await finish();
    });

    await test('a zone not displayed (display: none) is no source', async () => {
      await page.evaluate(() => window.fixture.reset());
      await page.addStyleTag({ content: '[data-zone="seat-3"] { display: none !important; }' });
      await start('meld-3');
      const t0 = await at(0);
      const hidden = await page.evaluate(() => [...document.querySelectorAll('.card')].filter((c) => getComputedStyle(c).visibility !== 'visible').length);
      check(t0.length === 0 && hidden === 0, `hidden seat: ${t0.length} flyers, ${hidden} cards hidden`);
      await finish();
      await page.evaluate(() => document.querySelector('style:last-of-type').remove());
    });

    await test('a new move during a flight finishes the old one at once', async () => {
      await page.evaluate(() => window.fixture.reset());
      await start('pickup-me');
      await at(100);
      const r = await page.evaluate(async () => {
        const first = window.__p;
        let firstDone = false;
        first.then(() => (firstDone = true));
        window.__p = window.fixture.apply('discard-me', { speed: 1 });
        await Promise.resolve();
        await Promise.resolve();
        const layer = document.querySelector('[data-motion-layer]');
        const hidden = [...document.querySelectorAll('.card')].filter((c) => getComputedStyle(c).visibility !== 'visible').map((c) => c.dataset.card);
        return { firstDone, flyers: layer.children.length, hidden };
      });
      check(r.firstDone, 'interrupted: the first transition did not resolve');
      check(r.flyers === 1 && r.hidden.length === 1 && r.hidden[0] === 'JD', `interrupted: ${r.flyers} flyers, hidden ${r.hidden.join(' ')}`);
      await finish('play');
    });

    await test('a snapshot taken during a flight does not see the flyers', async () => {
      await page.evaluate(() => window.fixture.reset());
      await start('pickup-me');
      await at(100);
      const r = await page.evaluate(async () => {
        const { snapshot } = await import('/motion.js');
        const shot = snapshot(document.body);
        const seen = Object.values(shot.cards).reduce((n, l) => n + l.length, 0);
        return { seen, cards: document.querySelectorAll('#table .card[data-card]').length, flyers: document.querySelector('[data-motion-layer]').children.length };
      });
      check(r.flyers === 22 && r.seen === r.cards, `snapshot during a flight: ${r.seen} cards seen, ${r.cards} on the table, ${r.flyers} flyers`);
      await finish();
    });

    await test('a hidden tab: no flights, and a flight in progress ends when the tab hides', async () => {
      await page.evaluate(() => window.fixture.reset());
      await start('draw-me');
      const r = await page.evaluate(async () => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
        await window.__p;
        const left = document.querySelector('[data-motion-layer]').children.length;
        let done = false;
        window.fixture.apply('draw-me', { speed: 1 }).then(() => (done = true));
        await Promise.resolve();
        await Promise.resolve();
        const added = document.querySelector('[data-motion-layer]').children.length;
        delete document.hidden;
        return { left, done, added };
      });
      check(r.left === 0 && r.done && r.added === 0, `hidden tab: ${r.left} left, resolved ${r.done}, ${r.added} new flyers`);
      await finish();
    });

    await test('prefers-reduced-motion: nothing travels, the new cards fade in', async () => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.evaluate(() => window.fixture.reset());
      await start('pickup-me');
      const flyers = await at(0);
      const fading = await page.evaluate(() => document.getAnimations().length);
      check(flyers.length === 0 && fading === 22, `reduced motion: ${flyers.length} flyers, ${fading} fades`);
      await finish();
      await page.emulateMedia({ reducedMotion: 'no-preference' });
    });

    await test('a real-time flight ends by itself', async () => {
      await page.evaluate(() => window.fixture.reset());
      const ok = await page.evaluate(async () => {
        await window.fixture.apply('pickup-1', { speed: 0.5 });
        await window.fixture.apply('draw-me', { speed: 1 });
        return document.querySelector('[data-motion-layer]').children.length === 0;
      });
      check(ok, 'real time: flyers left');
      await finish();
    });

    // ---------------------------------------------------------- sound
    await test('sound is off by default and needs a gesture to start', async () => {
      await page.evaluate(() => localStorage.clear());
      await open();
      const r = await page.evaluate(async () => {
        const s = await import('/sound.js');
        const off = s.soundOn();
        s.sound('draw');
        return { off, started: s.audioStarted(), stored: localStorage.getItem('canasta.sound') };
      });
      check(r.off === false && r.started === false && r.stored === null, `sound default: ${JSON.stringify(r)}`);
      // Turned on by a click (a gesture): the context starts and the choice is kept.
      await page.click('#sound');
      const on = await page.evaluate(async () => {
        const s = await import('/sound.js');
        s.sound('canasta');
        return { on: s.soundOn(), started: s.audioStarted(), stored: localStorage.getItem('canasta.sound') };
      });
      check(on.on && on.started && on.stored === 'on', `sound on: ${JSON.stringify(on)}`);
      await open();
      const kept = await page.evaluate(async () => {
        const s = await import('/sound.js');
        return { on: s.soundOn(), started: s.audioStarted(), box: document.getElementById('sound').checked };
      });
      check(kept.on && !kept.started && kept.box, `after reload: ${JSON.stringify(kept)} (on, not started before a gesture)`);
      await page.click('#reset');
      check(await page.evaluate(async () => (await import('/sound.js')).audioStarted()), 'the first click after reload starts the audio');
      await page.click('#sound');
      check(await page.evaluate(() => localStorage.getItem('canasta.sound')) === 'off', 'turned off: kept as off');
    });

    await test('every sound is short and quiet (rendered offline)', async () => {
      const r = await page.evaluate(async () => {
        const s = await import('/sound.js');
        const out = {};
        for (const name of s.SOUND_NAMES) {
          const rate = 22050;
          const ac = new OfflineAudioContext(1, rate * 2, rate);
          const len = s.synthesize(ac, ac.destination, name, 0);
          const buf = await ac.startRendering();
          const data = buf.getChannelData(0);
          let peak = 0;
          let tail = 0;
          for (let i = 0; i < data.length; i++) {
            const v = Math.abs(data[i]);
            peak = Math.max(peak, v);
            if (i > (len + 0.05) * rate) tail = Math.max(tail, v);
          }
          out[name] = { len, peak, tail };
        }
        return out;
      });
      for (const [name, v] of Object.entries(r)) {
        check(v.len > 0 && v.len <= 1.5, `${name}: ${v.len}s long`);
        check(v.peak > 0.02 && v.peak < 0.9, `${name}: peak ${v.peak.toFixed(3)} (before the 0.25 master gain)`);
        check(v.tail < 0.01, `${name}: still sounding (${v.tail.toFixed(4)}) after its length`);
      }
      log('sounds', Object.entries(r).map(([n, v]) => `${n} ${v.len}s peak ${(v.peak * 0.25).toFixed(3)}`).join(', '));
    });

    log(`${passed} checks passed`);
  } finally {
    await browser.close();
    if (server) server.proc.kill();
  }
}

main().catch((e) => {
  console.error(`[motion] FAIL: ${e.message}`);
  process.exit(1);
});
