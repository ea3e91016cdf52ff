import { InvalidArgumentError, isDomainError } from '@ipdata/common';
import { DNS_RCODE, type LocalDnsServer, startLocalDnsServer } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, apiErrorOf as publicErrorOf } from '../public-api/api-error.js';
import { DomainResolver, domainName } from './domain-resolver.js';

/** A real DNS server on 127.0.0.1 (common's test kit): the resolver is tested against the wire, not a mock of node:dns. */
let server: LocalDnsServer;
let serverAddress: string;
let queried: string[];

beforeAll(async () => {
  server = await startLocalDnsServer({
    'both.example': { A: ['192.0.2.10', '192.0.2.11', '192.0.2.10'], AAAA: ['2001:db8::10'] },
    'v4only.example': { A: ['198.51.100.7'] },
    'v6only.example': { AAAA: ['2001:db8::7'] },
    'empty.example': {},
    'missing.example': { rcode: DNS_RCODE.NXDOMAIN },
    'broken.example': { rcode: DNS_RCODE.SERVFAIL },
    'silent.example': { silent: true },
    'half-silent.example': { A: ['203.0.113.1'], silentAaaa: true },
    // bücher.example
    'xn--bcher-kva.example': { A: ['203.0.113.9'] },
  });
  serverAddress = server.address;
  queried = server.queried;
});

afterAll(async () => {
  await server.close();
});

function resolver(timeoutMs = 2000): DomainResolver {
  return new DomainResolver({ servers: [serverAddress], timeoutMs, tries: 1 });
}

/** The resolver's DomainError as the public API answers it (its one mapper). */
async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return publicErrorOf(error);
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('DomainResolver against a DNS server on loopback', () => {
  it('answers A and AAAA records, without duplicates', async () => {
    await expect(resolver().resolve('both.example')).resolves.toEqual({
      name: 'both.example',
      a: ['192.0.2.10', '192.0.2.11'],
      aaaa: ['2001:db8::10'],
    });
    await expect(resolver().resolve('v4only.example')).resolves.toEqual({
      name: 'v4only.example',
      a: ['198.51.100.7'],
      aaaa: [],
    });
    await expect(resolver().resolve('v6only.example')).resolves.toEqual({ name: 'v6only.example', a: [], aaaa: ['2001:db8::7'] });
  });

  it('queries the ASCII form of upper-case, trailing-dot and internationalised names', async () => {
    await expect(resolver().resolve('BOTH.Example.')).resolves.toMatchObject({
      name: 'both.example',
      a: ['192.0.2.10', '192.0.2.11'],
    });
    await expect(resolver().resolve('bücher.example')).resolves.toEqual({
      name: 'xn--bcher-kva.example',
      a: ['203.0.113.9'],
      aaaa: [],
    });
    expect(queried).toContain('A xn--bcher-kva.example');
  });

  it('answers 404 domain_not_found for NXDOMAIN and for a name without A or AAAA records', async () => {
    for (const name of ['missing.example', 'empty.example']) {
      const error = await apiErrorOf(resolver().resolve(name));
      expect([error.status, error.code]).toEqual([404, 'domain_not_found']);
      expect(error.message).toContain(name);
    }
  });

  it('answers 504 dns_timeout when the server does not answer: after the timeout, not hanging', async () => {
    const timeoutMs = 300;
    const started = performance.now();
    const error = await apiErrorOf(resolver(timeoutMs).resolve('silent.example'));
    const took = performance.now() - started;
    expect([error.status, error.code]).toEqual([504, 'dns_timeout']);
    // It waited for the timeout (a slower machine only waits longer; c-ares' timer may fire a little early)...
    expect(took).toBeGreaterThanOrEqual(timeoutMs - 50);
    // ...and gave up then: one try of one server, A and AAAA at once. 16 timeouts (4.8 s) leave a
    // loaded machine plenty of room and are still far below a hang (the test's own 30 s timeout).
    expect(took).toBeLessThan(16 * timeoutMs);
    // Half an answer is still a timeout, not a silently shorter list.
    expect((await apiErrorOf(resolver(timeoutMs).resolve('half-silent.example'))).code).toBe('dns_timeout');
  });

  it('answers 502 dns_failed for a server failure, without internals in the message', async () => {
    const error = await apiErrorOf(resolver().resolve('broken.example'));
    expect([error.status, error.code]).toEqual([502, 'dns_failed']);
    expect(error.message).toBe('the DNS lookup of "broken.example" failed');
    expect(error.message).not.toMatch(/SERVFAIL|127\.0\.0\.1|query/i);
  });

  it('refuses an invalid name with 400 invalid_domain before any query', async () => {
    const before = queried.length;
    const error = await apiErrorOf(resolver().resolve('not a domain'));
    expect([error.status, error.code]).toEqual([400, 'invalid_domain']);
    expect(queried.length).toBe(before);
  });
});

// The name rules themselves are tested once, in services/common/src/dns/domain-name.test.ts.
describe('domainName', () => {
  it('answers the lower-case ASCII form', () => {
    expect(domainName('München.DE.')).toBe('xn--mnchen-3ya.de');
  });

  it('refuses what is not a domain name with 400 invalid_domain and a short message', () => {
    for (const input of ['', 'localhost', 'example.com/path', '1.2.3.4', '2001:db8::1', 'a'.repeat(5000)]) {
      let caught: unknown;
      try {
        domainName(input);
      } catch (error) {
        caught = error;
      }
      expect(caught, input).toBeInstanceOf(InvalidArgumentError);
      const answered = publicErrorOf(caught);
      expect(answered.code).toBe('invalid_domain');
      expect(answered.status).toBe(400);
      expect(answered.message.length).toBeLessThan(120);
    }
  });
});
