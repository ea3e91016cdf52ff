import { UnauthenticatedError } from '@ipdata/common';
import { SmsPurpose } from '@ipdata/proto/auth/v1/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/shared/secrets.js';
import { AuthHarness, randomPhone } from './fixtures/auth-harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('sessions: opaque tokens, expiry, immediate revocation', () => {
  const auth = new AuthHarness();
  beforeAll(() => auth.start());
  afterAll(() => auth.stop());

  async function login(rememberMe = false) {
    const phone = randomPhone();
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_REGISTER);
    await auth.call('registerWithPhone', { phone, code, password: 'secret-1234' });
    const response = await auth.call('loginWithPhonePassword', { phone, password: 'secret-1234', rememberMe });
    return { token: response.session?.token ?? '', accountId: response.user?.id ?? '' };
  }

  const resolve = (token: string) => auth.call('resolveSession', { token });

  it('stores only the token hash', async () => {
    const { token, accountId } = await login();
    const db = (await auth.mongoDb()).collection('sessions');
    expect(await db.countDocuments({ _id: token as never })).toBe(0);
    expect(await db.findOne({ _id: sha256Hex(token) as never })).toMatchObject({ accountId });
  });

  it('refuses a logged-out token at once, even when it was cached', async () => {
    const { token, accountId } = await login();
    expect((await resolve(token)).accountId).toBe(accountId);
    expect((await resolve(token)).accountId).toBe(accountId);
    await auth.call('logout', { token });
    const refused = resolve(token);
    await expect(refused).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(refused).rejects.toMatchObject({ reason: 'session_invalid' });
    await expect(auth.call('getUser', { token })).rejects.toMatchObject({ reason: 'session_invalid' });
    // Logging out twice, or with an unknown token, is fine.
    await expect(auth.call('logout', { token })).resolves.toEqual({});
  });

  /** Uses the sessions every 20 hours (so the 24 h idle timeout never strikes) until `at` ms after `start`. */
  async function keepUsing(tokens: string[], start: number, at: number) {
    while (auth.clock.now().getTime() + 20 * HOUR < start + at) {
      auth.clock.advance(20 * HOUR);
      for (const token of tokens) await resolve(token);
    }
    auth.clock.set(new Date(start + at));
  }

  it('expires after 7 days, or 30 days with remember-me, however active', async () => {
    const short = await login(false);
    const long = await login(true);
    const start = auth.clock.now().getTime();
    await resolve(short.token);
    await keepUsing([short.token, long.token], start, 7 * DAY - 1_000);
    await expect(resolve(short.token)).resolves.toMatchObject({ accountId: short.accountId });
    auth.clock.advance(1_000);
    await expect(resolve(short.token)).rejects.toMatchObject({ reason: 'session_invalid' });
    await expect(resolve(long.token)).resolves.toMatchObject({ accountId: long.accountId });
    await keepUsing([long.token], start, 30 * DAY);
    await expect(resolve(long.token)).rejects.toMatchObject({ reason: 'session_invalid' });
    // Expired sessions are swept from MongoDB.
    expect(await auth.service.domain.sessions.sweepExpired()).toBeGreaterThanOrEqual(2);
    expect(await (await auth.mongoDb()).collection('sessions').countDocuments({ _id: sha256Hex(short.token) as never })).toBe(0);
  });

  it('ends a session unused for 24 hours (idle timeout), also when it is cached', async () => {
    const active = await login(true);
    const idle = await login(true);
    await resolve(active.token);
    await resolve(idle.token);
    for (let day = 0; day < 3; day++) {
      auth.clock.advance(23 * HOUR);
      await expect(resolve(active.token)).resolves.toMatchObject({ accountId: active.accountId });
    }
    // 69 hours without use: far inside the 30 days, but idle.
    await expect(resolve(idle.token)).rejects.toMatchObject({ reason: 'session_invalid' });
    await expect(auth.call('getUser', { token: idle.token })).rejects.toMatchObject({ reason: 'session_invalid' });
    auth.clock.advance(24 * HOUR);
    await expect(resolve(active.token)).rejects.toMatchObject({ reason: 'session_invalid' });
    // Idle sessions are swept too.
    await auth.service.sessionSweeper.runNow();
    const sessions = (await auth.mongoDb()).collection('sessions');
    expect(await sessions.countDocuments({ _id: { $in: [sha256Hex(idle.token), sha256Hex(active.token)] } as never })).toBe(0);
  });

  it('refuses unknown and malformed tokens with the same reason', async () => {
    for (const token of ['', 'nope', 'A'.repeat(43)]) {
      await expect(resolve(token)).rejects.toMatchObject({ reason: 'session_invalid' });
    }
  });

  it('answers health and readiness', async () => {
    const base = `http://127.0.0.1:${auth.service.health.boundPort}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { mongo: true, redis: true, 'kafka-producer': true } });
  });
});
