import { Metering } from '@ipdata/metering';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ClientAddressResolver,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnavailableError,
  NotFoundError,
} from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import type { ResolvedApiKey } from '@ipdata/auth/client';
import type { CreateDownloadLinkRequest, DatabaseFile } from '@ipdata/proto/downloads/v1/downloads';
import { PlanTier } from '@ipdata/proto/events/v1/billing';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenApiContract } from '../../../test/fixtures/openapi-contract.js';
import { DatabaseAccess } from '../../databases/database-access.js';
import type { DatabaseDownloads, DownloadPlans } from '../../databases/databases.ports.js';
import { Accounting } from '../accounting.js';
import { PublicApiDispatcher } from '../public-api.dispatcher.js';
import { databaseRoutes } from './databases.routes.js';

/**
 * The /v1/databases routes on the real dispatcher with in-process fakes of the downloads and
 * billing ports: status, headers and bodies, each answer validated against the OpenAPI document.
 * (services/bff-en/test/databases.test.ts runs the same flow against the real services.)
 */
const KEY: ResolvedApiKey = {
  accountId: 'acc-1',
  keyId: 'k1',
  tier: PlanTier.PLAN_TIER_FREE,
  planId: 'api-free',
  limits: {
    lookupsPerMonth: 50_000,
    overagePricePer1kMinor: 0,
    currency: '',
    supportLevel: 'basic',
    downloadableDatasets: [],
    maxLookupsPerMonth: 0,
    burstPerSecond: 0,
  },
  periodEnd: undefined,
};

const FILE: DatabaseFile = {
  database: 'asn',
  format: 'csv',
  fileName: 'asn.csv',
  version: '2026.09.16-f64a5fa7',
  updatedAt: new Date('2026-09-16T03:00:00Z'),
  updateFrequency: 'every 7 days',
  sizeBytes: 1234,
  sha256: 'ab'.repeat(32),
  rowCount: 10,
  datasets: ['asn'],
  entitled: true,
  hasSample: true,
};
const PRIVACY: DatabaseFile = { ...FILE, database: 'privacy', fileName: 'privacy.csv', datasets: ['privacy'], entitled: false };
const MMDB: DatabaseFile = {
  ...FILE,
  database: 'complete',
  format: 'mmdb',
  fileName: 'ipdata-city.mmdb',
  datasets: ['geolocation', 'privacy', 'asn'],
  entitled: false,
  hasSample: false,
};

let linkFailure: Error | undefined;
const linkRequests: CreateDownloadLinkRequest[] = [];
const downloads: DatabaseDownloads = {
  history: async () => ({ downloads: [], total: 0, remainingToday: 0, dailyLimit: 0 }),
  list: async () => ({ version: FILE.version, planId: 'download-free', entitledDatasets: ['asn'], files: [FILE, PRIVACY, MMDB] }),
  createLink: async (request) => {
    linkRequests.push(request);
    if (linkFailure) throw linkFailure;
    return {
      url: 'http://127.0.0.1:9105/files/l1/asn.csv?expires=1&signature=ff',
      expiresAt: new Date('2026-09-20T10:10:00Z'),
      file: FILE,
      remainingToday: 19,
    };
  },
  sampleLink: async (database, format) => {
    if (database !== 'asn') throw new NotFoundError('no sample');
    return {
      url: `http://127.0.0.1:9105/samples/v1/${database}-sample.${format}`,
      fileName: `${database}-sample.${format}`,
      sizeBytes: 99,
      sha256: 'cd'.repeat(32),
    };
  },
};
const plans: DownloadPlans = {
  downloadPlans: async () => [
    { id: 'download-free', name: 'Free', tier: PlanTier.PLAN_TIER_FREE, monthlyPriceMinor: 0, datasets: ['asn'] },
    {
      id: 'download-business-monthly',
      name: 'Business',
      tier: PlanTier.PLAN_TIER_BUSINESS,
      monthlyPriceMinor: 29_900,
      datasets: ['geolocation', 'privacy', 'asn'],
    },
  ],
};

/** The members the tests read (the OpenAPI document's schemas check the rest). */
interface Json {
  plan?: unknown;
  databases: Record<string, unknown>[];
  error: { code: string; message: string };
  [member: string]: unknown;
}

