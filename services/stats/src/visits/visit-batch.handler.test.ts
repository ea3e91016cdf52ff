import { SiteVisit, VisitSite } from '@ipdata/proto/events/v1/visit';
import { describe, expect, it } from 'vitest';
import { UnavailableError } from '@ipdata/common';
import type { CounterDocDelta, CounterStore } from '../counters/counter-delta.js';
import type { EventClaims } from '../ledger/ledger-ports.js';
import type { UniqueVisitorStore } from './visit-ports.js';
import { VisitBatchHandler } from './visit-batch.handler.js';

/**
 * The round's control flow with recording ports (the real Redis/FerretDB path is covered by
 * test/visits-counting.test.ts): what is claimed, applied and added, and how failures surface.
 */

function visit(id: string, fields: Partial<SiteVisit> = {}): SiteVisit {
  return SiteVisit.fromPartial({
    meta: { id, time: new Date('2026-02-01T10:00:00Z') },
    site: VisitSite.VISIT_SITE_CN,
    page: '/',
    plat: 'pc',
    visitorId: `visitor-${id}`,
    ...fields,
  });
}

function ports(options: { duplicateIds?: string[]; failClaims?: Error } = {}) {
  const claimed: string[] = [];
  const applied: CounterDocDelta[][] = [];
  const added: Array<{ set: string; visitorId: string }> = [];
  const claims: EventClaims = {
    claim: async (records) => {
      if (options.failClaims) throw options.failClaims;
      claimed.push(...records.map((record) => `${record.id}@${record.partition}:${record.offset}`));
      return records.map((record) => !(options.duplicateIds ?? []).includes(record.id));
    },
  };
  const store: CounterStore = {
    collectionName: 'visit_rollups',
    apply: async (_partition, deltas) => {
      applied.push([...deltas]);
      return { written: deltas.length, skippedIncrements: 0 };
    },
  };
  const visitors: UniqueVisitorStore = {
    add: async (additions) => {
      added.push(...additions);
    },
    countEach: async () => [],
    countUnion: async () => 0,
  };
  return { handler: new VisitBatchHandler({ claims, store, visitors }), claimed, applied, added };
}

describe('VisitBatchHandler', () => {
  it('reports poison, claims the valid visits, and counts only first occurrences', async () => {
    const { handler, claimed, applied, added } = ports({ duplicateIds: ['b'] });
    const result = await handler.handle(3, [
      { offset: 10, event: visit('a') },
      { offset: 11, event: visit('bad', { plat: 'tv' }) },
      { offset: 12, event: visit('b') },
    ]);
    expect(result).toEqual({
      counted: 1,
      duplicates: 1,
      poison: [{ offset: 11, reason: 'plat must be "pc" or "wap", got "tv"' }],
    });
    expect(claimed).toEqual(['a@3:10', 'b@3:12']);
    expect(applied).toEqual([
      [expect.objectContaining({ id: '3|cn|2026-02-01T00:00:00.000Z', increments: [expect.objectContaining({ offset: 10 })] })],
    ]);
    expect(added.map((addition) => addition.visitorId)).toEqual(['visitor-a', 'visitor-a', 'visitor-a', 'visitor-a']);
  });

  it('touches nothing when every record is poison or a duplicate', async () => {
    const { handler, applied, added } = ports({ duplicateIds: ['a'] });
    expect(await handler.handle(0, [{ offset: 1, event: visit('a') }])).toEqual({ counted: 0, duplicates: 1, poison: [] });
    expect(await handler.handle(0, [{ offset: 2, event: visit('x', { page: '' }) }])).toMatchObject({
      counted: 0,
      poison: [{ offset: 2 }],
    });
    expect(applied).toEqual([]);
    expect(added).toEqual([]);
  });

  it('turns an infrastructure failure into UnavailableError, so the consumer retries instead of dead-lettering valid visits', async () => {
    const { handler } = ports({ failClaims: new Error('Connection is closed.') });
    const failure = handler.handle(0, [{ offset: 1, event: visit('a') }]);
    await expect(failure).rejects.toBeInstanceOf(UnavailableError);
    await expect(failure).rejects.toThrow(/visit round failed: Connection is closed/);
  });
});
