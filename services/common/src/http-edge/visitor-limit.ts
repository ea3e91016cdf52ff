import { InvalidArgumentError, ResourceExhaustedError } from '../errors/domain-errors.js';
import { rateLimitKey } from '../ip/canonical-ip.js';
import type { LimitedIncrementResult } from '../redis/limited-counter.js';

/** What a visitor limit counts with: common's LimitedCounter (Redis, shared by every replica). */
export interface VisitorCounter {
  increment(key: string, options: { limit: number; windowMs: number }): Promise<LimitedIncrementResult>;
}

export interface VisitorLimitOptions {
  /** Names the counter: `bff-en:lookup-tool:`; the visitor's key follows. */
  prefix: string;
  /** Requests per window per visitor. */
  limit: number;
  windowSeconds: number;
  /** The text of the refusal (429), in the face's words. */
  refusal: string;
}

/**
 * A per-visitor limit of an anonymous route (a lookup tool, a contact form): one atomic
 * check-and-increment per request under `<prefix><rateLimitKey(address)>`, so an IPv4 address
 * counts alone and an IPv6 address with its whole /64, which one subscriber usually holds and
 * can pick any address of (a per-address key let 200 addresses of one /64 through a limit of 60).
 */
export class VisitorLimit {
  constructor(
    private readonly counter: VisitorCounter,
    private readonly options: VisitorLimitOptions,
  ) {}

  /** The counter's key for a client address; undefined when the text is not one address. */
  keyOf(clientIp: string): string | undefined {
    const key = rateLimitKey(clientIp);
    return key === undefined ? undefined : `${this.options.prefix}${key}`;
  }

  /**
   * Counts one request of the visitor. Past the limit: ResourceExhaustedError (`rate_limited`,
   * `retryAfterSeconds` ≥ 1). An address that is not one ('' once the socket is gone) is refused
   * with InvalidArgumentError (`unknown_client_ip`) rather than counted under a shared key.
   */
  async take(clientIp: string): Promise<void> {
    const key = this.keyOf(clientIp);
    if (key === undefined) {
      throw new InvalidArgumentError('Your address could not be determined', { reason: 'unknown_client_ip' });
    }
    const { limit, windowSeconds, refusal } = this.options;
    const result = await this.counter.increment(key, { limit, windowMs: windowSeconds * 1000 });
    if (result.allowed) return;
    const retryAfterSeconds = String(Math.max(1, Math.ceil((result.resetInMs ?? 1000) / 1000)));
    throw new ResourceExhaustedError(refusal, { reason: 'rate_limited', details: { retryAfterSeconds } });
  }
}
