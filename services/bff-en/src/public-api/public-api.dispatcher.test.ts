import { Metering } from '@ipdata/metering';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeadlineExceededError, PermissionDeniedError, UnauthenticatedError, UnavailableError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import type { ResolvedApiKey } from '@ipdata/auth/client';
import { PlanTier } from '@ipdata/proto/events/v1/billing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounting } from './accounting.js';
import { ApiError } from './api-error.js';
import { PublicApiDispatcher } from './public-api.dispatcher.js';
import type { PublicRoute } from './public-route.js';

const KEY: ResolvedApiKey = {
  accountId: 'a1',
  keyId: 'k1',
  tier: PlanTier.PLAN_TIER_FREE,
  planId: '',
  limits: {
    lookupsPerMonth: 50_000,
    overagePricePer1kMinor: 0,
    currency: '',
    supportLevel: 'basic',
    downloadableDatasets: [],
    maxLookupsPerMonth: 0,
    burstPerSecond: 0,
  },
  periodEnd: undefined,
};

const NOW = new Date('2026-11-23T10:00:00Z');

// Accounting off: the quota headers come from the plan.
const accounting = new Accounting(new Metering(undefined, undefined, 10));

const routes: PublicRoute[] = [
  {
    method: 'GET',
    path: '/v1/echo/{a}/{b}',
    auth: true,
    handle: async (call, params, caller) => {
      await accounting.reserve(call, caller!, 0, false);
      call.sendJsonText(200, JSON.stringify({ params, account: caller?.key.accountId }));
    },
  },
  {
    method: 'GET',
    path: '/v1/picky',
    auth: true,
    handle: async () => {
      throw new ApiError(400, 'invalid_field', 'no such field', 'use another');
    },
  },
  { method: 'GET', path: '/v1/open', auth: false, handle: async (call) => call.sendJsonText(200, '{}') },
  // A parameter inside a segment (as /v1/databases/{database}/sample.{format}), listed before the
  // whole-segment route it must win over.
  {
    method: 'GET',
    path: '/v1/files/{a}/sample.{b}',
    auth: false,
    handle: async (call, params) => call.sendJsonText(200, JSON.stringify({ sample: params })),
  },
  {
    method: 'GET',
    path: '/v1/files/{a}/{b}',
    auth: false,
    handle: async (call, params) => call.sendJsonText(200, JSON.stringify({ file: params })),
  },
  {
    method: 'GET',
    path: '/v1/boom',
    auth: false,
    handle: async () => {
      throw new Error('secret internals: mongodb://user:pw@host');
    },
  },
  // What a gRPC dependency's failure looks like through callUnary (fromGrpcError).
  {
    method: 'GET',
    path: '/v1/fails/{how}',
    auth: false,
    handle: async (_call, [how]) => {
      if (how === 'down')
        throw new UnavailableError('No connection established. Last error: connect ECONNREFUSED 127.0.0.1:50052');
      if (how === 'slow')
        throw new DeadlineExceededError('Deadline exceeded after 2.001s,LB pick: 0.000s,remote_addr=127.0.0.1:50052');
      throw new PermissionDeniedError('caller "bff-en" may not call /ipdata.auth.v1.Auth/ResolveApiKey', {
        reason: 'caller_not_allowed',
      });
    },
  },
  {
    method: 'POST',
    path: '/v1/open',
    auth: false,
    handle: async () => {
      throw new ApiError(429, 'quota_exceeded', 'used up', 'wait', { 'Retry-After': '7' });
    },
  },
];

let server: Server;
let base: string;

