import { ClientAddressResolver, HttpServer, Lifecycle, type LimitedCounter, type LimitedIncrementResult } from '@ipdata/common';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebApiDispatcher } from './web-api.dispatcher.js';
import { webApiRoutes, type WebApiRoutesDeps } from './web-api.routes.js';

/**
 * The visitor limits of the lookup tool and the contact form, keyed per visitor: an IPv4 address,
 * or an IPv6 address's /64 (common's rateLimitKey), since one subscriber holds a whole /64 and can
 * pick any address in it. The counter is LimitedCounter's rule in memory (a fixed window, never
 * past the limit); the addresses come through a trusted proxy's X-Forwarded-For.
 */
class MemoryLimitedCounter {
  readonly counts = new Map<string, number>();

  async increment(key: string, options: { limit: number; windowMs: number; by?: number }): Promise<LimitedIncrementResult> {
    const current = this.counts.get(key) ?? 0;
    const by = options.by ?? 1;
    if (current + by > options.limit) return { allowed: false, count: current, remaining: 0, resetInMs: options.windowMs };
    this.counts.set(key, current + by);
    return { allowed: true, count: current + by, remaining: options.limit - current - by, resetInMs: options.windowMs };
  }
}

const LOOKUP_LIMIT = 60;
const CONTACT_LIMIT = 10;
const counter = new MemoryLimitedCounter();
const logger = pino({ level: 'silent' });
const lifecycle = new Lifecycle({ logger });
const unused = new Proxy({}, { get: () => undefined }) as never;
const deps: WebApiRoutesDeps = {
  accounts: unused,
  billing: unused,
  unread: unused,
  contact: { submit: async () => ({ id: 'c-1', receivedAt: new Date(0) }) },
  usageSeries: unused,
  quota: undefined,
  databases: unused,
  lookups: unused,
  domains: unused,
  accounting: unused,
  visitorIds: { of: () => 'v-1' } as never,
  limiter: counter as unknown as LimitedCounter,
  config: {
    SITE_ORIGIN: 'http://127.0.0.1:8082',
    COOKIE_DOMAIN: '',
    APP_ENV: 'test',
    DEFAULT_BURST_PER_SECOND: 50,
    WEB_LOOKUP_RATE_LIMIT: LOOKUP_LIMIT,
    WEB_LOOKUP_RATE_WINDOW_SECONDS: 60,
    WEB_CONTACT_RATE_LIMIT: CONTACT_LIMIT,
    WEB_CONTACT_RATE_WINDOW_SECONDS: 3600,
  },
  logger,
};
const dispatcher = new WebApiDispatcher({
  routes: webApiRoutes(deps),
  sessions: { resolve: () => Promise.reject(new Error('no sessions in this test')) },
  clientAddress: new ClientAddressResolver(['127.0.0.1']),
  allowedOrigins: ['http://127.0.0.1:8082'],
  openApiJson: '{}',
  clock: { now: () => new Date() },
  logger,
});
const server = HttpServer.fromConfig({ host: '127.0.0.1', port: 0, firstHandler: dispatcher.handle }, lifecycle, logger);
let base = '';

beforeAll(async () => {
  await server.start();
  base = `http://127.0.0.1:${server.boundPort}`;
});
afterAll(() => server.shutdown());

/** 200 addresses of 2001:db8:1:2::/64, each different in its last 64 bits. */
const ONE_SLASH_64 = Array.from(
  { length: 200 },
  (_, i) => `2001:db8:1:2:${((i * 7919) & 0xffff).toString(16)}:${i.toString(16)}:a:${(i + 1).toString(16)}`,
);
const CSRF = { cookie: 'csrf_token=abcdefghijklmnopqrstuvwxyz012345', 'x-csrf-token': 'abcdefghijklmnopqrstuvwxyz012345' };

async function statuses(addresses: readonly string[], send: (address: string) => Promise<Response>): Promise<number[]> {
  const answers: number[] = [];
  for (const address of addresses) {
    const response = await send(address);
    await response.arrayBuffer();
    answers.push(response.status);
  }
  return answers;
}

describe('web API visitor limits', () => {
  it('count 200 addresses of one IPv6 /64 as one visitor on /api/lookup: at most the limit pass', async () => {
    // Not an address nor a domain: past the limit the answer is 400, at it 429.
    const answers = await statuses(ONE_SLASH_64, (address) =>
      fetch(`${base}/api/lookup?q=nothing`, { headers: { 'x-forwarded-for': address } }),
    );
    expect(new Set(ONE_SLASH_64).size).toBe(200);
    expect(answers.filter((status) => status !== 429)).toHaveLength(LOOKUP_LIMIT);
    expect(answers.slice(LOOKUP_LIMIT).every((status) => status === 429)).toBe(true);
    expect([...counter.counts.keys()].filter((key) => key.startsWith('bff-en:lookup-tool:'))).toEqual([
      'bff-en:lookup-tool:2001:db8:1:2::/64',
    ]);
  });

  it('count 200 addresses of one IPv6 /64 as one visitor on /api/contact: at most the limit pass', async () => {
    const body = JSON.stringify({ name: 'A', email: 'a@example.com', description: 'hello', category: 'sales' });
    const answers = await statuses(ONE_SLASH_64, (address) =>
      fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { ...CSRF, 'content-type': 'application/json', 'x-forwarded-for': address },
        body,
      }),
    );
    expect(answers.filter((status) => status === 201)).toHaveLength(CONTACT_LIMIT);
    expect(answers.slice(CONTACT_LIMIT).every((status) => status === 429)).toBe(true);
    expect([...counter.counts.keys()].filter((key) => key.startsWith('bff-en:contact-form:'))).toEqual([
      'bff-en:contact-form:2001:db8:1:2::/64',
    ]);
  });

  it('keeps IPv4 visitors apart, one counter per address', async () => {
    const answers = await statuses(['198.51.100.1', '198.51.100.2'], (address) =>
      fetch(`${base}/api/lookup?q=nothing`, { headers: { 'x-forwarded-for': address } }),
    );
    expect(answers).toEqual([400, 400]);
    expect(counter.counts.get('bff-en:lookup-tool:198.51.100.1')).toBe(1);
    expect(counter.counts.get('bff-en:lookup-tool:198.51.100.2')).toBe(1);
  });
});
