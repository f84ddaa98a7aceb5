#!/usr/bin/env node
// End-to-end test of the browser client against a running `canasta serve`.
//
//   NODE_PATH=/tmp/pw/node_modules node web/tests/e2e.mjs --base http://127.0.0.1:8093
//
// Options: --base URL (default http://127.0.0.1:8080), --chromium PATH
// (default /usr/bin/chromium, or $CHROMIUM), --shots DIR (save screenshots),
// --headed, --timeout SECONDS (per wait, default 20). playwright-core is
// loaded with require(), so NODE_PATH finds it (or set PLAYWRIGHT_CORE to
// its directory). Exits 1 with the failed step's message.

import fs from 'node:fs';
import path from 'node:path';
import { opt, flag, BASE, CHROMIUM, WAIT, loadChromium } from './harness.mjs';

const SHOTS = opt('shots', process.env.E2E_SHOTS || '');
const HEADED = flag('headed');

const chromium = loadChromium();

let step = 'start';
const log = (...a) => console.log(`[e2e] ${a.join(' ')}`);
function fail(message) {
  throw new Error(message);
}
function check(cond, message) {
  if (!cond) fail(message);
}
async function shot(page, name) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Waits until `fn` (run in the page) returns a truthy value, which it returns. */
async function until(page, what, fn, arg) {
  try {
    const handle = await page.waitForFunction(fn, arg, { timeout: WAIT, polling: 100 });
    return await handle.jsonValue();
  } catch (e) {
    const status = await page
      .locator('[data-testid="status"]')
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => '?');
    fail(`timed out waiting for ${what} (status line: "${status}")`);
  }
}

/** What the page shows of the game, read from the DOM. */
const snapshot = (page) =>
  page.evaluate(() => {
    const q = (s) => document.querySelector(`[data-testid="${s}"]`);
    const hand = [...document.querySelectorAll('[data-testid="hand"] [data-testid="card"]')].map((c) => c.dataset.card);
    const me = document.querySelector('[data-testid="seat"].me');
    const legal = [...document.querySelectorAll('[data-testid="legal-action"]')].map((b) => b.dataset.action);
    const status = q('status');
    return {
      hand,
      seat: me ? Number(me.dataset.seat) : null,
      legal,
      drawLegal: !!document.querySelector('[data-testid="draw-button"].legal'),
      discardLegal: !!document.querySelector('[data-testid="discard-button"].legal'),
      status: status ? status.textContent.trim() : null,
      statusError: status ? status.classList.contains('error') : false,
      handEnd: !!q('hand-end-dialog'),
      waiting: !!q('waiting'),
    };
  });

/** Records the server's WebSocket messages of a page. */
function watchSocket(page) {
  const seen = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      try {
        seen.push(JSON.parse(f.payload));
      } catch {
        /* not JSON */
      }
    });
  });
  return seen;
}

/** Drags `from` onto `to` with the mouse, in steps, as a player's hand would. */
async function dragTo(page, from, to) {
  // Cards in flight have not reached their places yet.
  await page.waitForFunction(() => !document.querySelector('[data-moving]'));
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(a.x + a.width / 2 + ((b.x + b.width / 2 - a.x - a.width / 2) * i) / 8, a.y + a.height / 2 + ((b.y + b.height / 2 - a.y - a.height / 2) * i) / 8);
  }
  await page.mouse.up();
}

async function clearHandEnd(page) {
  const s = await snapshot(page);
  if (s.handEnd) {
    const next = page.locator('[data-testid="next-hand"]');
    if (await next.isEnabled().catch(() => false)) await next.click();
  }
}

