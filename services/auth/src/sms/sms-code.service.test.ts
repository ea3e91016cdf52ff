import { ResourceExhaustedError } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import { describe, expect, it } from 'vitest';
import type { SmsGateway, SmsMessage } from './sms-gateway.js';
import { SMS_PER_DAY, SmsCodeService, type Cooldown, type RateLimiter, type SmsCodeStore } from './sms-code.service.js';

/** In-memory stand-ins: windows live in the keys the service builds, as with Redis. */
function service(clock: ManualClock, perIpPerHour = 100) {
  const counts = new Map<string, number>();
  const limiter: RateLimiter = {
    consume: async (key, limit) => {
      const count = counts.get(key) ?? 0;
      if (count >= limit) return false;
      counts.set(key, count + 1);
      return true;
    },
  };
  const last = new Map<string, number>();
  const cooldown: Cooldown = {
    remainingMs: async (key, nowMs, cooldownMs) => Math.max(0, cooldownMs - (nowMs - (last.get(key) ?? -Infinity))),
    acquire: async (key, nowMs, cooldownMs) => {
      const running = Math.max(0, cooldownMs - (nowMs - (last.get(key) ?? -Infinity)));
      if (running === 0) last.set(key, nowMs);
      return running;
    },
    release: async (key) => void last.delete(key),
  };
  const store: SmsCodeStore = { save: async () => undefined, verify: async () => ({ outcome: 'missing', remaining: 0 }) };
  const sent: SmsMessage[] = [];
  const gateway: SmsGateway = { kind: 'memory', send: async (message) => void sent.push(message) };
  const codes = new SmsCodeService(store, limiter, cooldown, gateway, clock, { perIpPerHour, codeSecret: 'test-secret' });
  let ip = 0;
  const send = (phone: string, clientIp = `10.0.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`) =>
    codes.send(phone, 'login', clientIp);
  return { send, sent };
}

async function refusal(call: Promise<unknown>): Promise<{ reason: string | undefined; retryAfterSeconds: number | undefined }> {
  const error = await call.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceExhaustedError);
  const { reason, retryAfterSeconds } = error as ResourceExhaustedError;
  return { reason, retryAfterSeconds };
}

/** Sends the day's 10 codes, a resend interval apart, starting at the clock's time. */
async function useUpTheDay(send: (phone: string) => Promise<unknown>, clock: ManualClock, phone: string): Promise<void> {
  for (let i = 0; i < SMS_PER_DAY; i++) {
    await send(phone);
    clock.advance(61_000);
  }
}

describe('SmsCodeService windows across calendar boundaries', () => {
  it('starts a new daily count at midnight China time, also on 31 Dec 23:59:59.999 → 1 Jan', async () => {
    // 23:00 on 31 Dec 2026 in China (UTC+8) is 15:00 UTC.
    const clock = new ManualClock(new Date('2026-12-31T15:00:00Z'));
    const { send, sent } = service(clock);
    const phone = '13800138000';
    await useUpTheDay(send, clock, phone);
    clock.set(new Date('2026-12-31T15:59:59.999Z'));
    expect(await refusal(send(phone))).toEqual({ reason: 'sms_daily_limit', retryAfterSeconds: 1 });
    clock.advance(1); // 2027-01-01T00:00:00.000+08:00
    await expect(send(phone)).resolves.toMatchObject({ resendAfterSeconds: 60 });
    expect(sent).toHaveLength(SMS_PER_DAY + 1);
  });

  it('does not start a new day at UTC midnight', async () => {
    const clock = new ManualClock(new Date('2026-12-31T23:40:00Z')); // 07:40 on 1 Jan in China
    const { send } = service(clock);
    const phone = '13800138001';
    await useUpTheDay(send, clock, phone);
    clock.set(new Date('2027-01-01T00:01:00Z'));
    // Refused until 00:00 on 2 Jan China time (16:00 UTC on 1 Jan).
    expect(await refusal(send(phone))).toEqual({ reason: 'sms_daily_limit', retryAfterSeconds: 16 * 3600 - 60 });
  });

  it('counts 29 February (China time) as a day of its own', async () => {
    const clock = new ManualClock(new Date('2028-02-28T15:40:00Z')); // 23:40 on 28 Feb in China
    const { send } = service(clock);
    const phone = '13800138002';
    await useUpTheDay(send, clock, phone);
    // Now 23:50 on 28 Feb in China: the day's codes are spent.
    expect(await refusal(send(phone))).toMatchObject({ reason: 'sms_daily_limit' });
    clock.set(new Date('2028-02-28T16:00:00Z')); // 00:00 on 29 Feb in China
    await useUpTheDay(send, clock, phone);
    clock.set(new Date('2028-02-29T15:59:59.999Z')); // 23:59:59.999 on 29 Feb in China
    expect(await refusal(send(phone))).toEqual({ reason: 'sms_daily_limit', retryAfterSeconds: 1 });
    clock.advance(1); // 00:00 on 1 Mar in China
    await expect(send(phone)).resolves.toMatchObject({ resendAfterSeconds: 60 });
  });

  it('starts a new per-IP hour at the UTC hour, also across the year boundary', async () => {
    const clock = new ManualClock(new Date('2026-12-31T23:30:00Z'));
    const { send } = service(clock, 3);
    const ip = '10.9.8.7';
    for (let i = 0; i < 3; i++) await send(`1390000000${i}`, ip);
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    expect(await refusal(send('13900000009', ip))).toEqual({ reason: 'sms_ip_limit', retryAfterSeconds: 1 });
    clock.advance(1);
    await expect(send('13900000009', ip)).resolves.toMatchObject({ resendAfterSeconds: 60 });
  });
});
