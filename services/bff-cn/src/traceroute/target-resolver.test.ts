import { type Socket, createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaceAError } from '../face-a/envelope.js';
import { DnsTargetResolver } from './target-resolver.js';

const NXDOMAIN = 3;
const SERVFAIL = 2;
/** A real DNS server on 127.0.0.1 (UDP, dns-packet), as bff-en's domain lookup tests do: the wire, not a mock. */
const ZONE: Record<string, { A?: string[]; AAAA?: string[]; rcode?: number }> = {
  'loop.example': { A: ['127.0.0.1'] },
  'v6.example': { AAAA: ['::1'] },
  'missing.example': { rcode: NXDOMAIN },
  'broken.example': { rcode: SERVFAIL },
};

let server: Socket;
let resolver: DnsTargetResolver;

beforeAll(async () => {
  server = createSocket('udp4');
  server.on('message', (message, remote) => {
    const question = dnsPacket.decode(message).questions?.[0];
    if (question === undefined) return;
    const entry = ZONE[question.name.toLowerCase()];
    const rcode = entry === undefined ? NXDOMAIN : (entry.rcode ?? 0);
    const data = question.type === 'A' ? (entry?.A ?? []) : question.type === 'AAAA' ? (entry?.AAAA ?? []) : [];
    const answer = dnsPacket.encode({
      type: 'response',
      id: dnsPacket.decode(message).id ?? 0,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: [question],
      answers: data.map((address) => ({ type: question.type as 'A', name: question.name, ttl: 60, data: address })),
    });
    server.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  resolver = new DnsTargetResolver({ servers: [`127.0.0.1:${server.address().port}`], timeoutMs: 1000 });
});
afterAll(() => {
  resolver.shutdown();
  server.close();
});

async function failure(promise: Promise<unknown>): Promise<[number, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof FaceAError)) throw new Error(`expected a FaceAError, got ${String(error)}`);
  return [error.code, error.msg];
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
