import { defineRedisScript } from '@ipdata/common';
import type { Redis } from 'ioredis';
import type { SmsCodeStore, VerifyOutcome } from '../../sms/sms-code.service.js';

/**
 * One Lua script per check so concurrent guesses cannot exceed the try limit: it counts the try,
 * consumes the code on a match, burns it on the last allowed wrong try, and refuses it once the
 * clock (passed in, so tests can move it) is past its expiry. It compares keyed hashes, not
 * codes, so Redis' plain string comparison leaks nothing useful (HMAC-SHA256 with SMS_CODE_SECRET,
 * so a Redis dump alone cannot be brute-forced back to live codes).
 */
const VERIFY = `
local record = redis.call('HMGET', KEYS[1], 'hash', 'expiresAt', 'attempts')
if not record[1] then return {'missing', 0} end
local now = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
if tonumber(record[2]) <= now then
  redis.call('DEL', KEYS[1])
  return {'expired', 0}
end
if record[1] == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return {'ok', 0}
end
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if attempts >= max then
  redis.call('DEL', KEYS[1])
  return {'burned', 0}
end
return {'wrong', max - attempts}
`;

export class RedisSmsCodeStore implements SmsCodeStore {
  private readonly verifyScript: (key: string, hash: string, nowMs: number, max: number) => Promise<[string, number]>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.verifyScript = defineRedisScript<[key: string, hash: string, nowMs: number, max: number], [string, number]>(
      redis,
      'authVerifySmsCode',
      { keys: 1, lua: VERIFY },
    );
  }

  async save(slot: string, record: { codeHash: string; expiresAt: number }, ttlMs: number): Promise<void> {
    const key = `${this.prefix}sms:code:${slot}`;
    // A new code replaces the old one and resets the try counter. The Redis TTL only cleans up;
    // expiry itself is decided by expiresAt against the injectable clock.
    await this.redis
      .multi()
      .del(key)
      .hset(key, { hash: record.codeHash, expiresAt: String(record.expiresAt), attempts: '0' })
      .pexpire(key, ttlMs + 60_000)
      .exec();
  }

  async verify(slot: string, codeHash: string, nowMs: number, maxAttempts: number) {
    const [outcome, remaining] = await this.verifyScript(`${this.prefix}sms:code:${slot}`, codeHash, nowMs, maxAttempts);
    return { outcome: outcome as VerifyOutcome, remaining: Number(remaining) };
  }
}
