import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { SiteContent } from '../content/site-content.ports.js';
import { FaceAError } from '../face-a/envelope.js';
import type { CallContext, FaceACall } from '../face-a/face-a-call.js';
import type { VisitCounts } from '../visits/visit.ports.js';
import { contentCalls } from './content.calls.js';
import { visitCalls } from './visit.calls.js';

const context: CallContext = {
  requestId: 'r',
  clientIp: '45.1.2.3',
  visitorId: 'v-1',
  plat: 'pc',
  token: undefined,
  accountId: undefined,
  startedAt: 0,
};
const sessions = { resolve: () => Promise.reject(new Error('not called')) };
const logger = pino({ level: 'silent' });

/** Runs one call's handle with an already validated input. */
const run = (calls: Map<string, FaceACall>, name: string, input: Record<string, unknown>) =>
  (calls.get(name) as FaceACall).handle(context, input as never);

function build(content: Partial<SiteContent>, visitCounts: Partial<VisitCounts> = {}): Map<string, FaceACall> {
  const deps = { content: content as SiteContent, visitCounts: visitCounts as VisitCounts, sessions, siteName: '站点', logger };
  const calls = [...contentCalls(deps), ...visitCalls({ ...deps, visits: { send: () => Promise.resolve() } })];
  return new Map(calls.map((call) => [call.name, call]));
}

describe('content and visit call table', () => {
  it('follows spec section 7: silent calls, GET find_index, one news triple per product', () => {
    const calls = build({});
    const silent = [...calls.values()].filter((call) => call.silent).map((call) => call.name);
    expect(silent.sort()).toEqual(
      [
        'customer_service_list',
        'cl_access_callback',
        'visit_history_add',
        'get_into_add',
        'pc_uv_pv',
        ...['ip', 'asn', 'report', 'industry'].flatMap((product) => [`news_${product}_detail`, `news_${product}_recommend`]),
      ].sort(),
    );
    expect(calls.get('find_index')?.methods).toEqual(['GET']);
    expect([...calls.values()].every((call) => !call.needsLogin)).toBe(true);
    expect(calls.get('news_industry_list')?.path).toBe('/v1/news_industry_list');
  });

  it('position_add range-checks the coordinates before content is asked', async () => {
    const sent: unknown[] = [];
    const calls = build({
      reportPosition: (_sender, form) => (sent.push(form), Promise.resolve({ id: 's1', receivedAt: undefined })),
    });
    const ip = { family: 4, text: '1.0.0.1', reserved: 0 };
    await expect(run(calls, 'position_add', { ip, latitude: '90.5', longitude: '0' })).rejects.toEqual(
      new FaceAError(400, '纬度须在 -90 到 90 之间'),
    );
    await expect(run(calls, 'position_add', { ip, latitude: '0', longitude: '-181' })).rejects.toBeInstanceOf(FaceAError);
    expect(sent).toEqual([]);
    await run(calls, 'position_add', { ip, latitude: '22.5', longitude: '114.05', accuracy: '30' });
    expect(sent).toEqual([{ ip: '1.0.0.1', latitude: 22.5, longitude: 114.05, accuracyM: 30, address: '' }]);
  });

  it('a news detail of another product is not found under this product', async () => {
    const summary = {
      id: 'a',
      product: 'asn',
      title: '',
      summary: '',
      coverUrl: '',
      publishedAt: undefined,
      isSample: true,
      views: 0,
      tags: [],
    };
    const calls = build({
      getNews: () => Promise.resolve({ summary, bodyHtml: '', author: '', previous: undefined, next: undefined }),
    });
    await expect(run(calls, 'news_ip_detail', { id: 'a' })).rejects.toEqual(new FaceAError(404, '文章不存在或已下线'));
  });
});
