import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNS_RCODE, type LocalDnsServer, startLocalDnsServer } from '../testing/local-dns-server.js';
import { DnsResolver } from './dns-resolver.js';
import { InvalidDomainNameError } from './domain-name.js';
import { reverseName } from './reverse-name.js';

const ptrName = (address: string): string => reverseName(address) as string;

let server: LocalDnsServer;

beforeAll(async () => {
  server = await startLocalDnsServer({
    'both.example': { A: ['192.0.2.10', '192.0.2.11', '192.0.2.10'], AAAA: ['2001:db8::10'] },
    'v4only.example': { A: ['198.51.100.7'] },
    'empty.example': {},
    'broken.example': { rcode: DNS_RCODE.SERVFAIL },
    'silent.example': { silent: true },
    'half-silent.example': { A: ['203.0.113.1'], silentAaaa: true },
    'xn--bcher-kva.example': { A: ['203.0.113.9'] },
    [ptrName('192.0.2.10')]: { PTR: ['Host-10.Example.NET.', 'host-10.example.net', 'alias.example.org'] },
    [ptrName('2001:db8::10')]: { PTR: ['v6.example.net'] },
    [ptrName('192.0.2.99')]: { silent: true },
    [ptrName('192.0.2.98')]: { rcode: DNS_RCODE.SERVFAIL },
  });
});

afterAll(async () => {
  await server.close();
});

function resolver(timeoutMs = 2000): DnsResolver {
  return new DnsResolver({ servers: [server.address], timeoutMs });
}

describe('DnsResolver.resolveAddresses against a DNS server on loopback', () => {
  it('answers A and AAAA records without duplicates, classed records', async () => {
    await expect(resolver().resolveAddresses('both.example')).resolves.toEqual({
      name: 'both.example',
      a: ['192.0.2.10', '192.0.2.11'],
      aaaa: ['2001:db8::10'],
      aStatus: 'records',
      aaaaStatus: 'records',
      status: 'records',
    });
    await expect(resolver().resolveAddresses('v4only.example')).resolves.toMatchObject({
      a: ['198.51.100.7'],
      aaaa: [],
      aaaaStatus: 'no_records',
      status: 'records',
    });
  });

  it('queries the ASCII form of upper-case, trailing-dot and internationalised names', async () => {
    await expect(resolver().resolveAddresses('BOTH.Example.')).resolves.toMatchObject({ name: 'both.example' });
    await expect(resolver().resolveAddresses('bücher.example')).resolves.toMatchObject({
      name: 'xn--bcher-kva.example',
      a: ['203.0.113.9'],
    });
    expect(server.queried).toContain('A xn--bcher-kva.example');
  });

  it('classes NXDOMAIN and an empty name as no_records, SERVFAIL as failed', async () => {
    expect((await resolver().resolveAddresses('missing.example')).status).toBe('no_records');
    expect((await resolver().resolveAddresses('empty.example')).status).toBe('no_records');
    expect((await resolver().resolveAddresses('broken.example')).status).toBe('failed');
  });

  it('classes a silent server as timeout after about the timeout, even with half an answer', async () => {
    const timeoutMs = 300;
    const started = Date.now();
    const silent = await resolver(timeoutMs).resolveAddresses('silent.example');
    const took = Date.now() - started;
    expect(silent.status).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(timeoutMs - 50);
    // The configured timeout holds (c-ares' own default waits 5 s per try): 10x it, so a slow,
    // loaded machine passes.
    expect(took).toBeLessThan(10 * timeoutMs);
    const half = await resolver(timeoutMs).resolveAddresses('half-silent.example');
    expect([half.status, half.aStatus, half.aaaaStatus, half.a]).toEqual(['timeout', 'records', 'timeout', ['203.0.113.1']]);
  });

  it('refuses an invalid name before any query', async () => {
    const before = server.queried.length;
    await expect(resolver().resolveAddresses('not a domain')).rejects.toBeInstanceOf(InvalidDomainNameError);
    expect(server.queried.length).toBe(before);
  });
});

describe('DnsResolver.reverse', () => {
  it('answers PTR names of IPv4 and IPv6 addresses, normalised and without duplicates', async () => {
    await expect(resolver().reverse('192.0.2.10')).resolves.toEqual({
      status: 'records',
      names: ['host-10.example.net', 'alias.example.org'],
    });
    await expect(resolver().reverse('2001:db8::10')).resolves.toEqual({ status: 'records', names: ['v6.example.net'] });
    expect(server.queried).toContain(`PTR ${ptrName('2001:db8::10')}`);
  });

  it('classes no PTR, a timeout and a failure', async () => {
    await expect(resolver().reverse('192.0.2.1')).resolves.toEqual({ status: 'no_records', names: [] });
    await expect(resolver(300).reverse('192.0.2.99')).resolves.toEqual({ status: 'timeout', names: [] });
    await expect(resolver().reverse('192.0.2.98')).resolves.toEqual({ status: 'failed', names: [] });
  });

  it('refuses what is not an address', async () => {
    await expect(resolver().reverse('example.com')).rejects.toBeInstanceOf(RangeError);
  });
});
