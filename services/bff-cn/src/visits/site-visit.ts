import { VisitSite, type SiteVisit } from '@ipdata/proto/events/v1/visit';
import type { CallContext } from '../face-a/face-a-call.js';

/**
 * One face A page view as a SiteVisit: the event id is the request id (stats de-duplicates page
 * views by it, so a retried send counts once), the time is now (it decides the UTC day), plat
 * comes from the `plat` header and the visitor id from the framework; the account is set only
 * when the visitor sent a valid token.
 */
export function siteVisit(
  context: CallContext,
  visit: { page: string; referrer: string; accountId: string },
  now: Date = new Date(),
): SiteVisit {
  return {
    meta: { id: context.requestId, source: 'bff-cn', time: now, correlationId: '' },
    site: VisitSite.VISIT_SITE_CN,
    page: visit.page,
    plat: context.plat,
    visitorId: context.visitorId,
    referrer: visit.referrer,
    accountId: visit.accountId,
  };
}

/** The UTC days of pc_uv_pv: the last `days` days up to and including today, as [from, to). */
export function lastDays(days: number, now: Date = new Date()): { from: Date; to: Date } {
  const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { from: new Date(to - days * 86_400_000), to: new Date(to) };
}
