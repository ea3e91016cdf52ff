import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASET_FILE } from '@ipdata/dataset/format';
import { LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  callUnary,
  createGrpcClient,
  type GrpcIdentity,
} from '@ipdata/common';
import { testGrpcEnv, testGrpcTls } from '@ipdata/common/testing';
import { buildLookupEngine, type LookupEngine } from '../src/app.js';
import { loadLookupEngineConfig } from '../src/config.js';
import { asnDataset, asnEntry } from './fixtures/asn-dataset.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

function writeVersion(root: string, version: string, dataset: Buffer): void {
  mkdirSync(join(root, version), { recursive: true });
  writeFileSync(join(root, version, DATASET_FILE), dataset);
}

/** SearchAsns and GetAsnRelations over mutual TLS, on dataset folders written by the test (no Kafka). */
describe('lookup engine: ASN search and relations', () => {
  const root = mkdtempSync(join(tmpdir(), 'datasets-asn-'));
  let engine: LookupEngine;
  const clients: LookupServiceClient[] = [];
  const client = (identity: GrpcIdentity) => {
    const made = createGrpcClient(LookupServiceClient, {
      address: engine.grpc.boundAddress,
      tls: testGrpcTls(identity),
      defaultDeadlineMs: 5_000,
    });
    clients.push(made);
    return made;
  };
  let cn: LookupServiceClient;

  beforeAll(async () => {
    writeVersion(root, '2026.11.01-aaaa', asnDataset('2026.11.01-aaaa'));
    const config = loadLookupEngineConfig({
      GRPC_PORT: '0',
      HEALTH_PORT: '0',
      DATASETS_DIR: root,
      DATASET_EVENTS_ENABLED: 'false',
      ...testGrpcEnv('lookup-engine'),
    });
    engine = buildLookupEngine(config, logger);
    await engine.lifecycle.start();
    cn = client('bff-cn');
  });

  afterAll(async () => {
    for (const made of clients) made.close();
    await engine?.lifecycle.shutdown();
  });

  it('answers SearchAsns by number, by words with a country, paged with a total', async () => {
    const byNumber = await callUnary(cn.searchAsns.bind(cn), { query: 'AS4134', countryCode: '', page: 0, pageSize: 0 });
    expect(byNumber).toEqual({
      asns: [
        {
          asn: 4134,
          name: 'CHINANET-BACKBONE',
          organization: 'China Telecom',
          countryCode: 'CN',
          usageType: 'ISP',
          ipv4PrefixCount: 3,
          ipv6PrefixCount: 1,
        },
      ],
      total: 1,
      page: 0,
      pageSize: 20,
    });
    const words = await callUnary(cn.searchAsns.bind(cn), { query: 'china TELECOM', countryCode: 'cn', page: 1, pageSize: 2 });
    expect(words.asns.map((entry) => entry.asn)).toEqual([23724]);
    expect(words).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    await expect(
      callUnary(cn.searchAsns.bind(cn), { query: '', countryCode: '', page: 0, pageSize: 101 }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('answers GetAsnRelations with prefixes and same-organisation siblings; NOT_FOUND for an unknown ASN', async () => {
    const relations = await callUnary(cn.getAsnRelations.bind(cn), { asn: 4809, page: 0, pageSize: 0 });
    expect(relations.asn).toMatchObject({ asn: 4809, organization: 'CHINA TELECOM', countryCode: 'cn' });
    expect(relations).toMatchObject({ prefixes: ['10.201.0.0/24'], totalPrefixes: 1, page: 0, pageSize: 100, siblingsTotal: 2 });
    expect(relations.siblings.map((entry) => [entry.asn, entry.organization])).toEqual([
      [4134, 'China Telecom'],
      [23724, 'China Telecom'],
    ]);
    const unknown = callUnary(cn.getAsnRelations.bind(cn), { asn: 65000, page: 0, pageSize: 0 });
    await expect(unknown).rejects.toBeInstanceOf(NotFoundError);
    await expect(unknown).rejects.toThrow('unknown ASN: AS65000');
  });

  it('answers from the new dataset after a swap (its own index), and refuses a caller the policy does not allow', async () => {
    writeVersion(root, '2026.11.02-bbbb', asnDataset('2026.11.02-bbbb', [asnEntry(7, 'SEVEN-NET', 'China Telecom', 'CN')]));
    expect(await engine.store.reloadNewest()).toBe(true);
    const after = await callUnary(cn.searchAsns.bind(cn), { query: 'telecom', countryCode: '', page: 0, pageSize: 0 });
    expect(after.asns.map((entry) => entry.asn)).toEqual([7]);
    await expect(callUnary(cn.getAsnRelations.bind(cn), { asn: 4134, page: 0, pageSize: 0 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const billing = client('billing');
    await expect(
      callUnary(billing.searchAsns.bind(billing), { query: '', countryCode: '', page: 0, pageSize: 0 }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
