import { UsageChannel, UsageResult } from '@ipdata/proto/events/v1/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// The ASN calls against the real lookup engine (its synthetic dataset: AS13335 Cloudflare, Inc.,
// US, DCH, 1.0.0.0/24; AS15169 Google LLC, US, 8.8.8.0/24 and 2001:4860::/32), Redis and Kafka.

const h = new BffCnHarness();
beforeAll(() => h.start());
afterAll(() => h.stop());

const GOOGLE = {
  asn: 15169,
  asn_text: 'AS15169',
  name: 'Google LLC',
  organization: 'Google LLC',
  country_code: 'US',
  country_name: '美国',
  usage_type: null,
  ipv4_prefix_count: 1,
  ipv6_prefix_count: 1,
};

describe('asn_search', () => {
  it('answers the ASN with its prefixes, paged; "AS" in any case or the bare number', async () => {
    const answer = await h.call('/v1/asn_search', { form: { asn: 'as15169' } });
    expect(answer.body).toEqual({
      code: 200,
      msg: '成功',
      data: { ...GOOGLE, prefixes: ['8.8.8.0/24', '2001:4860::/32'], total_prefixes: 2, page: 1, page_size: 50 },
    });
    const second = await h.call('/v1/asn_search', { form: { asn: '15169', page: '2', page_size: '1' } });
    expect(second.body.data).toMatchObject({ prefixes: ['2001:4860::/32'], total_prefixes: 2, page: 2, page_size: 1 });
    const cloudflare = await h.call('/v1/asn_search', { form: { asn: 'AS13335' } });
    expect(cloudflare.body.data).toMatchObject({
      asn: 13335,
      name: 'Cloudflare, Inc.',
      usage_type: 'DCH',
      prefixes: ['1.0.0.0/24'],
    });
  });

  it('answers 404 for an unknown ASN and 400 for a malformed one', async () => {
    expect((await h.call('/v1/asn_search', { form: { asn: 'AS64512' } })).body).toEqual({
      code: 404,
      msg: '未找到该 ASN',
      data: null,
    });
    for (const asn of ['ASX', '0', '4294967296', 'AS 13335', '13335.5']) {
      expect((await h.call('/v1/asn_search', { form: { asn } })).body, asn).toEqual({
        code: 400,
        msg: '请输入正确的 ASN（如 AS13335 或 13335）',
        data: null,
      });
    }
    expect((await h.call('/v1/asn_search', { form: {} })).body).toEqual({ code: 400, msg: '请输入ASN', data: null });
  });
});

describe('asn_list_search', () => {
  it('finds by number or words (any case), filters by country, pages with a total', async () => {
    const byNumber = await h.call('/v1/asn_list_search', { form: { keyword: 'AS13335' } });
    expect(byNumber.body.data).toMatchObject({ total: 1, page: 1, page_size: 20, list: [{ asn: 13335, country_name: '美国' }] });
    const words = await h.call('/v1/asn_list_search', { form: { keyword: 'google llc' } });
    expect(words.body.data).toEqual({ list: [GOOGLE], total: 1, page: 1, page_size: 20 });
    const all = await h.call('/v1/asn_list_search', { form: { country: 'us', page_size: '1', page: '2' } });
    expect(all.body.data).toEqual({ list: [GOOGLE], total: 2, page: 2, page_size: 1 });
    const none = await h.call('/v1/asn_list_search', { form: { keyword: 'google', country: 'CN' } });
    expect(none.body).toEqual({ code: 200, msg: '成功', data: { list: [], total: 0, page: 1, page_size: 20 } });
    expect((await h.call('/v1/asn_list_search', { form: { page_size: '101' } })).body.code).toBe(400);
  });
});

describe('asn_relation_search', () => {
  it('answers ASN ↔ organisation ↔ prefixes with the other ASNs of the organisation; 404 when unknown', async () => {
    const answer = await h.call('/v1/asn_relation_search', { form: { asn: 'AS15169', page_size: '1' } });
    expect(answer.body).toEqual({
      code: 200,
      msg: '成功',
      data: {
        asn: GOOGLE,
        organization: { name: 'Google LLC', asn_count: 1 },
        prefixes: ['8.8.8.0/24'],
        total_prefixes: 2,
        page: 1,
        page_size: 1,
        siblings: [],
        siblings_total: 0,
      },
    });
    expect((await h.call('/v1/asn_relation_search', { form: { asn: '64512' } })).body).toEqual({
      code: 404,
      msg: '未找到该 ASN',
      data: null,
    });
  });
});

describe('ASN calls as lookups of the visitor', () => {
  it('emits one usage event per call, without an address, found or not found', async () => {
    const visitor = randomVisitor();
    const ids: string[] = [];
    for (const [path, form] of [
      ['/v1/asn_search', { asn: '13335' }],
      ['/v1/asn_list_search', { keyword: 'nothing matches this' }],
      ['/v1/asn_relation_search', { asn: '64512' }],
    ] as const) {
      ids.push((await h.call(path, { form, from: visitor })).headers.get('x-request-id') ?? '');
    }
    const events = await Promise.all(
      ids.map((id) => h.usage.waitFor((e) => e.meta?.id === id, { what: `usage event ${id}`, timeoutMs: 20_000 })),
    );
    expect(events.map((e) => [e.endpoint, e.result, e.count, e.ip, e.ipVersion, e.countryCode])).toEqual([
      ['asn_search', UsageResult.USAGE_RESULT_FOUND, 1, '', 0, ''],
      ['asn_list_search', UsageResult.USAGE_RESULT_NOT_FOUND, 1, '', 0, ''],
      ['asn_relation_search', UsageResult.USAGE_RESULT_NOT_FOUND, 1, '', 0, ''],
    ]);
    expect(events[0]).toMatchObject({
      channel: UsageChannel.USAGE_CHANNEL_WEB_CN,
      visitorId: expect.stringMatching(/^v-[0-9a-f]{32}$/) as unknown,
    });
  });

  it('counts against the per-visitor lookup limit shared with address lookups; bad input is not counted', async () => {
    const visitor = randomVisitor();
    // Malformed input is refused before the limit is taken.
    for (let i = 0; i < 6; i++)
      expect((await h.call('/v1/asn_search', { form: { asn: 'x' }, from: visitor })).body.code).toBe(400);
    expect((await h.call('/v2/query?ip=8.8.8.8', { from: visitor })).body.code).toBe(200);
    expect((await h.call('/v1/asn_search', { form: { asn: '13335' }, from: visitor })).body.code).toBe(200);
    expect((await h.call('/v1/asn_list_search', { form: {}, from: visitor })).body.code).toBe(200);
    expect((await h.call('/v1/asn_relation_search', { form: { asn: '13335' }, from: visitor })).body.code).toBe(200);
    expect((await h.call('/v1/asn_relation_search', { form: { asn: '64512' }, from: visitor })).body.code).toBe(404);
    // The harness allows 5 lookups a minute per visitor.
    for (const [path, form] of [
      ['/v1/asn_search', { asn: '13335' }],
      ['/v1/asn_list_search', {}],
      ['/v1/asn_relation_search', { asn: '13335' }],
    ] as const) {
      expect((await h.call(path, { form, from: visitor })).body).toEqual({
        code: 429,
        msg: '查询过于频繁，请稍后再试',
        data: null,
      });
    }
    expect((await h.call('/v1/asn_search', { form: { asn: '13335' }, from: randomVisitor() })).body.code).toBe(200);
  });
});
