/**
 * ExplainAddress over mutual TLS on the real dataset (`make dataset`) and the real installed
 * sources: each source's own answer is checked against well-known facts and against the merged
 * answer the dataset gives for the same address.
 */
import { join, resolve } from 'node:path';
import { LookupServiceClient, ReservedReason, type ExplainAddressResponse } from '@ipdata/proto/lookup/v1/lookup';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, callUnary, createGrpcClient } from '@ipdata/common';
import { testGrpcEnv, testGrpcTls } from '@ipdata/common/testing';
import { buildLookupEngine, type LookupEngine } from '../src/app.js';
import { loadLookupEngineConfig } from '../src/config.js';

// Info lines are kept, so a test can count what the engine did (here: opening the source readers).
const logLines: Array<{ msg?: string }> = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as { msg?: string }) });
const readersOpened = () => logLines.filter((line) => line.msg === 'explain source readers opened').length;
const datasetsDir = resolve(process.env['DATASETS_DIR'] ?? join(import.meta.dirname, '../../../var/datasets'));

const source = (answer: ExplainAddressResponse, name: string) => {
  const found = answer.sources.find((entry) => entry.source === name);
  if (found === undefined) throw new Error(`no ${name} answer`);
  return found;
};

describe('lookup engine: ExplainAddress', () => {
  let engine: LookupEngine;
  let client: LookupServiceClient;
  let cloudflare: ExplainAddressResponse;

  beforeAll(async () => {
    const config = loadLookupEngineConfig({
      GRPC_PORT: '0',
      HEALTH_PORT: '0',
      DATASETS_DIR: datasetsDir,
      DATASET_EVENTS_ENABLED: 'false',
      ...testGrpcEnv('lookup-engine'),
    });
    engine = buildLookupEngine(config, logger);
    await engine.lifecycle.start();
    client = createGrpcClient(LookupServiceClient, {
      address: engine.grpc.boundAddress,
      tls: testGrpcTls('bff-cn'),
      defaultDeadlineMs: 60_000,
    });
    cloudflare = await callUnary(client.explainAddress.bind(client), { ip: '1.1.1.1' });
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await engine?.lifecycle.shutdown();
  });

  it('opens the source readers on the first call only', async () => {
    expect(readersOpened()).toBe(1);
    const later = await callUnary(client.explainAddress.bind(client), { ip: '8.8.4.4' });
    expect(later.sources.length).toBeGreaterThan(0);
    expect(readersOpened()).toBe(1);
  });

  it('answers exactly what Lookup answers, with the dataset version', async () => {
    const lookup = await callUnary(client.lookup.bind(client), { ip: '1.1.1.1' });
    const { info } = cloudflare;
    // current_time is computed per call: compare everything else.
    expect({ ...info, timeZone: { ...info?.timeZone, currentTime: '' } }).toEqual({
      ...lookup.info,
      timeZone: { ...lookup.info?.timeZone, currentTime: '' },
    });
    expect(cloudflare.datasetVersion).toBe(engine.store.version);
  });

  it('gives each source its own answer, in the dataset order, with versions: 1.1.1.1 is AS13335', async () => {
    const info = await callUnary(client.getDatasetInfo.bind(client), {});
    const names = info.sources.map((entry) => entry.name).filter((name) => ['geolite2-city', 'asn', 'qqwry'].includes(name));
    expect(cloudflare.sources.map((entry) => entry.source)).toEqual(names);
    for (const entry of cloudflare.sources) {
      expect(entry.datasetSourceVersion).toBe(info.sources.find((s) => s.name === entry.source)?.version);
      expect(entry.readVersion).toMatch(/^\d/);
    }
    const asn = source(cloudflare, 'asn');
    expect(asn.fields['asn']).toBe('13335');
    expect(asn.fields['organization']).toMatch(/cloudflare/i);
    expect(asn.network).toBe('1.1.1.0/24');
    expect(cloudflare.info?.asn?.asn).toBe(13335);
  });

  it('8.8.8.8: GeoLite2 says US with its own network, the ASN CSV AS15169, as the merged answer does', async () => {
    const answer = await callUnary(client.explainAddress.bind(client), { ip: '8.8.8.8' });
    const geolite = source(answer, 'geolite2-city');
    expect(geolite.fields['country_code']).toBe('US');
    expect(geolite.network).toMatch(/^8\.8\.\d+\.\d+\/\d+$/);
    expect(geolite.fields['country_code']).toBe(answer.info?.countryCode);
    expect(source(answer, 'asn').fields['asn']).toBe('15169');
    expect(answer.info?.asn?.asn).toBe(15169);
  });

  it('a Chinese address: qqwry gives the Chinese names the dataset serves', async () => {
    const answer = await callUnary(client.explainAddress.bind(client), { ip: '114.114.114.114' });
    const qqwry = source(answer, 'qqwry');
    expect(qqwry.fields['country_name']).toBe('中国');
    expect(qqwry.fields['country_name']).toBe(answer.info?.zh?.country);
    expect(qqwry.fields['region_name'] ?? null).toBe(answer.info?.zh?.province ?? null);
    expect(qqwry.fields['isp_domain'] ?? null).toBe(answer.info?.zh?.isp ?? null);
    expect(qqwry.network).toMatch(/^114\.114\.\d+\.\d+\/\d+$/);
  });

  it('IPv6 and IPv4-mapped IPv6 are read from the right family', async () => {
    const v6 = await callUnary(client.explainAddress.bind(client), { ip: '2001:4860:4860::8888' });
    expect(source(v6, 'asn').fields['asn']).toBe('15169');
    expect(source(v6, 'geolite2-city').network).toMatch(/^2001:4860:/);
    const mapped = await callUnary(client.explainAddress.bind(client), { ip: '::ffff:8.8.8.8' });
    expect(source(mapped, 'asn').fields['asn']).toBe('15169');
    expect(source(mapped, 'geolite2-city').network).toMatch(/^8\.8\./);
  });

  it('names the rule behind each set privacy flag', async () => {
    const flags = cloudflare.info?.proxyData;
    const expected = Object.entries({ is_data_center: flags?.isDataCenter, is_hosting: flags?.isHosting })
      .filter(([, set]) => set)
      .map(([flag]) => ({ flag, rule: 'hosting-asn' }));
    expect(cloudflare.privacy).toEqual(expected);
    expect(expected.length).toBe(2);
    const google = await callUnary(client.explainAddress.bind(client), { ip: '114.114.114.114' });
    expect(google.privacy.every((reason) => reason.rule !== '')).toBe(true);
  });

  it('reserved addresses: the reserved reason, no sources', async () => {
    const answer = await callUnary(client.explainAddress.bind(client), { ip: '10.1.2.3' });
    expect(answer.info?.reserved).toBe(ReservedReason.RESERVED_REASON_PRIVATE);
    expect(answer.sources).toEqual([]);
    expect(answer.privacy).toEqual([]);
  });

  it('refuses malformed addresses with INVALID_ARGUMENT', async () => {
    await expect(callUnary(client.explainAddress.bind(client), { ip: '1.2.3' })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
