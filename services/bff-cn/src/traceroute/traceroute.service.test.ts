import { checkAddress, type CheckedAddress } from '@ipdata/lookup-engine/client';
import { IpInfo } from '@ipdata/proto/lookup/v1/lookup';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, isDomainError } from '@ipdata/common';
import { envelopeOfError } from '../face-a/envelope.js';
import type { CallContext } from '../face-a/face-a-call.js';
import { domainName } from './target-resolver.js';
import type { StoredHeartbeat, StoredProgress, StoredTask } from './task-progress.js';
import { TracerouteService, type TracerouteOptions } from './traceroute.service.js';
import type { NewProbeTask } from './traceroute.ports.js';

const NOW = 1_700_000_000_000;
const context: CallContext = {
  requestId: 'r1',
  clientIp: '45.1.2.3',
  visitorId: 'v-1',
  plat: 'pc',
  token: undefined,
  accountId: undefined,
  startedAt: 0,
};
const ip = (text: string) => checkAddress(text) as CheckedAddress;

/** The service over plain in-memory ports: what it validates before anything is stored or published. */
function setup(options: Partial<TracerouteOptions> = {}, more: { sites?: string[]; allowed?: boolean; dns?: string[] } = {}) {
  const published: NewProbeTask[] = [];
  const tasks = new Map<string, { task: StoredTask; progress: StoredProgress }>();
  const heartbeats: StoredHeartbeat[] = (more.sites ?? ['local']).map((site, i) => ({
    workerId: `w${i}`,
    site,
    siteName: '本地探针',
    running: 0,
    capacity: 4,
    sentAt: NOW - 1000,
    intervalSeconds: 10,
  }));
  const service = new TracerouteService(
    { allowPrivate: false, maxHops: 30, taskTtlMs: 120_000, resultGraceMs: 120_000, ...options },
    {
      publisher: { publish: async (task) => void published.push(task) },
      store: {
        saveTask: async (task) => void tasks.set(task.taskId, { task, progress: { started: false, hops: [] } }),
        loadTask: async (taskId) => tasks.get(taskId),
        heartbeats: async () => heartbeats,
      },
      limiter: { take: async () => ({ allowed: more.allowed ?? true, retryAfterSeconds: 60 }) },
      resolver: { resolve: async () => more.dns ?? ['93.184.215.14'] },
      engine: {
        lookup: async (address) =>
          IpInfo.fromPartial({ ip: address, countryCode: 'US', countryName: 'United States', zh: { country: '美国' } }),
      },
      logger: pino({ level: 'silent' }),
      now: () => NOW,
    },
  );
  return { service, published, tasks };
}

async function failure(promise: Promise<unknown>): Promise<[number, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isDomainError(error)) throw new Error(`expected a DomainError, got ${String(error)}`);
  const { code, msg } = envelopeOfError(error).envelope;
  return [code, msg];
}

