// What every browser script here shares: its command-line options and
// playwright-core's Chromium (found through PLAYWRIGHT_CORE or NODE_PATH).

import { createRequire } from 'node:module';

const args = process.argv.slice(2);

/** The value after `--name` on the command line, else `def`. */
export const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};

/** Whether `--name` is on the command line. */
export const flag = (name) => args.includes(`--${name}`);

/** The server under test (`--base`, default http://127.0.0.1:8080). */
export const BASE = opt('base', process.env.CANASTA_BASE || 'http://127.0.0.1:8080').replace(/\/$/, '');
/** The browser (`--chromium`, `$CHROMIUM`, default Debian's). */
export const CHROMIUM = opt('chromium', process.env.CHROMIUM || '/usr/bin/chromium');
/** How long each wait may take, in milliseconds (`--timeout` seconds, default 20). */
export const WAIT = Number(opt('timeout', '20')) * 1000;

/** playwright-core's `chromium`; without playwright-core the script exits 2. */
export function loadChromium() {
  const require = createRequire(import.meta.url);
  try {
    return require(process.env.PLAYWRIGHT_CORE || 'playwright-core').chromium;
  } catch {
    console.error('playwright-core not found: set PLAYWRIGHT_CORE or NODE_PATH (see web/tests/README.md)');
    process.exit(2);
  }
}
