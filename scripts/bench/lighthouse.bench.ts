/**
 * Lighthouse performance and accessibility scores of the web apps' key pages, measured (never
 * asserted) on Debian's Chromium (scripts/test/install-chromium.sh) against a running site:
 * `make up`, then `make bench-lighthouse` (face A) or `make bench-lighthouse SITE=b` (face B).
 *
 *   --site a|b        which face: a = face A on bff-cn (http://127.0.0.1:8081; /, /ip, /piliang,
 *                     /datasupport/chinaip), b = face B on bff-en (http://127.0.0.1:8082; /, /pricing,
 *                     /docs, /console): the issues' lists. Default a.
 *   --base <url>      another address of the same site
 *   --paths a,b,c     other pages of it
 *   --runs <n>        runs per page (default 3; the median is reported)
 *   --email, --password
 *                     face B's account for its user-centre pages (/console...): default the demo
 *                     account `make up` made (var/stack/demo-account.json)
 *
 * Face B's user centre sends visitors who are not logged in to the root path, so its pages are
 * measured logged in: the script logs in through the web API (GET /api/init for the CSRF value,
 * POST /api/login) and puts the session's cookies into the browser's cookie jar for those pages
 * only (Lighthouse resets storage between runs but keeps cookies); the other pages are measured
 * as a visitor without cookies sees them. Not Lighthouse's extraHeaders: a cookie the jar holds
 * (the CSRF cookie an earlier page received) replaces an extra Cookie header on every request
 * (GoogleChrome/lighthouse#6207), and the session would silently be lost.
 *
 * Prints one JSON line per run and one summary line per page: median scores (0-100) beside the
 * median of a baseline measured in the same run, the site's 404 page (the app shell without
 * data or charts). Lighthouse's mobile preset with simulated throttling; the machine's load still
 * moves the scores, so compare pages within one run.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_BIN, chromiumArgs } from '../test/browser/chromium.js';

interface Site {
  base: string;
  paths: string;
  /** Pages only a logged-in visitor sees (face B's user centre). */
  needsLogin: (path: string) => boolean;
}

const SITES: Record<'a' | 'b', Site> = {
  a: { base: 'http://127.0.0.1:8081', paths: '/,/ip,/piliang,/datasupport/chinaip', needsLogin: () => false },
  b: {
    base: 'http://127.0.0.1:8082',
    paths: '/,/pricing,/docs,/console',
    needsLogin: (path) => path === '/console' || path.startsWith('/console/'),
  },
};

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'a' },
    base: { type: 'string' },
    paths: { type: 'string' },
    runs: { type: 'string', default: '3' },
    email: { type: 'string' },
    password: { type: 'string' },
  },
});
if (values.site !== 'a' && values.site !== 'b') throw new Error(`--site ${values.site}: a (face A) or b (face B)`);
const site = SITES[values.site];
const base = (values.base ?? site.base).replace(/\/$/, '');
const runs = Math.max(1, Number(values.runs));
// The shell without data (an unknown path renders the 404 page): what every page costs at least.
const BASELINE = '/lighthouse-baseline-404';
const paths = [BASELINE, ...(values.paths ?? site.paths).split(',').filter(Boolean)];

/** The demo account `make up` made (scripts/dev/demo-account.ts keeps its password there). */
function demoAccount(): { email: string; password: string } {
  const file = new URL('../../var/stack/demo-account.json', import.meta.url);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { email: string; password: string };
  } catch {
    throw new Error(`no ${file.pathname}: run \`make up\` (it makes the demo account) or pass --email and --password`);
  }
}

/** The cookies of a logged-in face B visitor (name=value pairs): a session made through the web API, as the app makes it. */
async function faceBSessionCookies(): Promise<{ name: string; value: string }[]> {
  const { email, password } =
    values.email !== undefined && values.password !== undefined
      ? { email: values.email, password: values.password }
      : demoAccount();
  const init = await fetch(`${base}/api/init`);
  const csrf = (await init.json()) as { data?: { csrf_token?: string } };
  const csrfToken = csrf.data?.csrf_token;
  if (!init.ok || !csrfToken) throw new Error(`GET ${base}/api/init answered ${init.status} without a CSRF value`);
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: `csrf_token=${csrfToken}` },
    body: JSON.stringify({ email, password, remember_me: false }),
  });
  const session = login.headers
    .getSetCookie()
    .map((cookie) => /^token=([^;]+)/.exec(cookie)?.[1])
    .find(Boolean);
  if (!login.ok || !session)
    throw new Error(`POST ${base}/api/login as ${email} answered ${login.status}: ${await login.text()}`);
  return [
    { name: 'token', value: session },
    { name: 'csrf_token', value: csrfToken },
  ];
}

const session = paths.some(site.needsLogin) ? await faceBSessionCookies() : undefined;

/** The browser's cookie jar emptied, then holding `cookies` for the site (through the DevTools protocol). */
async function setCookies(port: number, cookies: { name: string; value: string }[]): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (context === undefined) throw new Error('the launched Chromium has no default context');
    await context.clearCookies();
    if (cookies.length > 0) await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: base })));
  } finally {
    // Connected, not launched: close() only disconnects.
    await browser.close();
  }
}

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_BIN,
  chromeFlags: ['--headless=new', ...chromiumArgs({ root: process.getuid?.() === 0 })],
});
try {
  const summary: Record<string, { performance: number[]; accessibility: number[] }> = {};
  for (const path of paths) {
    summary[path] = { performance: [], accessibility: [] };
    for (let run = 1; run <= runs; run++) {
      await setCookies(chrome.port, session !== undefined && site.needsLogin(path) ? session : []);
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      });
      const categories = result?.lhr.categories ?? {};
      const performance = Math.round((categories['performance']?.score ?? 0) * 100);
      const accessibility = Math.round((categories['accessibility']?.score ?? 0) * 100);
      summary[path].performance.push(performance);
      summary[path].accessibility.push(accessibility);
      const audits = result?.lhr.audits ?? {};
      // A user-centre page measured without a session would be the root path (the redirect): say where it ended.
      const finalPath = result ? new URL(result.lhr.finalDisplayedUrl).pathname : null;
      console.log(
        JSON.stringify({
          bench: 'lighthouse',
          site: values.site,
          page: path,
          run,
          final_path: finalPath,
          performance,
          accessibility,
          fcp_ms: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
          lcp_ms: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
          tbt_ms: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
          cls: +(audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
          transfer_kb: Math.round((audits['total-byte-weight']?.numericValue ?? 0) / 1024),
        }),
      );
    }
  }
  const baseline = summary[BASELINE]!;
  for (const path of paths.slice(1)) {
    const scores = summary[path]!;
    console.log(
      JSON.stringify({
        bench: 'lighthouse',
        summary: true,
        site: values.site,
        page: path,
        logged_in: site.needsLogin(path),
        runs,
        performance_median: median(scores.performance),
        accessibility_median: median(scores.accessibility),
        baseline_performance_median: median(baseline.performance),
        performance_vs_baseline: +(median(scores.performance) / Math.max(1, median(baseline.performance))).toFixed(2),
      }),
    );
  }
} finally {
  chrome.kill();
}
