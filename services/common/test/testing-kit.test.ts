import * as lookupApi from '@ipdata/proto/lookup/v1/lookup';
import {
  IpInfo,
  LookupServiceClient,
  LookupServiceService,
  type LookupAsnRequest,
  type LookupAsnResponse,
  type LookupRequest,
  type LookupResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventProducer,
  GrpcServer,
  InvalidArgumentError,
  createGrpcClient,
  createKafka,
  defineAccessPolicy,
  ensureTopics,
  topicSpecs,
  unary,
} from '@ipdata/common';
import { TopicRecorder, grpcCaller, rawTopic, stackAddresses, testGrpcTls, uniqueName } from '@ipdata/common/testing';
import { usageTestTopic } from './fixtures/usage-test-topic.js';

const logger = pino({ level: 'silent' });

describe('grpcCaller: a generated client as typed promise methods', () => {
  const everyone = ['bff-en'] as const;
  const policy = defineAccessPolicy(LookupServiceService, {
    lookup: everyone,
    batchLookup: everyone,
    batchLookupCompact: everyone,
    batchLookupCompactStream: everyone,
    lookupAsn: everyone,
    getDatasetInfo: everyone,
    getDatasetStatistics: everyone,
    listIdcOrganizations: everyone,
    listDatasetStatistics: everyone,
    searchAsns: everyone,
    getAsnRelations: everyone,
    explainAddress: everyone,
  });
  const server = GrpcServer.fromConfig({ host: '127.0.0.1', port: 0, tls: testGrpcTls('lookup-engine'), policy }, logger);
  let client: LookupServiceClient;
  const seen: LookupAsnRequest[] = [];

  beforeAll(async () => {
    server.addService('ipdata.lookup.v1.LookupService', LookupServiceService, {
      lookup: unary<LookupRequest, LookupResponse>(logger, 'Lookup', async ({ ip }) => {
        if (ip === '') throw new InvalidArgumentError('ip is required', { reason: 'ip_required' });
        return { info: IpInfo.fromPartial({ ip, countryCode: 'AU' }) };
      }),
      lookupAsn: unary<LookupAsnRequest, LookupAsnResponse>(logger, 'LookupAsn', async (request) => {
        seen.push(request);
        return lookupApi.LookupAsnResponse.fromPartial({ asn: request.asn });
      }),
    });
    await server.start();
    client = createGrpcClient(LookupServiceClient, { address: server.boundAddress, tls: testGrpcTls('bff-en') });
  });

  afterAll(async () => {
    client.close();
    await server.shutdown();
  });

  it('resolves with the typed response', async () => {
    const lookup = grpcCaller(client, LookupServiceService);
    const response = await lookup.lookup({ ip: '1.1.1.1' });
    expect(response.info).toMatchObject({ ip: '1.1.1.1', countryCode: 'AU' });
  });

  it('fills proto3 defaults for fields left out, with and without the codecs module', async () => {
    await grpcCaller(client, LookupServiceService).lookupAsn({ asn: 13335 });
    await grpcCaller(client, LookupServiceService, { codecs: lookupApi }).lookupAsn({ asn: 64500 });
    expect(seen).toEqual([
      { asn: 13335, page: 0, pageSize: 0 },
      { asn: 64500, page: 0, pageSize: 0 },
    ]);
  });

  it("rejects with the server's DomainError", async () => {
    const lookup = grpcCaller(client, LookupServiceService);
    const failure = lookup.lookup({});
    await expect(failure).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(failure).rejects.toMatchObject({ message: 'ip is required', reason: 'ip_required' });
  });
});

describe('TopicRecorder', () => {
  const stack = stackAddresses();
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'recorder-test' }, logger);
  const producer = EventProducer.fromConfig({ kafka, source: 'recorder-test' }, logger);
  const topic = usageTestTopic(uniqueName('test.recorder'));

  beforeAll(async () => {
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    await producer.start();
  });
  afterAll(() => producer.shutdown());

  it('sees events sent before it joined, decoded, with key and CloudEvents headers', async () => {
    const id = await producer.send(topic, UsageEvent.fromPartial({ apiKeyId: 'key-a', count: 2 }), { key: 'key-a' });
    const recorder = await TopicRecorder.start(topic);
    try {
      const event = await recorder.waitFor((e) => e.meta?.id === id);
      expect(event).toMatchObject({ apiKeyId: 'key-a', count: 2 });
      const later = await producer.send(topic, UsageEvent.fromPartial({ apiKeyId: 'key-b' }), { key: 'key-b' });
      const record = await recorder.waitForRecord((r) => r.event.meta?.id === later);
      expect(record).toMatchObject({ key: 'key-b', headers: { ce_id: later, ce_source: 'recorder-test' } });
      expect(recorder.events.map((e) => e.apiKeyId)).toEqual(['key-a', 'key-b']);
      expect(recorder.withId(id)).toHaveLength(1);
    } finally {
      await recorder.stop();
    }
  });

  it('reads raw bytes with rawTopic(name), and times out naming what it waited for', async () => {
    const id = await producer.send(topic, UsageEvent.fromPartial({ apiKeyId: 'raw' }), { key: 'raw' });
    const recorder = await TopicRecorder.start(rawTopic(topic.name), { kafka });
    try {
      const [first] = await recorder.waitForCount(1);
      expect(UsageEvent.decode(first!.event.value).apiKeyId).toBe('key-a');
      const mine = await recorder.waitForRecord((r) => r.headers['ce_id'] === id);
      expect(UsageEvent.decode(mine.event.value).apiKeyId).toBe('raw');
      await expect(recorder.waitFor(() => false, { timeoutMs: 200, what: 'nothing' })).rejects.toThrow(
        'timed out waiting for nothing',
      );
    } finally {
      await recorder.stop();
    }
  });
});
