// Debian's Chromium (never a downloaded browser) through playwright-core: for the runtime matrix's
// browser leg, the dashboard's tests and its screenshot. The flags keep a headless Chromium from
// reaching for the network (updates, sync, QUIC probes) on a machine that has none; playwright
// gives each launch a fresh profile (--user-data-dir in a new temporary folder), and each context
// of it a cookie jar of its own.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's binary; `CHROMIUM_BIN` names another (test/support/missing-servers.test.ts names one that does not exist). */
export const CHROMIUM = process.env['CHROMIUM_BIN'] ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** How to get it, for the messages of a run without it. */
export const INSTALL_CHROMIUM = "install Debian's chromium (sudo apt-get install chromium)";

/**
 * Outside CI a machine without Chromium skips the browser tests (one line at the end of the run
 * says so, test/support/missing-servers.ts); in CI (`.ci/run` installs it) its absence fails them.
 */
export const SKIP_WITHOUT_CHROMIUM = !existsSync(CHROMIUM) && process.env['CI'] !== 'true';

/** Chromium, headless, on a fresh profile: one per test file, its contexts (a cookie jar each) per test. */
export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: ${INSTALL_CHROMIUM}`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}
