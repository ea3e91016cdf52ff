import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { PermissionDeniedError, ResourceExhaustedError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import { Catalogue, type VersionStore } from '../catalogue/catalogue.js';
import type { DatasetVersion } from '../catalogue/dataset-version.js';
import { Entitlements } from '../entitlements/entitlement.js';
import { FileAccess } from '../files/file-access.js';
import type { DailyCounter, DownloadLink, LinkStore } from './download-link.js';
import { DownloadLinks } from './download-links.js';

const SECRET = 'unit-test-secret-of-at-least-32-chars';
const ACCOUNT = '5d0a4c1e-0000-4000-8000-0000000000aa';
const VERSION: DatasetVersion = {
  version: '2026.12.30-abc',
  builtAt: new Date('2026-12-30T00:00:00.000Z'),
  publishedAt: new Date('2026-12-30T01:00:00.000Z'),
  files: [{ name: 'asn.csv', sizeBytes: 10, sha256: 'a'.repeat(64), rows: 1 }],
};

/** The links, the daily counter and the catalogue in memory; CreateDownloadLink and the file server's check on one clock. */
function setup(start: string, options: { ttlSeconds?: number; dailyLimit?: number } = {}) {
  const clock = new ManualClock(new Date(start));
  const stored = new Map<string, DownloadLink>();
  const links = {
    create: async (link: DownloadLink) => void stored.set(link.linkId, link),
    get: async (id: string) => stored.get(id) ?? null,
  } as unknown as LinkStore;
  const days = new Map<string, number>();
  const counter: DailyCounter = {
    take: async (accountId, day, limit) => {
      const used = days.get(`${accountId}|${day}`) ?? 0;
      if (used >= limit) return null;
      days.set(`${accountId}|${day}`, used + 1);
      return used + 1;
    },
    used: async (accountId, day) => days.get(`${accountId}|${day}`) ?? 0,
  };
  const store = {
    currentVersion: async () => VERSION.version,
    get: async (name: string) => (name === VERSION.version ? VERSION : null),
  } as unknown as VersionStore;
  const catalogue = new Catalogue({ store, source: {} as never, now: () => clock.now() }, pino({ level: 'silent' }));
  const entitlements = new Entitlements(
    { record: async () => undefined, get: async () => null },
    { planId: 'download-free', datasets: ['asn'] },
  );
  const settings = {
    secret: SECRET,
    publicBaseUrl: 'https://downloads.example.test',
    ttlSeconds: options.ttlSeconds ?? 600,
    dailyLimit: options.dailyLimit ?? 2,
  };
  const service = new DownloadLinks({ catalogue, entitlements, links, counter, clock, settings });
  const access = new FileAccess({ catalogue, links, secret: SECRET, clock });
  const create = () => service.create({ accountId: ACCOUNT, database: 'asn', format: 'csv', clientIp: '203.0.113.9' });
  /** The file server's decision on a link's URL: served, or the refusal's reason. */
  const check = async (url: string): Promise<string> => {
    const parsed = new URL(url);
    const [, , version, fileName] = parsed.pathname.split('/');
    try {
      await access.signed(decodeURIComponent(version!), decodeURIComponent(fileName!), parsed.searchParams);
      return 'served';
    } catch (error) {
      if (error instanceof PermissionDeniedError) return error.reason ?? error.message;
      throw error;
    }
  };
  return { clock, service, create, check };
}

describe('download links across midnight, the year end and the leap day', () => {
  it('a link made at 23:55 on 31 December is good until 00:05:00 UTC on 1 January, not a millisecond longer', async () => {
    const { clock, create, check } = setup('2026-12-31T23:55:00.000Z');
    const link = await create();
    expect(link.expiresAt).toEqual(new Date('2027-01-01T00:05:00.000Z'));
    clock.set(new Date('2027-01-01T00:04:59.999Z'));
    expect(await check(link.url)).toBe('served');
    clock.set(new Date('2027-01-01T00:05:00.000Z'));
    expect(await check(link.url)).toBe('link_expired');
  });

  it('counts the daily limit per UTC day: full on 31 December’s last millisecond, free again at 00:00 on 1 January', async () => {
    const { clock, service, create } = setup('2026-12-31T12:00:00.000Z');
    expect((await create()).remainingToday).toBe(1);
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    expect((await create()).remainingToday).toBe(0);
    const refused = await create().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ResourceExhaustedError);
    expect((refused as ResourceExhaustedError).retryAfterSeconds).toBe(1);
    expect((refused as ResourceExhaustedError).details['resetsAt']).toBe('2027-01-01T00:00:00.000Z');

    clock.advance(1);
    expect(await service.remainingToday(ACCOUNT)).toBe(2);
    expect((await create()).remainingToday).toBe(1);
  });

  it('29 February is a day of its own for the limit, and a link made on it expires on 1 March', async () => {
    const { clock, service, create, check } = setup('2028-02-28T23:59:59.000Z', { dailyLimit: 1 });
    await create();
    expect(await service.remainingToday(ACCOUNT)).toBe(0);
    clock.set(new Date('2028-02-29T23:58:00.000Z'));
    expect(await service.remainingToday(ACCOUNT)).toBe(1);
    const link = await create();
    expect(link.expiresAt).toEqual(new Date('2028-03-01T00:08:00.000Z'));
    clock.set(new Date('2028-03-01T00:00:00.000Z'));
    expect(await service.remainingToday(ACCOUNT)).toBe(1);
    expect(await check(link.url)).toBe('served');
    clock.set(new Date('2028-03-01T00:08:00.000Z'));
    expect(await check(link.url)).toBe('link_expired');
  });
});
