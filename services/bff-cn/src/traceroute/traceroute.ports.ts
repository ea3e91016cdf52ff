import type { StoredHeartbeat, StoredProgress, StoredTask } from './task-progress.js';

/** A task for probe.task.v1 (adapters/kafka/probe.task-publisher.ts). */
export interface NewProbeTask extends StoredTask {
  maxHops: number;
  visitorId: string;
}

/** Puts a task on probe.task.v1; rejects with a DomainError when Kafka does not take it. */
export interface ProbeTaskPublisher {
  publish(task: NewProbeTask): Promise<void>;
}

/**
 * Tasks, their progress and the workers' heartbeats, shared by every bff-cn replica
 * (adapters/redis/probe-state.redis.ts). Rejects with UnavailableError when the store is down.
 */
export interface ProbeStateStore {
  saveTask(task: StoredTask): Promise<void>;
  loadTask(taskId: string): Promise<{ task: StoredTask; progress: StoredProgress } | undefined>;
  heartbeats(): Promise<StoredHeartbeat[]>;
}

/** The per-visitor task limit (adapters/redis/probe-limit.redis.ts). */
export interface ProbeTaskLimiter {
  take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}

/** A domain's addresses (traceroute/target-resolver.ts): A records first, then AAAA. */
export interface TargetResolver {
  resolve(domain: string): Promise<string[]>;
}
