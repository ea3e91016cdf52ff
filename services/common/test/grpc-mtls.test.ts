import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  credentials,
  makeGenericClientConstructor,
  status,
  type ChannelCredentials,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  GetDatasetInfoResponse,
  IpInfo,
  LookupServiceClient,
  LookupServiceService,
  type BatchLookupRequest,
  type LookupRequest,
  type LookupResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import { service as healthService } from 'grpc-health-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GrpcServer,
  PermissionDeniedError,
  callUnary,
  createGrpcClient,
  defineAccessPolicy,
  unary,
  type GrpcTls,
} from '@ipdata/common';
import { listServicesByReflection, testGrpcTls, testPkiDir } from '@ipdata/common/testing';

const logger = pino({ level: 'silent' });
const pkiScript = fileURLToPath(new URL('../../../infra/local/pki.sh', import.meta.url));

type HealthClient = Client & {
  check(
    request: { service: string },
    callback: (error: ServiceError | null, response: { status: string | number }) => void,
  ): void;
};
const HealthClientClass = makeGenericClientConstructor(healthService, 'Health') as unknown as new (
  address: string,
  channelCredentials: ChannelCredentials,
) => HealthClient;

/** The gRPC status code of a failed call (callUnary would turn it into a DomainError). */
function rawLookup(client: LookupServiceClient, request: LookupRequest): Promise<LookupResponse> {
  return new Promise((resolve, reject) =>
    client.lookup(request, (error, response) => (error ? reject(error) : resolve(response))),
  );
}

/** The first IPv4 address of this machine that is not loopback, if it has one. */
function nonLoopbackAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
}

