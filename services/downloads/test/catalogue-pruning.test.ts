import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, uniqueName, waitFor } from '@ipdata/common/testing';
import { defaultFiles, patternBytes, writeVersion } from './fixtures/dataset-versions.js';
import { DownloadsHarness, PLAN_DATASETS } from './fixtures/downloads-harness.js';

/**
 * The catalogue following dataset.published.v1 (after bootstrapping from `current`), and
 * pruning with KEEP_VERSIONS=2 on a temporary DATASETS_DIR: the newest two stay, a version with
 * an unexpired link and one with a download in progress stay until they are free, folders the
 * service never heard of are never touched.
 */

const clock = new ManualClock(new Date());
const harness = new DownloadsHarness();
const run = uniqueName('v').replace(/[^A-Za-z0-9]/g, '');
const names = { a: `2026.01.01-${run}a`, b: `2026.01.02-${run}b`, c: `2026.01.03-${run}c`, d: `2026.01.04-${run}d` };
const older = `2025.12.31-${run}z`;
const account = randomUUID();
const built = (day: number) => new Date(Date.UTC(2026, 0, day));

beforeAll(async () => {
  await harness.start({
    clock,
    overrides: { KEEP_VERSIONS: '2' },
    beforeStart: (dir) => writeVersion(dir, { version: names.a, builtAt: built(1), files: defaultFiles(1) }, { current: true }),
  });
  await harness.subscribe(account, PLAN_DATASETS.business, new Date(), 'download-business-monthly');
  await harness.waitForPlan(account, 'download-business-monthly');
}, 120_000);

afterAll(() => harness.stop());

const currentVersion = async () => (await harness.api.listDatabases({})).version;

async function publishAndWait(version: string, builtAt: Date, files = defaultFiles(builtAt.getUTCDate())): Promise<void> {
  writeVersion(harness.datasetsDir, { version, builtAt, files });
  await harness.publish(version);
  await waitFor(async () => (await currentVersion()) === version, { timeoutMs: 30_000, what: `current version ${version}` });
}

/** Descriptors of this process open on a file of `folder` (the service runs in-process). */
function openDescriptorsIn(folder: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(folder) ? [target] : [];
    } catch {
      return [];
    }
  });
}

describe('catalogue', () => {
  it('starts from `current`, follows DatasetPublished to a newer build and ignores an older one', async () => {
    expect(await currentVersion()).toBe(names.a);
    const big = { ...defaultFiles(2), 'geolocation.csv': patternBytes(24 * 1024 * 1024, 2) };
    await publishAndWait(names.b, built(2), big);
    const listing = await harness.api.listDatabases({ accountId: account });
    expect(listing.files.find((file) => file.fileName === 'geolocation.csv')?.sizeBytes).toBe(24 * 1024 * 1024);
    // The pointer file is the dataset job's, never rewritten by downloads.
    expect(readFileSync(join(harness.datasetsDir, 'current'), 'utf8').trim()).toBe(names.a);

    writeVersion(harness.datasetsDir, { version: older, builtAt: built(-1), files: defaultFiles(9) });
    await harness.publish(older);
    const versions = harness.mongo.connection.collection('dataset_versions');
    await waitFor(async () => (await versions.findOne({ _id: older as never })) !== null, { what: 'the older version known' });
    expect(await currentVersion()).toBe(names.b);
  });
});

describe('pruning', () => {
  let request: ClientRequest | undefined;

  it('keeps the newest two, skips a version with an unexpired link and one being downloaded, prunes them later', async () => {
    // An unexpired link to A: it was current when the link was made... A is no longer current, so
    // make the link through the store as CreateDownloadLink did for A (same fields, 10 minutes).
    await harness.mongo.connection.collection('download_links').insertOne({
      _id: randomUUID() as never,
      accountId: account,
      database: 'asn',
      format: 'csv',
      fileName: 'asn.csv',
      version: names.a,
      sizeBytes: 1,
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 600_000),
      requestedFromIp: '',
      served: null,
      pendingEvents: [],
    });
    // A download of B in progress: the client reads nothing, the server's stream stays open.
    const created = await harness.api.createDownloadLink({ accountId: account, database: 'geolocation', format: 'csv' });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request = get(created.url.replace('http://127.0.0.1:9105', harness.baseUrl), resolve);
      request.on('error', reject);
    });
    response.pause();
    expect(response.statusCode).toBe(200);
    await waitFor(() => harness.service.streams.count(names.b) === 1, { what: 'the stream on B open' });

    await publishAndWait(names.c, built(3));
    await publishAndWait(names.d, built(4));
    mkdirSync(join(harness.datasetsDir, 'stray-folder'));
    // Each publication runs pruning: the older build, past the newest two and held by nothing, went at once.
    await waitFor(() => !existsSync(join(harness.datasetsDir, older)), { what: `${older} pruned after the publication` });

    const blocked = await harness.service.pruner.runOnce();
    expect(blocked.deleted).toEqual([]);
    expect(blocked.blocked).toEqual([
      { version: names.b, reason: 'live-link' },
      { version: names.a, reason: 'live-link' },
    ]);
    // Links expire; B is still being read.
    clock.advance(601_000);
    const streaming = await harness.service.pruner.runOnce();
    expect(streaming.blocked).toEqual([{ version: names.b, reason: 'open-stream' }]);
    expect(streaming.deleted).toEqual([names.a]);
    expect(existsSync(join(harness.datasetsDir, names.a))).toBe(false);
    expect(existsSync(join(harness.datasetsDir, names.b))).toBe(true);

    // The client goes away mid-file: the stream closes and so does its file descriptor.
    request!.destroy();
    await waitFor(() => harness.service.streams.count(names.b) === 0, { what: 'the stream on B closed' });
    expect(openDescriptorsIn(join(harness.datasetsDir, names.b))).toEqual([]);
    const later = await harness.service.pruner.runOnce();
    expect(later).toEqual({ deleted: [names.b], blocked: [] });

    expect(readdirSync(harness.datasetsDir).sort()).toEqual([names.c, names.d, 'current', 'stray-folder'].sort());
    expect(await currentVersion()).toBe(names.d);
    // A pruned version's sample is gone with it; the current one's is served.
    expect((await fetch(`${harness.baseUrl}/samples/${names.a}/asn-sample.csv`)).status).toBe(404);
    expect((await fetch(`${harness.baseUrl}/samples/${names.d}/asn-sample.csv`)).status).toBe(200);
  });

  afterAll(() => request?.destroy());
});
