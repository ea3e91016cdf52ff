import { ManualClock } from '@ipdata/common/testing';
import { describe, expect, it } from 'vitest';
import { memoryLimiter, retryAfter } from '../../test/fixtures/limit-windows.js';
import { LOGIN_ATTEMPTS_PER_WINDOW, limitLoginAttempts } from './login-limit.js';

describe('login windows across calendar boundaries', () => {
  it('starts a new 15-minute login window at 1 Jan 00:00:00 UTC', async () => {
    const clock = new ManualClock(new Date('2026-12-31T23:45:00Z'));
    const limiter = memoryLimiter();
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) await limitLoginAttempts(limiter, clock, 'email:a@example.com');
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    expect(await retryAfter(limitLoginAttempts(limiter, clock, 'email:a@example.com'))).toBe(1);
    clock.advance(1);
    await expect(limitLoginAttempts(limiter, clock, 'email:a@example.com')).resolves.toBeUndefined();
  });

  it('starts a new window at the end of 29 February', async () => {
    const clock = new ManualClock(new Date('2028-02-29T23:50:00Z'));
    const limiter = memoryLimiter();
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) await limitLoginAttempts(limiter, clock, 'phone:13800138000');
    expect(await retryAfter(limitLoginAttempts(limiter, clock, 'phone:13800138000'))).toBe(10 * 60);
    clock.set(new Date('2028-03-01T00:00:00Z'));
    await expect(limitLoginAttempts(limiter, clock, 'phone:13800138000')).resolves.toBeUndefined();
  });
});
