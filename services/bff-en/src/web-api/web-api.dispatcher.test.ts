import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import {
  ClientAddressResolver,
  HttpServer,
  Lifecycle,
  PermissionDeniedError,
  UnauthenticatedError,
  UnavailableError,
  systemClock,
} from '@ipdata/common';
import { sessionCookie } from './session-cookie.js';
import { WebApiDispatcher } from './web-api.dispatcher.js';
import { defineWebRoute } from './web-route.js';

const logger = pino({ level: 'silent' });
const lifecycle = new Lifecycle({ logger });

const routes = [
  defineWebRoute({
    name: 'echo',
    method: 'POST',
    path: '/api/echo/{id}',
    login: false,
    input: z.object({ id: z.string(), name: z.string().max(5, { error: 'Too long' }).default('') }),
    handle: async (_context, input) => ({ data: input }),
  }),
  defineWebRoute({
    name: 'mine',
    method: 'GET',
    path: '/api/mine',
    login: true,
    input: z.object({}),
    handle: async (context) => ({ data: { account: context.accountId } }),
  }),
  defineWebRoute({
    name: 'fails',
    method: 'GET',
    path: '/api/fails/{how}',
    login: false,
    input: z.object({ how: z.string() }),
    handle: async (_context, input) => {
      if (input.how === 'login') throw new UnauthenticatedError('Incorrect account or password', { reason: 'login_failed' });
      if (input.how === 'down') throw new UnavailableError('billing: connect ECONNREFUSED 10.0.0.7:50053');
      if (input.how === 'refused') {
        throw new PermissionDeniedError('caller "bff-en" may not call /ipdata.billing.v1.Billing/ListPlans', {
          reason: 'caller_not_allowed',
        });
      }
      if (input.how === 'uncertified') {
        throw new UnauthenticatedError('the client certificate names no caller (Subject CN)', { reason: 'caller_unknown' });
      }
      throw new Error('TypeError at /srv/app/secret.js:12');
    },
  }),
];

const dispatcher = new WebApiDispatcher({
  routes,
  sessions: {
    resolve: async (token) => {
      if (token !== 'good-token')
        throw new UnauthenticatedError('Your login has expired, please log in again', { reason: 'session_invalid' });
      return { accountId: 'acc-1' };
    },
  },
  clientAddress: new ClientAddressResolver([]),
  allowedOrigins: ['https://www.ipdata.example'],
  openApiJson: '{"openapi":"3.1.0"}',
  clock: systemClock,
  logger,
  bodyLimitBytes: 256,
});
const server = HttpServer.fromConfig({ host: '127.0.0.1', port: 0, firstHandler: dispatcher.handle }, lifecycle, logger);
let base = '';

beforeAll(async () => {
  await server.start();
  base = `http://127.0.0.1:${server.boundPort}`;
});
afterAll(() => server.shutdown());

const CSRF = { cookie: 'csrf_token=abcdefghijklmnopqrstuvwxyz012345', 'x-csrf-token': 'abcdefghijklmnopqrstuvwxyz012345' };
const JSON_BODY = { 'content-type': 'application/json' };

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

