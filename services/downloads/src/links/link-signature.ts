import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed link is bound to; every field is covered by the signature. */
export interface LinkClaims {
  linkId: string;
  accountId: string;
  version: string;
  fileName: string;
  /** Unix seconds. */
  expires: number;
}

/**
 * HMAC-SHA256 over the claims, hex. Fields are joined with a newline, which none of them may
 * contain (ids, version and file names are checked before), so two different claim sets can
 * never give the same signed text.
 */
export function signLink(secret: string, claims: LinkClaims): string {
  const text = ['v1', claims.linkId, claims.accountId, claims.version, claims.fileName, String(claims.expires)].join('\n');
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** Timing-safe: a forger learns nothing from how long the comparison took. */
export function signatureMatches(secret: string, claims: LinkClaims, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signLink(secret, claims), 'hex'), Buffer.from(signature, 'hex'));
}
