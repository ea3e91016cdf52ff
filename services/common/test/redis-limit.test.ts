import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LimitedCounter } from '@ipdata/common';
import { stackAddresses, uniqueName } from '@ipdata/common/testing';

describe('LimitedCounter (atomic check-and-increment Lua script on real Redis)', () => {
  // Several connections, as several BFF replicas would have.
  const clients = Array.from({ length: 8 }, () => new Redis(stackAddresses().redisUrl));
  afterAll(() => clients.forEach((client) => client.disconnect()));

  it('lets exactly `limit` of 200 concurrent callers through', async () => {
    const key = uniqueName('quota');
    const limit = 137;
    const counters = clients.map((client) => new LimitedCounter(client));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => counters[i % counters.length]!.increment(key, { limit, windowMs: 60_000 })),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(limit);
    expect(results.filter((result) => !result.allowed)).toHaveLength(200 - limit);
    expect(await clients[0]!.get(key)).toBe(String(limit));
    // Every accepted caller saw a distinct count, so none was counted twice.
    const seen = new Set(results.filter((result) => result.allowed).map((result) => result.count));
    expect(seen.size).toBe(limit);
    const ttl = await clients[0]!.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(results.find((result) => !result.allowed)).toMatchObject({ remaining: 0, count: limit });
  });

  it('counts batch increments and refuses one that would cross the limit', async () => {
    const key = uniqueName('batch');
    const counter = new LimitedCounter(clients[0]!);
    // A window far longer than the test, so a slow machine cannot see it reset between the calls.
    const windowMs = 600_000;
    expect(await counter.increment(key, { limit: 10, windowMs, by: 7 })).toMatchObject({
      allowed: true,
      count: 7,
      remaining: 3,
    });
    expect(await counter.increment(key, { limit: 10, windowMs, by: 4 })).toMatchObject({
      allowed: false,
      count: 7,
      remaining: 3,
    });
    expect(await counter.increment(key, { limit: 10, windowMs, by: 3 })).toMatchObject({
      allowed: true,
      count: 10,
      remaining: 0,
    });
  });

  it('survives a flushed script cache (EVALSHA falls back to EVAL)', async () => {
    const counter = new LimitedCounter(clients[1]!);
    await clients[1]!.script('FLUSH');
    expect((await counter.increment(uniqueName('flush'), { limit: 1, windowMs: 1_000 })).allowed).toBe(true);
  });
});
