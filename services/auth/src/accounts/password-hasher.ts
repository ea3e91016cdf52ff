import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { ResourceExhaustedError } from '@ipdata/common';
import { ConcurrencyLimit, ConcurrencyLimitExceeded } from '../shared/concurrency-limit.js';
import { MESSAGES } from '../shared/messages.js';
import { safeEqual } from '../shared/secrets.js';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keylen: number;
}

export interface HashingLimits {
  /** Hashes running at once in this process (each holds 128·N·r bytes: 128 MiB at OWASP's N=2^17, r=8). */
  maxConcurrent: number;
  /** Hashes waiting for a turn; beyond that RESOURCE_EXHAUSTED (reason password_hashing_busy). */
  maxQueue: number;
}

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Memory scrypt needs is 128·N·r bytes; Node's default cap (32 MiB) is far too small for N=2^17, r=8. */
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
  private readonly limit: ConcurrencyLimit;

  constructor(
    private readonly params: ScryptParams,
    limits: HashingLimits = { maxConcurrent: 4, maxQueue: 32 },
  ) {
    this.limit = new ConcurrencyLimit(limits.maxConcurrent, limits.maxQueue);
  }

  async hash(password: string): Promise<string> {
    const { N, r, p, keylen } = this.params;
    const salt = randomBytes(16);
    const key = await this.scrypt(password, salt, keylen, { N, r, p, maxmem: maxmem(this.params) });
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    const salt = Buffer.from(parts[4] ?? '', 'base64url');
    const expected = Buffer.from(parts[5] ?? '', 'base64url');
    const key = await this.scrypt(password, salt, expected.length, { N, r, p, maxmem: maxmem({ N, r }) });
    return safeEqual(key, expected);
  }

  /**
   * Every scrypt of the process goes through one bounded semaphore: unauthenticated callers can
   * otherwise start any number of 128 MiB hashes at once (memory and CPU exhaustion).
   */
  private async scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
    try {
      return await this.limit.run(() => scryptAsync(password, salt, keylen, options));
    } catch (error) {
      if (!(error instanceof ConcurrencyLimitExceeded)) throw error;
      throw new ResourceExhaustedError(MESSAGES.passwordHashingBusy, {
        reason: 'password_hashing_busy',
        details: { retryAfterSeconds: '1' },
      });
    }
  }

  /**
   * Does the work of a real verification against a throw-away hash, so a login for an unknown
   * account takes as long as one with a wrong password (no account enumeration by timing).
   */
  async verifyDummy(password: string): Promise<false> {
    // A failed attempt (hashing busy) is not remembered, or every later dummy check would fail too.
    this.dummyHash ??= this.hash('dummy password never used by anyone').catch((error: unknown) => {
      this.dummyHash = undefined;
      throw error;
    });
    await this.verify(password, await this.dummyHash);
    return false;
  }

  /** Whether a stored hash uses weaker parameters than configured (re-hash on next login). */
  needsRehash(stored: string): boolean {
    const [, N, r, p, , hash] = stored.split('$');
    const keylen = Buffer.from(hash ?? '', 'base64url').length;
    return (
      Number(N) !== this.params.N || Number(r) !== this.params.r || Number(p) !== this.params.p || keylen !== this.params.keylen
    );
  }
}
