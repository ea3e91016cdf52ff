import { UnauthenticatedError } from '@ipdata/common';
import type { Clock } from '../shared/clock.js';
import { MESSAGES } from '../shared/messages.js';
import { randomToken, sha256Hex } from '../shared/secrets.js';

export interface SessionRecord {
  tokenHash: string;
  accountId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | undefined;
}

export interface SessionStore {
  insert(session: SessionRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<SessionRecord | undefined>;
  revoke(tokenHash: string, at: Date): Promise<void>;
  /** Revokes every live session of the account except one; returns the revoked hashes. */
  revokeAllForAccount(accountId: string, at: Date, exceptHash?: string): Promise<string[]>;
  deleteExpired(before: Date): Promise<number>;
}

/** What the cache holds per token hash: the resolved session, or a tombstone for a revoked one. */
export type CachedSession = { accountId: string; expiresAt: number } | { revoked: true };

export interface SessionCache {
  get(tokenHash: string): Promise<CachedSession | undefined>;
  /** Only fills an empty slot, so a concurrent revocation's tombstone is never overwritten. */
  fill(tokenHash: string, entry: CachedSession, ttlMs: number): Promise<void>;
  /** Overwrites (used for tombstones). */
  put(tokenHash: string, entry: CachedSession, ttlMs: number): Promise<void>;
}

export interface ResolvedSession {
  accountId: string;
  expiresAt: Date;
}

const DAY_MS = 24 * 3600 * 1000;
export const SESSION_DAYS = 7;
export const REMEMBER_ME_DAYS = 30;

export function sessionInvalid(): UnauthenticatedError {
  // BFFs map this reason to face A code 506 (login invalid) and a silent logout.
  return new UnauthenticatedError(MESSAGES.sessionInvalid, { reason: 'session_invalid' });
}

/**
 * Opaque random tokens (256 bits), stored only as SHA-256 hashes with an explicit expiry.
 * Resolving goes to Redis first (hash → account and expiry); Mongo is the record of truth.
 * Revocation writes Mongo and then a tombstone into the cache, so refusal is immediate on every
 * replica.
 */
export class SessionService {
  constructor(
    private readonly store: SessionStore,
    private readonly cache: SessionCache,
    private readonly clock: Clock,
    private readonly options: { maxCacheTtlMs: number },
  ) {}

  async create(accountId: string, rememberMe: boolean): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (rememberMe ? REMEMBER_ME_DAYS : SESSION_DAYS) * DAY_MS);
    const tokenHash = sha256Hex(token);
    await this.store.insert({ tokenHash, accountId, createdAt: now, expiresAt, revokedAt: undefined });
    await this.cache.fill(tokenHash, { accountId, expiresAt: expiresAt.getTime() }, this.cacheTtl(expiresAt, now));
    return { token, expiresAt };
  }

  async resolve(token: string): Promise<ResolvedSession> {
    if (!token) throw sessionInvalid();
    const tokenHash = sha256Hex(token);
    const now = this.clock.now();
    const cached = await this.cache.get(tokenHash);
    if (cached !== undefined) {
      if ('revoked' in cached || cached.expiresAt <= now.getTime()) throw sessionInvalid();
      return { accountId: cached.accountId, expiresAt: new Date(cached.expiresAt) };
    }
    const record = await this.store.findByHash(tokenHash);
    if (!record || record.revokedAt !== undefined || record.expiresAt.getTime() <= now.getTime()) {
      throw sessionInvalid();
    }
    await this.cache.fill(
      tokenHash,
      { accountId: record.accountId, expiresAt: record.expiresAt.getTime() },
      this.cacheTtl(record.expiresAt, now),
    );
    return { accountId: record.accountId, expiresAt: record.expiresAt };
  }

  /** Logout: idempotent, unknown tokens are fine. */
  async revoke(token: string): Promise<void> {
    if (!token) return;
    const tokenHash = sha256Hex(token);
    await this.store.revoke(tokenHash, this.clock.now());
    await this.cache.put(tokenHash, { revoked: true }, this.options.maxCacheTtlMs);
  }

  /** Ends every session of an account (password reset), or all but the caller's (password change). */
  async revokeAll(accountId: string, exceptToken?: string): Promise<void> {
    const hashes = await this.store.revokeAllForAccount(
      accountId,
      this.clock.now(),
      exceptToken ? sha256Hex(exceptToken) : undefined,
    );
    await Promise.all(hashes.map((hash) => this.cache.put(hash, { revoked: true }, this.options.maxCacheTtlMs)));
  }

  async sweepExpired(): Promise<number> {
    return this.store.deleteExpired(this.clock.now());
  }

  private cacheTtl(expiresAt: Date, now: Date): number {
    return Math.max(1, Math.min(this.options.maxCacheTtlMs, expiresAt.getTime() - now.getTime()));
  }
}
