#!/usr/bin/env node
// The table fits every screen: for each variant at its largest player count,
// at 1280×800, 1366×768, 390×844 and 360×740, the hand and the action bar
// are inside the viewport (no scrolling), and the regions of the page (the
// top bar, the felt, the hand, the action bar) and of the felt (each seat,
// each side's melds, the stock and pile) do not overlap.
//
//   PLAYWRIGHT_CORE=.../playwright-core node web/tests/layout.mjs --base http://127.0.0.1:8093 [--shots DIR]
//
// Tables are made through the HTTP API (seat 0 claimed, bots elsewhere); a
// few turns are played at the first size so that melds are on the table.
// Exits 1 with every failure listed, 2 when playwright-core is missing.

import fs from 'node:fs';
import path from 'node:path';
import { opt, BASE, CHROMIUM, WAIT, loadChromium } from './harness.mjs';

const SHOTS = opt('shots', process.env.LAYOUT_SHOTS || '');
const ONLY = opt('variant', '');
const TURNS = Number(opt('turns', '3'));

const chromium = loadChromium();

const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '1366x768', width: 1366, height: 768 },
  { name: '390x844', width: 390, height: 844, phone: true },
  { name: '360x740', width: 360, height: 740, phone: true },
];

const log = (...a) => console.log(`[layout] ${a.join(' ')}`);
const failures = [];

async function api(method, url, body) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** The boxes of the page's regions and the felt's, read in the page. */
const measure = (page) =>
  page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height };
    };
    const one = (sel) => {
      const el = document.querySelector(sel);
      return el && el.offsetParent !== null ? box(el) : null;
    };
    const board = document.querySelector('[data-testid="board"]');
    const inBoard = [...board.querySelectorAll('[data-zone^="seat-"], [data-zone^="melds-"], [data-testid="center"]')].map((el) => ({
      name: el.dataset.zone || el.dataset.testid,
      // Boxes in the felt's own coordinates: it scrolls inside the page.
      ...(() => {
        const b = box(el);
        const f = board.getBoundingClientRect();
        return { x: b.x - f.left + board.scrollLeft, y: b.y - f.top + board.scrollTop, w: b.w, h: b.h };
      })(),
    }));
    return {
      viewport: { w: window.innerWidth, h: window.innerHeight },
      scrollW: document.documentElement.scrollWidth,
      scrollH: document.documentElement.scrollHeight,
      regions: {
        top: one('[data-testid="table-top"]'),
        board: one('[data-testid="board"]'),
        hand: one('[data-testid="hand-area"]'),
        bar: one('[data-testid="action-bar"]'),
      },
      buttons: [...document.querySelectorAll('[data-testid="actions"] button')].map((b) => ({ name: b.dataset.testid, ...box(b) })),
      cards: document.querySelectorAll('[data-testid="hand"] .card').length,
      inBoard,
    };
  });

const overlap = (a, b) => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 1;
const inside = (a, vp) => a.x >= -0.5 && a.y >= -0.5 && a.x + a.w <= vp.w + 0.5 && a.y + a.h <= vp.h + 0.5;

function judge(where, m) {
  const bad = (what) => failures.push(`${where}: ${what}`);
  const vp = m.viewport;
  if (m.scrollW > vp.w) bad(`the page scrolls sideways (${m.scrollW}px wide)`);
  if (m.scrollH > vp.h + 1) bad(`the page scrolls down (${m.scrollH}px high)`);
  for (const [name, r] of Object.entries(m.regions)) {
    if (!r) {
      bad(`no ${name} region shows`);
      continue;
    }
    if (!inside(r, vp)) bad(`the ${name} region (${JSON.stringify(r)}) is not inside the ${vp.w}x${vp.h} viewport`);
  }
  const names = Object.keys(m.regions);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = m.regions[names[i]];
      const b = m.regions[names[j]];
      if (a && b && overlap(a, b)) bad(`the ${names[i]} and ${names[j]} regions overlap`);
    }
  }
  for (const b of m.buttons) if (!inside(b, vp)) bad(`the ${b.name} button is outside the viewport`);
  for (let i = 0; i < m.inBoard.length; i++) {
    for (let j = i + 1; j < m.inBoard.length; j++) {
      if (overlap(m.inBoard[i], m.inBoard[j])) bad(`${m.inBoard[i].name} and ${m.inBoard[j].name} overlap on the felt`);
    }
  }
  if (!m.cards) bad('the hand shows no cards');
}

