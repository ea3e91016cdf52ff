import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DownloadRecorded } from '@ipdata/proto/events/v1/downloads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ResourceExhaustedError, TOPICS } from '@ipdata/common';
import { ManualClock, TopicRecorder, uniqueName, waitFor } from '@ipdata/common/testing';
import { signLink } from '../src/links/link-signature.js';
import { defaultFiles, sha256, writeVersion } from './fixtures/dataset-versions.js';
import { DownloadsHarness, PLAN_DATASETS, SECRET } from './fixtures/downloads-harness.js';

/**
 * Signed links and the file server on the real stack (FerretDB, Kafka): entitlement from
 * billing.subscription.v1, the 403 of every wrong link with no file byte, byte ranges, HEAD,
 * a cut download resumed with real `curl -C -`, the history with its DownloadRecorded events,
 * and the daily limit.
 */

const run = promisify(execFile);
// Mid-day, away from 00:00 UTC: the daily limit counts per UTC day, and the tests move this clock
// forward by seconds (and the expiry test by ten minutes) without meaning to start a new day.
const clock = new ManualClock(new Date('2026-01-12T09:00:00.000Z'));
const harness = new DownloadsHarness();
const version = uniqueName('2026.01.10').replace(/[^A-Za-z0-9.-]/g, '');
const files = defaultFiles(3);
const business = randomUUID();
const standard = randomUUID();
const free = randomUUID();
let recorder: TopicRecorder<DownloadRecorded>;

beforeAll(async () => {
  writeVersion(harness.datasetsDir, { version, builtAt: new Date('2026-01-10T00:00:00Z'), files }, { current: true });
  await harness.start({ clock, overrides: { DAILY_DOWNLOAD_LIMIT: '6' } });
  recorder = await TopicRecorder.start(TOPICS.downloadsRecorded);
  await harness.subscribe(business, PLAN_DATASETS.business, new Date(), 'download-business-monthly');
  await harness.subscribe(standard, PLAN_DATASETS.standard, new Date(), 'download-standard-monthly');
  await harness.waitForPlan(business, 'download-business-monthly');
  await harness.waitForPlan(standard, 'download-standard-monthly');
}, 120_000);

afterAll(async () => {
  await recorder?.stop();
  await harness.stop();
});

const link = (accountId: string, database: string, format: string) =>
  harness.api.createDownloadLink({ accountId, database, format, clientIp: '203.0.113.9' });

