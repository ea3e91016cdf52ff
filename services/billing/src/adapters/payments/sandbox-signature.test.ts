import { describe, expect, it } from 'vitest';
import { checkSandboxSignature, signSandboxPayload } from './sandbox-signature.js';

describe('sandbox callback signature', () => {
  const body = Buffer.from('{"id":"evt_1"}');
  const now = Date.parse('2026-01-10T12:00:00Z');
  const timestamp = String(now / 1000);
  const check = (overrides: Partial<Parameters<typeof checkSandboxSignature>[0]>) =>
    checkSandboxSignature({
      secret: 's3cret',
      rawBody: body,
      signature: signSandboxPayload('s3cret', now / 1000, body),
      timestamp,
      nowMs: now,
      windowMs: 300_000,
      ...overrides,
    });

  it('is hex HMAC-SHA256 over "<timestamp>.<raw body>"', async () => {
    const { createHmac } = await import('node:crypto');
    expect(signSandboxPayload('s3cret', 1700000000, body)).toBe(
      createHmac('sha256', 's3cret').update(`1700000000.${body.toString()}`).digest('hex'),
    );
  });

  it('accepts a fresh signature and refuses anything else', () => {
    expect(check({})).toBe('valid');
    expect(check({ rawBody: Buffer.from('{"id":"evt_2"}') })).toBe('mismatch');
    expect(check({ secret: 'other' })).toBe('mismatch');
    expect(check({ timestamp: String(now / 1000 + 1) })).toBe('mismatch');
    expect(check({ signature: undefined })).toBe('missing');
    expect(check({ signature: 'abc' })).toBe('malformed');
    expect(check({ nowMs: now + 300_001 })).toBe('stale');
    expect(check({ nowMs: now - 300_001 })).toBe('stale');
    expect(check({ nowMs: now + 300_000 })).toBe('valid');
  });
});