/** Plays `turns` turns of seat 0 from the page: draw, then a double-click on a card the server lets it discard. */
async function playTurns(page, frames, turns) {
  for (let t = 0; t < turns; t++) {
    const deadline = Date.now() + WAIT;
    let state = null;
    while (Date.now() < deadline) {
      state = [...frames].reverse().find((f) => f.type === 'state');
      if (state && state.status !== 'playing') return;
      if (state && state.legal.includes('draw')) break;
      await page.waitForTimeout(100);
    }
    if (!state || !state.legal.includes('draw')) return;
    await page.click('[data-testid="draw-button"]');
    const drawn = Date.now() + WAIT;
    let play = null;
    while (Date.now() < drawn) {
      play = [...frames].reverse().find((f) => f.type === 'state');
      if (play && play.legal.some((a) => a.startsWith('discard '))) break;
      await page.waitForTimeout(100);
    }
    if (!play) return;
    // A meld when one is offered, so that the table fills.
    const meld = play.legal.find((a) => a.startsWith('meld '));
    if (meld) {
      await page.evaluate(() => {
        const t = document.querySelector('[data-testid="advanced-toggle"]');
        if (t && !t.checked) t.click();
      });
      await page.locator(`[data-testid="legal-action"][data-action="${meld}"]`).click().catch(() => {});
      await page.waitForTimeout(300);
      play = [...frames].reverse().find((f) => f.type === 'state');
    }
    const discard = play.legal.find((a) => a.startsWith('discard ') && !/ (JK|2.)$/.test(a)) || play.legal.find((a) => a.startsWith('discard '));
    if (!discard) return;
    await page.locator(`[data-testid="hand"] [data-card="${discard.split(' ')[1]}"]`).first().dblclick();
    await page.waitForTimeout(300);
  }
  await page.evaluate(() => {
    const t = document.querySelector('[data-testid="advanced-toggle"]');
    if (t && t.checked) t.click();
  });
}

/**
 * Waits until the seat's hand shows on its turn (after a wait, a
 * hand shown is enough). In a small form the turns played at the first
 * size, or the bots', can end the hand before the next size loads: then the
 * hand-end dialog offers the next deal, which is taken, or the game is
 * over, which is returned for the caller to deal a new table.
 */
async function handInView(page) {
  const card = page.locator('[data-testid="hand"] .card').first();
  const next = page.locator('[data-testid="next-hand"]:not([disabled])');
  // The final scores open when a finished game loads; their button stays if
  // they are closed.
  const over = page.locator('[data-testid="game-end"], [data-testid="show-scores"]:has-text("final")');
  // On the seat's turn (the hint is offered) no bot can end the hand under
  // the measure.
  const ourTurn = page.locator('[data-testid="hint-button"]:not([disabled])');
  const deadline = Date.now() + WAIT;
  while (Date.now() < deadline) {
    if ((await card.isVisible()) && (await ourTurn.isVisible())) return 'hand';
    if (await over.isVisible()) return 'game over';
    if (await next.isVisible()) await next.click().catch(() => {});
    await page.waitForTimeout(100);
  }
  await card.waitFor({ timeout: 2000 });
  return 'hand';
}

/**
 * A new browser context at `size` holding table `t`'s seat, on its page:
 * the page's errors and the WebSocket frames it received are collected.
 */
async function openTable(browser, size, t) {
  const ctx = await browser.newContext({ viewport: { width: size.width, height: size.height }, isMobile: !!size.phone, hasTouch: !!size.phone });
  await ctx.addInitScript(([id, seat, token]) => localStorage.setItem(`canasta.seat.${id}`, JSON.stringify({ seat, token })), [t.id, t.seat, t.token]);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const frames = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => { try { frames.push(JSON.parse(f.payload)); } catch { /* not JSON */ } }));
  await page.goto(`${BASE}/#/t/${t.id}`);
  return { ctx, page, errors, frames };
}

/**
 * Table `t` opened at `size` with the seat's hand in view; when its game is
 * already over (the turns played at the first size ended a short form such
 * as Mini, or a bot went out at once), a new table from `newTable` instead.
 */
async function handInPlay(browser, size, t, newTable) {
  // A bot can go out on its first turn in a form of six cards: a few tries.
  for (let tries = 0; tries < 6; tries++) {
    const opened = await openTable(browser, size, t);
    if ((await handInView(opened.page)) === 'hand') return { opened, t };
    await opened.ctx.close();
    t = await newTable();
  }
  throw new Error(`six tables in a row were over before the seat's turn`);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const { variants } = await api('GET', '/api/variants');
    for (const v of variants) {
      if (ONLY && v.id !== ONLY) continue;
      const players = Math.max(...v.players);
      const seats = [...Array(players).keys()].map((s) => (s === 0 ? { kind: 'human' } : { kind: 'bot', bot: 'heuristic' }));
      const newTable = async () => {
        const made = await api('POST', '/api/tables', { variant: v.id, players, seats, join: { seat: 0, name: 'Tester' } });
        log(`${v.id} for ${players}: table ${made.id}`);
        return made;
      };
      let t = await newTable();
      for (const [k, size] of SIZES.entries()) {
        let opened;
        ({ opened, t } = await handInPlay(browser, size, t, newTable));
        if (k === 0 && TURNS) {
          await playTurns(opened.page, opened.frames, TURNS);
          // The turns can end a short game: measure a hand in play.
          if ((await handInView(opened.page)) === 'game over') {
            await opened.ctx.close();
            ({ opened, t } = await handInPlay(browser, size, await newTable(), newTable));
          }
        }
        const { ctx, page, errors } = opened;
        await page.waitForTimeout(400);
        const where = `${v.id} (${players} players) at ${size.name}`;
        judge(where, await measure(page));
        for (const e of errors) failures.push(`${where}: error in the page: ${e}`);
        if (SHOTS) {
          fs.mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: path.join(SHOTS, `${v.id}-${players}-${size.name}.png`) });
        }
        await ctx.close();
      }
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    for (const f of failures) console.error(`[layout] FAIL ${f}`);
    process.exit(1);
  }
  log('all fit');
}

main().catch((e) => {
  console.error(`[layout] FAILED: ${e.stack || e.message}`);
  process.exit(1);
});
