#!/usr/bin/env node
// Frames during a 20-card pile pickup on the motion fixture, from Chrome's
// performance trace and from requestAnimationFrame deltas. A measurement to
// read, not a test (it passes whatever the numbers):
//
//   PLAYWRIGHT_CORE=~/.cache/canasta-e2e/node_modules/playwright-core node web/tests/motion-perf.mjs [--cpu 4] [--no-raf] [--move pickup-1] [--trace FILE] [--runs 3]
//
// --cpu N slows the page's CPU N times (DevTools' throttling, as for a
// phone). For each run it prints the frames the compositor presented and
// dropped (PipelineReporter events), the main thread's layouts and style
// recalculations during the flight, its longest task, and the rAF deltas.

import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const CPU = Number(opt('cpu', '1'));
const RUNS = Number(opt('runs', '3'));
const MOVE = opt('move', 'pickup-me');
// --no-raf: no requestAnimationFrame loop of the measurement's own (which
// makes the main thread produce every frame), to see the flight alone.
const RAF = !args.includes('--no-raf');
const TRACE = opt('trace', path.join(os.tmpdir(), 'motion-trace.json'));
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const py = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '-d', WEB], { stdio: ['ignore', 'pipe', 'pipe'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  py.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/port (\d+)/);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
  py.on('exit', () => reject(new Error(out)));
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/tests/motion-fixture.html`);
  await page.waitForSelector('body[data-ready]');
  const cdp = await page.context().newCDPSession(page);
  if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });

  for (let run = 1; run <= RUNS; run++) {
    await page.evaluate(() => window.fixture.reset());
    await page.waitForTimeout(300);
    await browser.startTracing(page, {
      path: TRACE,
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'benchmark',
        'cc',
        'viz',
        'blink.user_timing',
      ],
    });
    const raf = await page.evaluate(async ({ move, raf }) => {
      const stamps = [];
      let on = true;
      const tick = (t) => {
        stamps.push(t);
        if (on) requestAnimationFrame(tick);
      };
      if (raf) requestAnimationFrame(tick);
      await new Promise((r) => requestAnimationFrame(r));
      performance.mark('motion-start');
      const t0 = performance.now();
      await window.fixture.apply(move, { speed: 1 });
      const t1 = performance.now();
      performance.mark('motion-end');
      on = false;
      const inside = stamps.filter((t) => t >= t0 && t <= t1);
      const deltas = inside.slice(1).map((t, i) => t - inside[i]);
      return { ms: t1 - t0, deltas };
    }, { move: MOVE, raf: RAF });
    await page.waitForTimeout(100);
    await browser.stopTracing();
    const events = JSON.parse(fs.readFileSync(TRACE, 'utf8')).traceEvents;
    const mark = (name) => events.find((e) => e.name === name && e.cat.includes('blink.user_timing'));
    const start = mark('motion-start')?.ts ?? -Infinity;
    const end = mark('motion-end')?.ts ?? Infinity;
    const during = events.filter((e) => e.ts >= start && e.ts <= end);
    // One PipelineReporter per frame the compositor began: its state says
    // whether the frame was presented (STATE_PRESENTED_ALL / _PARTIAL),
    // dropped (STATE_DROPPED) or not needed (STATE_NO_UPDATE_DESIRED).
    const frames = during.filter((e) => e.name === 'PipelineReporter' && e.ph === 'b' && e.args?.frame_reporter);
    const byState = {};
    let compositorAnimated = 0;
    let mainAnimated = 0;
    for (const f of frames) {
      const r = f.args.frame_reporter;
      const s = (r.state || '?').replace('STATE_', '');
      byState[s] = (byState[s] || 0) + 1;
      if (r.has_compositor_animation) compositorAnimated++;
      if (r.has_main_animation) mainAnimated++;
    }
    const failed = during.filter((e) => e.name === 'Animation' && e.args?.data?.compositeFailed).length;
    const dropped = during.filter((e) => e.name === 'DroppedFrame').length;
    const count = (name) => during.filter((e) => e.name === name && e.ph === 'X').length;
    // Main frames that changed nothing the compositor needs (the flyers move
    // there alone) against those that committed (a render, a landing).
    const aborted = during.filter((e) => e.name === 'MainFrameAborted').length;
    const commits = count('Commit');
    const mainTid = mark('motion-start')?.tid;
    const mainMs = during.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.tid === mainTid).reduce((s, e) => s + (e.dur || 0), 0) / 1000;
    // Past the first task (the render and the flyers' set-up), any layout is per frame.
    const tasks = during.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur);
    const longest = tasks.reduce((m, e) => Math.max(m, e.dur), 0) / 1000;
    const long = tasks.filter((e) => e.dur > 50_000).length;
    const d = raf.deltas;
    const sorted = [...d].sort((a, b) => a - b);
    const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1) : '-');
    console.log(
      `run ${run} (${MOVE}, cpu x${CPU}): ${raf.ms.toFixed(0)} ms; trace frames ${frames.length} ${JSON.stringify(byState)}, DroppedFrame events ${dropped}, frames with compositor animation ${compositorAnimated}, with main-thread animation ${mainAnimated}, animations not composited ${failed}; ` +
        `main thread: busy ${mainMs.toFixed(0)} ms, main frames committed ${commits}, aborted (no update) ${aborted}, Layout ${count('Layout')}, UpdateLayoutTree ${count('UpdateLayoutTree')}, Paint ${count('Paint')}, longest task ${longest.toFixed(1)} ms, tasks over 50 ms ${long}; ` +
        `rAF: ${d.length} deltas, median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} ms, over 25 ms ${d.filter((x) => x > 25).length}`,
    );
  }
} finally {
  await browser.close();
  py.kill();
}
