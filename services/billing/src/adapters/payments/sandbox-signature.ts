import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-sandbox-signature';
export const TIMESTAMP_HEADER = 'x-sandbox-timestamp';

/** hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`): the timestamp is signed with the body. */
export function signSandboxPayload(secret: string, timestampSeconds: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
}

export type SignatureCheck = 'valid' | 'missing' | 'malformed' | 'mismatch' | 'stale';

/**
 * Checks a callback's signature in constant time and refuses timestamps outside the replay
 * window (either side, for clock skew), so a captured callback cannot be replayed later.
 */
export function checkSandboxSignature(input: {
  secret: string;
  rawBody: Buffer;
  signature: string | undefined;
  timestamp: string | undefined;
  nowMs: number;
  windowMs: number;
}): SignatureCheck {
  if (!input.signature || !input.timestamp) return 'missing';
  if (!/^\d{1,12}$/.test(input.timestamp) || !/^[0-9a-f]{64}$/i.test(input.signature)) return 'malformed';
  const timestampSeconds = Number(input.timestamp);
  const expected = Buffer.from(signSandboxPayload(input.secret, timestampSeconds, input.rawBody), 'hex');
  const given = Buffer.from(input.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'mismatch';
  if (Math.abs(input.nowMs - timestampSeconds * 1000) > input.windowMs) return 'stale';
  return 'valid';
}
