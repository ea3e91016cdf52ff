import { VisitSite } from '@ipdata/proto/events/v1/visit';
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../face-a/face-a-call.js';
import { lastDays, siteVisit } from './site-visit.js';

const context: CallContext = {
  requestId: 'req-1',
  clientIp: '45.1.2.3',
  visitorId: 'v-abc',
  plat: 'wap',
  token: undefined,
  accountId: undefined,
  startedAt: 0,
};

describe('site visits', () => {
  it('one page view: request id as event id (stats de-duplicates by it), site CN, plat and visitor from the request', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    expect(siteVisit(context, { page: '/ipv6', referrer: 'https://example.cn/', accountId: 'acc-1' }, now)).toEqual({
      meta: { id: 'req-1', source: 'bff-cn', time: now, correlationId: '' },
      site: VisitSite.VISIT_SITE_CN,
      page: '/ipv6',
      plat: 'wap',
      visitorId: 'v-abc',
      referrer: 'https://example.cn/',
      accountId: 'acc-1',
    });
  });

  it('lastDays covers whole UTC days up to and including today', () => {
    expect(lastDays(1, new Date('2026-11-23T23:59:59Z'))).toEqual({
      from: new Date('2026-11-23T00:00:00Z'),
      to: new Date('2026-11-24T00:00:00Z'),
    });
    expect(lastDays(7, new Date('2026-11-23T00:00:00Z')).from).toEqual(new Date('2026-11-17T00:00:00Z'));
  });

  it('lastDays turns at UTC midnight: 31 Dec 23:59:59.999 → 1 Jan, and through 29 February', () => {
    expect(lastDays(2, new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      from: new Date('2026-12-30T00:00:00Z'),
      to: new Date('2027-01-01T00:00:00Z'),
    });
    expect(lastDays(2, new Date('2027-01-01T00:00:00.000Z'))).toEqual({
      from: new Date('2026-12-31T00:00:00Z'),
      to: new Date('2027-01-02T00:00:00Z'),
    });
    expect(lastDays(2, new Date('2028-03-01T12:00:00Z')).from).toEqual(new Date('2028-02-29T00:00:00Z'));
    expect(lastDays(1, new Date('2028-02-29T23:59:59.999Z'))).toEqual({
      from: new Date('2028-02-29T00:00:00Z'),
      to: new Date('2028-03-01T00:00:00Z'),
    });
  });
});
