import {
  InternalError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnavailableError,
  type DomainError,
} from '@ipdata/common';
import type {
  CreateDownloadLinkRequest,
  CreateDownloadLinkResponse,
  DatabaseFile,
  GetSampleLinkResponse,
  ListDatabasesResponse,
} from '@ipdata/proto/downloads/v1/downloads';
import { PlanTier } from '@ipdata/proto/events/v1/billing';
import { describe, expect, it } from 'vitest';
import { DATABASE_ERRORS, DatabaseAccess, secondsToUtcMidnight } from './database-access.js';
import type { DatabaseDownloads, DownloadPlan, DownloadPlans } from './databases.ports.js';

function file(database: string, format: string, datasets: string[], entitled: boolean): DatabaseFile {
  return {
    database,
    format,
    fileName: `${database}.${format}`,
    version: '2026.09.16-f64a5fa7',
    updatedAt: new Date('2026-09-16T00:00:00Z'),
    updateFrequency: 'every 7 days',
    sizeBytes: 1000,
    sha256: 'a'.repeat(64),
    rowCount: 10,
    datasets,
    entitled,
    hasSample: format === 'csv' || format === 'ndjson',
  };
}

/** The catalogue of a FREE account ([asn]). */
const FREE_CATALOGUE: ListDatabasesResponse = {
  version: '2026.09.16-f64a5fa7',
  planId: 'download-free',
  entitledDatasets: ['asn'],
  files: [
    file('geolocation', 'csv', ['geolocation'], false),
    file('privacy', 'csv', ['privacy'], false),
    file('asn', 'csv', ['asn'], true),
    file('complete', 'mmdb', ['geolocation', 'privacy', 'asn'], false),
  ],
};

const PLANS: DownloadPlan[] = [
  { id: 'download-free', name: 'Free', tier: PlanTier.PLAN_TIER_FREE, monthlyPriceMinor: 0, datasets: ['asn'] },
  {
    id: 'download-standard-monthly',
    name: 'Standard',
    tier: PlanTier.PLAN_TIER_STANDARD,
    monthlyPriceMinor: 9_900,
    datasets: ['geolocation', 'asn'],
  },
  {
    id: 'download-business-monthly',
    name: 'Business',
    tier: PlanTier.PLAN_TIER_BUSINESS,
    monthlyPriceMinor: 29_900,
    datasets: ['geolocation', 'privacy', 'asn'],
  },
  {
    id: 'download-enterprise-yearly',
    name: 'Enterprise',
    tier: PlanTier.PLAN_TIER_ENTERPRISE,
    monthlyPriceMinor: 0,
    datasets: ['geolocation', 'privacy', 'asn'],
  },
];

/** An in-process stand-in for the downloads gRPC port: answers what the test sets, records the calls. */
class FakeDownloads implements DatabaseDownloads {
  history = async () => ({ downloads: [], total: 0, remainingToday: 0, dailyLimit: 0 });
  readonly linkRequests: CreateDownloadLinkRequest[] = [];
  listFailure: Error | undefined;
  linkFailure: Error | undefined;
  sampleFailure: Error | undefined;

  list(accountId: string): Promise<ListDatabasesResponse> {
    if (this.listFailure) return Promise.reject(this.listFailure);
    return Promise.resolve(accountId === '' ? { ...FREE_CATALOGUE, planId: '', entitledDatasets: [] } : FREE_CATALOGUE);
  }

  createLink(request: CreateDownloadLinkRequest): Promise<CreateDownloadLinkResponse> {
    this.linkRequests.push(request);
    if (this.linkFailure) return Promise.reject(this.linkFailure);
    return Promise.resolve({
      url: `http://downloads.test/files/l1/${request.database}.${request.format}?signature=x`,
      expiresAt: new Date(),
      file: FREE_CATALOGUE.files[2],
      remainingToday: 19,
    });
  }

