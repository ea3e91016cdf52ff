import { defineRedisScript, LimitedCounter } from '@ipdata/common';
import type { Redis } from 'ioredis';
import type { NonceStore } from '../../accounts/mailer.js';
import type { Cooldown, RateLimiter } from '../../sms/sms-code.service.js';

/** Window counters on the shared atomic LimitedCounter; window boundaries come from the caller's clock via the key. */
export class RedisRateLimiter implements RateLimiter {
  private readonly counter: LimitedCounter;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.counter = new LimitedCounter(redis);
  }

  async consume(key: string, limit: number, windowMs: number): Promise<boolean> {
    return (await this.counter.increment(`${this.prefix}limit:${key}`, { limit, windowMs })).allowed;
  }
}

/**
 * "One per N ms since the last one", compared against the injectable clock (LimitedCounter's
 * windows run on Redis time and start at the first hit, so they cannot express this). Acquire
 * is compare-and-set in one script so two concurrent sends cannot both pass.
 */
const ACQUIRE = `
local last = redis.call('GET', KEYS[1])
local now = tonumber(ARGV[1])
local cooldown = tonumber(ARGV[2])
if last and now - tonumber(last) < cooldown then return cooldown - (now - tonumber(last)) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', cooldown + 60000)
return 0
`;

export class RedisCooldown implements Cooldown {
  private readonly acquireScript: (key: string, nowMs: number, cooldownMs: number) => Promise<number>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.acquireScript = defineRedisScript<[key: string, nowMs: number, cooldownMs: number], number>(
      redis,
      'authAcquireCooldown',
      { keys: 1, lua: ACQUIRE },
    );
  }

  async remainingMs(key: string, nowMs: number, cooldownMs: number): Promise<number> {
    const last = await this.redis.get(`${this.prefix}cooldown:${key}`);
    if (last === null) return 0;
    return Math.max(0, cooldownMs - (nowMs - Number(last)));
  }

  async acquire(key: string, nowMs: number, cooldownMs: number): Promise<number> {
    return this.acquireScript(`${this.prefix}cooldown:${key}`, nowMs, cooldownMs);
  }

  async release(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}cooldown:${key}`);
  }
}

export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async consume(nonce: string, ttlMs: number): Promise<boolean> {
    const result = await this.redis.set(`${this.prefix}nonce:${nonce}`, '1', 'PX', Math.max(1, Math.round(ttlMs)), 'NX');
    return result === 'OK';
  }
}
