import { UnauthenticatedError } from '@ipdata/common';
import type { Clock } from '@ipdata/common';
import { MESSAGES } from '../shared/messages.js';
import { randomToken, sha256Hex } from '../shared/secrets.js';

export interface SessionRecord {
  tokenHash: string;
  accountId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | undefined;
  /** Last time the session was used (updated at most every touch interval): the idle timeout counts from here. */
  lastSeenAt: Date;
}

export interface SessionStore {
  insert(session: SessionRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<SessionRecord | undefined>;
  revoke(tokenHash: string, at: Date): Promise<void>;
  touch(tokenHash: string, at: Date): Promise<void>;
  /** Revokes every live session of the account except one; returns the revoked hashes. */
  revokeAllForAccount(accountId: string, at: Date, exceptHash?: string): Promise<string[]>;
  /** Deletes sessions past their absolute expiry or idle since `idleBefore`. */
  deleteExpired(before: Date, idleBefore: Date): Promise<number>;
}

/** What the cache holds per token hash: the resolved session, or a tombstone for a revoked one. */
export type CachedSession = { accountId: string; expiresAt: number; lastSeenAt?: number } | { revoked: true };

export interface SessionCache {
  get(tokenHash: string): Promise<CachedSession | undefined>;
  /** Only fills an empty slot, so a concurrent revocation's tombstone is never overwritten. */
  fill(tokenHash: string, entry: CachedSession, ttlMs: number): Promise<void>;
  /** Overwrites (used for tombstones). */
  put(tokenHash: string, entry: CachedSession, ttlMs: number): Promise<void>;
  /** Replaces a live entry only: never a tombstone, never an empty slot. */
  refresh(tokenHash: string, entry: CachedSession, ttlMs: number): Promise<void>;
}

interface LiveEntry {
  accountId: string;
  expiresAt: number;
  lastSeenAt: number;
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
 * Opaque random tokens (256 bits), stored only as SHA-256 hashes with an explicit expiry and an
 * idle timeout (`idleTimeoutMs` without use ends the session, ASVS 5.0 V7.3).
 * Resolving goes to Redis first (hash → account and expiry); Mongo is the record of truth.
 * Revocation writes Mongo and then a tombstone into the cache, so refusal is immediate on every
 * replica.
 */
export class SessionService {
  constructor(
    private readonly store: SessionStore,
    private readonly cache: SessionCache,
    private readonly clock: Clock,
    private readonly options: { maxCacheTtlMs: number; idleTimeoutMs: number },
  ) {}

  async create(accountId: string, rememberMe: boolean): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (rememberMe ? REMEMBER_ME_DAYS : SESSION_DAYS) * DAY_MS);
    const tokenHash = sha256Hex(token);
    await this.store.insert({ tokenHash, accountId, createdAt: now, expiresAt, revokedAt: undefined, lastSeenAt: now });
    const entry = { accountId, expiresAt: expiresAt.getTime(), lastSeenAt: now.getTime() };
    await this.cache.fill(tokenHash, entry, this.cacheTtl(expiresAt, now));
    return { token, expiresAt };
  }

  async resolve(token: string): Promise<ResolvedSession> {
    if (!token) throw sessionInvalid();
    const tokenHash = sha256Hex(token);
    const now = this.clock.now();
    const cached = await this.cache.get(tokenHash);
    if (cached !== undefined) {
      if ('revoked' in cached || cached.expiresAt <= now.getTime()) throw sessionInvalid();
      // Entries cached before the idle timeout existed carry no lastSeenAt: count from now.
      const entry = { ...cached, lastSeenAt: cached.lastSeenAt ?? now.getTime() };
      const touched = await this.touchIfDue(tokenHash, entry, now);
      if (touched) await this.cache.refresh(tokenHash, touched, this.cacheTtl(new Date(cached.expiresAt), now));
      return { accountId: cached.accountId, expiresAt: new Date(cached.expiresAt) };
    }
    const record = await this.store.findByHash(tokenHash);
    if (!record || record.revokedAt !== undefined || record.expiresAt.getTime() <= now.getTime()) {
      throw sessionInvalid();
    }
    const entry = { accountId: record.accountId, expiresAt: record.expiresAt.getTime(), lastSeenAt: record.lastSeenAt.getTime() };
    const touched = await this.touchIfDue(tokenHash, entry, now);
    await this.cache.fill(tokenHash, touched ?? entry, this.cacheTtl(record.expiresAt, now));
    return { accountId: record.accountId, expiresAt: record.expiresAt };
  }

  /**
   * Refuses a session unused for the idle timeout; otherwise records the use, at most once per
   * touch interval (a write per request would put MongoDB on the hot path). Returns the entry
   * with the new lastSeenAt when it was recorded.
   */
  private async touchIfDue(tokenHash: string, entry: LiveEntry, now: Date): Promise<LiveEntry | undefined> {
    const idleMs = now.getTime() - entry.lastSeenAt;
    if (idleMs >= this.options.idleTimeoutMs) throw sessionInvalid();
    if (idleMs < this.touchIntervalMs()) return undefined;
    await this.store.touch(tokenHash, now);
    return { ...entry, lastSeenAt: now.getTime() };
  }

  private touchIntervalMs(): number {
    return Math.min(60_000, this.options.idleTimeoutMs / 10);
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
    const now = this.clock.now();
    return this.store.deleteExpired(now, new Date(now.getTime() - this.options.idleTimeoutMs));
  }

  private cacheTtl(expiresAt: Date, now: Date): number {
    return Math.max(1, Math.min(this.options.maxCacheTtlMs, expiresAt.getTime() - now.getTime()));
  }
}
