import { randomToken, hmacSha256, safeEqual } from '../shared/secrets.js';

export type LinkPurpose = 'confirm_email' | 'reset_password';

export interface LinkPayload {
  /** Account id. */
  sub: string;
  purpose: LinkPurpose;
  /** Expiry, epoch ms. */
  exp: number;
  /** Unique id: single-use links are consumed by it. */
  jti: string;
  /**
   * The account's password version when issued (passwordChangedAt in ms, 0 if never changed):
   * a link dies when the password changes. Links issued before versions existed count as 0.
   */
  ver: number;
}

/**
 * Tokens for emailed links: base64url(JSON payload) + "." + base64url(HMAC-SHA256(secret, payload)).
 * Nothing is stored at issue time; the signature proves we issued it, `exp` bounds it.
 */
export class SignedLinks {
  constructor(private readonly secret: string) {}

  issue(payload: Omit<LinkPayload, 'jti'>): { token: string; payload: LinkPayload } {
    const full: LinkPayload = { ...payload, jti: randomToken(16) };
    const body = Buffer.from(JSON.stringify(full)).toString('base64url');
    return { token: `${body}.${this.sign(body)}`, payload: full };
  }

  /** The payload when the signature is ours, the purpose matches and it has not expired; else undefined. */
  verify(token: string, purpose: LinkPurpose, nowMs: number): LinkPayload | undefined {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return undefined;
    if (!safeEqual(signature, this.sign(body))) return undefined;
    let payload: Partial<LinkPayload>;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<LinkPayload>;
    } catch {
      return undefined;
    }
    if (payload.purpose !== purpose || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return undefined;
    if (typeof payload.exp !== 'number' || payload.exp <= nowMs) return undefined;
    if (payload.ver !== undefined && typeof payload.ver !== 'number') return undefined;
    return { ...payload, ver: payload.ver ?? 0 } as LinkPayload;
  }

  private sign(body: string): string {
    return hmacSha256(this.secret, body).toString('base64url');
  }
}
