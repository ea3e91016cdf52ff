import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes/route-table.js';
import {
  expectAccessible,
  launchChromium,
  openTestPage,
  type TestPage,
  type ViewportName,
} from '../../../scripts/test/browser/index.js';
import { faceAUrl, readSmsCode, useTestSystem } from '../../../scripts/test/system/index.js';

/**
 * Face A end to end: Debian's Chromium on the built app as bff-cn serves it in the shared test
 * system (real lookup engine on the real dataset, auth with its development SMS gateway, billing,
 * stats, content, a probe worker running the real traceroute).
 */
describe('face A in Chromium', () => {
  let browser: Browser;
  let site: string;

  beforeAll(async () => {
    [browser] = await Promise.all([launchChromium(), useTestSystem()]);
    site = faceAUrl();
  });
  afterAll(() => browser?.close());

  /** A page at `path`; after `run`, nothing may have left the machine and no error may have shown. */
  async function withPage(path: string, run: (test: TestPage) => Promise<void>, viewport: ViewportName = 'desktop') {
    const test = await openTestPage(browser, { viewport });
    try {
      await test.page.goto(`${site}${path}`);
      await run(test);
      expect(test.outsideRequests).toEqual([]);
      expect(test.errors).toEqual([]);
    } finally {
      await test.close();
    }
  }

  const heading = (page: Page) => page.locator('main h1').first();
  // The real system answers in its own time (a report's first explain opens the source readers).
  const poll = <T>(read: () => Promise<T>, options: { timeout?: number } = {}) =>
    expect.poll(read, { timeout: options.timeout ?? 20_000, interval: 100 });

  it('answers an unknown path with the 404 text', async () => {
    await withPage('/no-such-page', async ({ page }) => {
      await poll(() => page.textContent('main')).toContain('Page not found: /no-such-page');
      await expectAccessible(page);
    });
  });

  it('shows the visitor’s own address on arrival, then looks an address up with its place on the map', async () => {
    await withPage('/ip', async ({ page }) => {
      // The browser comes from loopback: the page says so rather than inventing a place.
      await poll(() => page.textContent('main')).toContain('您的 IP 地址：127.0.0.1');
      await page.getByLabel('IP 地址').fill('8.8.8.8');
      await page.getByRole('button', { name: '查询', exact: true }).click();
      await page.waitForURL(/\/ip\?ip=8\.8\.8\.8$/);
      const answer = page.getByRole('region', { name: '8.8.8.8 的查询结果' });
      await poll(() => answer.locator('[data-field="归属地"]').textContent()).toContain('美国');
      expect(await answer.locator('[data-field="ASN"]').textContent()).toContain('AS15169');
      // The map pin: an ECharts canvas drawn for the answer.
      await page
        .getByRole('img', { name: /8\.8\.8\.8 在地图上的位置/ })
        .locator('canvas')
        .waitFor();
      await page.getByLabel('IP 地址').fill('999.1.1.1');
      await page.getByRole('button', { name: '查询', exact: true }).click();
      expect(await page.getByRole('alert').textContent()).toContain('请输入正确的 IP 地址');
      await expectAccessible(page);
    });
  });

  it('runs a batch and saves an .xlsx with one row per input line, in order', async () => {
    await withPage('/piliang', async ({ page }) => {
      await page.getByLabel('IP 地址列表').fill('8.8.8.8\nnot-an-ip\n114.114.114.114\n10.0.0.1');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: '查询并导出' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
      await poll(() => page.textContent('.toast-stack')).toContain('导出成功');
      const workbook = new ExcelJS.Workbook();
      // exceljs declares the old Buffer type.
      await workbook.xlsx.load((await readFile(await file.path())) as unknown as ExcelJS.Buffer);
      const sheet = workbook.worksheets[0]!;
      const cell = (row: number, column: number) => sheet.getRow(row).getCell(column).text;
      expect([2, 3, 4, 5].map((row) => cell(row, 2))).toEqual(['8.8.8.8', 'not-an-ip', '114.114.114.114', '10.0.0.1']);
      expect(cell(2, 3)).toBe('美国');
      expect(cell(4, 3)).toBe('中国');
      await expectAccessible(page);
    });
  });

  it('registers by phone with the SMS code from the development gateway, logs out, and logs in by code', async () => {
    const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await withPage('/', async ({ page }) => {
      await page.getByRole('banner').getByRole('button', { name: '注册' }).click();
      const register = page.getByRole('dialog', { name: '注册' });
      await register.getByLabel('手机号').fill(phone);
      const registerSent = new Date();
      await register.getByRole('button', { name: '获取验证码' }).click();
      await register.getByLabel('短信验证码').fill(await readSmsCode(phone, { after: registerSent }));
      await register.getByLabel('密码', { exact: true }).fill('e2e-secret-2468');
      await register.getByLabel('确认密码').fill('e2e-secret-2468');
      await expectAccessible(page);
      await register.getByRole('button', { name: '注册并登录' }).click();
      // Face A shows the phone as the user name; the token is in the `token` cookie.
      await poll(() => page.locator('[data-user-name]').textContent()).toBe(phone);
      expect((await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value).toBeTruthy();

      // A reload runs the start-up sequence from the cookie: still logged in.
      await page.reload();
      await poll(() => page.locator('[data-user-name]').textContent()).toBe(phone);

      await page.getByRole('button', { name: '退出' }).click();
      await page.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
      expect((await page.context().cookies()).find((cookie) => cookie.name === 'token')).toBeUndefined();

      await page.getByRole('banner').getByRole('button', { name: '登录' }).click();
      const login = page.getByRole('dialog', { name: '登录' });
      await login.getByRole('tab', { name: '验证码登录' }).click();
      await login.getByLabel('手机号').fill(phone);
      const loginSent = new Date();
      await login.getByRole('button', { name: '获取验证码' }).click();
      await login.getByLabel('短信验证码').fill(await readSmsCode(phone, { after: loginSent }));
      await login.getByRole('button', { name: '登录', exact: true }).click();
      await poll(() => page.locator('[data-user-name]').textContent()).toBe(phone);
      await poll(() => page.textContent('.toast-stack')).toContain('登录成功');
    });
  });

  it('shows the China-province statistics with real numbers on the map page', async () => {
    await withPage('/datasupport/chinaip', async ({ page }) => {
      const guangdong = page.locator('tr[data-province="广东"] td').nth(1);
      await guangdong.waitFor();
      // Guangdong holds tens of millions of IPv4 addresses in the real dataset.
      expect(Number((await guangdong.textContent())!.replace(/,/g, ''))).toBeGreaterThan(10_000_000);
      await page
        .getByRole('img', { name: /各省 IPv4 地址数地图/ })
        .locator('canvas')
        .waitFor();
      await expectAccessible(page);
    });
  });

  it('traces the route to loopback and shows the hops as they come', async () => {
    await withPage('/networkdetection', async ({ page }) => {
      await page.getByLabel('目标 IP 或域名').fill('127.0.0.1');
      await page.getByRole('button', { name: '开始探测' }).click();
      await page.locator('tr[data-hop="1"]').waitFor({ timeout: 30_000 });
      await poll(() => page.locator('main h2').nth(1).textContent(), { timeout: 30_000 }).toContain('已完成');
      expect(await page.locator('tr[data-hop="1"] td').nth(1).textContent()).toBe('127.0.0.1');
      await expectAccessible(page);
    });
  });

  it('downloads an IP report as a PDF that reads back with the address', async () => {
    await withPage('/ipreport/detail?ip=114.114.114.114', async ({ page }) => {
      await poll(() => page.textContent('main')).toContain('纯真 IP 库');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: '下载 PDF' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.pdf$/);
      const parser = new PDFParse({ data: new Uint8Array(await readFile(await file.path())) });
      const { text } = await parser.getText();
      await parser.destroy();
      expect(text).toContain('114.114.114.114');
      expect(text).toContain('IP 地址报告');
      await expectAccessible(page);
    });
  });

  it('sends feedback from the footer’s modal, and asks a logged-out buyer on /vip to log in first', async () => {
    await withPage('/vip', async ({ page }) => {
      await page.getByRole('button', { name: '意见反馈' }).click();
      const feedback = page.getByRole('dialog', { name: '意见反馈' });
      await feedback.getByRole('button', { name: '提交' }).click();
      expect(await feedback.locator('.field-error').textContent()).toBe('请填写反馈内容');
      await feedback.getByLabel('反馈内容').fill('浏览器测试：地图很好用');
      await feedback.getByRole('button', { name: '提交' }).click();
      await poll(() => page.textContent('.toast-stack')).toContain('感谢您的反馈');
      expect(await feedback.isVisible()).toBe(false);

      await page.getByRole('button', { name: '开通' }).first().click();
      await page.getByRole('dialog', { name: '登录' }).waitFor();
      await expectAccessible(page);
    });
  });

  // Every route of the table that has a page, at both widths: axe-clean, nothing from outside,
  // no page error, and a screenshot to look at (var/test-output/screenshots/face-a-*).
  const routed = ROUTES.filter((route) => route.page);
  const pathOf = (path: string) => path.replace(':id', '1').replace('/ipreport/detail', '/ipreport/detail?ip=8.8.8.8');
  // One test per page and width: each gets its own time limit (the whole set takes over a
  // minute on a busy machine) and a failure names its page.
  for (const viewport of ['desktop', 'phone'] as const) {
    for (const route of routed) {
      it(`renders ${route.path} at ${viewport} width, accessible, with a screenshot`, async () => {
        await withPage(
          pathOf(route.path),
          async (test) => {
            await heading(test.page).waitFor();
            // Data-driven pages settle once their loading text is gone.
            await poll(() => test.page.locator('main').textContent()).not.toMatch(/加载中|查询中/);
            await expectAccessible(test.page);
            await test.screenshot(`face-a${route.path.replace(/[/:]+/g, '-').replace(/-$/, '') || '-home'}`);
          },
          viewport,
        );
      });
    }
  }
});
