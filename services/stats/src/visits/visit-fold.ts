import { counterKey, dayStart, type CounterDocDelta, type CounterIncrement } from '../counters/counter-delta.js';
import type { ValidVisit, VisitPlat, VisitSiteName } from './visit.validation.js';

/**
 * Page views as counter documents of `visit_rollups`: one per (source partition, site, UTC day),
 * dims `site` and `periodStart` (the day, so the common CounterReader reads them), counters `pv`, `pv:<plat>`, `pg:<page>` and `pgp:<plat>:<page>` (pages through counterKey).
 * The same four scopes name the visitor sets (HyperLogLog) of a day, so a query reads the page
 * views and the unique visitors of one scope.
 */

/** What a query or a counter is about: the whole site, one plat, one page, or one page on one plat. */
export interface VisitScope {
  plat: VisitPlat | null;
  page: string | null;
}

export const ALL_VISITS: VisitScope = Object.freeze({ plat: null, page: null });

/** A visit that passed validation and is the first occurrence of its event id. */
export interface CountedVisit {
  visit: ValidVisit;
  offset: number;
}

/** Every scope a visit counts in. */
export function scopesOf(visit: Pick<ValidVisit, 'plat' | 'page'>): VisitScope[] {
  return [ALL_VISITS, { plat: visit.plat, page: null }, { plat: null, page: visit.page }, { plat: visit.plat, page: visit.page }];
}

/** The page view counter of a scope in a visit_rollups document. */
export function pageViewCounter(scope: VisitScope): string {
  if (scope.page === null) return scope.plat === null ? 'pv' : `pv:${scope.plat}`;
  return scope.plat === null ? counterKey('pg:', scope.page) : counterKey(`pgp:${scope.plat}:`, scope.page);
}

/**
 * The name of the visitor set of (site, day, scope), without the Redis prefix:
 * `<site>:<YYYY-MM-DD>:all | p:<plat> | g:<page> | gp:<plat>:<page>`. The page comes last, so
 * a ':' inside it cannot make two scopes share a set.
 */
export function visitorSetName(site: VisitSiteName, day: Date, scope: VisitScope): string {
  const date = dayStart(day).toISOString().slice(0, 10);
  let tail: string;
  if (scope.page === null) tail = scope.plat === null ? 'all' : `p:${scope.plat}`;
  else tail = scope.plat === null ? `g:${scope.page}` : `gp:${scope.plat}:${scope.page}`;
  return `${site}:${date}:${tail}`;
}

export function visitDocId(partition: number, site: VisitSiteName, day: Date): string {
  return `${partition}|${site}|${dayStart(day).toISOString()}`;
}

/** The visit_rollups deltas of one write round of a partition (visits in offset order). */
export function visitFold(visits: readonly CountedVisit[], partition: number): CounterDocDelta[] {
  const deltas = new Map<
    string,
    { id: string; dims: { site: VisitSiteName; periodStart: Date }; increments: CounterIncrement[] }
  >();
  for (const { visit, offset } of visits) {
    const day = dayStart(visit.time);
    const id = visitDocId(partition, visit.site, day);
    let delta = deltas.get(id);
    if (delta === undefined) {
      delta = { id, dims: { site: visit.site, periodStart: day }, increments: [] };
      deltas.set(id, delta);
    }
    const inc: Record<string, number> = {};
    for (const scope of scopesOf(visit)) inc[pageViewCounter(scope)] = 1;
    delta.increments.push({ offset, inc });
  }
  return [...deltas.values()];
}
