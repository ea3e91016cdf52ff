import { join } from 'node:path';
import { LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionDeniedError, ResourceExhaustedError, callUnary, createGrpcClient, type GrpcIdentity } from '@ipdata/common';
import { filesContainingSymbol, listServicesByReflection, testGrpcEnv, testGrpcTls } from '@ipdata/common/testing';
import { buildLookupEngine, type LookupEngine } from '../src/app.js';
import { createLookupClient } from '../src/client/lookup-client.js';
import { loadLookupEngineConfig } from '../src/config.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

/** The address with the largest answer found in 200,000 random samples of the 2026.09 dataset (1,252 bytes). */
const LARGEST_ANSWER_IP = '2409:264f:e519::1';

/** The engine on the real dataset (`make dataset`), over mutual TLS as `make up` runs it. */
describe('lookup engine: who may call it, and how much', () => {
  let engine: LookupEngine;
  const clients: { close(): void }[] = [];
  const lookupClient = (identity: GrpcIdentity) => {
    const client = createGrpcClient(LookupServiceClient, { address: engine.grpc.boundAddress, tls: testGrpcTls(identity) });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const config = loadLookupEngineConfig({
      GRPC_PORT: '0',
      HEALTH_PORT: '0',
      DATASETS_DIR: process.env['DATASETS_DIR'] ?? join(import.meta.dirname, '../../../var/datasets'),
      DATASET_EVENTS_ENABLED: 'false',
      ...testGrpcEnv('lookup-engine'),
    });
    engine = buildLookupEngine(config, logger);
    await engine.lifecycle.start();
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await engine?.lifecycle.shutdown();
  });

  it('listens on loopback by default', () => {
    expect(engine.grpc.boundAddress).toBe(`127.0.0.1:${engine.grpc.boundPort}`);
  });

  it('lets operator list the services by reflection and read dataset info and lookups', async () => {
    expect(await listServicesByReflection(engine.grpc.boundAddress, testGrpcTls('operator'))).toEqual([
      'grpc.health.v1.Health',
      'ipdata.lookup.v1.LookupService',
    ]);
    const operator = lookupClient('operator');
    expect((await callUnary(operator.getDatasetInfo.bind(operator), {})).version).toBe(engine.store.version);
    expect((await callUnary(operator.lookup.bind(operator), { ip: '8.8.8.8' })).info?.countryCode).toBe('US');
  });

  it('describes messages by reflection with their imports, so grpcurl can resolve google.protobuf.Timestamp', async () => {
    const files = await filesContainingSymbol(
      engine.grpc.boundAddress,
      testGrpcTls('operator'),
      'ipdata.lookup.v1.GetDatasetInfoResponse',
    );
    const lookupFile = files.find((file) => file.name === 'ipdata/lookup/v1/lookup.proto');
    expect(lookupFile?.dependency).toContain('google/protobuf/timestamp.proto');
    expect(lookupFile?.fieldTypeNames).toContain('.google.protobuf.Timestamp');
    expect(files.map((file) => file.name)).toContain('google/protobuf/timestamp.proto');
  });

  it('refuses back-end services, which react to events instead of calling it', async () => {
    const billing = lookupClient('billing');
    const call = callUnary(billing.lookup.bind(billing), { ip: '8.8.8.8' });
    await expect(call).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(call).rejects.toThrow('caller "billing" may not call /ipdata.lookup.v1.LookupService/Lookup');
  });

  it('answers a 1,000-address batch of its largest answers to the BFF client, beyond the 1 MiB default', async () => {
    const ips = Array.from({ length: 1_000 }, () => LARGEST_ANSWER_IP);
    const fast = createLookupClient({ address: engine.grpc.boundAddress, tls: testGrpcTls('bff-en') });
    clients.push(fast);
    const [viaCompact, viaBatch] = await Promise.all([
      callUnary(fast.batchLookup.bind(fast), { ips }),
      // BatchLookup itself, with the same receive limit: about 1.25 MB.
      (async () => {
        const plain = createGrpcClient(LookupServiceClient, {
          address: engine.grpc.boundAddress,
          tls: testGrpcTls('bff-en'),
          maxReceiveMessageBytes: 8 * 1024 * 1024,
        });
        clients.push(plain);
        return callUnary(plain.batchLookup.bind(plain), { ips });
      })(),
    ]);
    expect(viaCompact.items).toHaveLength(1_000);
    expect(viaBatch.items).toHaveLength(1_000);
    expect(viaBatch.items[999]?.info?.ip).toBe(LARGEST_ANSWER_IP);
    // A client with the default limit cannot take that answer: the large limit is needed, and only here.
    const small = lookupClient('bff-en');
    await expect(callUnary(small.batchLookup.bind(small), { ips })).rejects.toBeInstanceOf(ResourceExhaustedError);
  });
});
