import { randomInt } from 'node:crypto';
import { InvalidArgumentError, ResourceExhaustedError } from '@ipdata/common';
import type { Clock } from '@ipdata/common';
import { MESSAGES } from '../shared/messages.js';
import { clientIpKey } from '../shared/client-ip.js';
import { hmacSha256 } from '../shared/secrets.js';
import { invalid, isPhone } from '../shared/validation.js';
import type { SmsGateway } from './sms-gateway.js';

export type SmsPurposeName = 'register' | 'login' | 'reset_password' | 'partner';

export type VerifyOutcome = 'ok' | 'missing' | 'expired' | 'wrong' | 'burned';

/** Short-lived codes, one slot per (purpose, phone); a new code replaces the old one. */
export interface SmsCodeStore {
  save(slot: string, record: { codeHash: string; expiresAt: number }, ttlMs: number): Promise<void>;
  /** Atomically counts the try; a match consumes the code, the last allowed wrong try burns it. */
  verify(
    slot: string,
    codeHash: string,
    nowMs: number,
    maxAttempts: number,
  ): Promise<{ outcome: VerifyOutcome; remaining: number }>;
}

export interface RateLimiter {
  /** Counts one event in a window; refused events are not counted. */
  consume(key: string, limit: number, windowMs: number): Promise<boolean>;
}

/** "At most one per N seconds" with times taken from the injectable clock. */
export interface Cooldown {
  remainingMs(key: string, nowMs: number, cooldownMs: number): Promise<number>;
  /** Starts the cooldown unless one is running; returns the remaining ms of a running one (0 = started). */
  acquire(key: string, nowMs: number, cooldownMs: number): Promise<number>;
  release(key: string): Promise<void>;
}

export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_RESEND_MS = 60_000;
export const SMS_PER_DAY = 10;
export const SMS_MAX_WRONG_TRIES = 5;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Face A's users are in China: "per day" is the calendar day in UTC+8.
const CHINA_OFFSET_MS = 8 * HOUR_MS;

function tooMany(message: string, reason: string, retryAfterMs: number): ResourceExhaustedError {
  return new ResourceExhaustedError(message, {
    reason,
    details: { retryAfterSeconds: String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });
}

export class SmsCodeService {
  constructor(
    private readonly store: SmsCodeStore,
    private readonly limiter: RateLimiter,
    private readonly cooldown: Cooldown,
    private readonly gateway: SmsGateway,
    private readonly clock: Clock,
    private readonly options: { perIpPerHour: number; codeSecret: string; resendMs?: number },
  ) {}

  async send(
    phone: string,
    purpose: SmsPurposeName,
    clientIp: string,
  ): Promise<{ resendAfterSeconds: number; expiresInSeconds: number }> {
    if (!isPhone(phone)) throw invalid('phone', MESSAGES.invalidPhone, 'invalid_phone');
    const ip = clientIpKey(clientIp);
    const now = this.clock.now().getTime();
    const cooldownKey = `phone:${phone}`;
    // Checked first and without counting, so pressing "resend" early costs no daily quota.
    const resendMs = this.options.resendMs ?? SMS_RESEND_MS;
    const waiting = await this.cooldown.remainingMs(cooldownKey, now, resendMs);
    if (waiting > 0) throw tooMany(MESSAGES.codeTooSoon, 'sms_resend_too_soon', waiting);

    const hour = Math.floor(now / HOUR_MS);
    const ipKey = `ip:${ip}:${hour}`;
    if (!(await this.limiter.consume(ipKey, this.options.perIpPerHour, HOUR_MS + 60_000))) {
      throw tooMany(MESSAGES.codeIpLimit, 'sms_ip_limit', (hour + 1) * HOUR_MS - now);
    }
    const chinaDay = Math.floor((now + CHINA_OFFSET_MS) / DAY_MS);
    if (!(await this.limiter.consume(`day:${phone}:${chinaDay}`, SMS_PER_DAY, DAY_MS + HOUR_MS))) {
      throw tooMany(MESSAGES.codeDailyLimit, 'sms_daily_limit', (chinaDay + 1) * DAY_MS - CHINA_OFFSET_MS - now);
    }
    const running = await this.cooldown.acquire(cooldownKey, now, resendMs);
    if (running > 0) throw tooMany(MESSAGES.codeTooSoon, 'sms_resend_too_soon', running);

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.store.save(
      slot(purpose, phone),
      { codeHash: this.codeHash(purpose, phone, code), expiresAt: now + SMS_CODE_TTL_MS },
      SMS_CODE_TTL_MS,
    );
    try {
      await this.gateway.send({ phone, code, purpose });
    } catch (error) {
      // Nothing reached the phone: let the user ask again at once.
      await this.cooldown.release(cooldownKey);
      throw error;
    }
    return { resendAfterSeconds: resendMs / 1000, expiresInSeconds: SMS_CODE_TTL_MS / 1000 };
  }

  /** Checks and consumes a code; throws InvalidArgumentError (field "code") otherwise. */
  async verify(phone: string, purpose: SmsPurposeName, code: string): Promise<void> {
    if (!isPhone(phone)) throw invalid('phone', MESSAGES.invalidPhone, 'invalid_phone');
    if (!/^\d{6}$/.test(code)) throw invalid('code', MESSAGES.invalidCode, 'invalid_code');
    const now = this.clock.now().getTime();
    const { outcome, remaining } = await this.store.verify(
      slot(purpose, phone),
      this.codeHash(purpose, phone, code),
      now,
      SMS_MAX_WRONG_TRIES,
    );
    switch (outcome) {
      case 'ok':
        return;
      case 'wrong':
        throw new InvalidArgumentError(MESSAGES.codeWrong, {
          reason: 'sms_code_wrong',
          details: { field: 'code', remainingAttempts: String(remaining) },
        });
      case 'burned':
        throw new InvalidArgumentError(MESSAGES.codeBurned, { reason: 'sms_code_burned', details: { field: 'code' } });
      default:
        throw new InvalidArgumentError(MESSAGES.codeExpired, { reason: 'sms_code_expired', details: { field: 'code' } });
    }
  }

  /**
   * Keyed so a Redis dump shows no live codes: a plain hash of a 6-digit code is reversed by
   * trying all 10^6 codes, an HMAC needs SMS_CODE_SECRET. Bound to purpose and phone so a hash
   * fits one slot only.
   */
  private codeHash(purpose: SmsPurposeName, phone: string, code: string): string {
    return hmacSha256(this.options.codeSecret, `${purpose}:${phone}:${code}`).toString('hex');
  }
}

function slot(purpose: SmsPurposeName, phone: string): string {
  return `${purpose}:${phone}`;
}
