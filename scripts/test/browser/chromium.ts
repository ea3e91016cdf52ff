import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { HOST_RESOLVER_RULES } from './outside-requests.js';

/** Debian's package (scripts/test/install-chromium.sh); CHROMIUM_BIN points elsewhere if needed. */
export const CHROMIUM_BIN = process.env['CHROMIUM_BIN'] ?? '/usr/bin/chromium';

/**
 * Flags for a test browser. As root (CI, containers) Chromium refuses to start with its sandbox,
 * so it runs without it there; the pages it opens are the project's own. /dev/shm is small in
 * containers: shared memory goes to /tmp instead.
 */
export function chromiumArgs(options: { root: boolean }): string[] {
  return [
    ...(options.root ? ['--no-sandbox'] : []),
    '--disable-dev-shm-usage',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-component-update',
    '--disable-domain-reliability',
    '--disable-sync',
    '--metrics-recording-only',
    '--no-pings',
    HOST_RESOLVER_RULES,
  ];
}

/**
 * Starts headless Chromium through playwright-core, which only drives it: the binary is Debian's,
 * never a browser download. One per test file (beforeAll), closed in afterAll.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_BIN)) throw new Error(`${CHROMIUM_BIN} is missing: run scripts/test/install-chromium.sh`);
  return chromium.launch({
    executablePath: CHROMIUM_BIN,
    headless: true,
    args: chromiumArgs({ root: process.getuid?.() === 0 }),
    timeout: 30_000,
  });
}
