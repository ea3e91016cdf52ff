import { VisitSite, type SiteVisit } from '@ipdata/proto/events/v1/visit';

/**
 * What a site.visit.v1 record must hold to be counted. A record that fails is poison: it can never
 * be counted, so it goes to the DLQ with the reason instead of blocking its partition.
 */

export type VisitSiteName = 'cn' | 'en';
export type VisitPlat = 'pc' | 'wap';

export const VISIT_PLATS: readonly VisitPlat[] = ['pc', 'wap'];
/** stats.proto and visit.proto: a page is a route template or path of at most 200 characters. */
export const MAX_PAGE_LENGTH = 200;
/** As for usage events: an id is a request id; a longer one is a broken producer (and a big claim key). */
export const MAX_ID_LENGTH = 200;

/** A visit that can be counted. */
export interface ValidVisit {
  id: string;
  time: Date;
  site: VisitSiteName;
  page: string;
  plat: VisitPlat;
  visitorId: string;
}

export type VisitValidation = { ok: true; visit: ValidVisit } | { ok: false; reason: string };

/** The site's name in document ids and Redis keys, or null for an unknown site. */
export function visitSiteName(site: VisitSite): VisitSiteName | null {
  if (site === VisitSite.VISIT_SITE_CN) return 'cn';
  if (site === VisitSite.VISIT_SITE_EN) return 'en';
  return null;
}

export function isVisitPlat(plat: string): plat is VisitPlat {
  return (VISIT_PLATS as readonly string[]).includes(plat);
}

export function validateVisit(event: SiteVisit): VisitValidation {
  const id = event.meta?.id ?? '';
  if (id === '') return { ok: false, reason: 'meta.id is missing' };
  if (id.length > MAX_ID_LENGTH) return { ok: false, reason: `meta.id is longer than ${MAX_ID_LENGTH} characters` };
  const time = event.meta?.time;
  if (time === undefined || Number.isNaN(time.getTime())) return { ok: false, reason: 'meta.time is missing' };
  if (event.visitorId === '') return { ok: false, reason: 'visitor_id is missing' };
  const site = visitSiteName(event.site);
  if (site === null) return { ok: false, reason: `unknown site ${event.site}` };
  if (!isVisitPlat(event.plat))
    return { ok: false, reason: `plat must be "pc" or "wap", got ${JSON.stringify(event.plat.slice(0, 20))}` };
  if (event.page === '') return { ok: false, reason: 'page is empty' };
  if (event.page.length > MAX_PAGE_LENGTH) {
    return { ok: false, reason: `page is ${event.page.length} characters, at most ${MAX_PAGE_LENGTH}` };
  }
  return { ok: true, visit: { id, time, site, page: event.page, plat: event.plat, visitorId: event.visitorId } };
}
