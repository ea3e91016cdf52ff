import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { safeEqual } from '../shared/secrets.js';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keylen: number;
}

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Memory scrypt needs is 128·N·r bytes; Node's default cap (32 MiB) is too small for N=2^15, r=8 plus slack. */
function maxmem(params: { N: number; r: number }): number {
  return 128 * params.N * params.r * 2 + 1024 * 1024;
}

/**
 * scrypt from node:crypto, stored as `scrypt$N$r$p$salt$hash` (salt and hash base64url) so the
 * parameters can be raised in config without invalidating existing hashes: a hash verifies with
 * the parameters it was made with.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly params: ScryptParams) {}

  async hash(password: string): Promise<string> {
    const { N, r, p, keylen } = this.params;
    const salt = randomBytes(16);
    const key = await scryptAsync(password, salt, keylen, { N, r, p, maxmem: maxmem(this.params) });
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    const salt = Buffer.from(parts[4] ?? '', 'base64url');
    const expected = Buffer.from(parts[5] ?? '', 'base64url');
    const key = await scryptAsync(password, salt, expected.length, { N, r, p, maxmem: maxmem({ N, r }) });
    return safeEqual(key, expected);
  }

  /**
   * Does the work of a real verification against a throw-away hash, so a login for an unknown
   * account takes as long as one with a wrong password (no account enumeration by timing).
   */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash('dummy password never used by anyone');
    await this.verify(password, await this.dummyHash);
    return false;
  }

  /** Whether a stored hash uses weaker parameters than configured (re-hash on next login). */
  needsRehash(stored: string): boolean {
    const [, N, r, p] = stored.split('$');
    return Number(N) !== this.params.N || Number(r) !== this.params.r || Number(p) !== this.params.p;
  }
}
