import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import type { VersionStore } from '../catalogue/catalogue.js';
import type { DatasetVersion } from '../catalogue/dataset-version.js';
import { OpenStreams } from '../files/open-streams.js';
import type { LinkStore } from '../links/download-link.js';
import { VersionPruner, pruneCandidates } from './version-pruner.js';

const version = (name: string, day: number): DatasetVersion => ({
  version: name,
  builtAt: new Date(Date.UTC(2026, 0, day)),
  publishedAt: new Date(Date.UTC(2026, 0, day)),
  files: [],
});

describe('pruneCandidates', () => {
  it('keeps the newest N of the versions both known and on disk', () => {
    const known = [version('a', 1), version('c', 3), version('b', 2), version('gone', 4)];
    expect(pruneCandidates(known, new Set(['a', 'b', 'c', 'unknown']), 1).map((v) => v.version)).toEqual(['b', 'a']);
    expect(pruneCandidates(known, new Set(['a', 'b', 'c']), 3)).toEqual([]);
  });
});

describe('VersionPruner', () => {
  it('never deletes the current version, even when older than the kept ones, and frees a stream-blocked one later', async () => {
    const removed: string[] = [];
    const pruned: string[] = [];
    const store = {
      listLive: async () => [version('old-current', 1), version('b', 2), version('c', 3), version('d', 4)],
      currentVersion: async () => 'old-current',
      markPruned: async (name: string) => void pruned.push(name),
    } as unknown as VersionStore;
    const streams = new OpenStreams();
    const release = streams.open('b')!;
    const pruner = new VersionPruner(
      {
        store,
        folders: { list: async () => ['old-current', 'b', 'c', 'd'], remove: async (name) => void removed.push(name) },
        links: { versionsWithLiveLinks: async () => new Set<string>() } as unknown as LinkStore,
        streams,
        clock: new ManualClock(new Date('2026-01-05T00:00:00.000Z')),
        keep: 2,
      },
      pino({ level: 'silent' }),
    );
    expect(await pruner.runOnce()).toEqual({
      deleted: [],
      blocked: [
        { version: 'b', reason: 'open-stream' },
        { version: 'old-current', reason: 'current' },
      ],
    });
    release();
    release();
    expect(streams.count('b')).toBe(0);
    expect(await pruner.runOnce()).toMatchObject({ deleted: ['b'] });
    expect(removed).toEqual(['b']);
    expect(pruned).toEqual(['b']);
    // A version being pruned opens no new stream.
    expect(streams.open('b')).toBeUndefined();
  });

  it('keeps the newest build across the year end and frees a version when its last link expires after midnight', async () => {
    const built = (name: string, iso: string): DatasetVersion => ({
      version: name,
      builtAt: new Date(iso),
      publishedAt: new Date(iso),
      files: [],
    });
    const known = [
      built('dec31', '2026-12-31T23:59:59.999Z'),
      built('jan01', '2027-01-01T00:00:00.000Z'),
      built('dec30', '2026-12-30T12:00:00.000Z'),
    ];
    expect(pruneCandidates(known, new Set(['dec30', 'dec31', 'jan01']), 1).map((v) => v.version)).toEqual(['dec31', 'dec30']);

    // One link to dec31, valid until 00:05 UTC on 1 January (links live while expiresAt > now, as the store reads them).
    const linkExpiresAt = new Date('2027-01-01T00:05:00.000Z');
    const asked: string[] = [];
    const links = {
      versionsWithLiveLinks: async (now: Date) => {
        asked.push(now.toISOString());
        return new Set(linkExpiresAt.getTime() > now.getTime() ? ['dec31'] : []);
      },
    } as unknown as LinkStore;
    const removed: string[] = [];
    const clock = new ManualClock(new Date('2027-01-01T00:04:59.999Z'));
    const pruner = new VersionPruner(
      {
        store: {
          listLive: async () => known.filter((v) => !removed.includes(v.version)),
          currentVersion: async () => 'jan01',
          markPruned: async () => undefined,
        } as unknown as VersionStore,
        folders: {
          list: async () => known.map((v) => v.version).filter((v) => !removed.includes(v)),
          remove: async (name) => void removed.push(name),
        },
        links,
        streams: new OpenStreams(),
        clock,
        keep: 1,
      },
      pino({ level: 'silent' }),
    );
    expect(await pruner.runOnce()).toEqual({ deleted: ['dec30'], blocked: [{ version: 'dec31', reason: 'live-link' }] });
    clock.advance(1);
    expect(await pruner.runOnce()).toEqual({ deleted: ['dec31'], blocked: [] });
    expect(asked).toEqual(['2027-01-01T00:04:59.999Z', '2027-01-01T00:05:00.000Z']);
    expect(removed).toEqual(['dec30', 'dec31']);
  });
});