describe('traceroute_task_add', () => {
  it('publishes a task for a public address, with the site named and expires_at set', async () => {
    const { service, published } = setup();
    const data = await service.add(context, { ip: ip('8.8.8.8') });
    expect(data.task_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(published).toEqual([
      expect.objectContaining({
        taskId: data.task_id,
        target: '8.8.8.8',
        site: 'local',
        expiresAt: NOW + 120_000,
        maxHops: 30,
        visitorId: 'v-1',
      }),
    ]);
  });

  it('refuses private, loopback and reserved targets unless allowed; multicast always', async () => {
    const strict = setup();
    for (const target of ['10.0.0.1', '127.0.0.1', '::1', '192.168.1.1', '100.64.0.1']) {
      expect(await failure(strict.service.add(context, { ip: ip(target) }))).toEqual([400, '不允许探测内网、本机或保留地址']);
    }
    expect(strict.published).toEqual([]);
    const lab = setup({ allowPrivate: true });
    await lab.service.add(context, { ip: ip('127.0.0.1') });
    expect(await failure(lab.service.add(context, { ip: ip('224.0.0.1') }))).toEqual([400, '不允许探测内网、本机或保留地址']);
    expect(lab.published.map((task) => task.target)).toEqual(['127.0.0.1']);
  });

  it('needs exactly one of ip and domain', async () => {
    const { service, published } = setup();
    expect(await failure(service.add(context, {}))).toEqual([400, '请输入IP 地址或域名']);
    expect(await failure(service.add(context, { ip: ip('8.8.8.8'), domain: 'example.com' }))).toEqual([
      400,
      'IP 地址和域名只能填写一个',
    ]);
    expect(published).toEqual([]);
  });

  it('resolves a domain, preferring an address that may be probed, and refuses one with only private addresses', async () => {
    const mixed = setup({}, { dns: ['10.1.1.1', '93.184.215.14'] });
    const data = await mixed.service.add(context, { domain: 'example.com' });
    expect([data.target, data.target_input]).toEqual(['93.184.215.14', 'example.com']);
    const internal = setup({}, { dns: ['10.1.1.1'] });
    expect(await failure(internal.service.add(context, { domain: 'intranet.example' }))).toEqual([
      400,
      '不允许探测内网、本机或保留地址',
    ]);
    expect(internal.published).toEqual([]);
  });

  it('needs a live site: an unknown site is 400, none alive is 503', async () => {
    const two = setup({}, { sites: ['bj', 'sh'] });
    expect((await two.service.add(context, { ip: ip('8.8.8.8'), site: 'sh' })).site).toBe('sh');
    expect(await failure(two.service.add(context, { ip: ip('8.8.8.8'), site: 'gz' }))).toEqual([
      400,
      '该探测节点不可用，请选择其他节点',
    ]);
    const none = setup({}, { sites: [] });
    expect((await failure(none.service.add(context, { ip: ip('8.8.8.8') })))[0]).toBe(503);
    expect(none.published).toEqual([]);
  });

  it('answers 429 past the visitor limit and publishes nothing', async () => {
    const { service, published } = setup({}, { allowed: false });
    expect(await failure(service.add(context, { ip: ip('8.8.8.8') }))).toEqual([429, '检测任务过于频繁，请稍后再试']);
    expect(published).toEqual([]);
  });
});

describe('traceroute_task_get', () => {
  it('answers 404 for an unknown task and the hops with their places for a known one', async () => {
    const { service, tasks } = setup();
    expect(await failure(service.get('6f1c1d7e-8a53-4b55-9b1e-2f6d0c1a9e01'))).toEqual([404, '检测任务不存在或已过期']);
    const { task_id } = await service.add(context, { ip: ip('8.8.8.8') });
    const stored = tasks.get(task_id) as { progress: StoredProgress };
    stored.progress = {
      started: true,
      hops: [
        { ttl: 2, ip: '8.8.8.8', rttMs: [3], sent: 1, lost: 0, otherIps: [], annotations: [] },
        { ttl: 1, ip: '192.168.0.1', rttMs: [1], sent: 1, lost: 0, otherIps: [], annotations: [] },
      ],
      final: { state: 'done', error: '' },
    };
    const data = await service.get(task_id);
    expect(data.state).toBe('done');
    expect(data.hops.map((hop) => [hop.ttl, hop.ip, hop.location?.area])).toEqual([
      [1, '192.168.0.1', '局域网'],
      [2, '8.8.8.8', '美国'],
    ]);
  });
});

describe('domainName', () => {
  it('accepts names and IDNs, refuses addresses, paths and junk', () => {
    expect(domainName('Example.COM.')).toBe('example.com');
    expect(domainName('中国.cn')).toBe('xn--fiqs8s.cn');
    for (const bad of ['127.0.0.1', 'localhost', 'example.com/x', 'a b.com', '-a.com', '']) {
      expect(() => domainName(bad), bad).toThrow(InvalidArgumentError);
    }
  });
});
