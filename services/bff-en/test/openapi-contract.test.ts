import { PUBLIC_OPERATIONS } from '../src/public-api/public-routes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bffEnUrl,
  createTestAccount,
  systemClients,
  useTestSystem,
  type NewAccount,
} from '../../../scripts/test/system/index.js';
import { waitFor } from '@ipdata/common/testing';
import { OpenApiContract } from './fixtures/openapi-contract.js';

/**
 * The contract test of the public API: every operation of openapi/public-api.yaml is called on
 * the running bff-en of the shared test system (real lookup engine, auth, billing, Redis, Kafka),
 * with valid calls and with at least one call per error status that can be provoked, and every
 * answer — status, required headers, body — is validated against the document.
 */
const contract = new OpenApiContract();
/** operationId → statuses seen (and validated). */
const seen = new Map<string, Set<number>>();
const problems: string[] = [];

interface Call {
  operationId: string;
  path: string;
  method?: string;
  key?: string | null;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The status the call must get. */
  expect: number;
}

/** The loose shape tests read from JSON answers (the document's schemas check the rest). */
interface Json {
  ip?: string;
  reserved?: string | null;
  error?: { code: string };
  plan?: unknown;
  [member: string]: unknown;
}

function json(answer: { body: string }): Json {
  return JSON.parse(answer.body) as Json;
}

async function call(request: Call): Promise<{ status: number; headers: Headers; body: string }> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.key) headers['authorization'] = `Bearer ${request.key}`;
  const response = await fetch(`${bffEnUrl()}${request.path}`, {
    method: request.method ?? contract.operation(request.operationId).method,
    headers,
    body: request.body,
    // The /v1/databases routes answer 302: the answer to validate is the redirect itself.
    redirect: 'manual',
  });
  const answer = { status: response.status, headers: response.headers, body: await response.text() };
  const selected = /[?&]fields=/.test(request.path);
  const found = contract.problems(request.operationId, answer, { selected });
  problems.push(...found.map((problem) => `${request.method ?? ''} ${request.path} → ${answer.status}: ${problem}`));
  expect(found, `${request.path}`).toEqual([]);
  expect(answer.status, `${request.path}: ${answer.body.slice(0, 300)}`).toBe(request.expect);
  const statuses = seen.get(request.operationId) ?? new Set<number>();
  statuses.add(answer.status);
  seen.set(request.operationId, statuses);
  return answer;
}

beforeAll(() => useTestSystem());

