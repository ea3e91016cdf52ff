import { ResourceExhaustedError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { IpLimits } from './ip-limits.js';

/** Counts per key; the window lives in the key, as with Redis. */
function memoryLimiter(): RateLimiter {
  const counts = new Map<string, number>();
  return {
    consume: async (key, limit) => {
      const count = counts.get(key) ?? 0;
      if (count >= limit) return false;
      counts.set(key, count + 1);
      return true;
    },
  };
}

async function retryAfter(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceExhaustedError);
  return (error as ResourceExhaustedError).retryAfterSeconds;
}

describe('IpLimits windows across calendar boundaries', () => {
  it('starts a new per-IP hour at the UTC hour, across the year boundary', async () => {
    const clock = new ManualClock(new Date('2026-12-31T23:00:00Z'));
    const limits = new IpLimits(memoryLimiter(), clock, { loginsPer15Min: 5, signUpsPerHour: 2, resetsPerHour: 2 });
    await limits.consume('signup', '10.1.2.3');
    await limits.consume('signup', '10.1.2.3');
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    expect(await retryAfter(limits.consume('signup', '10.1.2.3'))).toBe(1);
    clock.advance(1);
    await expect(limits.consume('signup', '10.1.2.3')).resolves.toBeUndefined();
  });
});
