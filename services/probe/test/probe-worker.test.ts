import { ProbeState, type ProbeResult } from '@ipdata/proto/events/v1/probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { TOPICS, createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { TopicRecorder, stackAddresses, waitFor } from '@ipdata/common/testing';
import { fakeTraceroute, isAlive, writtenArgv, writtenPid } from './support/fake-traceroute.js';
import { ProbeWorker, TaskPublisher, probeTestClock } from './support/probe-harness.js';

/**
 * The probe worker on the real Kafka: tasks on probe.task.v1 → Debian's traceroute against
 * loopback (or a stand-in script for the slow cases, so no packet leaves the machine) → hops,
 * DONE/FAILED and heartbeats on probe.result.v1, read back with a TopicRecorder.
 */

let results: TopicRecorder<ProbeResult>;
// Every worker and task of this file on one clock that stands still: a task expires only when a test says so.
const clock = probeTestClock();
const tasks = new TaskPublisher(clock);
const workers: ProbeWorker[] = [];

beforeAll(async () => {
  // On a fresh broker the topics do not exist before a worker created them: the recorder needs them.
  const silent = pino({ level: 'silent' });
  const kafka = createKafka({ brokers: stackAddresses().kafkaBrokers, clientId: 'probe-test-admin' }, silent);
  await ensureTopics(kafka, topicSpecs([TOPICS.probeTask, TOPICS.probeResult]), silent);
  results = await TopicRecorder.start(TOPICS.probeResult);
  await tasks.start();
}, 120_000);

afterAll(async () => {
  for (const worker of workers) await worker.stop().catch(() => undefined);
  await tasks.stop();
  await results?.stop();
});

async function startWorker(overrides: Record<string, string> = {}): Promise<ProbeWorker> {
  const worker = new ProbeWorker(clock);
  workers.push(worker);
  return worker.start(overrides);
}

function recordsOf(taskId: string) {
  return results.records.filter((record) => record.event.taskId === taskId);
}

/** The task's records once its last one (DONE or FAILED) arrived. */
async function finished(taskId: string, timeoutMs = 30_000) {
  await results.waitFor(
    (event) =>
      event.taskId === taskId && (event.state === ProbeState.PROBE_STATE_DONE || event.state === ProbeState.PROBE_STATE_FAILED),
    { timeoutMs, what: `the end of ${taskId}` },
  );
  return recordsOf(taskId);
}

describe('a worker allowed to trace loopback (PROBE_ALLOW_PRIVATE=true)', () => {
  let worker: ProbeWorker;
  beforeAll(async () => {
    worker = await startWorker({ PROBE_ALLOW_PRIVATE: 'true', MAX_CONCURRENT_TASKS: '2' });
  }, 90_000);

  it('is ready with Kafka and the traceroute binary', async () => {
    const { status, body } = await worker.readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({ checks: { 'traceroute-binary': true, 'kafka-producer': true } });
  });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
  ])('traces %s: RUNNING, the hop, then DONE, keyed by task id', async (target, hopIp) => {
    const taskId = await tasks.publish({ site: worker.site, target });
    const records = await finished(taskId);
    const events = records.map((record) => record.event);
    expect(events.at(-1)).toMatchObject({ state: ProbeState.PROBE_STATE_DONE, error: '' });
    expect(events.slice(0, -1).every((event) => event.state === ProbeState.PROBE_STATE_RUNNING)).toBe(true);
    const hops = events.flatMap((event) => event.hops);
    expect(hops).toHaveLength(1);
    expect(hops[0]).toMatchObject({ ttl: 1, ip: hopIp, sent: 2, lost: 0, hostname: '' });
    expect(hops[0]?.rttMs).toHaveLength(2);
    for (const record of records) {
      expect(record.key).toBe(taskId);
      expect(record.event).toMatchObject({ workerId: worker.config.WORKER_ID, site: worker.site, heartbeat: undefined });
    }
  });

  it('sends heartbeats keyed by worker id, with an empty task id, every interval', async () => {
    const mine = () => results.records.filter((record) => record.key === worker.config.WORKER_ID);
    await waitFor(() => mine().length >= 3, { timeoutMs: 15_000, what: 'three heartbeats' });
    const [first] = mine();
    expect(first?.event).toMatchObject({
      taskId: '',
      workerId: worker.config.WORKER_ID,
      site: worker.site,
      heartbeat: { siteName: '本地探针', capacity: 2, intervalSeconds: 1 },
    });
    expect(first?.event.heartbeat?.startedAt).toEqual(clock.now());
  });

  it('answers an expired task FAILED without running it', async () => {
    const expiresAt = new Date(clock.now().getTime() - 1_000);
    const taskId = await tasks.publish({ site: worker.site, target: '127.0.0.1', expiresAt });
    const records = await finished(taskId);
    expect(records.map((record) => record.event.state)).toEqual([ProbeState.PROBE_STATE_FAILED]);
    expect(records[0]?.event.error).toBe('任务已过期，未执行');
  });

  it('answers an invalid target FAILED', async () => {
    const taskId = await tasks.publish({ site: worker.site, target: '127.0.0.1; id' });
    const records = await finished(taskId);
    expect(records.map((record) => [record.event.state, record.event.error])).toEqual([
      [ProbeState.PROBE_STATE_FAILED, '目标地址无效'],
    ]);
  });

  it('ignores a task for another site', async () => {
    const ignored = await tasks.publish({ site: `${worker.site}-elsewhere`, target: '127.0.0.1' });
    // The two keys may land on different partitions: a later task of ours ending shows the worker
    // is consuming; the margin after it lets the other partition's record be handled too.
    const later = await tasks.publish({ site: worker.site, target: '127.0.0.1' });
    await finished(later);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(recordsOf(ignored)).toEqual([]);
  });
});

