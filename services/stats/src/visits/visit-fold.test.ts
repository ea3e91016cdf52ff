import { describe, expect, it } from 'vitest';
import { ALL_VISITS, pageViewCounter, scopesOf, visitFold, visitorSetName } from './visit-fold.js';
import type { ValidVisit } from './visit.validation.js';

function visit(fields: Partial<ValidVisit>): ValidVisit {
  return { id: 'v', time: new Date('2026-02-01T10:00:00Z'), site: 'cn', page: '/', plat: 'pc', visitorId: 'x', ...fields };
}

describe('visitFold', () => {
  it('counts pv, pv per plat, per page and per page and plat in one document per (partition, site, day)', () => {
    const deltas = visitFold(
      [
        { offset: 5, visit: visit({ page: '/ipv6', plat: 'wap' }) },
        { offset: 6, visit: visit({ page: '/a.b', plat: 'pc', time: new Date('2026-02-01T23:59:59Z') }) },
        { offset: 7, visit: visit({ site: 'en', time: new Date('2026-02-02T00:00:00Z') }) },
      ],
      2,
    );
    expect(deltas).toEqual([
      {
        id: '2|cn|2026-02-01T00:00:00.000Z',
        dims: { site: 'cn', periodStart: new Date('2026-02-01T00:00:00Z') },
        increments: [
          { offset: 5, inc: { pv: 1, 'pv:wap': 1, 'pg:/ipv6': 1, 'pgp:wap:/ipv6': 1 } },
          { offset: 6, inc: { pv: 1, 'pv:pc': 1, 'pg:/a%2Eb': 1, 'pgp:pc:/a%2Eb': 1 } },
        ],
      },
      {
        id: '2|en|2026-02-02T00:00:00.000Z',
        dims: { site: 'en', periodStart: new Date('2026-02-02T00:00:00Z') },
        increments: [{ offset: 7, inc: { pv: 1, 'pv:pc': 1, 'pg:/': 1, 'pgp:pc:/': 1 } }],
      },
    ]);
  });

  it('names one visitor set per (site, day, scope), the same scopes as the counters', () => {
    const v = visit({ page: '/a:b', plat: 'wap', time: new Date('2026-02-01T10:00:00Z') });
    expect(scopesOf(v).map((scope) => visitorSetName('cn', v.time, scope))).toEqual([
      'cn:2026-02-01:all',
      'cn:2026-02-01:p:wap',
      'cn:2026-02-01:g:/a:b',
      'cn:2026-02-01:gp:wap:/a:b',
    ]);
    expect(scopesOf(v).map(pageViewCounter)).toEqual(['pv', 'pv:wap', 'pg:/a:b', 'pgp:wap:/a:b']);
    expect(pageViewCounter(ALL_VISITS)).toBe('pv');
  });
});
