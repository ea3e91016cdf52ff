import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes (256 bits) as base64url: session tokens and the secret part of API keys. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens and keys are stored and cached only as this hash; a leaked table grants nothing. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256(secret: string, value: string): Buffer {
  return createHmac('sha256', secret).update(value).digest();
}

/** Constant-time comparison of two strings or buffers of possibly different length. */
export function safeEqual(a: Buffer | string, b: Buffer | string): boolean {
  const left = typeof a === 'string' ? Buffer.from(a) : a;
  const right = typeof b === 'string' ? Buffer.from(b) : b;
  if (left.length !== right.length) {
    // Still compare something of equal length so the time does not depend on where they differ.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
