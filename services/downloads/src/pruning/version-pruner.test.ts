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
        clock: new ManualClock(),
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
});
