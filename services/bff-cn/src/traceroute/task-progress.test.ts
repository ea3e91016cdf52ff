import { describe, expect, it } from 'vitest';
import {
  TIMED_OUT_MSG,
  aliveSites,
  foldProgress,
  pickSite,
  type StoredHeartbeat,
  type StoredHop,
  type StoredTask,
} from './task-progress.js';

const task: StoredTask = {
  taskId: '6f1c1d7e-8a53-4b55-9b1e-2f6d0c1a9e01',
  target: '8.8.8.8',
  targetInput: 'dns.google',
  site: 'local',
  createdAt: 1_000_000,
  expiresAt: 1_120_000,
};
const hop = (ttl: number, ip: string): StoredHop => ({
  ttl,
  ip,
  rttMs: ip ? [1.5] : [],
  sent: 2,
  lost: ip ? 0 : 2,
  otherIps: [],
  annotations: [],
});
const GRACE = 60_000;

describe('foldProgress', () => {
  it('orders hops by TTL whatever order they arrived in', () => {
    const view = foldProgress(
      task,
      { started: true, hops: [hop(3, '8.8.8.8'), hop(1, '10.0.0.1'), hop(2, '')] },
      task.createdAt,
      GRACE,
    );
    expect(view.hops.map((h) => h.ttl)).toEqual([1, 2, 3]);
    expect(view.state).toBe('running');
  });

  it('keeps one hop per TTL when a re-run delivers it again, preferring an answered one', () => {
    const view = foldProgress(
      task,
      { started: true, hops: [hop(1, '10.0.0.1'), hop(2, '192.0.2.1'), hop(1, '10.0.0.1'), hop(2, '')] },
      task.createdAt,
      GRACE,
    );
    expect(view.hops.map((h) => [h.ttl, h.ip])).toEqual([
      [1, '10.0.0.1'],
      [2, '192.0.2.1'],
    ]);
  });

  it('is pending before any record, running once started', () => {
    expect(foldProgress(task, { started: false, hops: [] }, task.createdAt, GRACE).state).toBe('pending');
    expect(foldProgress(task, { started: true, hops: [] }, task.createdAt, GRACE).state).toBe('running');
  });

  it('answers DONE and FAILED from the final record, with the worker error', () => {
    expect(
      foldProgress(
        task,
        { started: true, hops: [hop(1, '8.8.8.8')], final: { state: 'done', error: '' } },
        task.createdAt,
        GRACE,
      ),
    ).toMatchObject({
      state: 'done',
      error: null,
    });
    expect(
      foldProgress(task, { started: true, hops: [], final: { state: 'failed', error: '探针停止' } }, task.createdAt, GRACE),
    ).toMatchObject({
      state: 'failed',
      error: '探针停止',
    });
  });

  it('reports a task without a final record failed 探测超时 only after expires_at + grace', () => {
    const progress = { started: true, hops: [hop(1, '10.0.0.1')] };
    expect(foldProgress(task, progress, task.expiresAt + GRACE, GRACE).state).toBe('running');
    const late = foldProgress(task, progress, task.expiresAt + GRACE + 1, GRACE);
    expect(late).toMatchObject({ state: 'failed', error: TIMED_OUT_MSG });
    expect(late.hops).toHaveLength(1);
    // A final record that came in time is kept however late the question.
    expect(
      foldProgress(task, { ...progress, final: { state: 'done', error: '' } }, task.expiresAt + 10 * GRACE, GRACE).state,
    ).toBe('done');
  });
});

describe('probe sites from heartbeats', () => {
  const beat = (workerId: string, site: string, sentAt: number, running = 0, capacity = 4): StoredHeartbeat => ({
    workerId,
    site,
    siteName: `${site} 节点`,
    running,
    capacity,
    sentAt,
    intervalSeconds: 10,
  });
  const now = 10_000_000;

  it('lists the sites with a heartbeat in the last three intervals, workers summed', () => {
    const sites = aliveSites(
      [beat('w1', 'bj', now - 5_000, 1), beat('w2', 'bj', now - 29_000, 2), beat('w3', 'sh', now - 31_000)],
      now,
    );
    expect(sites).toEqual([{ site: 'bj', name: 'bj 节点', workers: 2, running: 3, capacity: 8 }]);
  });

  it('picks the site with the most free slots', () => {
    const sites = aliveSites([beat('w1', 'bj', now, 4, 4), beat('w2', 'sh', now, 1, 4)], now);
    expect(pickSite(sites)?.site).toBe('sh');
    expect(pickSite([])).toBeUndefined();
  });
});
