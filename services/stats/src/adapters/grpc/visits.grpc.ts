import type { GetVisitsRequest, GetVisitsResponse } from '@ipdata/proto/stats/v1/stats';
import { InvalidArgumentError } from '@ipdata/common';
import type { VisitQueries } from '../../visits/visit.queries.js';
import { visitSiteName } from '../../visits/visit.validation.js';

/** GetVisits: proto request → VisitQueries → proto response (the lead wraps it in unary()). */
export async function getVisits(queries: VisitQueries, request: GetVisitsRequest): Promise<GetVisitsResponse> {
  const site = visitSiteName(request.site);
  if (site === null) throw new InvalidArgumentError('site must be CN or EN', { reason: 'invalid_site' });
  const result = await queries.visits({ from: request.from, to: request.to, site, page: request.page, plat: request.plat });
  return { days: result.days.map(({ day, pv, uv }) => ({ day, pv, uv })), pv: result.pv, uv: result.uv };
}
