import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureScreens, expectAccessible, launchChromium, openTestPage } from '../../../scripts/test/browser/index.js';
import { BffCnHarness } from './fixtures/bff-cn-harness.js';
import { writeWebDist } from './fixtures/web-dist.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Smoke test of the browser harness (scripts/test/browser) on bff-cn's app serving: Debian's
 * Chromium opens the fixture app at a client route, the app's script runs under the served
 * Content-Security-Policy and calls /v2/query, nothing goes off the machine, axe finds nothing
 * serious, and both screenshots are written.
 */
describe('the fixture app in Chromium, served by bff-cn', () => {
  const dist = writeWebDist();
  // The page's lookups come from 127.0.0.1 (no X-Forwarded-For): room for every page load here.
  const h = new BffCnHarness({ WEB_APP_ENABLED: 'true', WEB_DIST_DIR: dist.dir, LOOKUP_RATE_LIMIT: '100' });
  let browser: Browser;

  beforeAll(async () => {
    [browser] = await Promise.all([launchChromium(), h.start()]);
  });
  afterAll(async () => {
    await browser?.close();
    await h.stop();
  });

  it('runs the app at a client route with no outside request and no serious axe violation', async () => {
    const test = await openTestPage(browser);
    try {
      await test.page.goto(`${h.base}/ipv4calculator`);
      await test.page.waitForSelector('body[data-ready="yes"]', { timeout: 10_000 });
      expect(await test.page.title()).toBe('IP 地址查询 · 测试应用');
      expect(await test.page.textContent('#route')).toBe('/ipv4calculator');
      // The script ran (CSP 'self' lets the hashed asset in) and reached the API through connect-src 'self'.
      expect(await test.page.textContent('#answer')).toMatch(/^8\.8\.8\.8 /);
      await expectAccessible(test.page);
      expect(test.outsideRequests).toEqual([]);
      expect(test.errors).toEqual([]);
    } finally {
      await test.close();
    }
  });

  it('blocks and records a request off the machine (the check above is not vacuous)', async () => {
    const test = await openTestPage(browser);
    try {
      // A blank page: no CSP of bff-cn's in the way, so only the harness's routing can stop it.
      await test.page.goto('about:blank');
      const outcome = await test.page.evaluate("fetch('https://fonts.example.com/x.css').then(() => 'loaded', () => 'blocked')");
      expect(outcome).toBe('blocked');
      expect(test.outsideRequests).toEqual(['https://fonts.example.com/x.css']);
    } finally {
      await test.close();
    }
  });

  it('saves desktop and phone screenshots', async () => {
    const shots = await captureScreens(browser, `${h.base}/ipv4calculator`, 'bff-cn-fixture-app', (page) =>
      page.waitForSelector('body[data-ready="yes"]').then(() => undefined),
    );
    expect(shots.paths.map((path) => path.split('/').slice(-4).join('/'))).toEqual([
      'var/test-output/screenshots/bff-cn-fixture-app-desktop.png',
      'var/test-output/screenshots/bff-cn-fixture-app-phone.png',
    ]);
    for (const path of shots.paths) expect(readFileSync(path).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // Phone width at device scale 2: 780 px wide.
    expect(readFileSync(shots.paths[1]!).readUInt32BE(16)).toBe(780);
    expect(shots.outsideRequests).toEqual([]);
    expect(shots.errors).toEqual([]);
  });
});
