#!/usr/bin/env node
// Three measurements of the real table page against a running server (to
// read, not a test: it passes whatever the numbers):
//
//   PLAYWRIGHT_CORE=... node web/tests/table-perf.mjs --base http://127.0.0.1:8093 [--cpu 4] [--turns 40]
//
// 1. From a human's discard (the double-click's second click) to the first
//    bot animation (the page's `data-moving` set for a state the bot's
//    action made), split into the server's answer to the discard, the bot's
//    first state and the queue's wait. A server that paces bots adds its
//    pace's delay on purpose (docs/server-api.md).
// 2. Frames during this seat's first pile pickup on the table (played when
//    the pile may be taken), from Chrome's performance trace as
//    motion-perf.mjs reads it: frames presented and dropped
//    (PipelineReporter), layouts, paints and the longest main-thread task.
// 3. The page's weight: every file the table page loads, its bytes and its
//    bytes under gzip -9 (what a server that compresses would send).

import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const BASE = opt('base', process.env.CANASTA_BASE || 'http://127.0.0.1:8080').replace(/\/$/, '');
const CPU = Number(opt('cpu', '1'));
const TURNS = Number(opt('turns', '40'));
const TRACE = path.join(os.tmpdir(), `table-trace-${process.pid}.json`);
const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

async function api(method, url, body) {
  const res = await fetch(`${BASE}${url}`, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** Frames and main-thread work between two user-timing marks of a trace. */
function readTrace(file, startMark, endMark) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
  const mark = (name) => events.find((e) => e.name === name && e.cat.includes('blink.user_timing'));
  const start = mark(startMark)?.ts ?? -Infinity;
  const end = mark(endMark)?.ts ?? Infinity;
  const during = events.filter((e) => e.ts >= start && e.ts <= end);
  const frames = during.filter((e) => e.name === 'PipelineReporter' && e.ph === 'b' && e.args?.frame_reporter);
  const byState = {};
  for (const f of frames) {
    const s = (f.args.frame_reporter.state || '?').replace('STATE_', '');
    byState[s] = (byState[s] || 0) + 1;
  }
  const count = (name) => during.filter((e) => e.name === name && e.ph === 'X').length;
  const tasks = during.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur);
  return {
    ms: (end - start) / 1000,
    frames: frames.length,
    byState,
    droppedFrameEvents: during.filter((e) => e.name === 'DroppedFrame').length,
    layouts: count('Layout'),
    styles: count('UpdateLayoutTree'),
    paints: count('Paint'),
    longestTaskMs: tasks.reduce((m, e) => Math.max(m, e.dur), 0) / 1000,
    tasksOver50: tasks.filter((e) => e.dur > 50_000).length,
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const t = await api('POST', '/api/tables', { variant: 'classic', players: 2, seats: [{ kind: 'human' }, { kind: 'bot', bot: 'heuristic' }], join: { seat: 0, name: 'Tester' } });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.addInitScript(([id, seat, token]) => {
    localStorage.setItem(`canasta.seat.${id}`, JSON.stringify({ seat, token }));
    localStorage.setItem('canasta.table.prefs', JSON.stringify({ speed: 'normal' }));
    // No guide: it is not what is measured.
    localStorage.setItem('canasta.guide', JSON.stringify({ table: '', hand: null, closed: true }));
    // The server's frames with the page's clock, and when `data-moving` is set for which state shown.
    window.__frames = [];
    window.__moving = [];
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...a) {
        super(...a);
        this.addEventListener('message', (e) => {
          try { window.__frames.push({ at: performance.now(), msg: JSON.parse(e.data) }); } catch { /* not JSON */ }
        });
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const el = /** @type {HTMLElement} */ (r.target);
        if (el.hasAttribute('data-moving') && r.oldValue === null) {
          const board = document.querySelector('[data-testid="board"]');
          window.__moving.push({ at: performance.now(), state: Number(board && board.dataset.stateId) });
        }
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-moving'], attributeOldValue: true });
    // The action's time: the last click's (a double-click's second click discards).
    document.addEventListener('click', (e) => { window.__action = e.timeStamp; }, true);
  }, [t.id, t.seat, t.token]);
  const page = await ctx.newPage();
  page.on('crash', () => console.error('the page crashed'));
  page.on('pageerror', (e) => console.error(`error in the page: ${e.message}`));
  const cdp = await ctx.newCDPSession(page);
  if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  await page.goto(`${BASE}/#/t/${t.id}`);
  await page.locator('[data-testid="hand"] .card').first().waitFor();

  // ---- 3. the page's weight ----
  await page.waitForLoadState('networkidle');
  const urls = await page.evaluate(() => [location.href.split('#')[0], ...performance.getEntriesByType('resource').map((e) => e.name)]);
  const files = [];
  for (const u of [...new Set(urls)].filter((x) => x.startsWith(BASE) && !/\/api\/|\/ws/.test(x))) {
    const res = await fetch(u);
    if (!res.ok) continue;
    const body = Buffer.from(await res.arrayBuffer());
    files.push({ file: u.slice(BASE.length) || '/', bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length, served: res.headers.get('content-encoding') || 'identity' });
  }
  files.sort((a, b) => b.bytes - a.bytes);
  const sum = (k) => files.reduce((s, f) => s + f[k], 0);
  console.log(`page weight: ${files.length} files, ${sum('bytes')} bytes, ${sum('gzip')} bytes gzipped (served as ${[...new Set(files.map((f) => f.served))].join(', ')})`);
  for (const f of files) console.log(`  ${String(f.bytes).padStart(7)} ${String(f.gzip).padStart(6)}  ${f.file}`);

  const last = () => page.evaluate(() => [...window.__frames].reverse().find((f) => f.msg.type === 'state')?.msg);
  const shown = () => page.evaluate(() => Number(document.querySelector('[data-testid="board"]').dataset.stateId));
  const myTurnShown = async () => {
    const s = await last();
    return s && s.legal.length && s.view.to_act === 0 && (await shown()) === s.state_id && !(await page.$('[data-moving]')) ? s : null;
  };
  const waitMine = async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const s = await myTurnShown();
      if (s) return s;
      const st = await last();
      if (st && st.status !== 'playing') return null;
      await page.waitForTimeout(50);
    }
    return null;
  };

  const latencies = [];
  let pickup = null;
  for (let turn = 0; turn < TURNS && (latencies.length < 5 || !pickup); turn++) {
    let s = await waitMine();
    if (!s) break;
    if (process.env.PERF_DEBUG) console.error(`turn ${turn}: ${s.view.phase} ${s.legal.slice(0, 4).join(', ')}`);
    // The simplest pickup open (one group of cards from the hand, or none).
    const take = s.legal.filter((a) => a.startsWith('pickup') && !a.includes('/')).sort((a, b) => a.length - b.length)[0];
    if (take && !pickup && s.view.phase === 'draw') {
      // ---- 2. frames during a real pile pickup ----
      const size = s.view.pile.length + (s.view.pile_hidden || 0);
      await browser.startTracing(page, { path: TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'benchmark', 'cc', 'viz', 'blink.user_timing'] });
      await page.evaluate(() => performance.mark('pickup-start'));
      // Through the page, as the Advanced list would: the action as a player's click sends it.
      const words = take.split(' ').slice(1);
      for (const c of words) await page.locator(`[data-testid="hand"] .card[data-card="${c}"]:not(.selected)`).first().click({ position: { x: 8, y: 20 } });
      await page.click('[data-testid="pickup-button"]');
      await page.waitForFunction((id) => Number(document.querySelector('[data-testid="board"]').dataset.stateId) > id, s.state_id);
      await page.waitForFunction(() => !document.querySelector('[data-moving]'));
      await page.evaluate(() => performance.mark('pickup-end'));
      await page.waitForTimeout(100);
      await browser.stopTracing();
      pickup = { action: take, size, ...readTrace(TRACE, 'pickup-start', 'pickup-end') };
      if (process.env.PERF_DEBUG) console.error(JSON.stringify(pickup));
      fs.rmSync(TRACE, { force: true });
      s = await waitMine();
      if (!s) break;
    } else if (s.view.phase === 'draw') {
      await page.click('[data-testid="draw-button"]');
      s = await waitMine();
      if (!s) break;
    }
    if (s.view.phase !== 'play') continue;
    const discard = s.legal.find((a) => a.startsWith('discard ') && !/ (JK|2.)$/.test(a)) || s.legal.find((a) => a.startsWith('discard '));
    if (!discard) continue;
    // ---- 1. a human's action to the first bot animation ----
    await page.evaluate(() => { window.__moving = []; window.__action = null; });
    const sentAt = await page.evaluate(() => performance.now());
    await page.locator(`[data-testid="hand"] .card[data-card="${discard.split(' ')[1]}"]`).first().dblclick({ position: { x: 8, y: 20 } });
    const got = await page.waitForFunction(
      (after) => {
        const frames = window.__frames.filter((f) => f.at >= after && f.msg.type === 'state');
        const mine = frames.find((f) => f.msg.last && f.msg.last.seat === 0);
        const bot = frames.find((f) => f.msg.last && f.msg.last.seat !== 0);
        const anim = bot && window.__moving.find((m) => m.state === bot.msg.state_id);
        return anim && window.__action !== null && mine ? { action: window.__action, mine: mine ? mine.at : null, bot: bot.at, anim: anim.at } : null;
      },
      sentAt,
      { timeout: 30_000 },
    ).then((h) => h.jsonValue()).catch((e) => { if (process.env.PERF_DEBUG) console.error(e.message.split("\n")[0]); return null; });
    if (got) latencies.push({ toAnimation: got.anim - got.action, toOwnState: got.mine - got.action, toBotState: got.bot - got.action });
    if (process.env.PERF_DEBUG) console.error(`latency: ${JSON.stringify(got)}`);
  }
  const fmt = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? `median ${s[Math.floor(s.length / 2)].toFixed(0)} ms, min ${s[0].toFixed(0)}, max ${s[s.length - 1].toFixed(0)} (n=${s.length})` : 'none measured';
  };
  console.log(`discard to the first bot animation (cpu x${CPU}): ${fmt(latencies.map((l) => l.toAnimation))}`);
  console.log(`  of which the server's state for the discard: ${fmt(latencies.map((l) => l.toOwnState))}; the bot's first state: ${fmt(latencies.map((l) => l.toBotState))}`);
  if (pickup) {
    console.log(`pile pickup (${pickup.action}, ${pickup.size} cards, cpu x${CPU}): ${pickup.ms.toFixed(0)} ms from the click to the cards landed; trace frames ${pickup.frames} ${JSON.stringify(pickup.byState)}, DroppedFrame events ${pickup.droppedFrameEvents}; main thread: Layout ${pickup.layouts}, UpdateLayoutTree ${pickup.styles}, Paint ${pickup.paints}, longest task ${pickup.longestTaskMs.toFixed(1)} ms, tasks over 50 ms ${pickup.tasksOver50}`);
  } else console.log(`no pile pickup was open to this seat in ${TURNS} turns`);
} finally {
  await browser.close();
}
