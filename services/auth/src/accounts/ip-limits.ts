import { ResourceExhaustedError, type Clock } from '@ipdata/common';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { clientIpKey } from '../shared/client-ip.js';
import { MESSAGES } from '../shared/messages.js';

export type IpLimitedAction = 'login' | 'signup' | 'reset';

export interface IpLimitOptions {
  loginsPer15Min: number;
  signUpsPerHour: number;
  resetsPerHour: number;
}

const MINUTE_MS = 60_000;

/**
 * Per-client-IP brakes on everything that costs a password hash or sends mail (password
 * spraying across many accounts from one address, ASVS 5.0 V6.3 anti-automation). The per-account
 * limits stay; this adds the other axis. Windows are fixed clock windows from the injectable
 * clock; a refused call is not counted.
 */
export class IpLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly options: IpLimitOptions,
  ) {}

  /** Refuses an empty or malformed client_ip (INVALID_ARGUMENT) and a spent budget (RESOURCE_EXHAUSTED, reason ip_limit). */
  async consume(action: IpLimitedAction, clientIp: string): Promise<void> {
    const ip = clientIpKey(clientIp);
    const [limit, windowMs] = this.budget(action);
    const now = this.clock.now().getTime();
    const window = Math.floor(now / windowMs);
    if (!(await this.limiter.consume(`ip:${action}:${ip}:${window}`, limit, windowMs + MINUTE_MS))) {
      throw new ResourceExhaustedError(MESSAGES.tooManyRequests, {
        reason: 'ip_limit',
        details: { retryAfterSeconds: String(Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000))) },
      });
    }
  }

  private budget(action: IpLimitedAction): [limit: number, windowMs: number] {
    switch (action) {
      case 'login':
        return [this.options.loginsPer15Min, 15 * MINUTE_MS];
      case 'signup':
        return [this.options.signUpsPerHour, 60 * MINUTE_MS];
      case 'reset':
        return [this.options.resetsPerHour, 60 * MINUTE_MS];
    }
  }
}