describe('WebApiDispatcher', () => {
  it('answers {code, msg, data} with the path parameters and the JSON body as input', async () => {
    const answer = await call('/api/echo/7', { method: 'POST', headers: { ...CSRF, ...JSON_BODY }, body: '{"name":"ab"}' });
    expect(answer).toMatchObject({ status: 200, body: { code: 200, msg: 'OK', data: { id: '7', name: 'ab' } } });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a state change without the matching CSRF header, or from another origin', async () => {
    const none = await call('/api/echo/7', { method: 'POST', headers: { cookie: CSRF.cookie } });
    expect(none).toMatchObject({ status: 403, body: { code: 403, reason: 'csrf_token' } });
    const wrong = await call('/api/echo/7', {
      method: 'POST',
      headers: { ...CSRF, 'x-csrf-token': 'abcdefghijklmnopqrstuvwxyz012346' },
    });
    expect(wrong.body['reason']).toBe('csrf_token');
    const foreign = await call('/api/echo/7', { method: 'POST', headers: { ...CSRF, origin: 'https://evil.example' } });
    expect(foreign.body['reason']).toBe('csrf_origin');
    const ours = await call('/api/echo/7', { method: 'POST', headers: { ...CSRF, origin: 'https://www.ipdata.example' } });
    expect(ours.status).toBe(200);
  });

  it('answers bad input with the first message and its field; a non-JSON body 415; an oversize one 413', async () => {
    const long = await call('/api/echo/7', { method: 'POST', headers: { ...CSRF, ...JSON_BODY }, body: '{"name":"abcdef"}' });
    expect(long).toMatchObject({ status: 400, body: { code: 400, msg: 'Too long', field: 'name', data: null } });
    const array = await call('/api/echo/7', { method: 'POST', headers: { ...CSRF, ...JSON_BODY }, body: '[1]' });
    expect(array.status).toBe(400);
    const form = await call('/api/echo/7', { method: 'POST', headers: { ...CSRF, 'content-type': 'text/plain' }, body: 'x' });
    expect(form.status).toBe(415);
    const big = await call('/api/echo/7', {
      method: 'POST',
      headers: { ...CSRF, ...JSON_BODY },
      body: JSON.stringify({ name: 'x'.repeat(400) }),
    });
    expect(big.status).toBe(413);
  });

  it('needs a valid session where the route says so: 401 with code 506 otherwise', async () => {
    expect(await call('/api/mine')).toMatchObject({ status: 401, body: { code: 506 } });
    expect(await call('/api/mine', { headers: { cookie: 'token=stale' } })).toMatchObject({ status: 401, body: { code: 506 } });
    expect(await call('/api/mine', { headers: { cookie: 'token=good-token' } })).toMatchObject({
      status: 200,
      body: { data: { account: 'acc-1' } },
    });
  });

  it('keeps a wrong login a 401 (not a logout), and never shows internals', async () => {
    expect(await call('/api/fails/login')).toMatchObject({
      status: 401,
      body: { code: 401, msg: 'Incorrect account or password' },
    });
    const down = await call('/api/fails/down');
    expect(down.status).toBe(503);
    expect(JSON.stringify(down.body)).not.toContain('10.0.0.7');
    // Our own identity refused by a back end: our fault (500), neither a 403 nor a logout (506).
    for (const how of ['refused', 'uncertified']) {
      const refused = await call(`/api/fails/${how}`);
      expect([refused.status, refused.body['code']]).toEqual([500, 500]);
      expect(JSON.stringify(refused.body)).not.toMatch(/ipdata\.|caller/);
    }
    const bug = await call('/api/fails/bug');
    expect(bug.status).toBe(500);
    expect(JSON.stringify(bug.body)).not.toMatch(/secret|TypeError/);
  });

  it('answers unknown paths 404 and wrong methods 405 with Allow, in the envelope; serves its document', async () => {
    expect(await call('/api/nothing')).toMatchObject({ status: 404, body: { code: 404 } });
    const wrongMethod = await call('/api/mine', { method: 'DELETE', headers: CSRF });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    expect((await call('/api/openapi.json')).body).toEqual({ openapi: '3.1.0' });
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, on the site domain, Secure when asked, and lives as long as the session', () => {
    const now = new Date('2026-11-24T00:00:00Z');
    const cookie = sessionCookie('tok', new Date('2026-12-01T00:00:00Z'), now, { domain: 'ipdata.example', secure: true });
    expect(cookie).toBe('token=tok; Path=/; Max-Age=604800; Domain=ipdata.example; HttpOnly; Secure; SameSite=Lax');
    expect(sessionCookie('tok', undefined, now, { domain: '', secure: false })).toBe(
      'token=tok; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax',
    );
  });
});