describe('a worker with the default refusal of private targets', () => {
  it('answers FAILED for a private or loopback target and never starts a process', async () => {
    const fake = fakeTraceroute('slow-traceroute.sh');
    const worker = await startWorker({ TRACEROUTE_BIN: fake.binary });
    for (const target of ['127.0.0.1', '10.0.0.1', '::1', '192.168.1.1']) {
      const taskId = await tasks.publish({ site: worker.site, target });
      const records = await finished(taskId);
      expect(
        records.map((record) => [record.event.state, record.event.error]),
        target,
      ).toEqual([[ProbeState.PROBE_STATE_FAILED, '不允许探测内网、本机或保留地址']]);
    }
    expect(writtenArgv(fake.dir)).toBeUndefined();
    await worker.stop();
  });
});

describe('runs that do not end by themselves (a stand-in traceroute that hangs after one hop)', () => {
  it('kills a run at TASK_TIMEOUT_MS: FAILED 探测超时, after the hop it printed, and no process left', async () => {
    const fake = fakeTraceroute('slow-traceroute.sh');
    const worker = await startWorker({ TRACEROUTE_BIN: fake.binary, TASK_TIMEOUT_MS: '2000' });
    // A public address: the stand-in sends no packet.
    const taskId = await tasks.publish({ site: worker.site, target: '8.8.8.8', maxHops: 99 });
    const records = await finished(taskId);
    const events = records.map((record) => record.event);
    expect(events.flatMap((event) => event.hops).map((hop) => hop.ttl)).toEqual([1]);
    expect(events.at(-1)).toMatchObject({ state: ProbeState.PROBE_STATE_FAILED, error: '探测超时' });
    // max_hops 99 is clamped to 64; the argv holds nothing but flags, numbers and the address.
    expect(writtenArgv(fake.dir)).toEqual(['-n', '-4', '-m', '64', '-q', '2', '-w', '0.5', '--', '8.8.8.8']);
    const script = writtenPid(fake.dir, 'script.pid')!;
    const child = writtenPid(fake.dir, 'child.pid')!;
    await waitFor(() => !isAlive(script) && !isAlive(child), { what: 'no process left' });
    await worker.stop();
  });

  it('ends a running task FAILED 探针停止 on shutdown and leaves no process behind', async () => {
    const fake = fakeTraceroute('slow-traceroute.sh');
    const worker = await startWorker({ TRACEROUTE_BIN: fake.binary, PROBE_ALLOW_PRIVATE: 'true' });
    const taskId = await tasks.publish({ site: worker.site, target: '192.0.2.1' });
    await results.waitFor((event) => event.taskId === taskId && event.hops.length > 0, { what: 'the first hop' });
    const script = writtenPid(fake.dir, 'script.pid')!;
    const child = await waitFor(() => writtenPid(fake.dir, 'child.pid'), { what: 'the child pid' });
    expect(isAlive(script) && isAlive(child)).toBe(true);
    expect(worker.service.running()).toBe(1);

    await worker.stop();
    expect(isAlive(script) || isAlive(child)).toBe(false);
    const records = await finished(taskId);
    expect(records.at(-1)?.event).toMatchObject({ state: ProbeState.PROBE_STATE_FAILED, error: '探针停止' });
    expect(worker.service.running()).toBe(0);
  });
});