  sampleLink(database: string, format: string): Promise<GetSampleLinkResponse> {
    if (this.sampleFailure) return Promise.reject(this.sampleFailure);
    return Promise.resolve({
      url: `http://downloads.test/samples/v/${database}-sample.${format}`,
      fileName: '',
      sizeBytes: 1,
      sha256: '',
    });
  }
}

class FakePlans implements DownloadPlans {
  down = false;
  downloadPlans(): Promise<DownloadPlan[]> {
    return this.down ? Promise.reject(new UnavailableError('billing down')) : Promise.resolve(PLANS);
  }
}

function setup() {
  const downloads = new FakeDownloads();
  const plans = new FakePlans();
  return { downloads, plans, access: new DatabaseAccess(downloads, plans) };
}

const NOW = Date.parse('2026-09-20T23:59:00Z');
const link = (database: string, format: string) => ({
  accountId: 'acc-1',
  database,
  format,
  clientIp: '203.0.113.5',
  nowMs: NOW,
});

async function failure(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected a failure');
}

describe('DatabaseAccess', () => {
  it("lists the catalogue with the account's plan named, and without the name while billing is down", async () => {
    const { access, plans } = setup();
    expect((await access.catalogue('acc-1')).planName).toBe('Free');
    plans.down = true;
    const degraded = await access.catalogue('acc-1');
    expect(degraded.planName).toBeNull();
    expect(degraded.catalogue.files).toHaveLength(4);
  });

  it('asks downloads for a link bound to the account and the client address', async () => {
    const { access, downloads } = setup();
    const answer = await access.downloadLink(link('asn', 'csv'));
    expect(answer.url).toContain('/files/l1/asn.csv');
    expect(downloads.linkRequests).toEqual([{ accountId: 'acc-1', database: 'asn', format: 'csv', clientIp: '203.0.113.5' }]);
  });

  it('names the plans that include a refused file, from the refusal details', async () => {
    const { access, downloads } = setup();
    downloads.linkFailure = new PermissionDeniedError('plan excludes', {
      details: { missingDatasets: 'privacy', planId: 'download-free' },
    });
    const error = await failure(access.downloadLink(link('privacy', 'csv')));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.reason).toBe(DATABASE_ERRORS.planExcludes);
    expect(error.message).toBe(
      'Your plan (Free) does not include the privacy database. It is included in: Business, Enterprise.',
    );
  });

  it("works out the missing datasets from the account's catalogue when the refusal has no details", async () => {
    const { access, downloads } = setup();
    downloads.linkFailure = new PermissionDeniedError('no');
    const error = await failure(access.downloadLink(link('complete', 'mmdb')));
    expect(error.message).toBe(
      'Your plan (Free) does not include the complete database (it carries geolocation and privacy data). It is included in: Business, Enterprise.',
    );
  });

  it('still refuses with a clear message while billing is down (no plan names)', async () => {
    const { access, downloads, plans } = setup();
    plans.down = true;
    downloads.linkFailure = new PermissionDeniedError('no', {
      details: { missing_datasets: 'geolocation', plan_id: 'download-free' },
    });
    const error = await failure(access.downloadLink(link('geolocation', 'csv')));
    expect(error.reason).toBe(DATABASE_ERRORS.planExcludes);
    expect(error.message).toMatch(/^Your plan does not include the geolocation database\./);
  });

  it('does not blame the plan for a refusal that names nothing missing (an access policy, not the customer)', async () => {
    const { access, downloads } = setup();
    downloads.linkFailure = new PermissionDeniedError('identity bff-en may not call CreateDownloadLink');
    const error = await failure(access.downloadLink(link('asn', 'csv')));
    expect(error).toBeInstanceOf(InternalError);
  });

  it('lists the valid names for an unknown database or format, and never sends junk to downloads', async () => {
    const { access, downloads } = setup();
    downloads.linkFailure = new NotFoundError('unknown');
    const unknown = await failure(access.downloadLink(link('weather', 'csv')));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.reason).toBe(DATABASE_ERRORS.notFound);
    expect(unknown.message).toContain('Available: geolocation (csv), privacy (csv), asn (csv), complete (mmdb)');
    const wrongFormat = await failure(access.downloadLink(link('complete', 'csv')));
    expect(wrongFormat.message).toBe('There is no complete database in format "csv". Its formats: mmdb.');
    downloads.linkRequests.length = 0;
    const junk = await failure(access.downloadLink(link('../../etc', 'passwd')));
    expect(junk.reason).toBe(DATABASE_ERRORS.notFound);
    expect(downloads.linkRequests).toEqual([]);
  });

  it('passes the daily limit on with a retry time: the one downloads gives, else until 00:00 UTC', async () => {
    const { access, downloads } = setup();
    downloads.linkFailure = new ResourceExhaustedError('Daily download limit reached (20 per day); it resets at 00:00 UTC.', {
      details: { retryAfterSeconds: '3600' },
    });
    const given = await failure(access.downloadLink(link('asn', 'csv')));
    expect(given).toBeInstanceOf(ResourceExhaustedError);
    expect(given.reason).toBe(DATABASE_ERRORS.dailyLimit);
    expect(given.message).toBe('Daily download limit reached (20 per day); it resets at 00:00 UTC.');
    expect(given.details['retryAfterSeconds']).toBe('3600');
    downloads.linkFailure = new ResourceExhaustedError('Daily download limit reached');
    expect((await failure(access.downloadLink(link('asn', 'csv')))).details['retryAfterSeconds']).toBe('60');
    expect(secondsToUtcMidnight(Date.parse('2026-09-20T12:00:00Z'))).toBe(43_200);
  });

  it('counts the seconds to 00:00 UTC across New Year and a leap day, at least 1, whatever the process zone', () => {
    expect(secondsToUtcMidnight(Date.parse('2030-12-31T23:59:59.999Z'))).toBe(1);
    expect(secondsToUtcMidnight(Date.parse('2031-01-01T00:00:00.000Z'))).toBe(86_400);
    expect(secondsToUtcMidnight(Date.parse('2028-02-28T23:59:59.000Z'))).toBe(1);
    expect(secondsToUtcMidnight(Date.parse('2028-02-29T23:59:40.000Z'))).toBe(20);
    expect(secondsToUtcMidnight(Date.parse('2028-03-01T00:00:01.000Z'))).toBe(86_399);
    // 00:00 the next day at UTC+8 (Asia/Shanghai): 8 hours to go in UTC.
    expect(secondsToUtcMidnight(Date.parse('2030-12-31T16:00:00.000Z'))).toBe(8 * 3600);
  });

  it('answers "unavailable" when downloads is down, for links, samples and the catalogue', async () => {
    const { access, downloads } = setup();
    downloads.linkFailure = new UnavailableError('connect ECONNREFUSED 127.0.0.1:50055');
    downloads.sampleFailure = downloads.linkFailure;
    downloads.listFailure = downloads.linkFailure;
    for (const work of [access.downloadLink(link('asn', 'csv')), access.sampleLink('asn', 'csv'), access.catalogue('acc-1')]) {
      const error = await failure(work);
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error.reason).toBe(DATABASE_ERRORS.unavailable);
      expect(error.message).not.toContain('ECONNREFUSED');
    }
  });

  it('answers a missing sample with the databases that have one', async () => {
    const { access, downloads } = setup();
    expect((await access.sampleLink('asn', 'csv')).url).toBe('http://downloads.test/samples/v/asn-sample.csv');
    downloads.sampleFailure = new NotFoundError('no sample');
    const error = await failure(access.sampleLink('complete', 'mmdb'));
    expect(error.reason).toBe(DATABASE_ERRORS.sampleNotFound);
    expect(error.message).toBe('There is no sample "complete". Available: geolocation (csv), privacy (csv), asn (csv).');
  });
});
