import { createHmac } from 'node:crypto';

/**
 * An anonymous visitor id: HMAC-SHA256 of the client address and the User-Agent, keyed with
 * VISITOR_ID_SECRET, 32 hex characters after a `v-` prefix. Stable for one browser on one
 * address, so stats can count unique visitors; without the secret nobody can map an id back to
 * an address by hashing all of IPv4. The address is the one ClientAddressResolver gives (trusted
 * proxies only), so a client cannot choose its id through X-Forwarded-For.
 */
export class VisitorIds {
  constructor(private readonly secret: string) {}

  of(clientIp: string, userAgent: string | undefined): string {
    // The separator keeps ("1.2.3.4", "5x") and ("1.2.3.45", "x") apart.
    const digest = createHmac('sha256', this.secret)
      .update(clientIp)
      .update('\n')
      .update(userAgent ?? '')
      .digest('hex');
    return `v-${digest.slice(0, 32)}`;
  }
}
