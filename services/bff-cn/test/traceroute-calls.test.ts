import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '@ipdata/common';
import { mongoUrlWithDatabase, stackAddresses, testGrpcEnv, TopicRecorder, uniqueName, waitFor } from '@ipdata/common/testing';
import type { ProbeTask } from '@ipdata/proto/events/v1/probe';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBffCn, type BffCn } from '../src/app.js';
import { loadCardTools } from '../src/card-tools/index.js';
import { loadBffCnConfig } from '../src/config.js';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// Network detection end to end on the real stack: bff-cn publishes on probe.task.v1, the REAL probe
// worker (services/probe, in-process, Debian's traceroute) runs it against loopback only and
// publishes on probe.result.v1, bff-cn folds the results into Redis and answers from there.

interface Hop {
  ttl: number;
  ip: string | null;
  location: { area: string } | null;
}
interface Progress {
  task_id: string;
  state: string;
  error: string | null;
  target: string;
  site: string;
  hops: Hop[];
}

describe('traceroute_task_add / _get / _site with the real probe worker', () => {
  const h = new BffCnHarness({ PROBE_ALLOW_PRIVATE: 'true', PROBE_TASK_LIMIT: '3', PROBE_MAX_HOPS: '5' }, { probe: true });
  let tasks: TopicRecorder<ProbeTask>;
  let strict: BffCn;

  beforeAll(async () => {
    await h.start();
    tasks = await TopicRecorder.start(TOPICS.probeTask);
    // A second bff-cn as deployed: private targets refused. Same neighbours, its own Redis prefix.
    strict = buildBffCn(
      loadBffCnConfig({
        APP_ENV: 'test',
        HEALTH_PORT: '0',
        HEALTH_HOST: '127.0.0.1',
        LOOKUP_GRPC_ADDR: h.engine.grpc.boundAddress,
        AUTH_GRPC_ADDR: h.auth.service.grpc.boundAddress,
        KAFKA_BROKERS: stackAddresses().kafkaBrokers.join(','),
        REDIS_URL: stackAddresses().redisUrl,
        MONGO_URL: mongoUrlWithDatabase(stackAddresses().mongoUrl, uniqueName('bff_cn_strict').replace(/-/g, '_')),
        BATCH_DIR: mkdtempSync(join(tmpdir(), 'bff-cn-strict-batch-')),
        TRUSTED_PROXIES: '127.0.0.1',
        VISITOR_ID_SECRET: 'test-visitor-id-secret-0123456789abcdef',
        PROBE_RESULTS_GROUP_ID: uniqueName('bff-cn-strict-probe'),
        ...testGrpcEnv('bff-cn'),
      }),
      { logger: pino({ level: 'silent' }), cardTools: await loadCardTools(), redisPrefix: `${uniqueName('bff-cn-strict')}:` },
    );
    await strict.lifecycle.start();
    // The worker's first heartbeat reached bff-cn's Redis.
    await waitFor(async () => ((await sites()).some((site) => site.site === h.probe?.site) ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the probe site in traceroute_task_site',
    });
  }, 120_000);
  afterAll(async () => {
    await strict?.lifecycle.shutdown('test done');
    await tasks?.stop();
    await h.stop();
  });

  async function sites() {
    const answer = await h.call('/v1/traceroute_task_site', { form: {} });
    expect(answer.body.code, answer.text).toBe(200);
    return answer.body.data as Array<{ site: string; name: string; workers: number; running: number; capacity: number }>;
  }

  async function progress(taskId: string): Promise<Progress> {
    const answer = await h.call('/v1/traceroute_task_get', { form: { task_id: taskId } });
    expect(answer.body.code, answer.text).toBe(200);
    return answer.body.data as Progress;
  }

  it('lists the live worker as a site with its name and capacity', async () => {
    const site = (await sites()).find((s) => s.site === h.probe?.site);
    expect(site).toMatchObject({ name: '本地探针', workers: 1, capacity: 4 });
  });

  it('runs a traceroute to 127.0.0.1: the task is published for the site, then DONE with the hop located', async () => {
    const added = await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1', site: h.probe?.site ?? '' } });
    expect(added.body.code, added.text).toBe(200);
    const data = added.body.data as { task_id: string; target: string; site: string; expires_at: string };
    expect(data).toMatchObject({ target: '127.0.0.1', site: h.probe?.site });
    const published = await waitFor(() => tasks.records.find((r) => r.event.taskId === data.task_id), { what: 'the ProbeTask' });
    expect(published.event).toMatchObject({ target: '127.0.0.1', site: h.probe?.site, maxHops: 5 });
    expect(published.event.expiresAt?.toISOString()).toBe(data.expires_at);

    const done = await waitFor(
      async () => {
        const now = await progress(data.task_id);
        return now.state === 'done' || now.state === 'failed' ? now : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 300, what: 'the task to end' },
    );
    expect(done.state, JSON.stringify(done)).toBe('done');
    expect(done.error).toBeNull();
    expect(done.hops.map((hop) => hop.ttl)).toEqual([...done.hops.keys()].map((i) => i + 1));
    const last = done.hops.at(-1) as Hop;
    expect(last.ip).toBe('127.0.0.1');
    expect(last.location?.area).toBe('本机地址');
  }, 60_000);

  it('refuses a bad task_id with 400 and an unknown one with 404', async () => {
    const bad = await h.call('/v1/traceroute_task_get', { form: { task_id: '../../etc/passwd' } });
    expect(bad.body).toEqual({ code: 400, msg: '任务编号格式不正确', data: null });
    const unknown = await h.call('/v1/traceroute_task_get', { form: { task_id: '0b9e6a2c-5f0e-4c1e-9a7b-3d2f1e0c9b8a' } });
    expect(unknown.body).toEqual({ code: 404, msg: '检测任务不存在或已过期', data: null });
  });

  it('refuses an unknown site and input with both or neither target', async () => {
    expect((await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1', site: 'no-such-site' } })).body).toEqual({
      code: 400,
      msg: '该探测节点不可用，请选择其他节点',
      data: null,
    });
    expect((await h.call('/v1/traceroute_task_add', { form: {} })).body.code).toBe(400);
    expect((await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1', domain: 'example.com' } })).body.code).toBe(400);
  });

  it('limits tasks per visitor address with a clear msg', async () => {
    const from = randomVisitor();
    for (let i = 0; i < 3; i += 1) {
      const answer = await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1' }, from });
      expect(answer.body.code, answer.text).toBe(200);
    }
    const over = await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1' }, from });
    expect(over.body).toEqual({ code: 429, msg: '检测任务过于频繁，请稍后再试', data: null });
    // Another visitor is not affected.
    expect((await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1' } })).body.code).toBe(200);
  });

  it('without PROBE_ALLOW_PRIVATE refuses a loopback target with 400 and publishes nothing', async () => {
    const form = new FormData();
    form.set('ip', '127.0.0.9');
    const response = await fetch(`http://127.0.0.1:${strict.port()}/v1/traceroute_task_add`, {
      method: 'POST',
      headers: { 'x-forwarded-for': randomVisitor() },
      body: form,
    });
    expect(await response.json()).toEqual({ code: 400, msg: '不允许探测内网、本机或保留地址', data: null });
    // A task published after the refusal reached the recorder, so one published with it would have too.
    const marker = await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.2' } });
    const markerId = (marker.body.data as { task_id: string }).task_id;
    await waitFor(() => tasks.records.some((r) => r.event.taskId === markerId), { what: 'the marker task' });
    expect(tasks.records.filter((r) => r.event.target === '127.0.0.9')).toEqual([]);
  });
});
