import { stackAddresses, uniqueName } from '@ipdata/common/testing';
import { ProbeResult, ProbeState } from '@ipdata/proto/events/v1/probe';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { progressOf } from '../src/adapters/kafka/probe.result-consumer.js';
import { RedisProbeStateStore } from '../src/adapters/redis/probe-state.redis.js';
import { foldProgress, type StoredTask } from '../src/traceroute/task-progress.js';

// The Redis side of the folding on real Redis: records in any order, repeated, a late RUNNING
// after the end, a second final record; results of tasks bff-cn never stored.

describe('RedisProbeStateStore', () => {
  const redis = new Redis(stackAddresses().redisUrl);
  const store = new RedisProbeStateStore(redis, { prefix: `${uniqueName('probe-state')}:`, ttlSeconds: 3600 });
  afterAll(() => redis.quit());

  const task = (): StoredTask => ({
    taskId: crypto.randomUUID(),
    target: '127.0.0.1',
    targetInput: '127.0.0.1',
    site: 'local',
    createdAt: Date.now(),
    expiresAt: Date.now() + 60_000,
  });
  const result = (taskId: string, state: ProbeState, ttls: number[], error = '') =>
    progressOf(
      ProbeResult.fromPartial({
        taskId,
        state,
        error,
        hops: ttls.map((ttl) => ({ ttl, ip: `10.0.0.${ttl}`, rttMs: [1], sent: 1, lost: 0 })),
      }),
    );

  it('keeps one hop per TTL and the first final record, whatever the order and repeats', async () => {
    const t = task();
    await store.saveTask(t);
    const { RUNNING, DONE, FAILED } = {
      RUNNING: ProbeState.PROBE_STATE_RUNNING,
      DONE: ProbeState.PROBE_STATE_DONE,
      FAILED: ProbeState.PROBE_STATE_FAILED,
    };
    for (const update of [
      result(t.taskId, RUNNING, [3]),
      result(t.taskId, RUNNING, [1, 2]),
      result(t.taskId, RUNNING, [2, 3]),
      result(t.taskId, DONE, []),
      result(t.taskId, RUNNING, [1]),
      result(t.taskId, FAILED, [], '探针停止'),
    ]) {
      expect(await store.recordProgress(update)).toBe(true);
    }
    const loaded = await store.loadTask(t.taskId);
    expect(loaded?.task).toEqual(t);
    expect(loaded?.progress.hops).toHaveLength(3);
    // As of the task's creation: a final record decides, whatever the time.
    const view = foldProgress(t, loaded!.progress, t.createdAt, 60_000);
    expect(view.state).toBe('done');
    expect(view.hops.map((hop) => [hop.ttl, hop.ip])).toEqual([
      [1, '10.0.0.1'],
      [2, '10.0.0.2'],
      [3, '10.0.0.3'],
    ]);
  });

  it('records FAILED with the worker error', async () => {
    const t = task();
    await store.saveTask(t);
    await store.recordProgress(result(t.taskId, ProbeState.PROBE_STATE_FAILED, [], '探测超时'));
    expect((await store.loadTask(t.taskId))?.progress.final).toEqual({ state: 'failed', error: '探测超时' });
  });

  it('writes nothing for a task it never stored', async () => {
    const taskId = crypto.randomUUID();
    expect(await store.recordProgress(result(taskId, ProbeState.PROBE_STATE_RUNNING, [1]))).toBe(false);
    expect(await store.loadTask(taskId)).toBeUndefined();
  });
});
