import { defineCall, type FaceACall } from '../face-a/face-a-call.js';
import type { SessionResolver } from '../face-a/face-a.dispatcher.js';
import type { FieldSpec } from '../face-a/input-schema.js';
import { optionalAccount } from '../visits/optional-account.js';
import { lastDays, siteVisit } from '../visits/site-visit.js';
import type { VisitCounts, VisitSink } from '../visits/visit.ports.js';

export interface VisitCallsDeps {
  visits: VisitSink;
  visitCounts: VisitCounts;
  sessions: SessionResolver;
}

/** A route path of the site without query string or fragment (SiteVisit.page, at most 200 characters). */
const PAGE = {
  kind: 'string',
  label: '页面路径',
  required: true,
  maxLength: 200,
  pattern: /^\/[^\s?#]*$/,
  patternMsg: '页面路径应以 / 开头，且不含查询参数',
} as const satisfies FieldSpec;
const REFERRER = { kind: 'string', label: '来源页面', required: false, maxLength: 1000 } as const satisfies FieldSpec;
const VISIT_INPUT = { page: PAGE, referrer: REFERRER } as const;

/**
 * Face A's page views: each of the three calls records exactly one SiteVisit on site.visit.v1
 * (README.md "Visits" says which one the client sends when), and pc_uv_pv reads the counts back
 * from stats.
 */
export function visitCalls(deps: VisitCallsDeps): FaceACall[] {
  const pageView = (name: string) =>
    defineCall({
      name,
      path: `/v1/${name}`,
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: VISIT_INPUT,
      handle: async (context, { page, referrer }) => {
        const accountId = await optionalAccount(context, deps.sessions);
        await deps.visits.send(siteVisit(context, { page, referrer: referrer ?? '', accountId }));
        return { data: null };
      },
    });
  return [
    pageView('get_into_add'),
    pageView('visit_history_add'),
    pageView('cl_access_callback'),
    defineCall({
      name: 'pc_uv_pv',
      path: '/v1/pc_uv_pv',
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: {
        days: { kind: 'int', label: '天数', required: false, min: 1, max: 90, default: 7 },
        page: { ...PAGE, required: false },
      },
      handle: async (_context, { days, page }) => {
        const counts = await deps.visitCounts.visits({ ...lastDays(days), page: page ?? '' });
        return {
          data: {
            pv: counts.pv,
            uv: counts.uv,
            days: counts.days.map((bucket) => ({
              day: bucket.day?.toISOString().slice(0, 10) ?? null,
              pv: bucket.pv,
              uv: bucket.uv,
            })),
          },
        };
      },
    }),
  ];
}