beforeAll(async () => {
  const dispatcher = new PublicApiDispatcher({
    routes,
    keys: {
      resolve: async (key) => {
        if (key === 'good') return KEY;
        if (key === 'revoked') throw new PermissionDeniedError('This API key has been revoked', { reason: 'api_key_revoked' });
        throw new UnauthenticatedError('Invalid API key', { reason: 'api_key_invalid' });
      },
    },
    accounting,
    clock: new ManualClock(NOW),
    logger: pino({ level: 'silent' }),
  });
  server = createServer((request, response) => {
    const handled = dispatcher.handle(request, response);
    if (handled === undefined) response.writeHead(418).end('not mine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('PublicApiDispatcher', () => {
  it('routes segment by segment, decodes parameters and passes the caller', async () => {
    const response = await fetch(`${base}/v1/echo/2001%3Adb8%3A%3A1/x?key=good`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ params: ['2001:db8::1', 'x'], account: 'a1' });
    expect(response.headers.get('x-request-id')).toMatch(/^r-[\w-]{10}-[0-9a-z]+$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('matches a parameter inside a segment by its literal prefix', async () => {
    const answer = async (path: string) => (await fetch(`${base}${path}`)).json();
    expect(await answer('/v1/files/geo/sample.csv')).toEqual({ sample: ['geo', 'csv'] });
    expect(await answer('/v1/files/geo/sample.n%64json')).toEqual({ sample: ['geo', 'ndjson'] });
    expect(await answer('/v1/files/geo/csv')).toEqual({ file: ['geo', 'csv'] });
    // The prefix alone has no parameter: the whole-segment route takes it.
    expect(await answer('/v1/files/geo/sample.')).toEqual({ file: ['geo', 'sample.'] });
    expect(await answer('/v1/files/geo/samplecsv')).toEqual({ file: ['geo', 'samplecsv'] });
    const wrong = await fetch(`${base}/v1/files/geo/sample.csv`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it('leaves other paths to the rest of the server', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(418);
    expect((await fetch(`${base}/v10/ip`)).status).toBe(418);
  });

  it('answers every failure in the one error shape, with the common headers', async () => {
    const cases: Array<[string, RequestInit, number, string]> = [
      ['/v1/echo/a/b', {}, 401, 'missing_api_key'],
      ['/v1/echo/a/b', { headers: { Authorization: 'Basic abc' } }, 401, 'invalid_authorization_header'],
      ['/v1/echo/a/b', { headers: { 'X-API-Key': 'nope' } }, 401, 'api_key_invalid'],
      ['/v1/echo/a/b', { headers: { Authorization: 'Bearer revoked' } }, 403, 'api_key_revoked'],
      ['/v1/nothing', {}, 404, 'not_found'],
      ['/v1/echo/a', {}, 404, 'not_found'],
      ['/v1/echo/a/b', { method: 'DELETE' }, 405, 'method_not_allowed'],
      ['/v1/open', { method: 'POST' }, 429, 'quota_exceeded'],
      ['/v1/boom', {}, 500, 'internal_error'],
      ['/v1/echo/%E0%A4%A/b?key=good', {}, 400, 'invalid_path'],
    ];
    for (const [path, init, status, code] of cases) {
      const response = await fetch(`${base}${path}`, init);
      const body = (await response.json()) as { error: { code: string; message: string; resolution: string } };
      expect([path, response.status, body.error.code]).toEqual([path, status, code]);
      expect(body.error.resolution.length).toBeGreaterThan(0);
      expect(JSON.stringify(body)).not.toContain('mongodb');
      expect(response.headers.get('x-ratelimit-limit'), path).not.toBeNull();
      expect(response.headers.get('ratelimit-policy'), path).toMatch(/^"monthly";q=\d+;w=\d+$/);
      expect(response.headers.get('x-request-id'), path).not.toBeNull();
    }
    const limited = await fetch(`${base}/v1/open`, { method: 'POST' });
    expect(limited.headers.get('retry-after')).toBe('7');
    const notAllowed = await fetch(`${base}/v1/open`, { method: 'PUT' });
    expect(notAllowed.headers.get('allow')).toBe('GET, POST, OPTIONS');
  });

  it("answers a dependency's failure 5xx without its text: no address, no gRPC method", async () => {
    const cases: Array<[string, number, string]> = [
      ['/v1/fails/down', 503, 'unavailable'],
      ['/v1/fails/slow', 504, 'deadline_exceeded'],
      // Our own identity refused by auth's access policy: our fault, not the caller's 403.
      ['/v1/fails/refused', 500, 'internal_error'],
    ];
    for (const [path, status, code] of cases) {
      const response = await fetch(`${base}${path}`);
      const text = await response.text();
      expect([path, response.status, (JSON.parse(text) as { error: { code: string } }).error.code]).toEqual([path, status, code]);
      expect(text).not.toMatch(/127\.0\.0\.1|remote_addr|ECONNREFUSED|ipdata\.auth|caller/);
      expect(response.headers.get('x-request-id'), path).not.toBeNull();
    }
  });

  it('answers CORS preflights', async () => {
    const response = await fetch(`${base}/v1/echo/a/b`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('X-API-Key');
  });

  it('shows the plan quota in the headers, with the IETF fields', async () => {
    const response = await fetch(`${base}/v1/echo/a/b`, { headers: { Authorization: 'Bearer good' } });
    expect(response.headers.get('x-ratelimit-limit')).toBe('50000');
    // The dispatcher's clock says 2026-11-23T10:00:00Z: the quota resets on 2026-12-01T00:00:00Z.
    const reset = Date.UTC(2026, 11, 1) / 1000;
    expect(response.headers.get('x-ratelimit-reset')).toBe(String(reset));
    expect(response.headers.get('ratelimit')).toBe(`"monthly";r=50000;t=${reset - NOW.getTime() / 1000}`);
    expect(response.headers.get('ratelimit-policy')).toBe(`"monthly";q=50000;w=${30 * 86400}`);
  });

  it("shows the caller's quota on an error raised before the route reserved anything", async () => {
    const response = await fetch(`${base}/v1/picky`, { headers: { Authorization: 'Bearer good' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-ratelimit-limit')).toBe('50000');
  });
});
