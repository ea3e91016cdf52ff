import { LimitedCounter, UnavailableError } from '@ipdata/common';
import type { Redis } from 'ioredis';
import type { StoredHeartbeat, StoredHop, StoredProgress, StoredTask } from '../../traceroute/task-progress.js';
import type { ProbeStateStore, ProbeTaskLimiter } from '../../traceroute/traceroute.ports.js';

/** What one probe.result.v1 record adds to a task (adapters/kafka/probe.result-consumer.ts). */
export interface ProgressUpdate {
  taskId: string;
  started: boolean;
  hops: StoredHop[];
  final?: { state: 'done' | 'failed'; error: string };
}

/**
 * Probe tasks in Redis, so any bff-cn replica answers traceroute_task_get:
 * - `<prefix>probe:task:<id>` hash: `task` (JSON, written by traceroute_task_add), `started`,
 *   `final` (JSON; HSETNX: the first DONE/FAILED wins, a late or repeated record changes nothing);
 * - `<prefix>probe:hops:<id>` hash: TTL → hop JSON (HSET: a repeated TTL replaces, never adds);
 * - `<prefix>probe:workers` hash: worker id → its latest heartbeat (event time; readers keep the
 *   alive ones and delete the rest).
 * Tasks and hops expire `ttlSeconds` (a day) after they were written.
 */
export class RedisProbeStateStore implements ProbeStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly options: { prefix: string; ttlSeconds: number; now?: () => number },
  ) {}

  private taskKey = (taskId: string) => `${this.options.prefix}probe:task:${taskId}`;
  private hopsKey = (taskId: string) => `${this.options.prefix}probe:hops:${taskId}`;
  private get workersKey() {
    return `${this.options.prefix}probe:workers`;
  }

  async saveTask(task: StoredTask): Promise<void> {
    await this.guard(() =>
      this.redis
        .multi()
        .hset(this.taskKey(task.taskId), 'task', JSON.stringify(task))
        .expire(this.taskKey(task.taskId), this.options.ttlSeconds)
        .exec(),
    );
  }

  async loadTask(taskId: string): Promise<{ task: StoredTask; progress: StoredProgress } | undefined> {
    const [fields, hops] = await this.guard(() =>
      Promise.all([this.redis.hgetall(this.taskKey(taskId)), this.redis.hvals(this.hopsKey(taskId))]),
    );
    if (fields['task'] === undefined) return undefined;
    const progress: StoredProgress = {
      started: fields['started'] === '1',
      hops: hops.map((text) => JSON.parse(text) as StoredHop),
    };
    if (fields['final'] !== undefined) progress.final = JSON.parse(fields['final']) as NonNullable<StoredProgress['final']>;
    return { task: JSON.parse(fields['task']) as StoredTask, progress };
  }

  /** False when the task is not ours (unknown or expired): nothing is written for it. */
  async recordProgress(update: ProgressUpdate): Promise<boolean> {
    const taskKey = this.taskKey(update.taskId);
    if ((await this.redis.exists(taskKey)) === 0) return false;
    const hopsKey = this.hopsKey(update.taskId);
    const multi = this.redis.multi();
    if (update.hops.length > 0) {
      multi.hset(hopsKey, Object.fromEntries(update.hops.map((hop) => [String(hop.ttl), JSON.stringify(hop)])));
      multi.expire(hopsKey, this.options.ttlSeconds);
    }
    if (update.started) multi.hset(taskKey, 'started', '1');
    if (update.final) multi.hsetnx(taskKey, 'final', JSON.stringify(update.final));
    await multi.exec();
    return true;
  }

  async recordHeartbeat(heartbeat: StoredHeartbeat): Promise<void> {
    await this.redis.hset(this.workersKey, heartbeat.workerId, JSON.stringify(heartbeat));
  }

  async heartbeats(): Promise<StoredHeartbeat[]> {
    const all = await this.guard(() => this.redis.hvals(this.workersKey));
    const now = (this.options.now ?? Date.now)();
    const beats = all.map((text) => JSON.parse(text) as StoredHeartbeat);
    // Workers gone for a day are forgotten; the alive check itself is the caller's (isAlive).
    const gone = beats.filter((beat) => now - beat.sentAt > this.options.ttlSeconds * 1000).map((beat) => beat.workerId);
    if (gone.length > 0) await this.guard(() => this.redis.hdel(this.workersKey, ...gone));
    return beats;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new UnavailableError('probe state store unavailable', { cause: error });
    }
  }
}

/** At most `limit` tasks per visitor address (or IPv6 /64) per window: common's LimitedCounter, shared by replicas. */
export class RedisProbeTaskLimiter implements ProbeTaskLimiter {
  private readonly counter: LimitedCounter;

  constructor(
    redis: Redis,
    private readonly options: { limit: number; windowSeconds: number; prefix: string },
  ) {
    this.counter = new LimitedCounter(redis);
  }

  async take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const result = await this.counter
      .increment(`${this.options.prefix}probe-limit:${key}`, {
        limit: this.options.limit,
        windowMs: this.options.windowSeconds * 1000,
      })
      .catch((error: unknown) => {
        throw new UnavailableError('probe task limit unavailable', { cause: error });
      });
    return { allowed: result.allowed, retryAfterSeconds: Math.ceil((result.resetInMs ?? 0) / 1000) };
  }
}
