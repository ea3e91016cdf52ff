import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { isLocalUrl } from './outside-requests.js';

export type ViewportName = 'desktop' | 'phone';

/** Desktop and a phone (390×844 like a current iPhone or Pixel, touch, a mobile Chrome UA). */
export const VIEWPORTS: Readonly<Record<ViewportName, BrowserContextOptions>> = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  },
};

/** Git-ignored (/var/): var/test-output/screenshots under the repo root. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../var/test-output/screenshots/', import.meta.url));

/** `<dir>/<name>-<viewport>.png`; names are plain words so a test cannot write elsewhere. */
export function screenshotPath(name: string, viewport: ViewportName, dir = SCREENSHOT_DIR): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes('..'))
    throw new Error(`screenshot name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-'`);
  return join(dir, `${name}-${viewport}.png`);
}

/** A page in its own context, at one viewport, that lets only loopback requests through. */
export interface TestPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly viewport: ViewportName;
  /** Every request to a host off this machine, blocked (tests assert it stays empty). */
  readonly outsideRequests: string[];
  /** Uncaught page errors and console errors (a CSP refusal shows up here). */
  readonly errors: string[];
  /** Full-page screenshot to screenshotPath(name, viewport); returns the path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openTestPage(browser: Browser, options: { viewport?: ViewportName } = {}): Promise<TestPage> {
  const viewport = options.viewport ?? 'desktop';
  const context = await browser.newContext({ ...VIEWPORTS[viewport], serviceWorkers: 'block' });
  const outsideRequests: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocalUrl(url)) return route.continue();
    outsideRequests.push(url);
    return route.abort('blockedbyclient');
  });
  // WebSockets are not routed above: record and refuse those too.
  await context.routeWebSocket(/.*/, (socket) => {
    if (isLocalUrl(socket.url())) socket.connectToServer();
    else {
      outsideRequests.push(socket.url());
      void socket.close();
    }
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // "Failed to load resource" names no resource in its text: its location does.
    const where = message.location().url;
    errors.push(`console: ${message.text()}${where ? ` (${where})` : ''}`);
  });
  return {
    page,
    context,
    viewport,
    outsideRequests,
    errors,
    async screenshot(name: string): Promise<string> {
      const path = screenshotPath(name, viewport);
      mkdirSync(dirname(path), { recursive: true });
      await page.screenshot({ path, fullPage: true, animations: 'disabled' });
      return path;
    },
    close: () => context.close(),
  };
}

/**
 * Opens `url` at desktop and at phone width, waits for `ready` (default: the load event and idle
 * network) and saves `<name>-desktop.png` and `<name>-phone.png`. Returns the paths and what both
 * pages tried to load from outside.
 */
export async function captureScreens(
  browser: Browser,
  url: string,
  name: string,
  ready: (page: Page) => Promise<void> = (page) => page.waitForLoadState('networkidle'),
): Promise<{ paths: string[]; outsideRequests: string[]; errors: string[] }> {
  const paths: string[] = [];
  const outsideRequests: string[] = [];
  const errors: string[] = [];
  for (const viewport of ['desktop', 'phone'] as const) {
    const testPage = await openTestPage(browser, { viewport });
    try {
      await testPage.page.goto(url);
      await ready(testPage.page);
      paths.push(await testPage.screenshot(name));
      outsideRequests.push(...testPage.outsideRequests);
      errors.push(...testPage.errors);
    } finally {
      await testPage.close();
    }
  }
  return { paths, outsideRequests, errors };
}
