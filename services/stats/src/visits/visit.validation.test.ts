import { SiteVisit, VisitSite } from '@ipdata/proto/events/v1/visit';
import { describe, expect, it } from 'vitest';
import { validateVisit } from './visit.validation.js';

const TIME = new Date('2026-02-01T10:00:00Z');

function visit(fields: Partial<SiteVisit> = {}): SiteVisit {
  return SiteVisit.fromPartial({
    meta: { id: 'v1', source: 'bff-cn', time: TIME },
    site: VisitSite.VISIT_SITE_CN,
    page: '/ipv6',
    plat: 'wap',
    visitorId: 'visitor-1',
    ...fields,
  });
}

describe('validateVisit', () => {
  it('accepts a complete visit', () => {
    expect(validateVisit(visit())).toEqual({
      ok: true,
      visit: { id: 'v1', time: TIME, site: 'cn', page: '/ipv6', plat: 'wap', visitorId: 'visitor-1' },
    });
    expect(validateVisit(visit({ site: VisitSite.VISIT_SITE_EN, plat: 'pc', page: 'x'.repeat(200) })).ok).toBe(true);
  });

  it.each([
    ['missing id', visit({ meta: { id: '', source: 'bff-cn', time: TIME, correlationId: '' } }), /meta\.id/],
    [
      'too long id',
      visit({ meta: { id: 'i'.repeat(201), source: 'bff-cn', time: TIME, correlationId: '' } }),
      /meta\.id is longer than 200/,
    ],
    ['missing time', visit({ meta: { id: 'v1', source: 'bff-cn', time: undefined, correlationId: '' } }), /meta\.time/],
    ['missing meta', SiteVisit.fromPartial({ site: VisitSite.VISIT_SITE_CN, page: '/', plat: 'pc', visitorId: 'v' }), /meta\.id/],
    ['missing visitor', visit({ visitorId: '' }), /visitor_id/],
    ['unspecified site', visit({ site: VisitSite.VISIT_SITE_UNSPECIFIED }), /unknown site 0/],
    ['unknown site number', visit({ site: 9 as VisitSite }), /unknown site 9/],
    ['unknown plat', visit({ plat: 'tablet' }), /plat must be/],
    ['empty plat', visit({ plat: '' }), /plat must be/],
    ['empty page', visit({ page: '' }), /page is empty/],
    ['page too long', visit({ page: 'x'.repeat(201) }), /201 characters/],
  ])('rejects a visit with %s', (_name, event, reason) => {
    const result = validateVisit(event);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
