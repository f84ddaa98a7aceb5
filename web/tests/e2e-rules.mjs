#!/usr/bin/env node
// End-to-end test of the house rules and the "How to play" pages against a
// running `canasta serve`:
//
//   PLAYWRIGHT_CORE=.../playwright-core node web/tests/e2e-rules.mjs --base http://127.0.0.1:8093
//
// The lobby offers a variant's house rules as named, described controls
// grouped by area and its house presets as one choice; a table created
// with a preset and a toggled rule carries both (its summary and the
// lobby's list say so); every variant's rules page reads at 1280×800 and
// 390×844 with nothing wider than the screen. Options as in e2e.mjs:
// --base URL, --chromium PATH, --shots DIR, --headed, --timeout SECONDS.

import fs from 'node:fs';
import path from 'node:path';
import { opt, flag, BASE, CHROMIUM, WAIT, loadChromium } from './harness.mjs';

const SHOTS = opt('shots', process.env.E2E_SHOTS || '');
const HEADED = flag('headed');

const chromium = loadChromium();

let step = 'start';
const log = (...a) => console.log(`[e2e-rules] ${a.join(' ')}`);
function check(cond, message) {
  if (!cond) throw new Error(message);
}
async function shot(page, name) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Elements reaching past the viewport's left or right edge (a few named). */
function overflowing() {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -1 || r.right > width + 1) {
      out.push(`${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
  }
  const scroll = document.documentElement.scrollWidth - width;
  if (scroll > 0) out.unshift(`the page scrolls sideways by ${scroll}px`);
  return out.slice(0, 6);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: !HEADED,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ].filter((a) => (HEADED ? a !== '--headless' : true)),
  });
  const pageErrors = [];
  try {
    step = 'open the lobby';
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${BASE}/#/`);
    await page.locator('[data-testid="create-table"]').waitFor({ timeout: WAIT });
    await page.selectOption('[data-testid="variant-select"]', 'classic');
    await page.selectOption('[data-testid="players-select"]', '2');
    await page.locator('[data-testid="seat-row"]').nth(1).waitFor({ timeout: WAIT });
    await page.selectOption('[data-testid="seat-kind"][data-seat="1"]', 'heuristic');
    const botWords = await page.locator('[data-testid="seat-kind"][data-seat="1"] option:checked').textContent();
    check(!/ismcts|heuristic/.test(botWords), `the bot reads "${botWords}", not a level name`);
    const description = await page.locator('[data-testid="variant-description"]').textContent();
    check(!/_/.test(description), `the variant's description names fields: ${description}`);

    step = 'the house rules are named, described and grouped by area';
    const areas = await page.locator('[data-testid="house-area"]').evaluateAll((els) => els.map((e) => e.dataset.area));
    check(areas.join() === 'deck,melds,pile,opening,going_out,scoring', `the areas are ${areas.join()}`);
    await page.locator('[data-testid="house-rules"] > summary').click();
    await page.locator('[data-testid="house-area"][data-area="pile"] > summary').click();
    const row = page.locator('[data-testid="house-rule"][data-option="black_three_freezes"]');
    const rowText = await row.textContent();
    check(rowText.includes('Black threes freeze the pile') && rowText.includes('Default: Off'), `the black-three rule reads "${rowText}"`);
    const keysShown = await page.locator('[data-testid="house-rules"]').textContent();
    check(!keysShown.includes('black_three_freezes') && !keysShown.includes('{"'), 'raw option keys or JSON are shown');

    step = 'choose a house preset, then toggle a house rule';
    await page.selectOption('[data-testid="house-preset"]', 'frozen-pile');
    const presetWords = await page.locator('[data-testid="house-preset-description"]').textContent();
    check(presetWords.includes('P-CAN'), `the preset's description names no source: ${presetWords}`);
    check(await page.locator('[data-testid="option-input"][data-option="pile_always_frozen"]').isChecked(), 'the preset did not set its rule');
    await page.locator('[data-testid="option-input"][data-option="black_three_freezes"]').click();
    const changed = await page.locator('[data-testid="changed-options"]').textContent();
    check(changed.includes('Pile always frozen: On') && changed.includes('Black threes freeze the pile: On'), `the changed rules read "${changed}"`);
    check((await page.inputValue('[data-testid="house-preset"]')) === '__own', 'the preset choice does not say the rules are your own');
    await shot(page, 'rules-01-lobby-house-rules');

    step = 'create the table with them';
    await page.check('[data-testid="join-radio"][data-seat="0"]');
    await page.click('[data-testid="create-table"]');
    await page.waitForURL(/#\/t\/[\w-]+/, { timeout: WAIT });
    const id = page.url().split('/').pop();
    const summary = await page.evaluate((t) => fetch(`/api/tables/${t}`).then((r) => r.json()), id);
    check(summary.options.pile_always_frozen === true && summary.options.black_three_freezes === true, `the table's options are ${JSON.stringify(summary.options)}`);
    await page.goto(`${BASE}/#/`);
    const listed = page.locator(`[data-testid="table-row"][data-table="${id}"] [data-testid="table-house-rules"]`);
    await listed.waitFor({ timeout: WAIT });
    const listedText = await listed.textContent();
    check(listedText.includes('Pile always frozen: On') && listedText.includes('Black threes freeze the pile: On'), `the lobby lists the table's rules as "${listedText}"`);
    log(`table ${id}: ${listedText}`);

    step = 'the lobby links each variant to its rules page';
    await page.click('[data-testid="rules-link"]');
    await page.waitForURL(/#\/rules\/classic/, { timeout: WAIT });
    await page.locator('[data-testid="rules-section"]').first().waitFor({ timeout: WAIT });
    await page.click('[data-testid="rules-back"]');
    await page.locator('[data-testid="create-table"]').waitFor({ timeout: WAIT });

    step = 'a rules page with house rules says so';
    const withRules = `#/rules/classic?players=4&options=${encodeURIComponent(JSON.stringify({ pile_always_frozen: true }))}`;
    await page.goto(`${BASE}/${withRules}`);
    await page.locator('[data-testid="rules-section"]').first().waitFor({ timeout: WAIT });
    const pile = await page.locator('[data-testid="rules-section"][data-area="pile"]').textContent();
    check(pile.includes('The pile is always frozen.'), `the pile section with the house rule reads "${pile.slice(0, 200)}"`);
    await ctx.close();

    const variants = await (await fetch(`${BASE}/api/variants`)).json();
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ]) {
      const c = await browser.newContext({ viewport: { width, height } });
      const p = await c.newPage();
      p.on('pageerror', (e) => pageErrors.push(e.message));
      for (const v of variants.variants) {
        step = `the rules page of ${v.id} at ${width}×${height}`;
        const players = Math.max(...v.players);
        await p.goto(`${BASE}/#/rules/${v.id}?players=${players}`);
        await p.waitForFunction(() => document.querySelectorAll('[data-testid="rules-section"]').length === 6, null, { timeout: WAIT });
        const title = await p.locator('[data-testid="rules-title"]').textContent();
        check(title.startsWith('How to play'), `the title reads "${title}"`);
        const tables = await p.locator('.rules-table').count();
        check(tables >= 4, `${v.id}: ${tables} tables`);
        const wide = await p.evaluate(overflowing);
        check(wide.length === 0, `${v.id} at ${width}px: wider than the screen: ${wide.join('; ')}`);
        await shot(p, `rules-${v.id}-${width}`);
      }
      log(`every rules page fits ${width}×${height}`);
      await c.close();
    }
    check(pageErrors.length === 0, `errors in the page: ${pageErrors.join('; ')}`);
    log('all passed');
  } finally {
    await browser.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[e2e-rules] FAILED at "${step}": ${e.message}`);
    process.exit(1);
  },
);