function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('gRPC over mutual TLS with a per-method allow-list', () => {
  // Lookup and GetDatasetInfo for operator (read-only); BatchLookup for bff-en only; stats is a
  // known identity with no method at all.
  const policy = defineAccessPolicy(LookupServiceService, {
    lookup: ['bff-en', 'operator'],
    batchLookup: ['bff-en'],
    batchLookupCompact: ['bff-en'],
    batchLookupCompactStream: ['bff-en'],
    lookupAsn: ['bff-en'],
    getDatasetInfo: ['bff-en', 'operator'],
    getDatasetStatistics: [],
    listIdcOrganizations: [],
    listDatasetStatistics: [],
    searchAsns: [],
    getAsnRelations: [],
    explainAddress: [],
  });
  const server = GrpcServer.fromConfig({ host: '127.0.0.1', port: 0, tls: testGrpcTls('lookup-engine'), policy }, logger);
  let handlerCalls = 0;
  let foreignPki: string;
  const clients: Client[] = [];
  const client = (tls: GrpcTls) => {
    const made = createGrpcClient(LookupServiceClient, { address: server.boundAddress, tls, defaultDeadlineMs: 5_000 });
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    server.addService('ipdata.lookup.v1.LookupService', LookupServiceService, {
      lookup: unary<LookupRequest, LookupResponse>(logger, 'Lookup', async ({ ip }) => {
        handlerCalls += 1;
        return { info: IpInfo.fromPartial({ ip }) };
      }),
      batchLookup: unary<BatchLookupRequest, { items: [] }>(logger, 'BatchLookup', async ({ ips }) => {
        handlerCalls += 1;
        expect(ips).toHaveLength(1_000);
        return { items: [] };
      }),
      batchLookupCompact: unary(logger, 'BatchLookupCompact', async () => ({})),
      lookupAsn: unary(logger, 'LookupAsn', async () => ({})),
      getDatasetInfo: unary(logger, 'GetDatasetInfo', async () => GetDatasetInfoResponse.fromPartial({ version: 'v-test' })),
    });
    await server.start();
    // A second CA with the same identity names: its bff-en certificate must not get in.
    foreignPki = mkdtempSync(join(tmpdir(), 'foreign-pki-'));
    await promisify(execFile)('bash', [pkiScript, foreignPki]);
  }, 30_000);

  afterAll(async () => {
    for (const made of clients) made.close();
    await server.shutdown();
    rmSync(foreignPki, { recursive: true, force: true });
  });

  it('answers an identity the policy allows', async () => {
    const bff = client(testGrpcTls('bff-en'));
    expect((await callUnary(bff.lookup.bind(bff), { ip: '1.1.1.1' })).info?.ip).toBe('1.1.1.1');
  });

  it('refuses a caller without a client certificate in the TLS handshake', async () => {
    const before = handlerCalls;
    const ca = readFileSync(join(testPkiDir(), 'ca.crt'));
    const anonymous = new LookupServiceClient(server.boundAddress, credentials.createSsl(ca));
    clients.push(anonymous);
    const error = (await rawLookup(anonymous, { ip: '1.1.1.1' }).catch((failure: ServiceError) => failure)) as ServiceError;
    expect(error.code).toBe(status.UNAVAILABLE);
    expect(handlerCalls).toBe(before);
  });

  it('refuses a certificate from another CA', async () => {
    const before = handlerCalls;
    const impostor = new LookupServiceClient(
      server.boundAddress,
      credentials.createSsl(
        readFileSync(join(testPkiDir(), 'ca.crt')),
        readFileSync(join(foreignPki, 'bff-en.key')),
        readFileSync(join(foreignPki, 'bff-en.crt')),
      ),
    );
    clients.push(impostor);
    const error = (await rawLookup(impostor, { ip: '1.1.1.1' }).catch((failure: ServiceError) => failure)) as ServiceError;
    expect(error.code).toBe(status.UNAVAILABLE);
    expect(handlerCalls).toBe(before);
  });

  it('refuses a plaintext caller', async () => {
    const plain = new LookupServiceClient(server.boundAddress, credentials.createInsecure());
    clients.push(plain);
    const error = (await rawLookup(plain, { ip: '1.1.1.1' }).catch((failure: ServiceError) => failure)) as ServiceError;
    expect(error.code).toBe(status.UNAVAILABLE);
  });

  it('answers PERMISSION_DENIED naming the method to a known identity outside the allow-list', async () => {
    const before = handlerCalls;
    const stats = client(testGrpcTls('stats'));
    const call = callUnary(stats.lookup.bind(stats), { ip: '1.1.1.1' });
    await expect(call).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(call).rejects.toThrow('caller "stats" may not call /ipdata.lookup.v1.LookupService/Lookup');
    await expect(call).rejects.toMatchObject({ reason: 'caller_not_allowed' });
    expect(handlerCalls).toBe(before);
  });

  it('lets operator list services by reflection and call read-only methods only', async () => {
    const operatorTls = testGrpcTls('operator');
    expect(await listServicesByReflection(server.boundAddress, operatorTls)).toEqual([
      'grpc.health.v1.Health',
      'ipdata.lookup.v1.LookupService',
    ]);
    const operator = client(operatorTls);
    expect((await callUnary(operator.getDatasetInfo.bind(operator), {})).version).toBe('v-test');
    await expect(callUnary(operator.batchLookup.bind(operator), { ips: ['1.1.1.1'] })).rejects.toThrow(
      'caller "operator" may not call /ipdata.lookup.v1.LookupService/BatchLookup',
    );
  });

  it('answers health to every authenticated caller, even one allowed no method', async () => {
    const health = createGrpcClient(HealthClientClass, { address: server.boundAddress, tls: testGrpcTls('stats') });
    clients.push(health);
    const answer = await new Promise<string | number>((resolve, reject) =>
      health.check({ service: 'ipdata.lookup.v1.LookupService' }, (error, response) =>
        error ? reject(error) : resolve(response.status),
      ),
    );
    expect(answer).toBe('SERVING');
  });

  it('refuses a request over the 1 MiB default limit and accepts a 1,000-address batch', async () => {
    const bff = client(testGrpcTls('bff-en'));
    const tooLarge = (await rawLookup(bff, { ip: 'x'.repeat(1024 * 1024 + 1) }).catch(
      (failure: ServiceError) => failure,
    )) as ServiceError;
    expect(tooLarge.code).toBe(status.RESOURCE_EXHAUSTED);
    // The longest text form of an IPv6 address (45 characters), 1,000 times: about 47 KB.
    const ips = Array.from({ length: 1_000 }, (_, i) => `ffff:ffff:ffff:ffff:ffff:ffff:255.255.${i >> 8}.${i & 255}`);
    expect(await callUnary(bff.batchLookup.bind(bff), { ips })).toEqual({ items: [] });
  });

  it('listens on the configured loopback interface only', async () => {
    expect(server.boundAddress).toBe(`127.0.0.1:${server.boundPort}`);
    expect(await tcpConnects('127.0.0.1', server.boundPort)).toBe(true);
    const external = nonLoopbackAddress();
    if (external !== undefined) expect(await tcpConnects(external, server.boundPort)).toBe(false);
  });

  it('refuses the insecure transport unless APP_ENV is development or test', () => {
    const saved = process.env['APP_ENV'];
    try {
      delete process.env['APP_ENV'];
      expect(() => GrpcServer.fromConfig({ host: '127.0.0.1', port: 0, tls: 'insecure', policy }, logger)).toThrow(
        /insecure.*refused/,
      );
      process.env['APP_ENV'] = 'production';
      expect(() => GrpcServer.fromConfig({ host: '127.0.0.1', port: 0, tls: 'insecure', policy }, logger)).toThrow(/refused/);
      process.env['APP_ENV'] = 'test';
      expect(GrpcServer.fromConfig({ host: '127.0.0.1', port: 0, tls: 'insecure', policy }, logger)).toBeInstanceOf(GrpcServer);
    } finally {
      if (saved === undefined) delete process.env['APP_ENV'];
      else process.env['APP_ENV'] = saved;
    }
  });
});
