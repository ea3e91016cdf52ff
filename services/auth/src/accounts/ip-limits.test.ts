import { ManualClock } from '@ipdata/common/testing';
import { describe, expect, it } from 'vitest';
import { memoryLimiter, retryAfter } from '../../test/fixtures/limit-windows.js';
import { IpLimits } from './ip-limits.js';

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
