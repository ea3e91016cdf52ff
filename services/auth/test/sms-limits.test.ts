import { InvalidArgumentError, ResourceExhaustedError, UnavailableError } from '@ipdata/common';
import { SmsPurpose } from '@ipdata/proto/auth/v1/auth';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSmsGateway } from '../src/adapters/sms/http-sms.gateway.js';
import { AuthHarness, randomIp, randomPhone } from './fixtures/auth-harness.js';

// Typed as unknown: vitest's asymmetric matchers are `any`.
const SESSION_TOKEN: unknown = expect.stringMatching(/^[A-Za-z0-9_-]{43}$/);

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('SMS code limits and expiry (injectable clock)', () => {
  // A small per-IP limit so the test does not need 20 phones.
  const auth = new AuthHarness({ SMS_PER_IP_PER_HOUR: '3' });
  beforeAll(async () => {
    await auth.start();
    // Start at 00:30 China time (UTC+8) so "per day" boundaries are predictable.
    auth.clock.set(new Date('2030-03-01T16:30:00Z'));
  });
  afterAll(() => auth.stop());

  const send = (phone: string, ip = randomIp(), purpose = SmsPurpose.SMS_PURPOSE_LOGIN) =>
    auth.call('sendSmsCode', { phone, purpose, clientIp: ip });

  it('allows one code per phone per 60 s, for all purposes together', async () => {
    const phone = randomPhone();
    await send(phone);
    auth.clock.advance(30 * SECOND);
    const early = send(phone, randomIp(), SmsPurpose.SMS_PURPOSE_REGISTER);
    await expect(early).rejects.toBeInstanceOf(ResourceExhaustedError);
    await expect(early).rejects.toMatchObject({ reason: 'sms_resend_too_soon', details: { retryAfterSeconds: '30' } });
    auth.clock.advance(29 * SECOND);
    await expect(send(phone)).rejects.toMatchObject({ reason: 'sms_resend_too_soon', details: { retryAfterSeconds: '1' } });
    auth.clock.advance(SECOND);
    await expect(send(phone)).resolves.toMatchObject({ resendAfterSeconds: 60 });
    expect(auth.sms.count(phone)).toBe(2);
  });

  it('allows 10 codes per phone per (China) day', async () => {
    const phone = randomPhone();
    for (let i = 0; i < 10; i++) {
      await send(phone);
      auth.clock.advance(61 * SECOND);
    }
    const eleventh = send(phone);
    await expect(eleventh).rejects.toMatchObject({ reason: 'sms_daily_limit', message: '今日验证码发送次数已达上限' });
    const retryAfter = Number(((await eleventh.catch((e: unknown) => e)) as ResourceExhaustedError).retryAfterSeconds);
    expect(retryAfter).toBeGreaterThan(20 * 3600);
    expect(auth.sms.count(phone)).toBe(10);
    // The next day in UTC+8 starts a new count.
    auth.clock.advance(retryAfter * SECOND);
    await expect(send(phone)).resolves.toMatchObject({ message: '验证码已发送', resendAfterSeconds: 60, expiresInSeconds: 300 });
    expect(auth.sms.count(phone)).toBe(11);
  });

  it('limits codes per client IP per hour (configured: 3)', async () => {
    const ip = randomIp();
    const hourStart = Math.ceil(auth.clock.now().getTime() / HOUR) * HOUR;
    auth.clock.set(new Date(hourStart + MINUTE));
    for (let i = 0; i < 3; i++) await send(randomPhone(), ip);
    const fourth = send(randomPhone(), ip);
    await expect(fourth).rejects.toMatchObject({ reason: 'sms_ip_limit', details: { retryAfterSeconds: String(59 * 60) } });
    // Other addresses are not affected; the next hour is a fresh window.
    await expect(send(randomPhone(), randomIp())).resolves.toMatchObject({
      message: '验证码已发送',
      resendAfterSeconds: 60,
      expiresInSeconds: 300,
    });
    auth.clock.advance(59 * MINUTE);
    await expect(send(randomPhone(), ip)).resolves.toMatchObject({
      message: '验证码已发送',
      resendAfterSeconds: 60,
      expiresInSeconds: 300,
    });
  });

  it('counts one client IP under one key however it is written, and refuses empty or malformed ones', async () => {
    const hourStart = Math.ceil(auth.clock.now().getTime() / HOUR) * HOUR;
    auth.clock.set(new Date(hourStart + MINUTE));
    const [a, b] = [randomInt(1, 255), randomInt(1, 255)];
    for (let i = 0; i < 3; i++) await send(randomPhone(), `10.9.${a}.${b}`);
    // Spellings of the same address are the same key (or refused): none gets past the limit.
    for (const variant of [
      `::ffff:10.9.${a}.${b}`,
      `::FFFF:10.9.${a}.${b}`,
      `0:0:0:0:0:ffff:a09:${(a * 256 + b).toString(16)}`,
    ]) {
      await expect(send(randomPhone(), variant)).rejects.toMatchObject({ reason: 'sms_ip_limit' });
    }
    for (const bad of ['', ' ', `10.9.${a}.${b} `, ` 10.9.${a}.${b}`, `010.9.${a}.${b}`, 'unknown', '10.9.9', '300.1.1.1']) {
      const refused = send(randomPhone(), bad);
      await expect(refused).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(refused).rejects.toMatchObject({ reason: 'invalid_client_ip', details: { field: 'client_ip' } });
    }
    // IPv6 clients are counted per /64: another address in the same /64 shares the budget.
    const prefix = `2001:db8:${a.toString(16)}:${b.toString(16)}`;
    for (let i = 0; i < 3; i++) await send(randomPhone(), `${prefix}::${i + 1}`);
    await expect(send(randomPhone(), `${prefix}:ffff:1:2:3`)).rejects.toMatchObject({ reason: 'sms_ip_limit' });
    await expect(send(randomPhone(), `2001:db8:${a.toString(16)}:${(b + 1).toString(16)}::1`)).resolves.toMatchObject({
      message: '验证码已发送',
    });
  });

  it('burns a code after 5 wrong tries', async () => {
    const phone = randomPhone();
    await send(phone);
    const code = auth.sms.lastCode(phone);
    const wrong = code === '111111' ? '222222' : '111111';
    for (let remaining = 4; remaining >= 1; remaining--) {
      await expect(auth.call('loginWithPhoneCode', { phone, code: wrong })).rejects.toMatchObject({
        reason: 'sms_code_wrong',
        details: { remainingAttempts: String(remaining) },
      });
    }
    await expect(auth.call('loginWithPhoneCode', { phone, code: wrong })).rejects.toMatchObject({ reason: 'sms_code_burned' });
    // Even the right code is now useless.
    const burned = auth.call('loginWithPhoneCode', { phone, code });
    await expect(burned).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(burned).rejects.toMatchObject({ reason: 'sms_code_expired' });
  });

  it('expires a code after 5 minutes', async () => {
    const phone = randomPhone();
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_REGISTER);
    auth.clock.advance(5 * MINUTE - SECOND);
    await expect(auth.call('registerWithPhone', { phone, code, password: 'secret-1234' })).resolves.toMatchObject({
      message: '注册成功',
      user: { phone },
      session: { token: SESSION_TOKEN },
    });

    const other = randomPhone();
    const late = await auth.sendCode(other, SmsPurpose.SMS_PURPOSE_REGISTER);
    auth.clock.advance(5 * MINUTE);
    await expect(auth.call('registerWithPhone', { phone: other, code: late, password: 'secret-1234' })).rejects.toMatchObject({
      reason: 'sms_code_expired',
      message: '验证码已失效，请重新获取',
    });
  });

  it('reports a failing provider as UNAVAILABLE and lets the user retry at once', async () => {
    const phone = randomPhone();
    auth.sms.failNext = true;
    await expect(send(phone)).rejects.toBeInstanceOf(UnavailableError);
    await expect(send(phone)).resolves.toMatchObject({ message: '验证码已发送', resendAfterSeconds: 60, expiresInSeconds: 300 });
    expect(auth.sms.count(phone)).toBe(1);
  });

  it('signs gateway requests: the provider refuses a request signed with another secret', async () => {
    const before = auth.sms.rejected;
    const gateway = new HttpSmsGateway({ url: auth.sms.url, secret: 'not-the-shared-secret', template: 't' });
    await expect(gateway.send({ phone: randomPhone(), code: '123456', purpose: 'login' })).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(auth.sms.rejected).toBe(before + 1);
  });
});
