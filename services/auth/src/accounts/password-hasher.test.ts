import { describe, expect, it } from 'vitest';
import { ResourceExhaustedError } from '@ipdata/common';
import { PasswordHasher } from './password-hasher.js';

describe('PasswordHasher (scrypt)', () => {
  const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1, keylen: 64 });

  it('stores scrypt$N$r$p$salt$hash with a fresh salt and verifies', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(a).not.toBe(b);
    expect(await hasher.verify('correct horse', a)).toBe(true);
    expect(await hasher.verify('correct horsE', a)).toBe(false);
    expect(await hasher.verify('x', 'not-a-hash')).toBe(false);
    expect(await hasher.verifyDummy('anything')).toBe(false);
  });

  it('verifies hashes made with other parameters and says they need a re-hash', async () => {
    const old = await new PasswordHasher({ N: 256, r: 4, p: 1, keylen: 32 }).hash('pw');
    expect(await hasher.verify('pw', old)).toBe(true);
    expect(hasher.needsRehash(old)).toBe(true);
  });

  it("works at OWASP's production default N=2^17, r=8 (maxmem raised)", async () => {
    const strong = new PasswordHasher({ N: 2 ** 17, r: 8, p: 1, keylen: 64 });
    const stored = await strong.hash('pw');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await strong.verify('pw', stored)).toBe(true);
    expect(strong.needsRehash(stored)).toBe(false);
  });

  it('refuses hashing beyond the concurrency cap and its queue with RESOURCE_EXHAUSTED', async () => {
    const busy = new PasswordHasher({ N: 2 ** 14, r: 8, p: 1, keylen: 64 }, { maxConcurrent: 1, maxQueue: 1 });
    const results = await Promise.allSettled([busy.hash('a'), busy.hash('b'), busy.hash('c'), busy.hash('d')]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(result.reason).toBeInstanceOf(ResourceExhaustedError);
      expect(result.reason).toMatchObject({ reason: 'password_hashing_busy' });
    }
  });
});
