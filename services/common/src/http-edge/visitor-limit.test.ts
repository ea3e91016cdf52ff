import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ResourceExhaustedError } from '../errors/domain-errors.js';
import type { LimitedIncrementResult } from '../redis/limited-counter.js';
import { VisitorLimit, type VisitorCounter } from './visitor-limit.js';

/** LimitedCounter's rule in memory: a fixed window per key, never past the limit. */
class MemoryCounter implements VisitorCounter {
  readonly counts = new Map<string, number>();

  constructor(private readonly resetInMs: number | undefined) {}

  async increment(key: string, options: { limit: number; windowMs: number }): Promise<LimitedIncrementResult> {
    const current = this.counts.get(key) ?? 0;
    if (current + 1 > options.limit) return { allowed: false, count: current, remaining: 0, resetInMs: this.resetInMs };
    this.counts.set(key, current + 1);
    return { allowed: true, count: current + 1, remaining: options.limit - current - 1, resetInMs: this.resetInMs };
  }
}

const options = { prefix: 'svc:tool:', limit: 60, windowSeconds: 60, refusal: 'Too many requests, slow down' };

async function outcomes(limit: VisitorLimit, addresses: readonly string[]): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const address of addresses)
    seen.push(
      await limit.take(address).then(
        () => 'allowed',
        (error: unknown) => error,
      ),
    );
  return seen;
}

describe('VisitorLimit', () => {
  it('keys with rateLimitKey: an IPv4 address alone (mapped or not), an IPv6 address with its /64', () => {
    const limit = new VisitorLimit(new MemoryCounter(30_000), options);
    expect(limit.keyOf('198.51.100.7')).toBe('svc:tool:198.51.100.7');
    expect(limit.keyOf('::ffff:198.51.100.7')).toBe('svc:tool:198.51.100.7');
    expect(limit.keyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('svc:tool:2001:db8:1:2::/64');
    expect(limit.keyOf('2001:0DB8:1:2::1')).toBe('svc:tool:2001:db8:1:2::/64');
    expect(limit.keyOf('2001:db8:1:3::1')).toBe('svc:tool:2001:db8:1:3::/64');
    expect(limit.keyOf('')).toBeUndefined();
    expect(limit.keyOf('not an address')).toBeUndefined();
  });

  it('lets at most the limit of 200 addresses of one /64 through, refusing the rest with a retry hint', async () => {
    const counter = new MemoryCounter(1_500);
    const limit = new VisitorLimit(counter, options);
    const addresses = Array.from(
      { length: 200 },
      (_, i) => `2001:db8:1:2:${i.toString(16)}:${(i * 31).toString(16)}::${(i + 1).toString(16)}`,
    );
    expect(new Set(addresses).size).toBe(200);
    const seen = await outcomes(limit, addresses);
    expect(seen.filter((outcome) => outcome === 'allowed')).toHaveLength(60);
    const refused = seen.slice(60);
    expect(refused.every((outcome) => outcome instanceof ResourceExhaustedError)).toBe(true);
    expect(refused[0]).toMatchObject({ message: options.refusal, reason: 'rate_limited', retryAfterSeconds: 2 });
    expect([...counter.counts.keys()]).toEqual(['svc:tool:2001:db8:1:2::/64']);
  });

  it('counts IPv4 addresses one by one', async () => {
    const counter = new MemoryCounter(30_000);
    const limit = new VisitorLimit(counter, { ...options, limit: 1 });
    expect(await outcomes(limit, ['203.0.113.1', '203.0.113.2', '203.0.113.1'])).toEqual([
      'allowed',
      'allowed',
      expect.any(ResourceExhaustedError),
    ]);
  });

  it('says come back in at least a second, also when the counter knows no expiry', async () => {
    const limit = new VisitorLimit(new MemoryCounter(undefined), { ...options, limit: 0 });
    await expect(limit.take('203.0.113.1')).rejects.toMatchObject({ retryAfterSeconds: 1 });
    const soon = new VisitorLimit(new MemoryCounter(20), { ...options, limit: 0 });
    await expect(soon.take('203.0.113.1')).rejects.toMatchObject({ retryAfterSeconds: 1 });
  });

  it('refuses an address that is not one instead of counting it under a shared key', async () => {
    const counter = new MemoryCounter(30_000);
    const limit = new VisitorLimit(counter, options);
    for (const address of ['', 'unknown', '010.0.0.1']) {
      await expect(limit.take(address)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(limit.take(address)).rejects.toMatchObject({ reason: 'unknown_client_ip' });
    }
    expect(counter.counts.size).toBe(0);
  });
});