describe('the public API answers as its OpenAPI document says', () => {
  let key: string;
  let burst: NewAccount;
  let revoked: NewAccount;

  beforeAll(async () => {
    [{ apiKey: key }, burst, revoked] = await Promise.all([
      createTestAccount({ plan: 'api-test-large' }),
      createTestAccount({ plan: 'api-test-burst' }),
      createTestAccount(),
    ]);
    await systemClients().auth.revokeApiKey({ token: revoked.sessionToken, keyId: revoked.keyId });
  }, 120_000);

  it('GET /v1/ip/{ip}: IPv4, IPv6, mapped, reserved, fields, pretty, CSV, and its errors', async () => {
    const v4 = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', key, expect: 200 });
    expect(json(v4)).toMatchObject({ ip: '8.8.8.8', country_code: 'US', reserved: null });
    const v6 = await call({ operationId: 'getIp', path: '/v1/ip/2001:4860:4860:0:0:0:0:8888', key, expect: 200 });
    expect(json(v6).ip).toBe('2001:4860:4860::8888');
    const mapped = await call({ operationId: 'getIp', path: '/v1/ip/::ffff:8.8.8.8', key, expect: 200 });
    expect(json(mapped).ip).toBe('8.8.8.8');
    const reserved = await call({ operationId: 'getIp', path: '/v1/ip/10.1.2.3', key, expect: 200 });
    expect(json(reserved)).toMatchObject({ reserved: 'private', country_code: null });
    const some = await call({ operationId: 'getIp', path: '/v1/ip/1.1.1.1?fields=country_code,asn.asn', key, expect: 200 });
    expect(Object.keys(json(some))).toEqual(['country_code', 'asn']);
    await call({ operationId: 'getIp', path: '/v1/ip/1.1.1.1?fields=-time_zone', key, expect: 200 });
    const pretty = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8?pretty=1', key, expect: 200 });
    expect(pretty.body).toContain('\n  "ip": "8.8.8.8"');
    const csv = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8?format=csv', key, expect: 200 });
    expect(csv.body.split(/\r?\n/)[0]).toMatch(/^ip,country_code,/);
    await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', key, headers: { accept: 'text/csv' }, expect: 200 });
    // The three ways to send a key.
    await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', headers: { 'x-api-key': key }, expect: 200 });
    await call({ operationId: 'getIp', path: `/v1/ip/8.8.8.8?key=${encodeURIComponent(key)}`, expect: 200 });

    const bad = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8', key, expect: 400 });
    expect(json(bad).error?.code).toBe('invalid_ip');
    await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8?fields=nope', key, expect: 400 });
    await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8?format=xml', key, expect: 400 });
    const none = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', expect: 401 });
    expect(none.headers.get('x-ratelimit-limit')).toBe('0');
    await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', key: 'ipd_unknown-key-0000000000000000', expect: 401 });
    await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', headers: { authorization: 'Basic abc' }, expect: 401 });
    const gone = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', key: revoked.apiKey, expect: 403 });
    expect(json(gone).error?.code).toMatch(/revoked/);
    const wrong = await call({ operationId: 'getIp', path: '/v1/ip/8.8.8.8', method: 'PUT', key, expect: 405 });
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('GET /v1/ip/{ip} beyond the key burst limit answers 429 with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${bffEnUrl()}/v1/ip/8.8.8.8`, { headers: { authorization: `Bearer ${burst.apiKey}` } }).then(async (r) => ({
          status: r.status,
          headers: r.headers,
          body: await r.text(),
        })),
      ),
    );
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const answer of answers) expect(contract.problems('getIp', answer)).toEqual([]);
    expect(json(limited[0]!).error?.code).toBe('rate_limited');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    seen.get('getIp')?.add(429);
  });

  it('GET /v1/ip answers for the caller (loopback: reserved)', async () => {
    const own = await call({ operationId: 'getOwnIp', path: '/v1/ip', key, expect: 200 });
    expect(json(own)).toMatchObject({ ip: '127.0.0.1', reserved: 'loopback' });
    await call({ operationId: 'getOwnIp', path: '/v1/ip?format=csv', key, expect: 200 });
    await call({ operationId: 'getOwnIp', path: '/v1/ip?fields=ip', key, expect: 200 });
    await call({ operationId: 'getOwnIp', path: '/v1/ip?fields=bogus', key, expect: 400 });
    await call({ operationId: 'getOwnIp', path: '/v1/ip', expect: 401 });
    await call({ operationId: 'getOwnIp', path: '/v1/ip', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getOwnIp', path: '/v1/ip', method: 'POST', key, expect: 405 });
  });

  it('GET /v1/ip/{ip}/{field} answers text', async () => {
    const country = await call({ operationId: 'getIpField', path: '/v1/ip/8.8.8.8/country_code', key, expect: 200 });
    expect(country.body).toBe('US');
    const asn = await call({ operationId: 'getIpField', path: '/v1/ip/8.8.8.8/asn.asn', key, expect: 200 });
    expect(asn.body).toMatch(/^\d+$/);
    await call({ operationId: 'getIpField', path: '/v1/ip/8.8.8.8/nope', key, expect: 400 });
    await call({ operationId: 'getIpField', path: '/v1/ip/8.8.8.8/country_code', expect: 401 });
    await call({ operationId: 'getIpField', path: '/v1/ip/8.8.8.8/country_code', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getIpField', path: '/v1/ip/8.8.8.8/country_code', method: 'DELETE', key, expect: 405 });
  });

  it('GET /v1/privacy/{ip}', async () => {
    const privacy = await call({ operationId: 'getPrivacy', path: '/v1/privacy/8.8.8.8', key, expect: 200 });
    expect(json(privacy).ip).toBe('8.8.8.8');
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/192.168.0.1', key, expect: 200 });
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/8.8.8.8?fields=is_proxy', key, expect: 200 });
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/8.8.8.8?format=csv', key, expect: 200 });
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/not-an-ip', key, expect: 400 });
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/8.8.8.8', expect: 401 });
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/8.8.8.8', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getPrivacy', path: '/v1/privacy/8.8.8.8', method: 'POST', key, expect: 405 });
  });

  it('GET /v1/asn/{asn}', async () => {
    const cloudflare = await call({ operationId: 'getAsn', path: '/v1/asn/AS13335?page_size=5', key, expect: 200 });
    const body = JSON.parse(cloudflare.body) as { asn: number; prefixes: string[] };
    expect(body.asn).toBe(13335);
    expect(body.prefixes.length).toBeLessThanOrEqual(5);
    await call({ operationId: 'getAsn', path: '/v1/asn/13335?page=2&page_size=1', key, expect: 200 });
    await call({ operationId: 'getAsn', path: '/v1/asn/13335?fields=name', key, expect: 200 });
    await call({ operationId: 'getAsn', path: '/v1/asn/13335?format=csv', key, expect: 200 });
    await call({ operationId: 'getAsn', path: '/v1/asn/ASX', key, expect: 400 });
    await call({ operationId: 'getAsn', path: '/v1/asn/13335?page_size=0', key, expect: 400 });
    // AS64511: reserved for documentation (RFC 5398), in no routing table.
    await call({ operationId: 'getAsn', path: '/v1/asn/AS64511', key, expect: 404 });
    await call({ operationId: 'getAsn', path: '/v1/asn/13335', expect: 401 });
    await call({ operationId: 'getAsn', path: '/v1/asn/13335', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getAsn', path: '/v1/asn/13335', method: 'POST', key, expect: 405 });
  });

  it('GET /v1/domain/{name} (the test system DNS stub)', async () => {
    const domain = await call({ operationId: 'getDomain', path: '/v1/domain/dns.ipdata.test', key, expect: 200 });
    const body = JSON.parse(domain.body) as { domain: string; addresses: { ip: string }[] };
    expect(body.domain).toBe('dns.ipdata.test');
    expect(body.addresses.map((address) => address.ip).sort()).toEqual(['1.1.1.1', '2001:4860:4860::8888', '8.8.8.8']);
    await call({ operationId: 'getDomain', path: '/v1/domain/private.ipdata.test', key, expect: 200 });
    await call({ operationId: 'getDomain', path: '/v1/domain/v4only.ipdata.test?fields=ip', key, expect: 200 });
    await call({ operationId: 'getDomain', path: '/v1/domain/dns.ipdata.test?format=csv', key, expect: 200 });
    await call({ operationId: 'getDomain', path: '/v1/domain/-bad-.', key, expect: 400 });
    const missing = await call({ operationId: 'getDomain', path: '/v1/domain/missing.ipdata.test', key, expect: 404 });
    expect(json(missing).error?.code).toBe('domain_not_found');
    const slow = await call({ operationId: 'getDomain', path: '/v1/domain/timeout.ipdata.test', key, expect: 504 });
    expect(json(slow).error?.code).toBe('dns_timeout');
    await call({ operationId: 'getDomain', path: '/v1/domain/dns.ipdata.test', expect: 401 });
    await call({ operationId: 'getDomain', path: '/v1/domain/dns.ipdata.test', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getDomain', path: '/v1/domain/dns.ipdata.test', method: 'POST', key, expect: 405 });
  });

  it('POST /v1/batch', async () => {
    const json = { 'content-type': 'application/json' };
    const batch = await call({
      operationId: 'postBatch',
      path: '/v1/batch',
      key,
      headers: json,
      body: JSON.stringify(['8.8.8.8', 'not-an-ip', '10.0.0.1', 42]),
      expect: 200,
    });
    const items = JSON.parse(batch.body) as { ip?: string; query?: unknown; error?: { code: string } }[];
    expect(items.map((item) => item.ip ?? item.error?.code)).toEqual(['8.8.8.8', 'invalid_ip', '10.0.0.1', 'invalid_ip']);
    const body = JSON.stringify({ ips: ['1.1.1.1'] });
    await call({ operationId: 'postBatch', path: '/v1/batch?fields=country_code', key, headers: json, body, expect: 200 });
    await call({ operationId: 'postBatch', path: '/v1/batch?format=csv', key, headers: json, body, expect: 200 });
    await call({ operationId: 'postBatch', path: '/v1/batch', key, headers: json, body: '[', expect: 400 });
    await call({ operationId: 'postBatch', path: '/v1/batch', key, headers: json, body: '[]', expect: 400 });
    const many = JSON.stringify(Array.from({ length: 1001 }, () => '8.8.8.8'));
    await call({ operationId: 'postBatch', path: '/v1/batch', key, headers: json, body: many, expect: 400 });
    const huge = JSON.stringify(Array.from({ length: 20_000 }, () => '255.255.255.255'));
    await call({ operationId: 'postBatch', path: '/v1/batch', key, headers: json, body: huge, expect: 413 });
    await call({
      operationId: 'postBatch',
      path: '/v1/batch',
      key,
      headers: { 'content-type': 'text/plain' },
      body,
      expect: 415,
    });
    await call({ operationId: 'postBatch', path: '/v1/batch', headers: json, body, expect: 401 });
    await call({ operationId: 'postBatch', path: '/v1/batch', key: revoked.apiKey, headers: json, body, expect: 403 });
    await call({ operationId: 'postBatch', path: '/v1/batch', method: 'GET', key, expect: 405 });
  });

  it('POST /v1/bulk, GET /v1/bulk/{id} and its result', async () => {
    const text = { 'content-type': 'text/plain' };
    const started = await call({
      operationId: 'postBulk',
      path: '/v1/bulk?format=csv',
      key,
      headers: text,
      body: '8.8.8.8\n1.1.1.1\nnot-an-ip\n',
      expect: 202,
    });
    const job = JSON.parse(started.body) as { id: string };
    expect(started.headers.get('location')).toBe(`/v1/bulk/${job.id}`);
    // A result asked for before its job finished: 50 chunks take far longer than one request.
    const long = await call({
      operationId: 'postBulk',
      path: '/v1/bulk',
      key,
      headers: text,
      body: '8.8.8.8\n'.repeat(50_000),
      expect: 202,
    });
    const longId = (JSON.parse(long.body) as { id: string }).id;
    await call({ operationId: 'getBulkResult', path: `/v1/bulk/${longId}/result`, key, expect: 412 });
    let state = '';
    for (let i = 0; i < 100 && state !== 'completed'; i++) {
      const got = await call({ operationId: 'getBulkJob', path: `/v1/bulk/${job.id}`, key, expect: 200 });
      state = (JSON.parse(got.body) as { state: string }).state;
      if (state !== 'completed') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(state).toBe('completed');
    const result = await call({ operationId: 'getBulkResult', path: `/v1/bulk/${job.id}/result`, key, expect: 200 });
    expect(result.body.trim().split(/\r?\n/)).toHaveLength(4); // header + 3 lines

    await call({ operationId: 'postBulk', path: '/v1/bulk', key, headers: text, body: '', expect: 400 });
    await call({
      operationId: 'postBulk',
      path: '/v1/bulk',
      key,
      headers: { 'content-type': 'image/png' },
      body: 'x',
      expect: 415,
    });
    await call({ operationId: 'postBulk', path: '/v1/bulk', headers: text, body: '8.8.8.8\n', expect: 401 });
    await call({ operationId: 'postBulk', path: '/v1/bulk', key: revoked.apiKey, headers: text, body: '8.8.8.8\n', expect: 403 });
    await call({ operationId: 'postBulk', path: '/v1/bulk', method: 'GET', key, expect: 405 });
    // The system's bff-en takes bulk uploads up to 1 MiB (BULK_MAX_BYTES).
    const large = '203.0.113.77\n'.repeat(90_000);
    await call({ operationId: 'postBulk', path: '/v1/bulk', key, headers: text, body: large, expect: 413 });
    await call({ operationId: 'getBulkJob', path: '/v1/bulk/unknown-job', key, expect: 404 });
    await call({ operationId: 'getBulkJob', path: `/v1/bulk/${job.id}`, expect: 401 });
    await call({ operationId: 'getBulkJob', path: `/v1/bulk/${job.id}`, key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getBulkJob', path: `/v1/bulk/${job.id}`, method: 'POST', key, expect: 405 });
    await call({ operationId: 'getBulkResult', path: '/v1/bulk/unknown-job/result', key, expect: 404 });
    await call({ operationId: 'getBulkResult', path: `/v1/bulk/${job.id}/result`, expect: 401 });
    await call({ operationId: 'getBulkResult', path: `/v1/bulk/${job.id}/result`, key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getBulkResult', path: `/v1/bulk/${job.id}/result`, method: 'POST', key, expect: 405 });
  });

  it('GET /v1/usage and GET /v1/openapi.json', async () => {
    const usage = await call({ operationId: 'getUsage', path: '/v1/usage', key, expect: 200 });
    expect(json(usage).plan).toMatchObject({ id: 'api-test-large', tier: 'enterprise' });
    await call({ operationId: 'getUsage', path: '/v1/usage?pretty=1', key, expect: 200 });
    await call({ operationId: 'getUsage', path: '/v1/usage', expect: 401 });
    await call({ operationId: 'getUsage', path: '/v1/usage', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getUsage', path: '/v1/usage', method: 'POST', key, expect: 405 });
    const document = await call({ operationId: 'getOpenApi', path: '/v1/openapi.json', expect: 200 });
    expect(json(document)).toEqual(contract.document);
    await call({ operationId: 'getOpenApi', path: '/v1/openapi.json', method: 'POST', expect: 405 });
  });

  it('GET /v1/databases, its downloads and samples', async () => {
    // The system's downloads service publishes its dataset at start; wait for it.
    await waitFor(
      async () => {
        const answer = await fetch(`${bffEnUrl()}/v1/databases`, { headers: { authorization: `Bearer ${key}` } });
        return answer.status === 200 && (json({ body: await answer.text() }) as { version: string | null }).version !== null;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the downloads service to publish a dataset' },
    );
    const catalogue = await call({ operationId: 'listDatabases', path: '/v1/databases', key, expect: 200 });
    expect(json(catalogue).plan).toMatchObject({ id: 'download-free' });
    await call({ operationId: 'listDatabases', path: '/v1/databases?pretty=1', key, expect: 200 });
    await call({ operationId: 'listDatabases', path: '/v1/databases', expect: 401 });
    await call({ operationId: 'listDatabases', path: '/v1/databases', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'listDatabases', path: '/v1/databases', method: 'POST', key, expect: 405 });

    // The key's account is on the FREE download plan: ASN only.
    const link = await call({ operationId: 'getDatabaseDownload', path: '/v1/databases/asn/csv', key, expect: 302 });
    expect(link.headers.get('location')).toMatch(/^https?:\/\//);
    const plan = await call({ operationId: 'getDatabaseDownload', path: '/v1/databases/privacy/csv', key, expect: 403 });
    expect(json(plan).error?.code).toBe('plan_excludes_database');
    await call({ operationId: 'getDatabaseDownload', path: '/v1/databases/weather/csv', key, expect: 404 });
    await call({ operationId: 'getDatabaseDownload', path: '/v1/databases/asn/csv', expect: 401 });
    await call({ operationId: 'getDatabaseDownload', path: '/v1/databases/asn/csv', key: revoked.apiKey, expect: 403 });
    await call({ operationId: 'getDatabaseDownload', path: '/v1/databases/asn/csv', method: 'POST', key, expect: 405 });

    const sample = await call({ operationId: 'getDatabaseSample', path: '/v1/databases/asn/sample.csv', expect: 302 });
    expect(sample.headers.get('location')).toMatch(/asn-sample\.csv$/);
    await call({ operationId: 'getDatabaseSample', path: '/v1/databases/complete/sample.mmdb', expect: 404 });
    await call({ operationId: 'getDatabaseSample', path: '/v1/databases/asn/sample.csv', method: 'POST', expect: 405 });
  });

  afterAll(() => {
    if (problems.length > 0) console.error(problems.join('\n'));
  });

  it('exercised every operation of the document, with a success and every error status that can be provoked', () => {
    // 500, 502 and 503 (dependency failures) are provoked by the failure tests, not here.
    const unprovoked = new Set(['500', '502', '503']);
    for (const operation of contract.operations()) {
      const statuses = seen.get(operation.operationId);
      expect(statuses, `${operation.operationId} never called`).toBeDefined();
      const wanted = operation.statuses.filter((status) => !unprovoked.has(status)).map(Number);
      expect([...(statuses ?? [])].sort(), operation.operationId).toEqual(
        expect.arrayContaining(wanted.filter((status) => status !== 429 || operation.operationId === 'getIp')),
      );
    }
  });

  it('documents every route the server answers, and nothing it does not', async () => {
    const served = PUBLIC_OPERATIONS.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).sort();
    const documented = contract
      .operations()
      .map((operation) => `${operation.method} ${operation.path}`)
      .sort();
    expect(served).toEqual(documented);
  });
});
