import { DNS_RCODE, type LocalDnsServer, startLocalDnsServer } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDomainError } from '@ipdata/common';
import { envelopeOfError } from '../face-a/envelope.js';
import { DnsTargetResolver } from './target-resolver.js';

/** A real DNS server on 127.0.0.1 (common's test kit): the wire, not a mock. */
let server: LocalDnsServer;
let resolver: DnsTargetResolver;

beforeAll(async () => {
  server = await startLocalDnsServer({
    'loop.example': { A: ['127.0.0.1'] },
    'v6.example': { AAAA: ['::1'] },
    'missing.example': { rcode: DNS_RCODE.NXDOMAIN },
    'broken.example': { rcode: DNS_RCODE.SERVFAIL },
  });
  resolver = new DnsTargetResolver({ servers: [server.address], timeoutMs: 1000 });
});
afterAll(async () => {
  resolver.shutdown();
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<[number, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isDomainError(error)) throw new Error(`expected a DomainError, got ${String(error)}`);
  const { code, msg } = envelopeOfError(error).envelope;
  return [code, msg];
}

describe('DnsTargetResolver on the configured server', () => {
  it('answers A and AAAA records', async () => {
    expect(await resolver.resolve('LOOP.example.')).toEqual(['127.0.0.1']);
    expect(await resolver.resolve('v6.example')).toEqual(['::1']);
  });

  it('answers 400 for a name without addresses, 503 when resolution fails, 400 for a malformed name', async () => {
    expect(await failure(resolver.resolve('missing.example'))).toEqual([400, '域名没有解析到 IP 地址']);
    expect(await failure(resolver.resolve('broken.example'))).toEqual([503, '域名解析失败，请稍后再试']);
    expect(await failure(resolver.resolve('example.com/x'))).toEqual([400, '请输入正确的域名']);
  });
});
