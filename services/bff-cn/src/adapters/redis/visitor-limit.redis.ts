import { LimitedCounter } from '@ipdata/common';
import type { Redis } from 'ioredis';
import type { VisitorRateLimiter } from '../../lookups/lookup.ports.js';

/**
 * The per-visitor lookup limit in Redis with common's LimitedCounter (one atomic Lua
 * check-and-increment, so replicas share it exactly): a fixed window that starts with the first
 * lookup, under `<prefix>lookup:<address or /64>`.
 */
export class RedisVisitorRateLimiter implements VisitorRateLimiter {
  private readonly counter: LimitedCounter;

  constructor(
    redis: Redis,
    /** `scope` names the counter (default `lookup`; batch calls count under `batch`). */
    private readonly options: { limit: number; windowSeconds: number; prefix?: string; scope?: string },
  ) {
    this.counter = new LimitedCounter(redis);
  }

  async take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const result = await this.counter.increment(`${this.options.prefix ?? 'bff-cn:'}${this.options.scope ?? 'lookup'}:${key}`, {
      limit: this.options.limit,
      windowMs: this.options.windowSeconds * 1000,
    });
    return { allowed: result.allowed, retryAfterSeconds: Math.ceil((result.resetInMs ?? 0) / 1000) };
  }
}
