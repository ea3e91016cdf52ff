import { InvalidArgumentError } from '@ipdata/common';
import { periodRange } from '../trends/period-range.js';
import { pageViewCounter, visitorSetName, type VisitScope } from './visit-fold.js';
import type { CounterReader } from '../counters/counter-query.js';
import type { UniqueVisitorStore } from './visit-ports.js';
import { isVisitPlat, MAX_PAGE_LENGTH, type VisitSiteName } from './visit.validation.js';

export interface VisitsQuery {
  from: Date | undefined;
  to: Date | undefined;
  site: VisitSiteName;
  /** '' = every page. */
  page: string;
  /** 'pc', 'wap' or '' for both. */
  plat: string;
}

export interface VisitsResult {
  /** Every day of the range, oldest first. */
  days: Array<{ day: Date; pv: number; uv: number }>;
  pv: number;
  /** Distinct visitors over the whole range (not the sum of the days). */
  uv: number;
}

/**
 * Days per call: the visitor sets live about 400 days (unique-visitors.redis.ts), and one range
 * count merges one set per day.
 */
export const MAX_VISIT_DAYS = 400;

/** Page views (exact, visit_rollups) and unique visitors (HyperLogLog) per day of a site. */
export class VisitQueries {
  constructor(
    private readonly deps: {
      /** visit_rollups (MongoCounterReader). */
      reader: CounterReader;
      visitors: UniqueVisitorStore;
    },
  ) {}

  async visits(query: VisitsQuery): Promise<VisitsResult> {
    if (query.plat !== '' && !isVisitPlat(query.plat)) {
      throw new InvalidArgumentError('plat must be "pc", "wap" or empty', { reason: 'invalid_plat' });
    }
    if (query.page.length > MAX_PAGE_LENGTH) {
      throw new InvalidArgumentError(`page is at most ${MAX_PAGE_LENGTH} characters`, { reason: 'invalid_page' });
    }
    const range = periodRange(query.from, query.to, 'day', MAX_VISIT_DAYS);
    const scope: VisitScope = { plat: query.plat === '' ? null : query.plat, page: query.page === '' ? null : query.page };
    const sets = range.starts.map((day) => visitorSetName(query.site, day, scope));
    const counter = pageViewCounter(scope);
    const [docs, uvs, union] = await Promise.all([
      this.deps.reader.find({ equals: { site: query.site }, from: range.from, to: range.to }),
      this.deps.visitors.countEach(sets),
      this.deps.visitors.countUnion(sets),
    ]);
    // Σ over the partitions' documents of each day.
    const pvByDay = new Map<number, number>();
    for (const doc of docs) {
      const at = doc.periodStart.getTime();
      pvByDay.set(at, (pvByDay.get(at) ?? 0) + (doc.c[counter] ?? 0));
    }
    // Each uv is an estimate with its own error: keep it within what the true counts obey (a day's
    // visitors ≤ its page views; the range between its largest day and the sum of its days), so the
    // answer never contradicts itself.
    const days = range.starts.map((day, index) => {
      const pv = pvByDay.get(day.getTime()) ?? 0;
      return { day, pv, uv: Math.min(uvs[index] ?? 0, pv) };
    });
    const sumOfDays = days.reduce((sum, day) => sum + day.uv, 0);
    const largestDay = days.reduce((max, day) => Math.max(max, day.uv), 0);
    return {
      days,
      pv: days.reduce((sum, day) => sum + day.pv, 0),
      uv: Math.min(Math.max(union, largestDay), sumOfDays),
    };
  }
}