/** Waits for this seat's turn to draw (clicking through a hand's end). */
async function waitMyDraw(page) {
  const deadline = Date.now() + WAIT * 3;
  while (Date.now() < deadline) {
    const s = await snapshot(page);
    if (s.drawLegal) return s;
    await clearHandEnd(page);
    await page.waitForTimeout(150);
  }
  fail('it never became this seat\'s turn to draw');
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
    ].filter((a) => HEADED ? a !== '--headless' : true),
  });
  const pageErrors = [];
  const watchErrors = (page, who) => {
    page.on('pageerror', (e) => pageErrors.push(`${who}: ${e.message}`));
  };
  try {
    // ---------- one player against a bot ----------
    step = 'open the lobby';
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    watchErrors(page, 'player');
    const frames = watchSocket(page);
    await page.goto(`${BASE}/#/`);
    await page.locator('[data-testid="create-table"]').waitFor({ timeout: WAIT });
    await shot(page, '01-lobby');

    step = 'create a Classic 2-player table against the heuristic bot';
    await page.fill('[data-testid="player-name"]', 'Tester');
    await page.selectOption('[data-testid="variant-select"]', 'classic');
    await page.selectOption('[data-testid="players-select"]', '2');
    await page.locator('[data-testid="seat-row"]').nth(1).waitFor({ timeout: WAIT });
    check((await page.locator('[data-testid="seat-row"]').count()) === 2, 'the form does not show 2 seats');
    await page.selectOption('[data-testid="seat-kind"][data-seat="1"]', 'heuristic');
    await page.check('[data-testid="join-radio"][data-seat="0"]');
    await page.click('[data-testid="create-table"]');
    await page.waitForURL(/#\/t\/[\w-]+/, { timeout: WAIT });
    const tableId = /#\/t\/([\w-]+)/.exec(page.url())[1];
    log(`table ${tableId}`);

    step = 'see the deal';
    await until(page, 'the hand to be dealt', () => document.querySelectorAll('[data-testid="hand"] [data-testid="card"]').length > 0);
    let s = await snapshot(page);
    check(s.seat === 0, `expected to sit at seat 0, the page says ${s.seat}`);
    log(`dealt ${s.hand.length} cards: ${s.hand.join(' ')}`);
    await shot(page, '02-table');

    step = 'the Advanced switch is off by default and shows the legal moves when on';
    check((await page.locator('[data-testid="legal-action"]').count()) === 0, 'the legal-move list shows before Advanced is on');
    check(!(await page.locator('[data-testid="action-input"]').isVisible()), 'the typed-action box shows before Advanced is on');
    await page.click('[data-testid="menu-button"]');
    await page.check('[data-testid="advanced-toggle"]');
    await page.click('[data-testid="menu-button"]');
    await page.locator('[data-testid="legal-action"]').first().waitFor({ timeout: WAIT });
    check(await page.evaluate(() => JSON.parse(localStorage.getItem('canasta.table.prefs') || '{}').advanced === true), 'the Advanced switch is not kept');

    step = 'an illegal move is refused in the engine\'s words, the action in a player\'s words';
    s = await waitMyDraw(page);
    const before = frames.length;
    const topCard = await page.locator('[data-testid="pile-top"]').getAttribute('data-card');
    const card = s.hand.find((c) => c !== 'JK' && c[0] !== '2' && c[0] !== topCard[0]) || s.hand[0];
    await page.locator(`[data-testid="hand"] [data-card="${card}"]`).first().click();
    await page.click('[data-testid="pile"]');
    const refusal = await until(
      page,
      'the refusal in the status line',
      () => {
        const el = document.querySelector('[data-testid="status"]');
        return el && el.classList.contains('error') && el.textContent.trim() ? el.textContent.trim() : null;
      },
    );
    const errors = frames.slice(before).filter((f) => f.type === 'error');
    check(errors.length > 0, 'the server sent no error for taking the pile with one odd card');
    const said = errors[errors.length - 1].message.replace(/`/g, '');
    check(refusal.includes(said), `the status line "${refusal}" does not show the server's message "${said}"`);
    check(/^You cannot take the pile with /.test(refusal), `the refusal "${refusal}" does not say the action in words`);
    check(!/`/.test(refusal), `the refusal "${refusal}" quotes notation`);
    log(`refused: ${refusal} (${errors[errors.length - 1].code})`);
    await shot(page, '03-refused');

    step = 'Esc clears the selection and the legal list shows every move again';
    await page.keyboard.press('Escape');
    const legalNow = [...frames].reverse().find((f) => f.type === 'state').legal;
    const listed = await until(
      page,
      'the whole legal list',
      (n) => (document.querySelectorAll('[data-testid="legal-action"]').length === n ? n : null),
      Math.min(legalNow.length, 300),
    );
    log(`after Esc the legal list shows ${listed} moves`);

    step = 'play legal moves: draw, then discard';
    for (let turn = 0; turn < 3; turn++) {
      s = await waitMyDraw(page);
      const handBefore = s.hand.length;
      await page.keyboard.press('Escape');
      if (turn === 0) {
        // The Advanced box plays an action typed in the record notation.
        await page.fill('[data-testid="action-input"]', 'draw');
        await page.press('[data-testid="action-input"]', 'Enter');
      } else await page.click('[data-testid="draw-button"]');
      s = await until(
        page,
        'the drawn cards',
        (n) => {
          const cards = document.querySelectorAll('[data-testid="hand"] [data-testid="card"]').length;
          return cards > n && document.querySelector('[data-testid="discard-button"].legal') ? true : null;
        },
        handBefore,
      ).then(() => snapshot(page));
      check(!s.statusError, `drawing was refused: ${s.status}`);
      if (turn === 0) {
        // The hint: advice in a player's words; h again shows the numbers.
        await page.keyboard.press('h');
        const advice = await until(page, 'the hint in the status line', () => {
          const el = document.querySelector('[data-testid="status"]');
          return el && el.classList.contains('hint') ? el.querySelector('.status-text').textContent : null;
        });
        check(/^Hint: \S.* \u2014 [A-Z].*\.$/.test(advice), `the hint "${advice}" is not an action and advice`);
        check(!/playouts|mean outcome/.test(advice), `the hint's advice "${advice}" shows the search's numbers`);
        await page.keyboard.press('h');
        const figures = await until(page, 'the hint\'s numbers', () => {
          const el = document.querySelector('[data-testid="hint-figures"]');
          return el ? el.textContent : null;
        });
        check(/playouts chose it/.test(figures), `the hint's numbers "${figures}" lack the playouts`);
        log(`${advice} (${figures})`);
        await shot(page, '03-hint');
      }
      const discards = s.legal.filter((a) => a.startsWith('discard '));
      check(discards.length > 0, `no discard offered after drawing (legal: ${s.legal.slice(0, 5).join(', ')})`);
      const pick = (discards.find((a) => !/ (JK|2[CDHS])$/.test(a)) || discards[0]).split(' ')[1];
      const how = ['select and click the pile', 'double-click', 'drag to the pile'][turn];
      const cardEl = page.locator(`[data-testid="hand"] [data-card="${pick}"]`).first();
      if (turn === 0) {
        await cardEl.click();
        // A click discards at once when a discard is all the turn allows.
        if ((await cardEl.getAttribute('aria-selected').catch(() => null)) === 'true') await page.click('[data-testid="pile"]');
      } else if (turn === 1) {
        await cardEl.dblclick();
      } else {
        await dragTo(page, cardEl, page.locator('[data-testid="pile"]'));
      }
      await until(
        page,
        `the discard (${how}) to be played`,
        (c) => {
          const top = document.querySelector('[data-testid="pile-top"]');
          const st = document.querySelector('[data-testid="status"]');
          if (st && st.classList.contains('error')) return `refused: ${st.textContent}`;
          return !document.querySelector('[data-testid="discard-button"].legal') ? 'ok' : null;
        },
        pick,
      ).then((r) => check(r === 'ok', `discarding ${pick} (${how}) was ${r}`));
      const logged = await page.locator('[data-testid="log"] li.mine').last().textContent();
      check(logged.startsWith('You discarded ') && !/\b[2-9TJQKA][CDHS]\b/.test(logged), `the log says "${logged}", not the discard in words`);
      log(`turn ${turn + 1}: drew, discarded ${pick} (${how})`);
    }
    const logLines = await page.locator('[data-testid="log"] li').count();
    check(logLines >= 4, `the move log holds ${logLines} lines after three turns`);
    await shot(page, '04-played');

    step = 'reload the page and find the game again';
    const handBeforeReload = (await snapshot(page)).hand;
    await page.reload();
    await until(page, 'the hand after the reload', () => document.querySelectorAll('[data-testid="hand"] [data-testid="card"]').length > 0);
    s = await snapshot(page);
    check(s.seat === 0, `after the reload the page sits at seat ${s.seat}, not 0`);
    // The bot may have moved meanwhile; our hand changes only on our turn.
    check(
      s.hand.join(' ') === handBeforeReload.join(' '),
      `the hand changed over the reload: ${handBeforeReload.join(' ')} -> ${s.hand.join(' ')}`,
    );
    log(`after the reload: seat ${s.seat}, ${s.hand.length} cards`);
    await shot(page, '05-reloaded');
    await ctx.close();

    // ---------- partners at a 4-player table ----------
    step = 'create a 4-player table with seat 2 for a partner';
    const ctxA = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const a = await ctxA.newPage();
    watchErrors(a, 'Ann');
    await a.goto(`${BASE}/#/`);
    await a.locator('[data-testid="create-table"]').waitFor({ timeout: WAIT });
    await a.fill('[data-testid="player-name"]', 'Ann');
    await a.selectOption('[data-testid="variant-select"]', 'classic');
    await a.selectOption('[data-testid="players-select"]', '4');
    await a.locator('[data-testid="seat-row"]').nth(3).waitFor({ timeout: WAIT });
    await a.selectOption('[data-testid="seat-kind"][data-seat="0"]', 'human');
    await a.selectOption('[data-testid="seat-kind"][data-seat="1"]', 'heuristic');
    await a.selectOption('[data-testid="seat-kind"][data-seat="2"]', 'human');
    await a.selectOption('[data-testid="seat-kind"][data-seat="3"]', 'heuristic');
    await a.check('[data-testid="join-radio"][data-seat="0"]');
    await a.click('[data-testid="create-table"]');
    await a.waitForURL(/#\/t\/[\w-]+/, { timeout: WAIT });
    await a.locator('[data-testid="waiting"]').waitFor({ timeout: WAIT });
    const invite = await a.inputValue('[data-testid="invite-link"]');
    check(/#\/t\/[\w-]+$/.test(invite), `the invite link "${invite}" does not name the table`);
    log(`invite ${invite}`);
    await shot(a, '06-waiting');

    step = 'the partner opens the invite link (phone-sized) and claims seat 2';
    const ctxB = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const b = await ctxB.newPage();
    watchErrors(b, 'Bob');
    await b.goto(invite);
    await b.locator('[data-testid="claim-seat"][data-seat="2"]').waitFor({ timeout: WAIT });
    await b.fill('[data-testid="join-name"]', 'Bob');
    await b.click('[data-testid="claim-seat"][data-seat="2"]');

    step = 'both partners see the game start';
    for (const [p, seat, who] of [
      [a, 0, 'Ann'],
      [b, 2, 'Bob'],
    ]) {
      await until(p, `${who}'s hand`, () => document.querySelectorAll('[data-testid="hand"] [data-testid="card"]').length > 0);
      const sp = await snapshot(p);
      check(sp.seat === seat, `${who} sits at seat ${sp.seat}, not ${seat}`);
      check(!sp.waiting, `${who} still sees the waiting panel`);
      log(`${who}: seat ${sp.seat}, ${sp.hand.length} cards`);
    }
    try {
      await until(a, 'Ann sees Bob at seat 2', () => !!document.querySelector('[data-testid="seat"][data-seat="2"]')?.textContent.includes('Bob'));
    } catch (e) {
      // Say what each side knew: the server's seats and Ann's seat chip.
      const tableId = invite.split('/').pop();
      const seats = await fetch(`${BASE}/api/tables/${tableId}`).then((r) => r.json()).then((t) => JSON.stringify(t.seats)).catch((x) => `(${x})`);
      const chip = await a.evaluate(() => document.querySelector('[data-testid="seat"][data-seat="2"]')?.textContent ?? '(no chip)');
      fail(`${e.message}; the server's seats: ${seats}; Ann's chip for seat 2: "${chip}"`);
    }
    step = 'a tap on the phone selects a card, a second tap lets it go';
    const tapped = b.locator('[data-testid="hand"] .card').nth(1);
    await tapped.tap({ position: { x: 8, y: 20 } });
    check((await tapped.getAttribute('aria-selected')) === 'true', 'a tap did not select the card');
    await b.waitForTimeout(450);
    await b.locator('[data-testid="hand"] .card').nth(1).tap({ position: { x: 8, y: 20 } });
    check((await b.locator('[data-testid="hand"] .card').nth(1).getAttribute('aria-selected')) === 'false', 'a second tap did not let the card go');
    const overflow = await b.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    check(overflow <= 0, `the phone-sized page scrolls sideways by ${overflow}px`);
    await shot(a, '07-partners-ann');
    await shot(b, '08-partners-bob-phone');
    await ctxA.close();
    await ctxB.close();

    check(pageErrors.length === 0, `errors in the page: ${pageErrors.join('; ')}`);
    log('all passed');
  } finally {
    await browser.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[e2e] FAILED at "${step}": ${e.message}`);
    process.exit(1);
  },
);