const contract = new OpenApiContract();
let server: Server;
let base: string;

beforeAll(async () => {
  const accounting = new Accounting(new Metering(undefined, undefined, 10));
  const dispatcher = new PublicApiDispatcher({
    routes: databaseRoutes({
      accounting,
      databases: new DatabaseAccess(downloads, plans),
      clientAddress: new ClientAddressResolver([]),
    }),
    keys: { resolve: async () => KEY },
    accounting,
    clock: new ManualClock(new Date('2026-09-20T10:00:00Z')),
    logger: pino({ level: 'silent' }),
  });
  server = createServer((request, response) => void dispatcher.handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  linkFailure = undefined;
  linkRequests.length = 0;
});

async function get(operationId: string, path: string, key: string | null = 'good') {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', headers: key ? { authorization: `Bearer ${key}` } : {} });
  const answer = { status: response.status, headers: response.headers, body: await response.text() };
  expect(contract.problems(operationId, answer), path).toEqual([]);
  return { ...answer, json: JSON.parse(answer.body) as Json };
}

describe('GET /v1/databases...', () => {
  it('lists the catalogue with entitlement, the plan and the download and sample paths', async () => {
    const answer = await get('listDatabases', '/v1/databases');
    expect(answer.status).toBe(200);
    expect(answer.json.plan).toEqual({ id: 'download-free', name: 'Free', datasets: ['asn'] });
    expect(answer.json.databases[0]).toMatchObject({
      database: 'asn',
      format: 'csv',
      entitled: true,
      sha256: FILE.sha256,
      updated_at: '2026-09-16T03:00:00.000Z',
      download_url: '/v1/databases/asn/csv',
      sample_url: '/v1/databases/asn/sample.csv',
    });
    expect(answer.json.databases[2]).toMatchObject({ database: 'complete', entitled: false, sample_url: null });
  });

  it('redirects to a fresh signed link, never cached, bound to the caller', async () => {
    const answer = await get('getDatabaseDownload', '/v1/databases/asn/csv');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('http://127.0.0.1:9105/files/l1/asn.csv?expires=1&signature=ff');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json).toMatchObject({ file_name: 'asn.csv', remaining_today: 19 });
    expect(linkRequests).toEqual([{ accountId: 'acc-1', database: 'asn', format: 'csv', clientIp: '127.0.0.1' }]);
  });

  it('answers 403 naming the plans that include the file', async () => {
    linkFailure = new PermissionDeniedError('no', { details: { missingDatasets: 'privacy', planId: 'download-free' } });
    const answer = await get('getDatabaseDownload', '/v1/databases/privacy/csv');
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({
      code: 'plan_excludes_database',
      message: 'Your plan (Free) does not include the privacy database. It is included in: Business.',
    });
  });

  it('answers 404 listing the valid names, 429 with Retry-After, 503 without internals', async () => {
    linkFailure = new NotFoundError('unknown');
    const unknown = await get('getDatabaseDownload', '/v1/databases/complete/csv');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe('There is no complete database in format "csv". Its formats: mmdb.');
    linkFailure = new ResourceExhaustedError('Daily download limit reached (20 per day); it resets at 00:00 UTC.', {
      details: { retryAfterSeconds: '50400' },
    });
    const limited = await get('getDatabaseDownload', '/v1/databases/asn/csv');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('50400');
    expect(limited.json.error.code).toBe('download_limit_reached');
    linkFailure = new UnavailableError('connect ECONNREFUSED 127.0.0.1:50055');
    const down = await get('getDatabaseDownload', '/v1/databases/asn/csv');
    expect(down.status).toBe(503);
    expect(down.json.error.code).toBe('downloads_unavailable');
    expect(down.body).not.toContain('ECONNREFUSED');
  });

  it('redirects to a sample without a key, and answers 404 for a database without one', async () => {
    const sample = await get('getDatabaseSample', '/v1/databases/asn/sample.ndjson', null);
    expect(sample.status).toBe(302);
    expect(sample.headers.get('location')).toBe('http://127.0.0.1:9105/samples/v1/asn-sample.ndjson');
    const none = await get('getDatabaseSample', '/v1/databases/complete/sample.mmdb', null);
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe('sample_not_found');
  });
});
