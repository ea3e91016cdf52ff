import { Redis } from 'ioredis';
import { stackAddresses, uniqueName } from '@ipdata/common/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisEventClaims } from '../src/adapters/redis/event-claims.redis.js';

const stack = stackAddresses();

describe('RedisEventClaims: first occurrence of an event id, surviving a crash between claim and count (real Redis)', () => {
  const redis = new Redis(stack.redisUrl);
  const keyPrefix = `${uniqueName('stats-test')}:claim:`;
  const claims = new RedisEventClaims(redis, { keyPrefix, ttlSeconds: 120 });

  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('claims new ids, finds its own position again as first, and rejects the same id at another position', async () => {
    const first = await claims.claim([
      { id: 'a', partition: 1, offset: 10 },
      { id: 'b', partition: 1, offset: 11 },
      // The same id again inside one round: the later record is the duplicate.
      { id: 'a', partition: 1, offset: 12 },
    ]);
    expect(first).toEqual([true, true, false]);

    // Re-delivery of the same records (a round that crashed before its writes): still first.
    expect(
      await claims.claim([
        { id: 'b', partition: 1, offset: 11 },
        { id: 'a', partition: 1, offset: 10 },
      ]),
    ).toEqual([true, true]);
    // The same id re-sent by the producer: another position (partition or offset) → duplicate.
    expect(
      await claims.claim([
        { id: 'a', partition: 2, offset: 10 },
        { id: 'b', partition: 1, offset: 99 },
        { id: 'c', partition: 2, offset: 5 },
      ]),
    ).toEqual([false, false, true]);

    expect(await redis.get(`${keyPrefix}a`)).toBe('1:10');
    const ttl = await redis.ttl(`${keyPrefix}c`);
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);
    expect(await claims.claim([])).toEqual([]);
  });

  it('handles a round of 5,000 records in one call', async () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({ id: `big-${i % 4000}`, partition: 3, offset: i }));
    const result = await claims.claim(records);
    expect(result.filter(Boolean)).toHaveLength(4000);
    expect(result.slice(4000).every((first) => !first)).toBe(true);
  });
});
