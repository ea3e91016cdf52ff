import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ROUTES } from '../src/routes/route-table.js';
import {
  expectAccessible,
  launchChromium,
  openTestPage,
  type TestPage,
  type ViewportName,
} from '../../../scripts/test/browser/index.js';
import { createTestAccount, faceBUrl, readMailedLink, useTestSystem } from '../../../scripts/test/system/index.js';
import { systemDatasetsDir, systemPorts } from '../../../scripts/test/system/system-layout.js';

/**
 * Face B end to end: Debian's Chromium on the built app (frontends/en/dist) as bff-en serves it in
 * the shared test system, beside its public API (/v1) and web API (/api), on the real auth (mails
 * through the system's mail sink), billing (its sandbox checkout), stats, downloads (the real
 * dataset's files) and lookup engine. The accessible names are the UI contract's
 * (var/ui-contract.md; the screens keep them).
 *
 * Build the app first: `npm run build -w @ipdata/frontend-en` (`make build` does).
 */

/** How many public API calls the customer makes, and then sees on the dashboard. */
const LOOKUPS = 7;
/** The account's first and second password (the profile step changes it). */
const PASSWORD = 'e2e-face-b-2468';
const NEW_PASSWORD = 'e2e-face-b-1357';

describe('face B in Chromium', () => {
  let browser: Browser;
  let site: string;

  beforeAll(async () => {
    [browser] = await Promise.all([launchChromium(), useTestSystem()]);
    site = faceBUrl();
  });
  afterAll(() => browser?.close());

  // The real system answers in its own time (stats counts within a second or two, billing applies
  // a payment after the provider's webhook).
  const poll = <T>(read: () => Promise<T>, options: { timeout?: number } = {}) =>
    expect.poll(read, { timeout: options.timeout ?? 20_000, interval: 200 });
  const main = (page: Page) => page.getByRole('main');

  describe('serving', () => {
    it('serves the app on every client route and leaves /v1, /api and the health routes to bff-en', async () => {
      const index = await fetch(`${site}/`, { headers: { 'accept-encoding': 'gzip' } });
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(index.headers.get('etag')).toMatch(/^"/);
      const csp = index.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
      const html = await index.text();

      // Client routes get the same page (the SPA fallback); a 304 on revalidation.
      for (const path of ['/pricing', '/console/keys', '/no-such-page']) {
        const answer = await fetch(`${site}${path}`);
        expect(await answer.text(), path).toBe(html);
      }
      const again = await fetch(`${site}/`, { headers: { 'if-none-match': index.headers.get('etag')! } });
      expect(again.status).toBe(304);

      // Hashed assets for a year; a missing one is a real 404; build.json is revalidated.
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${site}${script}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-encoding')).toBe('gzip');
      expect((await fetch(`${site}/assets/gone-00000000.js`)).status).toBe(404);
      const build = await fetch(`${site}/build.json`);
      expect(build.headers.get('cache-control')).toBe('no-cache');
      expect(((await build.json()) as { id: string }).id).toMatch(/\S/);

      // The APIs keep their own answers (JSON, never the page).
      const publicApi = await fetch(`${site}/v1/ip/8.8.8.8`);
      expect(publicApi.status).toBe(401);
      expect(publicApi.headers.get('content-type')).toMatch(/^application\/json/);
      for (const path of ['/api/no-such-call', '/api']) {
        const webApi = await fetch(`${site}${path}`);
        expect(webApi.status, path).toBe(404);
        expect(webApi.headers.get('content-type'), path).toMatch(/^application\/json/);
      }
      expect((await fetch(`${site}/api/init`)).headers.get('content-type')).toMatch(/^application\/json/);
      expect((await fetch(`${site}/readyz`)).status).toBe(200);
    });
  });

  /**
   * The customer's path of the issue, one step per test on one desktop page (cookies carry over).
   * A step that needs an earlier one is skipped when that one failed, so the report names the
   * step that broke; the user-centre steps fall back to an account made through auth's gRPC calls
   * when the browser's sign-up or login did not get that far.
   */
  describe('the customer path', () => {
    let test: TestPage;
    const email = `face-b-${Date.now().toString(36)}@example.com`;
    const state: {
      confirmationLink?: string;
      password: string;
      apiKey?: string;
      keyName: string;
      loggedIn: boolean;
    } = { password: PASSWORD, keyName: `e2e key ${Date.now().toString(36)}`, loggedIn: false };
    const failed = new Set<string>();

    /** One step: skipped when a step it needs failed or was skipped; its failure is remembered. */
    function step(name: string, needs: readonly string[], run: (page: Page) => Promise<void>, timeout = 60_000): void {
      it(
        name,
        async (context: TestContext) => {
          const missing = needs.filter((need) => failed.has(need));
          if (missing.length > 0) {
            failed.add(name);
            context.skip(`needs: ${missing.join('; ')}`);
          }
          try {
            await run(test.page);
          } catch (error) {
            failed.add(name);
            throw error;
          }
        },
        timeout,
      );
    }

    /** Logged in through the browser's steps, or else as an account made through auth (gRPC). */
    async function ensureSession(page: Page): Promise<void> {
      if (state.loggedIn) return;
      const account = await createTestAccount({ keyName: 'fallback' });
      await page.context().addCookies([{ name: 'token', value: account.sessionToken, url: site }]);
      state.password = account.password;
      state.loggedIn = true;
    }

    beforeAll(async () => {
      test = await openTestPage(browser, { viewport: 'desktop' });
    });
    afterAll(() => test?.close());

    const SIGN_UP = 'signs up and sees the confirm-email state';
    step(SIGN_UP, [], async (page) => {
      await page.goto(`${site}/signup`);
      const form = main(page);
      await form.getByLabel('Email', { exact: true }).fill(email);
      await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await form.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await form.getByLabel(/^I agree to the/).check();
      await form.getByRole('button', { name: 'Create account' }).click();
      await form.getByRole('heading', { name: 'Confirm your email' }).waitFor();
      expect(await form.textContent()).toContain('spam folder');
    });

    const MAIL = 'reads the confirmation mail, whose link opens face B on bff-en';
    step(MAIL, [SIGN_UP], async () => {
      state.confirmationLink = await readMailedLink(email, '/confirm-email');
      expect(new URL(state.confirmationLink).origin).toBe(site);
    });

    const CONFIRM = 'confirms the address from the link';
    step(CONFIRM, [MAIL], async (page) => {
      await page.goto(state.confirmationLink!);
      await poll(() => main(page).textContent()).toContain('Your email address has been confirmed');
      await main(page).getByRole('link', { name: 'log in' }).click();
      await page.waitForURL(`${site}/login`);
    });

    const LOGIN = 'logs in and lands on the dashboard';
    step(LOGIN, [CONFIRM], async (page) => {
      if (!page.url().startsWith(`${site}/login`)) await page.goto(`${site}/login`);
      const form = main(page);
      await form.getByLabel('Email', { exact: true }).fill(email);
      await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await form.getByRole('button', { name: 'Log in', exact: true }).click();
      await poll(() => page.textContent('.toast-stack')).toContain('Login succeeded');
      await page.waitForURL(`${site}/console`);
      await poll(() => page.getByRole('banner').locator('[data-user-name]').textContent()).toBe(email);
      state.loggedIn = true;
    });

    const KEY = 'creates an API key and reads its secret once';
    step(KEY, [], async (page) => {
      await ensureSession(page);
      await page.goto(`${site}/console/keys`);
      await main(page).getByLabel('Key name').fill(state.keyName);
      await main(page).getByRole('button', { name: 'Create key' }).click();
      const secret = main(page).locator('[data-new-key]');
      await poll(() => secret.textContent()).toMatch(/\S{20,}/);
      state.apiKey = (await secret.textContent())!.trim();
      await poll(() => main(page).locator('tr[data-key-id]').filter({ hasText: state.keyName }).count()).toBe(1);
    });

    const CALLS = `calls the public API ${LOOKUPS} times with the key`;
    step(
      CALLS,
      [KEY],
      async () => {
        // The dashboard counts the current UTC month (the system's clock is this machine's): calls
        // made just before a month ends would be counted in a month it no longer shows. Within
        // 3 minutes of the turn, wait for the new month first.
        const toNextMonth = (now = new Date()) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime();
        if (toNextMonth() < 3 * 60_000) await new Promise((resolve) => setTimeout(resolve, toNextMonth() + 1_000));
        for (let call = 0; call < LOOKUPS; call++) {
          const answer = await fetch(`${site}/v1/ip/8.8.8.8`, { headers: { authorization: `Bearer ${state.apiKey}` } });
          expect(answer.status).toBe(200);
          expect(((await answer.json()) as { ip: string }).ip).toBe('8.8.8.8');
        }
      },
      4 * 60_000,
    );

    step(`sees exactly ${LOOKUPS} lookups this month on the dashboard`, [CALLS], async (page) => {
      await page.goto(`${site}/console`);
      const month = main(page).locator('[data-usage="month"]');
      // The dashboard reads its numbers once: look again until the count arrived.
      await poll(
        async () => {
          const text = (await month.textContent({ timeout: 5_000 }).catch(() => null)) ?? '';
          const count = Number(text.replace(/[^\d]/g, '') || Number.NaN);
          if (count !== LOOKUPS) await page.reload();
          return count;
        },
        { timeout: 45_000 },
      ).toBe(LOOKUPS);
      await main(page).getByRole('img').locator('canvas').first().waitFor();
    });

    // After the dashboard's count: this call is one more lookup of the key.
    step('tries GET /v1/ip/{ip} on /docs with the key of this session filled in', [KEY], async (page) => {
      await page.goto(`${site}/docs`);
      await poll(() => main(page).getByLabel('API key', { exact: true }).inputValue()).toBe(state.apiKey);
      const operation = main(page).locator('section#getIp');
      expect(await operation.getByRole('tab').allTextContents()).toEqual(['curl', 'JavaScript', 'Python']);
      await operation.getByRole('button', { name: 'Try it' }).click();
      await poll(() => operation.locator('[data-status]').getAttribute('data-status')).toBe('200');
      expect(await operation.textContent()).toContain('X-RateLimit-Remaining');
    });

    const SUBSCRIBE = 'subscribes to Standard on /pricing through the sandbox checkout';
    step(
      SUBSCRIBE,
      [],
      async (page) => {
        await ensureSession(page);
        await page.goto(`${site}/pricing`);
        await main(page).getByRole('tab', { name: 'API access' }).click();
        await main(page).getByRole('button', { name: 'Monthly' }).click();
        await main(page).getByRole('article', { name: 'Standard' }).getByRole('button', { name: 'Subscribe' }).click();
        // The provider's page: billing's sandbox checkout on its own loopback port.
        const checkout = `http://127.0.0.1:${systemPorts().billingCheckout}/`;
        await page.waitForURL((url) => url.href.startsWith(checkout));
        await page.getByRole('button', { name: 'Pay' }).click();
        await page.waitForURL((url) => url.href.startsWith(`${site}/pricing`));
        await poll(() => main(page).textContent()).toContain('subscribed');
      },
      90_000,
    );

    step(`sees 'Current Plan' on Standard, and Standard on the billing page`, [SUBSCRIBE], async (page) => {
      const standard = main(page).getByRole('article', { name: 'Standard' });
      await poll(
        async () => {
          const text = (await standard.textContent({ timeout: 5_000 }).catch(() => null)) ?? '';
          if (!text.includes('Current Plan')) await page.reload();
          return text;
        },
        { timeout: 45_000 },
      ).toContain('Current Plan');
      // The user centre's billing page says the same (invoices come at the end of a billing
      // period: a plan bought a moment ago has none yet).
      await page.goto(`${site}/console/billing`);
      await poll(() => main(page).locator('[data-current-plan="api"]').textContent()).toContain('Standard');
      await main(page).getByRole('heading', { name: 'Invoices' }).waitFor();
      await main(page).getByRole('link', { name: 'Change plan' }).waitFor();
    });

    // Every account has the free data download plan, which includes the ASN database; the
    // Standard API plan includes no database (billing's plan catalogue): the full download is ASN's.
    step(
      'downloads a sample and a full database, both matching the catalogue, and sees the download in the history',
      [],
      async (page) => {
        await ensureSession(page);
        const catalogue = await databaseCatalogue(page);
        await page.goto(`${site}/console/downloads`);

        const sampleRow = main(page).locator('tr[data-database="geolocation"][data-format="csv"]');
        const sample = await downloadBytes(page, sampleRow.getByRole('button', { name: 'Sample' }));
        expect(sample.sha256).toBe(await sampleSha256(catalogue.version, 'geolocation-sample.csv'));

        const fullRow = main(page).locator('tr[data-database="asn"][data-format="csv"]');
        const listed = catalogue.databases.find((file) => file.database === 'asn' && file.format === 'csv');
        expect(listed?.entitled).toBe(true);
        expect(await fullRow.textContent()).toContain(listed!.sha256.slice(0, 12));
        const full = await downloadBytes(page, fullRow.getByRole('button', { name: 'Download' }));
        expect(full.size).toBe(listed!.size_bytes);
        expect(full.sha256).toBe(listed!.sha256);

        const history = main(page).getByRole('table', { name: 'Download history' });
        const historySection = main(page).locator('section[aria-labelledby="history-heading"]');
        await poll(
          async () => {
            // Read only once the history has loaded (rows or its empty state): reading right after
            // a reload saw no rows yet and reloaded again, for a minute, in a CI run.
            await history
              .locator('tr[data-download]')
              .or(historySection.getByText('No downloads yet.'))
              .first()
              .waitFor({ timeout: 15_000 });
            const rows = await history.locator('tr[data-download]').allTextContents();
            if (!rows.some((row) => /asn/i.test(row))) await page.reload();
            return rows.join('\n');
          },
          // Each try reloads the page: under CI load (both lanes busy) that alone took seconds.
          { timeout: 60_000 },
        ).toMatch(/asn/i);
        expect((await history.locator('tr[data-download]').first().textContent()) ?? '').toContain('127.0.0.1');
      },
      120_000,
    );

    const PASSWORD_CHANGE = 'changes the password';
    step(PASSWORD_CHANGE, [], async (page) => {
      await ensureSession(page);
      await page.goto(`${site}/console/profile`);
      const form = main(page);
      await form.getByLabel('Current password', { exact: true }).fill(state.password);
      await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await form.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      await poll(() => page.textContent('body')).toContain('Your password has been changed');
      state.password = NEW_PASSWORD;
    });

    step('logs out; a user-centre URL then lands on the root path', [], async (page) => {
      await ensureSession(page);
      await page.goto(`${site}/console`);
      // The console's own calls first: one still in flight when the session ends answers 401 (a
      // console error), which is the race of a click during loading, not what this step checks.
      await page.waitForLoadState('networkidle');
      await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
      expect((await page.context().cookies(site)).find((cookie) => cookie.name === 'token')).toBeUndefined();
      await page.goto(`${site}/console/keys`);
      await page.waitForURL(`${site}/`);
      expect(new URL(page.url()).pathname).toBe('/');
    });

    it('sent nothing off the machine and showed no page error', () => {
      expect(test.outsideRequests).toEqual([]);
      expect(test.errors).toEqual([]);
    });
  });

  /** A fresh desktop page at `path`; after `run`, nothing may have left the machine and no error may have shown. */
  async function withPage(path: string, run: (page: Page) => Promise<void>): Promise<void> {
    const test = await openTestPage(browser, { viewport: 'desktop' });
    try {
      await test.page.goto(`${site}${path}`);
      await run(test.page);
      expect(test.outsideRequests).toEqual([]);
      expect(test.errors).toEqual([]);
    } finally {
      await test.close();
    }
  }

  describe('the visitor’s tools', () => {
    it('looks up an address: its card, its place on the map (canvas) and the raw JSON', async () => {
      await withPage('/lookup', async (page) => {
        // The visitor's own address on arrival: the browser comes from loopback.
        await poll(() => main(page).textContent()).toContain('127.0.0.1');
        const input = main(page).getByLabel('IP address or domain');
        expect(await input.getAttribute('placeholder')).toBe('Please enter any IPv4 or IPv6 address');
        await input.fill('8.8.8.8');
        await main(page).getByRole('button', { name: 'Look up' }).click();
        const result = main(page).getByRole('region', { name: 'Result for 8.8.8.8' });
        await poll(() => result.locator('[data-field="country_name"]').textContent()).toContain('United States');
        await result.getByRole('img').locator('canvas').first().waitFor();
        expect(await result.locator('pre').textContent()).toContain('"ip": "8.8.8.8"');
        await expectAccessible(page);
      });
    });

    it('sends the contact form and shows the acknowledgement', async () => {
      await withPage('/contact', async (page) => {
        const form = main(page);
        await form.getByLabel('Name', { exact: true }).fill('E2E Tester');
        await form.getByLabel('Email', { exact: true }).fill(`contact-${Date.now().toString(36)}@example.com`);
        const category = form.getByLabel('Category');
        expect(await category.locator('option').allTextContents()).toEqual(
          expect.arrayContaining(['Custom plans', 'Support', 'Feedback']),
        );
        await category.selectOption({ label: 'Support' });
        await form.getByLabel('Description', { exact: true }).fill('A question from the browser test: how fresh is the data?');
        await form.getByRole('button', { name: 'Submit' }).click();
        await poll(() => page.textContent('body')).toContain(
          'Information submitted successfully, we will give you feedback as soon as possible',
        );
        await expectAccessible(page);
      });
    });
  });

  // Every route of the table and the 404 page, at both widths: axe-clean, nothing from outside,
  // no page error, and a screenshot to look at (var/test-output/screenshots/face-b-*). The user
  // centre is seen logged in (an account made through auth), the rest as a visitor.
  describe('every screen', () => {
    let session: string;
    beforeAll(async () => {
      session = (await createTestAccount({ keyName: 'screens' })).sessionToken;
    });

    const screens = [
      ...ROUTES.map((route) => ({ path: route.path, login: route.login === true })),
      { path: '/404', login: false },
    ];
    const pathOf = (path: string) => (path === '/404' ? '/no-such-page' : path);
    const shotName = (path: string) => `face-b${path.replace(/[/:]+/g, '-').replace(/-$/, '') || '-home'}`;

    for (const viewport of ['desktop', 'phone'] as const satisfies readonly ViewportName[]) {
      for (const screen of screens) {
        it(`renders ${screen.path} at ${viewport} width, accessible, with a screenshot`, async () => {
          const test = await openTestPage(browser, { viewport });
          try {
            if (screen.login) await test.context.addCookies([{ name: 'token', value: session, url: site }]);
            await test.page.goto(`${site}${pathOf(screen.path)}`);
            await test.page.locator('main h1').first().waitFor();
            if (screen.login) expect(new URL(test.page.url()).pathname).toBe(screen.path);
            if (screen.path === '/404') {
              await poll(() => main(test.page).textContent()).toContain('Sorry, the page you visited does not exist');
              await main(test.page).getByRole('link', { name: 'Back to home' }).waitFor();
            }
            expect(await test.page.locator('main h1').count()).toBe(1);
            if (screen.path === '/') {
              // The home map loads when a visitor scrolls near it: scroll, so the screenshot and
              // axe see the drawn map rather than its reserved box.
              await test.page.locator('.live-map').scrollIntoViewIfNeeded();
              await test.page
                .getByRole('img', { name: /World map with \d+ looked-up resolvers/ })
                .locator('canvas')
                .waitFor();
            }
            // Data-driven pages settle once their loading text is gone and the network is quiet.
            await poll(() => main(test.page).textContent()).not.toMatch(/Loading/i);
            await test.page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
            await expectAccessible(test.page);
            await test.screenshot(shotName(screen.path));
            expect(test.outsideRequests).toEqual([]);
            expect(test.errors).toEqual([]);
          } finally {
            await test.close();
          }
        });
      }
    }
  });

  /** The downloads catalogue as the web API gives it to the page (the session's cookies). */
  async function databaseCatalogue(page: Page): Promise<{
    version: string;
    databases: { database: string; format: string; sha256: string; size_bytes: number; entitled: boolean }[];
  }> {
    const answer = await page.request.get(`${site}/api/databases`);
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as {
      data: {
        version: string;
        databases: { database: string; format: string; sha256: string; size_bytes: number; entitled: boolean }[];
      };
    };
    return body.data;
  }

  /** The sha256 the dataset's manifest gives a sample file (samples are not in the downloads catalogue). */
  async function sampleSha256(version: string, name: string): Promise<string | undefined> {
    const manifest = JSON.parse(await readFile(join(systemDatasetsDir(), version, 'manifest.json'), 'utf8')) as {
      files: { name: string; sha256: string }[];
    };
    return manifest.files.find((file) => file.name === name)?.sha256;
  }

  /** Clicks a download button and hashes what the browser saved. */
  async function downloadBytes(page: Page, button: Locator): Promise<{ sha256: string; size: number }> {
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await button.click();
    const file = await (await download).path();
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
    return { sha256: hash.digest('hex'), size };
  }
});
