import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { waitFor } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pressCheckoutButton } from '../../billing/test/fixtures/billing-harness.js';
import {
  bffEnUrl,
  createTestAccount,
  systemClients,
  useTestSystem,
  type NewAccount,
} from '../../../scripts/test/system/index.js';
import { checkoutReturnUrl, systemPorts } from '../../../scripts/test/system/system-layout.js';

/**
 * The database downloads end to end on the shared test system: bff-en's /v1/databases routes, the
 * downloads service (catalogue, entitlement from billing.subscription.v1, signed links, the file
 * server with Range), billing's plan catalogue (services/bff-en/test/fixtures/plans.yaml: FREE
 * downloads [asn], Standard [geolocation, asn], Business and Enterprise everything) and the
 * updater script, run as a customer would run it.
 */
const run = promisify(execFile);
const REPO = new URL('../../../', import.meta.url).pathname;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface DatabaseFileView {
  database: string;
  format: string;
  file_name: string;
  size_bytes: number;
  sha256: string;
  entitled: boolean;
  download_url: string;
  sample_url: string | null;
}
interface Catalogue {
  version: string | null;
  plan: { id: string; name: string | null; datasets: string[] };
  databases: DatabaseFileView[];
}
interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  json<T = { error: { code: string; message: string } }>(): T;
}

async function get(url: string, key?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url.startsWith('http') ? url : `${bffEnUrl()}${url}`, {
    redirect: 'manual',
    headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) },
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body, json: <T>() => JSON.parse(body.toString('utf8')) as T };
}

/** Buys a data-download plan at billing's sandbox checkout (createTestAccount's `plan` is for API plans). */
async function subscribeDownloadPlan(account: NewAccount, planId: string): Promise<void> {
  const { billing } = systemClients();
  const answer = await billing.subscribe({ accountId: account.accountId, planId, returnUrl: checkoutReturnUrl(systemPorts()) });
  if (answer.order?.checkoutUrl) {
    const { answer: paid } = await pressCheckoutButton(answer.order.checkoutUrl, 'pay');
    expect(paid.status).toBe(303);
  }
  await waitFor(
    async () => {
      const { plans } = await billing.getCurrentPlans({ accountId: account.accountId });
      return plans.find((plan) => plan.kind === SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD)?.plan?.id === planId;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: `billing to apply ${planId}` },
  );
}

/** The account's catalogue once downloads has a published version and knows the account's plan. */
async function catalogueOnPlan(key: string, planId: string): Promise<Catalogue> {
  let catalogue: Catalogue | undefined;
  await waitFor(
    async () => {
      const answer = await get('/v1/databases', key);
      if (answer.status !== 200) return false;
      catalogue = answer.json<Catalogue>();
      return catalogue.version !== null && catalogue.plan.id === planId;
    },
    { timeoutMs: 60_000, intervalMs: 500, what: `downloads to publish a version and see plan ${planId}` },
  );
  return catalogue as Catalogue;
}

function fileOf(catalogue: Catalogue, database: string, format: string): DatabaseFileView {
  const file = catalogue.databases.find((entry) => entry.database === database && entry.format === format);
  if (!file) throw new Error(`${database}/${format} is not in the catalogue`);
  return file;
}

async function updater(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'scripts/ipdata-update.ts', '--base-url', bffEnUrl(), ...args],
      { cwd: REPO, timeout: 120_000 },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

let free: NewAccount;
let business: NewAccount;
let freeCatalogue: Catalogue;
let businessCatalogue: Catalogue;
let workDir: string;

beforeAll(async () => {
  await useTestSystem();
  workDir = await mkdtemp(join(tmpdir(), 'ipdata-databases-'));
  [free, business] = await Promise.all([createTestAccount(), createTestAccount()]);
  await subscribeDownloadPlan(business, 'download-business-monthly');
  [freeCatalogue, businessCatalogue] = await Promise.all([
    catalogueOnPlan(free.apiKey, 'download-free'),
    catalogueOnPlan(business.apiKey, 'download-business-monthly'),
  ]);
}, 180_000);

afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('GET /v1/databases', () => {
  it('lists every file with what the key may download', () => {
    const names = freeCatalogue.databases.map((file) => `${file.database}/${file.format}`).sort();
    expect(names).toEqual(expect.arrayContaining(['asn/csv', 'complete/mmdb', 'geolocation/csv', 'privacy/ndjson']));
    expect(freeCatalogue.plan).toEqual({ id: 'download-free', name: 'Free', datasets: ['asn'] });
    expect(fileOf(freeCatalogue, 'asn', 'csv').entitled).toBe(true);
    expect(fileOf(freeCatalogue, 'privacy', 'csv').entitled).toBe(false);
    expect(fileOf(freeCatalogue, 'complete', 'mmdb')).toMatchObject({ entitled: false, sample_url: null });
    expect(fileOf(freeCatalogue, 'geolocation', 'csv').sample_url).toBe('/v1/databases/geolocation/sample.csv');
    expect(businessCatalogue.databases.every((file) => file.entitled)).toBe(true);
    expect(businessCatalogue.plan.name).toBe('Business');
    for (const file of businessCatalogue.databases) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('needs a key', async () => {
    expect((await get('/v1/databases')).status).toBe(401);
  });
});

describe('GET /v1/databases/{database}/{format}', () => {
  // The system serves the real dataset (var/datasets): the byte checks use the small privacy files
  // (a few MB); the MaxMind edition (~100 MB) is checked by its headers.
  it('redirects to a signed link whose bytes have the catalogue sha256', async () => {
    const file = fileOf(businessCatalogue, 'privacy', 'csv');
    const answer = await get('/v1/databases/privacy/csv', business.apiKey);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const location = answer.headers.get('location') as string;
    expect(location).toMatch(/^https?:\/\//);
    expect(answer.json<{ url: string }>().url).toBe(location);
    const bytes = await get(location);
    expect(bytes.status).toBe(200);
    expect(Number(bytes.headers.get('content-length'))).toBe(file.size_bytes);
    expect(bytes.headers.get('etag')).toBe(`"${file.sha256}"`);
    expect(sha256(bytes.body)).toBe(file.sha256);

    const mmdb = fileOf(businessCatalogue, 'complete', 'mmdb');
    const mmdbLink = await get('/v1/databases/complete/mmdb', business.apiKey);
    expect(mmdbLink.status).toBe(302);
    const head = await fetch(mmdbLink.headers.get('location') as string, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(mmdb.size_bytes);
    expect(head.headers.get('etag')).toBe(`"${mmdb.sha256}"`);
  });

  it('resumes a cut download with curl -L -C - through the redirect', async () => {
    const file = fileOf(businessCatalogue, 'privacy', 'ndjson');
    const whole = (await get((await get('/v1/databases/privacy/ndjson', business.apiKey)).headers.get('location') as string))
      .body;
    expect(sha256(whole)).toBe(file.sha256);
    const target = join(workDir, 'curl-resume.ndjson');
    const cut = Math.floor(whole.length / 3);
    await writeFile(target, whole.subarray(0, cut));
    const { stdout } = await run('curl', [
      '--silent',
      '--show-error',
      '--fail',
      '--location',
      '--continue-at',
      '-',
      '--header',
      `Authorization: Bearer ${business.apiKey}`,
      '--output',
      target,
      '--write-out',
      '%{http_code} %{size_download}',
      `${bffEnUrl()}/v1/databases/privacy/ndjson`,
    ]);
    // The file server answered the resume with 206 and only the missing bytes.
    expect(stdout).toBe(`206 ${whole.length - cut}`);
    expect(sha256(await readFile(target))).toBe(file.sha256);
  });

  it('answers 403 naming the plans that include a file the plan lacks', async () => {
    const privacy = await get('/v1/databases/privacy/csv', free.apiKey);
    expect(privacy.status).toBe(403);
    expect(privacy.json().error).toMatchObject({
      code: 'plan_excludes_database',
      message: 'Your plan (Free) does not include the privacy database. It is included in: Business, Enterprise.',
    });
    const complete = await get('/v1/databases/complete/mmdb', free.apiKey);
    expect(complete.status).toBe(403);
    expect(complete.json().error.message).toBe(
      'Your plan (Free) does not include the complete database (it carries geolocation and privacy data). It is included in: Business, Enterprise.',
    );
    // What the plan includes downloads.
    expect((await get('/v1/databases/asn/csv', free.apiKey)).status).toBe(302);
  });

  it('answers 404 listing the valid databases and formats', async () => {
    const unknown = await get('/v1/databases/weather/csv', free.apiKey);
    expect(unknown.status).toBe(404);
    expect(unknown.json().error.code).toBe('database_not_found');
    expect(unknown.json().error.message).toMatch(/^There is no database "weather"\. Available: .*complete \(ipdat, mmdb\)/);
    const format = await get('/v1/databases/complete/csv', free.apiKey);
    expect(format.status).toBe(404);
    expect(format.json().error.message).toBe('There is no complete database in format "csv". Its formats: ipdat, mmdb.');
  });

  it('stops at the daily download limit with Retry-After', async () => {
    const account = await createTestAccount();
    await catalogueOnPlan(account.apiKey, 'download-free');
    let limited: Answer | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const answer = await get('/v1/databases/asn/csv', account.apiKey);
      if (answer.status === 429 && answer.json().error.code === 'download_limit_reached') limited = answer;
      else if (answer.status === 429)
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // the key's burst limit
      else expect(answer.status).toBe(302);
    }
    expect(limited, 'no download_limit_reached within 200 links').toBeDefined();
    expect((limited as Answer).json().error.message).toMatch(/Daily download limit/);
    expect(Number((limited as Answer).headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});

describe('GET /v1/databases/{database}/sample.{format}', () => {
  it('redirects to the free sample without a key', async () => {
    const answer = await get('/v1/databases/geolocation/sample.csv');
    expect(answer.status).toBe(302);
    const sample = await get(answer.headers.get('location') as string);
    expect(sample.status).toBe(200);
    const lines = sample.body.toString('utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThanOrEqual(1_001); // header + the first 1,000 rows
    expect((await get('/v1/databases/complete/sample.mmdb')).status).toBe(404);
  });
});

describe('scripts/ipdata-update.ts against the system', () => {
  it('downloads, verifies and then finds the files up to date', async () => {
    const dir = await mkdtemp(join(workDir, 'update-'));
    const args = ['--key', business.apiKey, '--db', 'privacy/csv', '--db', 'privacy/ndjson', '--dir', dir];
    const first = await updater(args);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/privacy\/csv: updated privacy\.csv/);
    for (const [database, format] of [
      ['privacy', 'csv'],
      ['privacy', 'ndjson'],
    ] as const) {
      const file = fileOf(businessCatalogue, database, format);
      expect(sha256(await readFile(join(dir, file.file_name)))).toBe(file.sha256);
    }
    const second = await updater(args);
    expect(second.code, second.output).toBe(0);
    expect(second.output.match(/up to date/g)).toHaveLength(2);
  }, 180_000);

  it('exits 3 with the plan message when the plan lacks the file', async () => {
    const dir = await mkdtemp(join(workDir, 'update-free-'));
    const refused = await updater(['--key', free.apiKey, '--db', 'privacy/csv', '--dir', dir]);
    expect(refused.code).toBe(3);
    expect(refused.output).toContain(
      'Your plan (Free) does not include the privacy database. It is included in: Business, Enterprise.',
    );
  }, 60_000);
});
