import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import type { CounterReader } from '../counters/counter-query.js';
import type { UniqueVisitorStore } from './visit-ports.js';
import { VisitQueries } from './visit.queries.js';

const D1 = new Date('2026-02-01T00:00:00Z');
const D2 = new Date('2026-02-02T00:00:00Z');
const D3 = new Date('2026-02-03T00:00:00Z');

/** pv: one document per entry (several for a day = several partitions). */
function queriesWith(pv: Array<{ day: Date; c: Record<string, number> }>, uv: Record<string, number>, union: number) {
  const asked: { sites: unknown[]; sets: string[][] } = { sites: [], sets: [] };
  const reader: CounterReader = {
    find: async (query) => {
      asked.sites.push(query.equals['site']);
      return pv.map(({ day, c }, index) => ({ id: String(index), partition: index, periodStart: day, dims: {}, c }));
    },
  };
  const visitors: UniqueVisitorStore = {
    add: async () => {},
    countEach: async (sets) => {
      asked.sets.push([...sets]);
      return sets.map((set) => uv[set] ?? 0);
    },
    countUnion: async () => union,
  };
  return { queries: new VisitQueries({ reader, visitors }), asked };
}

describe('VisitQueries', () => {
  it('answers pv and uv per day, the range pv and the union of the days as range uv', async () => {
    const { queries, asked } = queriesWith(
      [
        { day: D1, c: { pv: 50, 'pgp:wap:/ipv6': 7 } },
        { day: D1, c: { pv: 20, 'pg:/ipv6': 9, 'pgp:wap:/ipv6': 3 } },
      ],
      { 'cn:2026-02-01:gp:wap:/ipv6': 4 },
      4,
    );
    const result = await queries.visits({ from: D1, to: D3, site: 'cn', page: '/ipv6', plat: 'wap' });
    expect(asked.sites).toEqual(['cn']);
    expect(asked.sets).toEqual([['cn:2026-02-01:gp:wap:/ipv6', 'cn:2026-02-02:gp:wap:/ipv6']]);
    expect(result).toEqual({
      days: [
        { day: D1, pv: 10, uv: 4 },
        { day: D2, pv: 0, uv: 0 },
      ],
      pv: 10,
      uv: 4,
    });
  });

  it('keeps estimates consistent: day uv ≤ day pv, largest day ≤ range uv ≤ sum of days', async () => {
    const pv = [
      { day: D1, c: { pv: 100 } },
      { day: D2, c: { pv: 5 } },
    ];
    const uv = { 'en:2026-02-01:all': 60, 'en:2026-02-02:all': 7 };
    const high = await queriesWith(pv, uv, 70).queries.visits({ from: D1, to: D3, site: 'en', page: '', plat: '' });
    expect(high.days.map((day) => day.uv)).toEqual([60, 5]);
    expect(high.uv).toBe(65);
    const low = await queriesWith(pv, uv, 58).queries.visits({ from: D1, to: D3, site: 'en', page: '', plat: '' });
    expect(low.uv).toBe(60);
  });

  it('rejects a bad plat, a too long page and a range over 400 days', async () => {
    const { queries } = queriesWith([], {}, 0);
    await expect(queries.visits({ from: D1, to: D2, site: 'cn', page: '', plat: 'tv' })).rejects.toThrow(InvalidArgumentError);
    await expect(queries.visits({ from: D1, to: D2, site: 'cn', page: 'x'.repeat(201), plat: '' })).rejects.toThrow(/200/);
    await expect(
      queries.visits({ from: D1, to: new Date(D1.getTime() + 401 * 86_400_000), site: 'cn', page: '', plat: '' }),
    ).rejects.toThrow(/at most 400/);
  });
});
