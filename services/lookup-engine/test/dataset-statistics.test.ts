import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASET_FILE } from '@ipdata/dataset/format';
import { STATISTICS_FILE } from '@ipdata/dataset/statistics';
import { LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  PermissionDeniedError,
  UnavailableError,
  callUnary,
  createGrpcClient,
  type GrpcIdentity,
} from '@ipdata/common';
import { testGrpcEnv, testGrpcTls } from '@ipdata/common/testing';
import { buildLookupEngine, type LookupEngine } from '../src/app.js';
import { loadLookupEngineConfig } from '../src/config.js';
import { ALIBABA, statisticsDataset } from './fixtures/statistics-dataset.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

function writeVersion(root: string, version: string, files: { dataset: Buffer; statistics?: string }): void {
  mkdirSync(join(root, version), { recursive: true });
  writeFileSync(join(root, version, DATASET_FILE), files.dataset);
  if (files.statistics !== undefined) writeFileSync(join(root, version, STATISTICS_FILE), files.statistics);
}

/** The statistics methods over mutual TLS, on dataset folders written by the test (DATASETS_DIR). */
describe('lookup engine: dataset statistics', () => {
  const root = mkdtempSync(join(tmpdir(), 'datasets-statistics-'));
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
  let en: LookupServiceClient;

  beforeAll(async () => {
    // A version built before statistics existed, two with statistics (the newest is served),
    // and a half-written temporary folder, which the history must not list.
    writeVersion(root, '2026.10.01-0000', { dataset: statisticsDataset('2026.10.01-0000').dataset });
    writeVersion(root, '2026.11.01-aaaa', statisticsDataset('2026.11.01-aaaa'));
    writeVersion(root, '2026.11.02-bbbb', statisticsDataset('2026.11.02-bbbb', true));
    writeVersion(root, '.tmp-2026.11.09-ffff-1', statisticsDataset('2026.11.09-ffff'));
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
    en = client('bff-en');
  });

  afterAll(async () => {
    for (const made of clients) made.close();
    await engine?.lifecycle.shutdown();
  });

  it('answers GetDatasetStatistics from the served version: countries, divisions, totals', async () => {
    const answer = await callUnary(cn.getDatasetStatistics.bind(cn), {});
    expect(answer.version).toBe('2026.11.02-bbbb');
    expect(answer.builtAt).toEqual(new Date('2026-11-02T00:00:00Z'));
    expect(answer.countries.map((c) => [c.countryCode, c.nameEn, c.nameZh, c.addresses?.ipv4, c.addresses?.ipv6])).toEqual([
      ['CN', 'China', '中国', 2 ** 20 + 2 ** 17, (2n ** 108n).toString()],
      ['HK', 'Hong Kong', '中国香港特别行政区', 256, '0'],
      ['US', 'United States', '美国', 256, '0'],
    ]);
    expect(answer.total).toEqual({ ipv4: 2 ** 20 + 2 ** 17 + 512, ipv6: (2n ** 108n).toString(), ipv6Slash32: 4096 });
    expect(answer.provinces).toHaveLength(34);
    const guangdong = answer.provinces.find((p) => p.shortName === '广东');
    expect(guangdong).toMatchObject({ code: '44', name: '广东省', nameEn: 'Guangdong', idcOrganizations: 1 });
    expect(guangdong?.addresses?.ipv4).toBe(2 ** 17);
    expect(answer.chinaTotal?.ipv4).toBe(2 ** 20 + 2 ** 17 + 256);
    expect(answer.chinaUnattributed?.ipv4).toBe(0);
    expect(answer.idcOrganizations).toBe(2);
  });

  it('pages ListIdcOrganizations, filtered by province, and refuses an unknown one', async () => {
    const list = (request: { province?: string; page?: number; pageSize?: number }) =>
      callUnary(en.listIdcOrganizations.bind(en), { province: '', page: 0, pageSize: 0, ...request });
    const all = await list({});
    expect(all.version).toBe('2026.11.02-bbbb');
    expect(all.total).toBe(2);
    expect(all.organizations[0]).toEqual({
      name: '阿里云',
      nameZh: '阿里云',
      organization: ALIBABA,
      asns: [37963],
      prefixCount: 1,
      addresses: { ipv4: 2 ** 17, ipv6: '0', ipv6Slash32: 0 },
      provinces: [{ code: '44', shortName: '广东', addresses: { ipv4: 2 ** 17, ipv6: '0', ipv6Slash32: 0 } }],
    });
    const guangdong = await list({ province: '广东省' });
    expect(guangdong.organizations.map((o) => o.name)).toEqual(['阿里云']);
    expect(guangdong.province?.code).toBe('44');
    expect((await list({ page: 1, pageSize: 1 })).organizations.map((o) => o.name)).toEqual(['腾讯云']);
    await expect(list({ province: 'Atlantis' })).rejects.toThrow(InvalidArgumentError);
    await expect(list({ province: 'Atlantis' })).rejects.toThrow('unknown province: Atlantis');
  });

  it('lists the history of every version with statistics, oldest first, filtered', async () => {
    const history = await callUnary(cn.listDatasetStatistics.bind(cn), { limit: 0, countryCodes: ['CN'], provinces: ['44'] });
    expect(
      history.versions.map((v) => [
        v.version,
        v.countries.map((c) => c.addresses?.ipv4),
        v.provinces.map((p) => p.addresses?.ipv4),
      ]),
    ).toEqual([
      ['2026.11.01-aaaa', [2 ** 20 + 2 ** 16], [2 ** 16]],
      ['2026.11.02-bbbb', [2 ** 20 + 2 ** 17], [2 ** 17]],
    ]);
    // A version written later is found without a restart.
    writeVersion(root, '2026.11.03-cccc', statisticsDataset('2026.11.03-cccc', true));
    const again = await callUnary(cn.listDatasetStatistics.bind(cn), { limit: 2, countryCodes: [], provinces: [] });
    expect(again.versions.map((v) => v.version)).toEqual(['2026.11.02-bbbb', '2026.11.03-cccc']);
    expect(again.versions[0]?.countries).toHaveLength(3);
    expect(again.versions[0]?.provinces).toHaveLength(34);
  });

  it('keeps serving lookups from a version without statistics and says why statistics are unavailable', async () => {
    writeVersion(root, '2026.11.04-dddd', { dataset: statisticsDataset('2026.11.04-dddd').dataset });
    expect(await engine.store.reloadNewest()).toBe(true);
    expect(engine.store.version).toBe('2026.11.04-dddd');
    expect((await callUnary(cn.lookup.bind(cn), { ip: '47.96.1.1' })).info?.zh?.isp).toBe('阿里云');
    await expect(callUnary(cn.getDatasetStatistics.bind(cn), {})).rejects.toThrow(UnavailableError);
    await expect(callUnary(cn.getDatasetStatistics.bind(cn), {})).rejects.toThrow(
      'dataset version 2026.11.04-dddd has no statistics.json',
    );
    await expect(callUnary(cn.listIdcOrganizations.bind(cn), { province: '', page: 0, pageSize: 0 })).rejects.toThrow(
      UnavailableError,
    );

    // A malformed file is refused with its reason; the history leaves it out.
    writeVersion(root, '2026.11.05-eeee', { dataset: statisticsDataset('2026.11.05-eeee').dataset, statistics: '{"format": 9}' });
    expect(await engine.store.reloadNewest()).toBe(true);
    await expect(callUnary(cn.getDatasetStatistics.bind(cn), {})).rejects.toThrow(
      /statistics.json of 2026.11.05-eeee refused: format 9/,
    );
    const history = await callUnary(cn.listDatasetStatistics.bind(cn), { limit: 0, countryCodes: [], provinces: [] });
    expect(history.versions.map((v) => v.version)).toEqual(['2026.11.01-aaaa', '2026.11.02-bbbb', '2026.11.03-cccc']);
  });

  it('allows the statistics methods to bff-cn, bff-en and operator only', async () => {
    const operator = client('operator');
    expect(
      (await callUnary(operator.listDatasetStatistics.bind(operator), { limit: 1, countryCodes: [], provinces: [] })).versions,
    ).toHaveLength(1);
    const billing = client('billing');
    await expect(callUnary(billing.getDatasetStatistics.bind(billing), {})).rejects.toThrow(PermissionDeniedError);
    await expect(callUnary(billing.listIdcOrganizations.bind(billing), { province: '', page: 0, pageSize: 0 })).rejects.toThrow(
      PermissionDeniedError,
    );
    await expect(
      callUnary(billing.listDatasetStatistics.bind(billing), { limit: 0, countryCodes: [], provinces: [] }),
    ).rejects.toThrow(PermissionDeniedError);
  });
});
