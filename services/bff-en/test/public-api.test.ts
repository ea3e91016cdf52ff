import { createServer, type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bffEnUrl,
  createTestAccount,
  spawnBffEn,
  systemClients,
  upgradeTestAccount,
  useTestSystem,
} from '../../../scripts/test/system/index.js';

// The public API on the shared test system (scripts/test/system): real lookup engine and
// dataset, real auth and billing, Redis quota, Kafka ledger.

beforeAll(() => useTestSystem());

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function get(path: string, key: string | undefined, init: RequestInit = {}, base = bffEnUrl()): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
  const response = await fetch(`${base}${path}`, { ...init, headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function json(answer: Answer): Record<string, unknown> {
  return JSON.parse(answer.text) as Record<string, unknown>;
}

const SPEC_FIELDS = [
  'ip',
  'country_code',
  'country_name',
  'country_capital',
  'region_name',
  'city_name',
  'latitude',
  'longitude',
  'zip_code',
  'is_eu',
  'calling_code',
  'country_flag',
  'weather_station_code',
  'weather_station_name',
  'elevation',
  'asn',
  'time_zone',
  'currency',
  'is_proxy',
  'proxy_data',
  'start_ip',
  'end_ip',
  'network',
  'reserved',
];

describe('public API: answers', () => {
  it('answers the full IP info result with every field, canonical ip, the containing network and the quota', async () => {
    const { apiKey } = await createTestAccount({ plan: 'api-test-large' });
    const answer = await get('/v1/ip/8.8.8.8', apiKey);
    expect(answer.status).toBe(200);
    const body = json(answer);
    expect(Object.keys(body)).toEqual(SPEC_FIELDS);
    expect(body['ip']).toBe('8.8.8.8');
    expect(body['country_code']).toBe('US');
    expect(body['weather_station_code']).toBeNull();
    expect(body['elevation']).toBeNull();
    expect(body['reserved']).toBeNull();
    // Coordinates as published (4 decimals), not the dataset's 32-bit float noise.
    expect(String(body['latitude'])).toMatch(/^-?\d+(\.\d{1,4})?$/);
    expect(body['network']).toMatch(/^8\.8\.\d+\.\d+\/\d+$/);
    expect(Object.keys(body['proxy_data'] as object)).toEqual([
      'is_vpn',
      'is_tor',
      'is_data_center',
      'is_proxy',
      'is_relay',
      'is_hosting',
    ]);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('10000000');
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBe(10_000_000 - 1);
    expect(answer.headers.get('x-request-id')).toMatch(/^r-/);

    const v6 = json(await get('/v1/ip/2001:4860:4860:0:0:0:0:8888', apiKey));
    expect(v6['ip']).toBe('2001:4860:4860::8888');
    const mapped = json(await get('/v1/ip/::ffff:8.8.8.8', apiKey));
    expect(mapped['ip']).toBe('8.8.8.8');
    expect(mapped['country_code']).toBe('US');
  });

  it('answers special-purpose addresses free, without location, and refuses bad input free', async () => {
    const { apiKey } = await createTestAccount({ plan: 'api-test-large' });
    const reserved = await get('/v1/ip/192.168.1.1', apiKey);
    expect(reserved.status).toBe(200);
    expect(json(reserved)).toMatchObject({ ip: '192.168.1.1', reserved: 'private', country_code: null, city_name: null });
    const invalid = await get('/v1/ip/999.1.1.1', apiKey);
    expect(invalid.status).toBe(400);
    expect(json(invalid)).toMatchObject({ error: { code: 'invalid_ip' } });
    // Neither counted.
    expect(reserved.headers.get('x-ratelimit-remaining')).toBe('10000000');
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('10000000');
  });

  it('selects fields, answers one field as text, CSV on request, and pretty JSON', async () => {
    const { apiKey } = await createTestAccount({ plan: 'api-test-large' });
    expect(json(await get('/v1/ip/8.8.8.8?fields=country_code,asn.asn', apiKey))).toEqual({
      country_code: 'US',
      asn: { asn: 15169 },
    });
    const excluded = json(await get('/v1/ip/8.8.8.8?fields=-time_zone,-asn.domain', apiKey));
    expect(excluded).not.toHaveProperty('time_zone');
    expect(excluded['asn']).not.toHaveProperty('domain');
    const field = await get('/v1/ip/8.8.8.8/country_code', apiKey);
    expect([field.status, field.headers.get('content-type'), field.text]).toEqual([200, 'text/plain; charset=utf-8', 'US']);
    const bad = await get('/v1/ip/8.8.8.8/no_such_field', apiKey);
    expect([bad.status, json(bad)['error']]).toMatchObject([400, { code: 'invalid_field' }]);
    const csv = await get('/v1/ip/8.8.8.8?fields=ip,country_code,asn.asn', apiKey, { headers: { accept: 'text/csv' } });
    expect(csv.text).toBe('ip,country_code,asn.asn\r\n8.8.8.8,US,15169\r\n');
    expect((await get('/v1/ip/8.8.8.8?pretty=1&fields=ip', apiKey)).text).toBe('{\n  "ip": "8.8.8.8"\n}');
  });

  it('answers privacy, ASN (both spellings, paged) and domains (records looked up; NXDOMAIN and timeouts clear)', async () => {
    const { apiKey } = await createTestAccount({ plan: 'api-test-large' });
    const privacy = json(await get('/v1/privacy/8.8.8.8', apiKey));
    expect(Object.keys(privacy)).toEqual(expect.arrayContaining(['is_proxy', 'proxy_data']));
    const asn = json(await get('/v1/asn/AS13335?page_size=5', apiKey));
    expect(asn).toMatchObject({ asn: 13335 });
    expect((asn['prefixes'] as unknown[]).length).toBe(5);
    expect(json(await get('/v1/asn/13335?page_size=5&page=2', apiKey))['prefixes']).not.toEqual(asn['prefixes']);
    expect((await get('/v1/asn/ASX', apiKey)).status).toBe(400);
    // AS64511: reserved for documentation (RFC 5398), in no routing table.
    const unknown = await get('/v1/asn/AS64511', apiKey);
    expect([unknown.status, json(unknown)['error']]).toMatchObject([404, { code: 'asn_not_found' }]);

    const domain = json(await get('/v1/domain/dns.ipdata.test', apiKey));
    expect(domain['domain']).toBe('dns.ipdata.test');
    expect((domain['addresses'] as Array<{ ip: string }>).map((a) => a.ip)).toEqual([
      '8.8.8.8',
      '1.1.1.1',
      '2001:4860:4860::8888',
    ]);
    const missing = await get('/v1/domain/nothing.ipdata.test', apiKey);
    expect([missing.status, json(missing)['error']]).toMatchObject([404, { code: 'domain_not_found' }]);
    const slow = await get('/v1/domain/timeout.ipdata.test', apiKey);
    expect([slow.status, json(slow)['error']]).toMatchObject([504, { code: 'dns_timeout' }]);
  });

  it('answers a batch in order: results, free reserved and invalid items, JSON or CSV', async () => {
    const { apiKey } = await createTestAccount({ plan: 'api-test-large' });
    const post = (body: unknown, extra: Record<string, string> = {}) =>
      get('/v1/batch', apiKey, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...extra },
      });
    const answer = await post({ ips: ['8.8.8.8', 'nope', '10.0.0.1', '2606:4700:4700::1111', 7] });
    expect(answer.status).toBe(200);
    const items = JSON.parse(answer.text) as Array<Record<string, unknown>>;
    expect(items.map((item) => item['ip'] ?? item['query'])).toEqual([
      '8.8.8.8',
      'nope',
      '10.0.0.1',
      '2606:4700:4700::1111',
      '7',
    ]);
    expect(items[1]).toMatchObject({ error: { code: 'invalid_ip' } });
    expect(items[2]).toMatchObject({ reserved: 'private' });
    // Two public addresses counted.
    expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(10_000_000 - 2));
    const csv = await post(['8.8.8.8', 'x'], { accept: 'text/csv' });
    expect(csv.text.split('\r\n')[0]).toMatch(/^ip,country_code,.*,error$/);
    expect(csv.text.split('\r\n')[2]).toMatch(/^x,.*,invalid_ip$/);

    expect((await post(Array.from({ length: 1001 }, () => '8.8.8.8'))).status).toBe(400);
    expect(
      (await get('/v1/batch', apiKey, { method: 'POST', body: '[1,', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect(
      (await get('/v1/batch', apiKey, { method: 'POST', body: '[]', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    const huge = await get('/v1/batch', apiKey, {
      method: 'POST',
      body: JSON.stringify(Array.from({ length: 20_000 }, () => '2001:4860:4860:0000:0000:0000:0000:8888')),
      headers: { 'content-type': 'application/json' },
    });
    expect([huge.status, json(huge)['error']]).toMatchObject([413, { code: 'payload_too_large' }]);
  });

  it('answers concurrent full batches, each with its own addresses in order', async () => {
    const { apiKey } = await createTestAccount({ plan: 'api-test-large' });
    const firstOctets = [8, 9, 11, 12, 13, 23, 31, 45, 52, 61];
    const batchOf = (seed: number) =>
      Array.from({ length: 1_000 }, (_, i) => `${firstOctets[(seed + i) % firstOctets.length]}.${seed}.${i >>> 8}.${i & 255}`);
    for (let round = 0; round < 2; round++) {
      const batches = Array.from({ length: 4 }, (_, k) => batchOf(round * 4 + k + 1));
      const answers = await Promise.all(
        batches.map((ips) =>
          get('/v1/batch', apiKey, {
            method: 'POST',
            body: JSON.stringify(ips),
            headers: { 'content-type': 'application/json' },
          }),
        ),
      );
      answers.forEach((answer, k) => {
        expect(answer.status).toBe(200);
        const items = JSON.parse(answer.text) as Array<{ ip: string }>;
        expect(items.map((item) => item.ip)).toEqual(batches[k]);
      });
    }
  });
});

describe('public API: keys and quotas', () => {
  it('refuses missing, unknown and revoked keys (401, 401, 403) at once', async () => {
    const account = await createTestAccount({ plan: 'api-test-large' });
    expect((await get('/v1/ip/8.8.8.8', undefined)).status).toBe(401);
    expect(json(await get('/v1/ip/8.8.8.8', 'ipd_unknown'))['error']).toMatchObject({ code: 'api_key_invalid' });
    expect((await get(`/v1/ip/8.8.8.8?key=${account.apiKey}`, undefined)).status).toBe(200);
    expect((await get('/v1/ip/8.8.8.8', undefined, { headers: { 'x-api-key': account.apiKey } })).status).toBe(200);
    const { auth } = systemClients();
    await auth.revokeApiKey({ token: account.sessionToken, keyId: account.keyId });
    // The revocation event reaches the BFF's cache; until then at most the cache age (10 s).
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 15_000) {
      status = (await get('/v1/ip/8.8.8.8', account.apiKey)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const refused = await get('/v1/ip/8.8.8.8', account.apiKey);
    expect([refused.status, json(refused)['error']]).toMatchObject([403, { code: 'api_key_revoked' }]);
  });

  it('a lookup that fails after its grant (engine unreachable) answers 503 and is given back: never charged', async () => {
    const account = await createTestAccount({ plan: 'api-test-100' });
    const closed = await closedPort();
    // The lookup and the reservation run at the same time: the grant comes, the lookup fails.
    const engineless = await spawnBffEn({ LOOKUP_GRPC_ADDR: `127.0.0.1:${closed}` });
    try {
      const answers = await Promise.all(
        ['8.8.8.8', '1.1.1.1', '9.9.9.9'].map((ip) => get(`/v1/ip/${ip}`, account.apiKey, {}, engineless.url)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503]);
      expect(json(answers[0] as Answer)['error']).not.toHaveProperty('stack');
    } finally {
      await engineless.stop();
    }
    // The releases are applied off the answer's path (shutdown waits for them): nothing stays counted.
    const usage = json(await get('/v1/usage', account.apiKey));
    expect(usage['quota']).toMatchObject({ used: 0, remaining: 100 });
    // And the account still has all 100: the grants were given back, not just hidden.
    expect((await get('/v1/ip/8.8.8.8', account.apiKey)).status).toBe(200);
    expect(json(await get('/v1/usage', account.apiKey))['quota']).toMatchObject({ used: 1 });
  });

  it('300 concurrent requests from 3 bff-en processes on a 100-lookup plan: exactly 100 answered, 200 get 429', async () => {
    const account = await createTestAccount({ plan: 'api-test-100' });
    const processes = await Promise.all([spawnBffEn(), spawnBffEn(), spawnBffEn()]);
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => {
          const base = (processes[i % 3] as { url: string }).url;
          // 11.x to 60.x: public addresses only (a special-purpose one would be answered free).
          return get(`/v1/ip/${11 + (i % 50)}.${i % 250}.7.9`, account.apiKey, {}, base);
        }),
      );
      const byStatus = new Map<number, number>();
      for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      expect(Object.fromEntries(byStatus)).toEqual({ 200: 100, 429: 200 });
      const refused = answers.find((answer) => answer.status === 429) as Answer;
      expect(json(refused)['error']).toMatchObject({ code: 'quota_exceeded' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

      // A batch cannot go past the quota either: every item refused, nothing counted.
      const batch = await get('/v1/batch', account.apiKey, {
        method: 'POST',
        body: JSON.stringify(['8.8.8.8']),
        headers: { 'content-type': 'application/json' },
      });
      expect(batch.status).toBe(429);

      // The upgrade applies to the next request (billing → auth → the BFF's cache by event).
      await upgradeTestAccount(account, 'api-test-capped');
      const started = Date.now();
      let after = await get('/v1/ip/8.8.8.8', account.apiKey);
      while (after.status === 429 && Date.now() - started < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await get('/v1/ip/8.8.8.8', account.apiKey);
      }
      expect(after.status).toBe(200);
      // Capped plan: 100 included + overage up to 150 in all: a batch of 60 gets 49 more (1 used above).
      const partial = await get('/v1/batch', account.apiKey, {
        method: 'POST',
        body: JSON.stringify(Array.from({ length: 60 }, (_, i) => `9.9.${i}.1`)),
        headers: { 'content-type': 'application/json' },
      });
      const items = JSON.parse(partial.text) as Array<{ error?: { code: string } }>;
      expect(items.filter((item) => item.error === undefined)).toHaveLength(49);
      expect(items.slice(49).every((item) => item.error?.code === 'quota_exceeded')).toBe(true);
      const usage = json(await get('/v1/usage', account.apiKey));
      expect(usage['quota']).toMatchObject({ used: 150, remaining: 0, overage: 50 });
    } finally {
      await Promise.all(processes.map((process) => process.stop()));
    }
  });
});

/** A loopback port where nothing listens (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