async function fetchBytes(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('catalogue and entitlement', () => {
  it('lists the version bootstrapped from `current` with sizes, sha256, rows and each file’s entitlement', async () => {
    const listing = await harness.api.listDatabases({ accountId: standard });
    expect(listing.version).toBe(version);
    expect(listing.entitledDatasets).toEqual(['geolocation', 'asn']);
    expect(listing.files.map((file) => `${file.database}/${file.format}`)).toEqual([
      'geolocation/csv',
      'geolocation/ndjson',
      'privacy/csv',
      'privacy/ndjson',
      'asn/csv',
      'asn/ndjson',
      'complete/ipdat',
    ]);
    const geo = listing.files[0]!;
    expect(geo).toMatchObject({
      fileName: 'geolocation.csv',
      sizeBytes: files['geolocation.csv']!.length,
      sha256: sha256(files['geolocation.csv']!),
      updateFrequency: 'every 7 days',
      updatedAt: new Date('2026-01-10T00:00:00Z'),
      entitled: true,
      hasSample: true,
    });
    expect(listing.files.find((file) => file.format === 'ipdat')).toMatchObject({
      rowCount: 123,
      datasets: ['geolocation', 'privacy', 'asn'],
      entitled: false,
      hasSample: false,
    });
    expect(listing.files.filter((file) => file.entitled).map((file) => file.fileName)).toEqual([
      'geolocation.csv',
      'geolocation.ndjson',
      'asn.csv',
      'asn.ndjson',
    ]);
    // Without an account: the catalogue, nothing entitled.
    const anonymous = await harness.api.listDatabases({});
    expect(anonymous.files.every((file) => !file.entitled)).toBe(true);
    // An account billing never told us about has the free plan.
    expect(await harness.api.listDatabases({ accountId: free })).toMatchObject({
      planId: 'download-free',
      entitledDatasets: ['asn'],
    });
  });

  it('refuses files the plan does not include, naming the missing datasets', async () => {
    const privacy = await link(free, 'privacy', 'csv').catch((error: unknown) => error);
    expect(privacy).toBeInstanceOf(PermissionDeniedError);
    expect((privacy as PermissionDeniedError).details).toMatchObject({
      missingDatasets: 'privacy',
      database: 'privacy',
      format: 'csv',
    });
    const complete = await link(standard, 'complete', 'ipdat').catch((error: unknown) => error);
    expect((complete as PermissionDeniedError).details).toMatchObject({ missingDatasets: 'privacy', database: 'complete' });
    const geo = await link(free, 'geolocation', 'ndjson').catch((error: unknown) => error);
    expect((geo as PermissionDeniedError).details['missingDatasets']).toBe('geolocation');
    await expect(link(business, 'complete', 'mmdb')).rejects.toBeInstanceOf(NotFoundError);
    await expect(link(business, 'weather', 'csv')).rejects.toBeInstanceOf(NotFoundError);
    await expect(link('not-an-account', 'asn', 'csv')).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('follows a plan change: a later upgrade entitles, an older event does not undo it', async () => {
    const account = randomUUID();
    await harness.subscribe(account, PLAN_DATASETS.business, new Date(Date.now() + 1000), 'download-business-monthly');
    await harness.waitForPlan(account, 'download-business-monthly');
    await harness.subscribe(account, PLAN_DATASETS.free, new Date(Date.now() - 60_000), 'download-free');
    // A newer event after the stale one shows the stale one was handled (same partition, in order).
    await harness.subscribe(account, PLAN_DATASETS.business, new Date(Date.now() + 2000), 'download-business-yearly');
    await harness.waitForPlan(account, 'download-business-yearly');
    expect((await link(account, 'privacy', 'ndjson')).file?.fileName).toBe('privacy.ndjson');
  });
});

describe('the file server', () => {
  it('serves an entitled link whole with the resume headers, and GetSampleLink free', async () => {
    const created = await link(business, 'privacy', 'csv');
    expect(created.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:9105/files/${version}/privacy\\.csv\\?link=`));
    expect(created.expiresAt!.getTime() - clock.now().getTime()).toBeGreaterThan(599_000);
    const { response, body } = await fetchBytes(onServer(created.url));
    expect(response.status).toBe(200);
    expect(sha256(body)).toBe(sha256(files['privacy.csv']!));
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-length': String(files['privacy.csv']!.length),
      etag: `"${sha256(files['privacy.csv']!)}"`,
      'accept-ranges': 'bytes',
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="privacy.csv"',
    });
    expect(new Date(response.headers.get('last-modified')!).getTime()).toBeGreaterThan(0);

    const sample = await harness.api.getSampleLink({ database: 'asn', format: 'ndjson' });
    expect(sample).toMatchObject({ fileName: 'asn-sample.ndjson', sha256: sha256(files['asn-sample.ndjson']!) });
    const sampleBody = await fetchBytes(onServer(sample.url));
    expect(sampleBody.response.status).toBe(200);
    expect(sha256(sampleBody.body)).toBe(sample.sha256);
    await expect(harness.api.getSampleLink({ database: 'complete', format: 'ipdat' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers 403 JSON and no file byte for an expired link, another account, a tampered signature, an unknown link', async () => {
    const created = await link(business, 'geolocation', 'csv');
    const url = new URL(onServer(created.url));
    const fileHead = files['geolocation.csv']!.subarray(0, 32).toString('latin1');
    const refused = async (target: URL, method = 'GET') => {
      const { response, body } = await fetchBytes(target.toString(), { method });
      expect(response.status, target.toString()).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(response.headers.get('etag')).toBeNull();
      if (method === 'HEAD') expect(body.length).toBe(0);
      else {
        expect(JSON.parse(body.toString())).toMatchObject({ status: 403, error: 'permission_denied' });
        expect(body.toString('latin1')).not.toContain(fileHead);
      }
      return JSON.parse(body.toString() || '{}') as { reason?: string };
    };

    const otherAccount = new URL(url);
    otherAccount.searchParams.set('account', standard);
    expect((await refused(otherAccount)).reason).toBe('invalid_link');

    const tampered = new URL(url);
    const signature = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    await refused(tampered);
    await refused(tampered, 'HEAD');

    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    await refused(longer);

    const otherFile = new URL(url.toString().replace('/geolocation.csv?', '/privacy.csv?'));
    await refused(otherFile);

    // Signed with the real secret, but never issued: unknown to the service.
    const forged = new URL(url);
    const claims = {
      linkId: randomUUID(),
      accountId: business,
      version,
      fileName: 'geolocation.csv',
      expires: Number(url.searchParams.get('expires')),
    };
    forged.searchParams.set('link', claims.linkId);
    forged.searchParams.set('signature', signLink(SECRET, claims));
    await refused(forged);

    const unsigned = new URL(url);
    unsigned.searchParams.delete('signature');
    await refused(unsigned);

    // The genuine link works, until it expires.
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    clock.advance(601_000);
    try {
      expect((await refused(url)).reason).toBe('link_expired');
    } finally {
      clock.advance(-601_000);
    }
  });

  it('serves single byte ranges (206), refuses unsatisfiable ones (416), honours If-Range, answers HEAD', async () => {
    const created = await link(business, 'geolocation', 'csv');
    const url = onServer(created.url);
    const whole = files['geolocation.csv']!;
    const size = whole.length;
    const range = async (value: string, extra: Record<string, string> = {}) =>
      fetchBytes(url, { headers: { range: value, ...extra } });

    const first = await range('bytes=0-99');
    expect(first.response.status).toBe(206);
    expect(first.response.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(first.response.headers.get('content-length')).toBe('100');
    expect(first.body.equals(whole.subarray(0, 100))).toBe(true);

    const middle = await range('bytes=100000-100999');
    expect(middle.response.status).toBe(206);
    expect(middle.body.equals(whole.subarray(100_000, 101_000))).toBe(true);

    const suffix = await range('bytes=-500');
    expect(suffix.response.headers.get('content-range')).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(suffix.body.equals(whole.subarray(size - 500))).toBe(true);

    const open = await range(`bytes=${size - 10}-`);
    expect(open.response.status).toBe(206);
    expect(open.body.equals(whole.subarray(size - 10))).toBe(true);

    const clamped = await range(`bytes=${size - 5}-${size + 1000}`);
    expect(clamped.response.headers.get('content-range')).toBe(`bytes ${size - 5}-${size - 1}/${size}`);

    for (const bad of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=abc', 'bytes=500-100', 'bytes=-0']) {
      const refused = await range(bad);
      expect(refused.response.status, bad).toBe(416);
      expect(refused.response.headers.get('content-range'), bad).toBe(`bytes */${size}`);
      expect(refused.body.toString('latin1')).not.toContain(whole.subarray(0, 20).toString('latin1'));
    }

    // Several ranges: the whole file as a 200 (RFC 9110 lets a server ignore Range).
    const multiple = await range('bytes=0-9,20-29');
    expect(multiple.response.status).toBe(200);
    expect(multiple.body.length).toBe(size);

    const etag = first.response.headers.get('etag')!;
    const fresh = await range('bytes=0-9', { 'if-range': etag });
    expect(fresh.response.status).toBe(206);
    const stale = await range('bytes=0-9', { 'if-range': '"0000"' });
    expect(stale.response.status).toBe(200);
    expect(stale.body.length).toBe(size);

    const head = await fetchBytes(url, { method: 'HEAD' });
    expect(head.response.status).toBe(200);
    expect(head.response.headers.get('content-length')).toBe(String(size));
    expect(head.body.length).toBe(0);
    const headRange = await fetchBytes(url, { method: 'HEAD', headers: { range: 'bytes=-100' } });
    expect(headRange.response.status).toBe(206);
    expect(headRange.response.headers.get('content-length')).toBe('100');
  });

  it('resumes a cut download with curl -C - to a file with the right sha256', async () => {
    const created = await link(business, 'geolocation', 'csv');
    const target = join(harness.datasetsDir, '..', `${uniqueName('curl-download')}.csv`);
    // The cut download: curl got the first 70,001 bytes, then the connection dropped.
    await run('curl', ['-sS', '--fail', '-r', '0-70000', '-o', target, onServer(created.url)]);
    expect(readFileSync(target).length).toBe(70_001);
    const resumed = await run('curl', ['-sS', '--fail', '-C', '-', '-o', target, '-w', '%{http_code}', onServer(created.url)]);
    expect(resumed.stdout).toBe('206');
    expect(sha256(readFileSync(target))).toBe(created.file!.sha256);
    writeFileSync(target, '');
  });
});

describe('history, events and the daily limit', () => {
  it('records each link once, when first served, lists it newest first and publishes DownloadRecorded', async () => {
    const account = randomUUID();
    await harness.subscribe(account, PLAN_DATASETS.standard, new Date(), 'download-standard-monthly');
    await harness.waitForPlan(account, 'download-standard-monthly');
    const asn = await link(account, 'asn', 'csv');
    // Creating a link is not a download.
    expect((await harness.api.listDownloadHistory({ accountId: account })).total).toBe(0);
    // A HEAD is not a download either; two range requests of the same link are one download.
    await fetch(onServer(asn.url), { method: 'HEAD' });
    expect((await fetchBytes(onServer(asn.url), { headers: { range: 'bytes=0-9' } })).response.status).toBe(206);
    expect((await fetchBytes(onServer(asn.url), { headers: { range: 'bytes=10-' } })).response.status).toBe(206);
    clock.advance(5_000);
    const geo = await link(account, 'geolocation', 'ndjson');
    expect((await fetchBytes(onServer(geo.url))).response.status).toBe(200);

    const history = await harness.api.listDownloadHistory({ accountId: account });
    expect(history).toMatchObject({ total: 2, dailyLimit: 6, remainingToday: 4 });
    expect(history.downloads.map((record) => [record.fileName, record.database, record.format, record.version])).toEqual([
      ['geolocation.ndjson', 'geolocation', 'ndjson', version],
      ['asn.csv', 'asn', 'csv', version],
    ]);
    expect(history.downloads[1]).toMatchObject({ clientIp: '127.0.0.1', sizeBytes: files['asn.csv']!.length });
    expect(history.downloads[0]!.downloadedAt!.getTime()).toBe(clock.now().getTime());
    const second = await harness.api.listDownloadHistory({ accountId: account, page: 2, pageSize: 1 });
    expect(second.downloads.map((record) => record.fileName)).toEqual(['asn.csv']);

    const events = await waitFor(
      () => {
        const found = recorder.records.filter((record) => record.event.accountId === account);
        return found.length >= 2 ? found : undefined;
      },
      { timeoutMs: 20_000, what: 'two DownloadRecorded events' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(recorder.records.filter((record) => record.event.accountId === account)).toHaveLength(2);
    expect(events.map((record) => record.key)).toEqual([account, account]);
    expect(events.map((record) => record.event.fileName).sort()).toEqual(['asn.csv', 'geolocation.ndjson']);
    expect(events.find((record) => record.event.fileName === 'asn.csv')?.event).toMatchObject({
      downloadId: history.downloads[1]!.downloadId,
      database: 'asn',
      format: 'csv',
      datasetVersion: version,
      sizeBytes: files['asn.csv']!.length,
      clientIp: '127.0.0.1',
    });
    expect(events[0]!.headers['ce_type']).toBe('ipdata.events.v1.DownloadRecorded');
  });

  it('refuses links over the daily limit with a clear message and a retry-after until 00:00 UTC', async () => {
    const account = randomUUID();
    const start = clock.now();
    try {
      clock.set(new Date('2030-03-04T22:00:00.000Z'));
      const remaining: number[] = [];
      for (let i = 0; i < 6; i++) remaining.push((await link(account, 'asn', 'ndjson')).remainingToday);
      expect(remaining).toEqual([5, 4, 3, 2, 1, 0]);
      const refused = await link(account, 'asn', 'ndjson').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ResourceExhaustedError);
      expect((refused as ResourceExhaustedError).message).toBe(
        'Daily download limit reached (6 per day); it resets at 00:00 UTC.',
      );
      expect((refused as ResourceExhaustedError).retryAfterSeconds).toBe(7200);
      expect((refused as ResourceExhaustedError).details['resetsAt']).toBe('2030-03-05T00:00:00.000Z');
      // Refused attempts do not count; an unentitled attempt does not count either.
      expect(await harness.api.listDownloadHistory({ accountId: account })).toMatchObject({ remainingToday: 0, dailyLimit: 6 });
      clock.set(new Date('2030-03-05T00:00:01.000Z'));
      expect((await link(account, 'asn', 'ndjson')).remainingToday).toBe(5);
    } finally {
      clock.set(start);
    }
  });
});

/** Links are absolute on PUBLIC_BASE_URL (the default, port 9105); the test server listens on a free port. */
function onServer(url: string): string {
  return url.replace('http://127.0.0.1:9105', harness.baseUrl);
}
