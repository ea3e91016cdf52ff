import { describe, expect, it } from 'vitest';
import { signLink, signatureMatches } from './link-signature.js';

const secret = 'unit-test-secret-of-at-least-32-chars';
const claims = {
  linkId: '5d0a4c1e-0000-4000-8000-000000000001',
  accountId: '5d0a4c1e-0000-4000-8000-0000000000aa',
  version: '2026.01.10-abc',
  fileName: 'privacy.csv',
  expires: 1_800_000_000,
};

describe('link signature', () => {
  it('verifies its own signature and refuses a change of any claim, another secret or a malformed value', () => {
    const signature = signLink(secret, claims);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureMatches(secret, claims, signature)).toBe(true);
    for (const change of [
      { linkId: '5d0a4c1e-0000-4000-8000-000000000002' },
      { accountId: '5d0a4c1e-0000-4000-8000-0000000000ab' },
      { version: '2026.01.10-abd' },
      { fileName: 'asn.csv' },
      { expires: claims.expires + 1 },
    ]) {
      expect(signatureMatches(secret, { ...claims, ...change }, signature), JSON.stringify(change)).toBe(false);
    }
    expect(signatureMatches(`${secret}x`, claims, signature)).toBe(false);
    expect(signatureMatches(secret, claims, signature.toUpperCase())).toBe(false);
    expect(signatureMatches(secret, claims, signature.slice(0, 63))).toBe(false);
    expect(signatureMatches(secret, claims, '')).toBe(false);
  });
});
