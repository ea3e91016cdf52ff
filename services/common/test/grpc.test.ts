import { setTimeout as sleep } from 'node:timers/promises';
import { makeGenericClientConstructor, type ChannelCredentials, type Client, type ServiceError } from '@grpc/grpc-js';
import {
  IpInfo,
  LookupServiceClient,
  LookupServiceService,
  type LookupRequest,
  type LookupResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import { service as healthService } from 'grpc-health-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeadlineExceededError,
  GrpcServer,
  InternalError,
  InvalidArgumentError,
  callUnary,
  createGrpcClient,
  defineAccessPolicy,
  unary,
} from '@ipdata/common';
import { testGrpcTls } from '@ipdata/common/testing';

const logger = pino({ level: 'silent' });

type HealthClient = Client & {
  check(
    request: { service: string },
    callback: (error: ServiceError | null, response: { status: string | number }) => void,
  ): void;
};

describe('gRPC server and client helpers', () => {
  const everyMethod = ['bff-en'] as const;
  const policy = defineAccessPolicy(LookupServiceService, {
    lookup: everyMethod,
    batchLookup: everyMethod,
    batchLookupCompact: everyMethod,
    batchLookupCompactStream: everyMethod,
    lookupAsn: everyMethod,
    getDatasetInfo: everyMethod,
    getDatasetStatistics: everyMethod,
    listIdcOrganizations: everyMethod,
    listDatasetStatistics: everyMethod,
    searchAsns: everyMethod,
    getAsnRelations: everyMethod,
    explainAddress: everyMethod,
  });
  const server = GrpcServer.fromConfig(
    { host: '127.0.0.1', port: 0, drainTimeoutMs: 2_000, tls: testGrpcTls('lookup-engine'), policy },
    logger,
  );
  let client: LookupServiceClient;
  let health: HealthClient;

  beforeAll(async () => {
    server.addService('ipdata.lookup.v1.LookupService', LookupServiceService, {
      lookup: unary<LookupRequest, LookupResponse>(logger, 'Lookup', async ({ ip }) => {
        if (ip === 'slow') await sleep(1_000);
        if (ip === 'crash') throw new Error('database password is hunter2');
        if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) throw new InvalidArgumentError(`invalid IP address: ${ip}`);
        return { info: IpInfo.fromPartial({ ip, countryCode: 'AU', startIp: ip, endIp: ip }) };
      }),
      batchLookup: unary(logger, 'BatchLookup', async () => ({ items: [] })),
      lookupAsn: unary(logger, 'LookupAsn', async () => {
        throw new InvalidArgumentError('not in this test');
      }),
      getDatasetInfo: unary(logger, 'GetDatasetInfo', async () => ({ version: 'test' })),
    });
    await server.start();
    const address = server.boundAddress;
    client = createGrpcClient(LookupServiceClient, { address, tls: testGrpcTls('bff-en'), defaultDeadlineMs: 300 });
    // Connected before the tests: the TLS handshake must not eat the first call's 300 ms deadline
    // (a loaded CI machine took 261 ms to pick a connection and failed "answers a call").
    await new Promise<void>((resolve, reject) =>
      client.waitForReady(Date.now() + 10_000, (error) => (error ? reject(error) : resolve())),
    );
    const HealthClientClass = makeGenericClientConstructor(healthService, 'Health') as unknown as new (
      address: string,
      channelCredentials: ChannelCredentials,
    ) => HealthClient;
    health = createGrpcClient(HealthClientClass, { address, tls: testGrpcTls('bff-en') });
  });

  afterAll(async () => {
    client.close();
    health.close();
    await server.shutdown();
  });

  const lookup = (ip: string) => callUnary(client.lookup.bind(client), { ip });
  const check = (service: string) =>
    new Promise<string | number>((resolve, reject) =>
      health.check({ service }, (error, response) => (error ? reject(error) : resolve(response.status))),
    );

  it('answers a call', async () => {
    expect((await lookup('1.1.1.1')).info).toMatchObject({ ip: '1.1.1.1', countryCode: 'AU' });
  });

  it('turns a domain error into a status and back into the same error type on the client', async () => {
    const call = lookup('1.2.3');
    await expect(call).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(call).rejects.toThrow('invalid IP address: 1.2.3');
  });

  it('hides unexpected errors behind INTERNAL "internal error"', async () => {
    const call = lookup('crash');
    await expect(call).rejects.toBeInstanceOf(InternalError);
    await expect(call).rejects.toThrow(/^internal error$/);
  });

  it('applies the default deadline to calls that set none', async () => {
    // The handler takes 1 s and then fails with INVALID_ARGUMENT, so DEADLINE_EXCEEDED proves a
    // deadline shorter than that applied; at least ~300 ms passed, so it is the configured one.
    const started = Date.now();
    await expect(lookup('slow')).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('serves the standard health service and reports NOT_SERVING when told', async () => {
    expect(await check('')).toBe('SERVING');
    expect(await check('ipdata.lookup.v1.LookupService')).toBe('SERVING');
    server.setServing(false);
    expect(await check('ipdata.lookup.v1.LookupService')).toBe('NOT_SERVING');
    server.setServing(true);
  });
});
