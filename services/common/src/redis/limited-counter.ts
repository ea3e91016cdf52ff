import type { Redis } from 'ioredis';
import { defineRedisScript } from './redis-script.js';

/**
 * Atomic check-and-increment in one Lua script: the counter only moves when the increment keeps
 * it within the limit, so concurrent callers across any number of processes can never push it
 * past the limit. The window starts with the first accepted increment (PEXPIRE) and the answer
 * carries what a caller needs for rate-limit headers. Used for quotas and SMS/login limits.
 */
const CHECK_AND_INCREMENT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local increment = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window_ms = tonumber(ARGV[3])
if current + increment > limit then
  return {0, current, redis.call('PTTL', KEYS[1])}
end
local value = redis.call('INCRBY', KEYS[1], increment)
if window_ms > 0 and redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], window_ms)
end
return {1, value, redis.call('PTTL', KEYS[1])}
`;

export interface LimitedIncrementResult {
  allowed: boolean;
  /** Counter value after the call (unchanged when refused). */
  count: number;
  remaining: number;
  /** Milliseconds until the window resets; undefined when the key has no expiry. */
  resetInMs: number | undefined;
}

type ScriptReply = [number, number, number];

export class LimitedCounter {
  private readonly checkAndIncrement: (key: string, increment: number, limit: number, windowMs: number) => Promise<ScriptReply>;

  constructor(redis: Redis) {
    this.checkAndIncrement = defineRedisScript<[key: string, increment: number, limit: number, windowMs: number], ScriptReply>(
      redis,
      'ipdataLimitedIncrement',
      { keys: 1, lua: CHECK_AND_INCREMENT },
    );
  }

  async increment(key: string, options: { limit: number; windowMs: number; by?: number }): Promise<LimitedIncrementResult> {
    const by = options.by ?? 1;
    const [allowed, count, pttl] = await this.checkAndIncrement(key, by, options.limit, options.windowMs);
    return {
      allowed: allowed === 1,
      count,
      remaining: Math.max(0, options.limit - count),
      resetInMs: pttl >= 0 ? pttl : undefined,
    };
  }
}
