import { hash } from 'node:crypto';
import { PermissionDeniedError, UnauthenticatedError, isDomainError } from '@ipdata/common';
import type { ResolveApiKeyResponse } from '@ipdata/proto/auth/v1/auth';
import type { SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { UserEventKind, type UserEvent } from '@ipdata/proto/events/v1/user';

export type ResolvedApiKey = ResolveApiKeyResponse;

export interface ApiKeyClientCacheOptions {
  /** Asks auth (ResolveApiKey over gRPC); rejects with the server's domain error. */
  resolve: (key: string) => Promise<ResolvedApiKey>;
  /** LRU bound (default 50,000 keys). */
  maxEntries?: number;
  /** A resolved key is trusted this long without asking auth again (default 10 s). */
  maxAgeMs?: number;
  /** An invalid key is remembered this long (default 5 s). */
  negativeMaxAgeMs?: number;
  now?: () => number;
}

interface Entry {
  value: ResolvedApiKey | undefined;
  error: Error | undefined;
  expiresAt: number;
  /** When the entry last moved to the recent end of the LRU order. */
  movedAt: number;
}

/**
 * A hit moves its entry to the recent end at most this often. Every move is a Map delete + set,
 * and V8 reallocates a Map's hash table as deletions pile up: on every request that was ~10% of
 * the public API's allocation (a sampling heap profile under load), garbage that brings the next
 * scavenge sooner. Recency to within a second is all eviction needs from keys kept 10 s at most.
 */
const RECENCY_RESOLUTION_MS = 1_000;

export interface ApiKeyClientCacheStats {
  hits: number;
  misses: number;
  size: number;
}

/**
 * In-process cache of resolved API keys for the BFFs, so the public API's hot path does not pay a
 * gRPC round trip per request. Entries live at most `maxAgeMs` (a missed event heals within that
 * time) and are dropped at once by events: API_KEY_REVOKED / API_KEY_ROTATED on auth.user.v1
 * (the key) and any SubscriptionChanged on billing.subscription.v1 (every key of the account).
 * Concurrent misses for one key share one call; a result that raced with an invalidation is
 * returned but not cached. Keys are held as SHA-256 hashes, never in clear.
 */
export class ApiKeyClientCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byKeyId = new Map<string, string>();
  private readonly byAccount = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Promise<ResolvedApiKey>>();
  /** Invalidations seen while loads were in flight, so a load that raced with one is not cached. */
  private invalidations: Array<{ seq: number; keyId?: string; accountId?: string; all?: true }> = [];
  private seq = 0;
  private hits = 0;
  private misses = 0;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly negativeMaxAgeMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ApiKeyClientCacheOptions) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
    this.negativeMaxAgeMs = options.negativeMaxAgeMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** The key's account, plan and limits; rejects with UnauthenticatedError (unknown key) or PermissionDeniedError `api_key_revoked`. */
  async resolve(key: string): Promise<ResolvedApiKey> {
    // The one-shot hash: ~0.8 µs against createHash's ~2 µs per request (no Hash object).
    const id = hash('sha256', key, 'base64url');
    const entry = this.entries.get(id);
    const now = this.now();
    if (entry !== undefined && entry.expiresAt > now) {
      this.hits++;
      // Map order is recency order: move to the end (RECENCY_RESOLUTION_MS says how often).
      if (now - entry.movedAt >= RECENCY_RESOLUTION_MS) {
        entry.movedAt = now;
        this.entries.delete(id);
        this.entries.set(id, entry);
      }
      if (entry.error) throw entry.error;
      return entry.value as ResolvedApiKey;
    }
    if (entry !== undefined) this.remove(id);
    this.misses++;
    const pending = this.inFlight.get(id);
    if (pending) return pending;
    const call = this.load(id, key);
    this.inFlight.set(id, call);
    try {
      return await call;
    } finally {
      this.inFlight.delete(id);
    }
  }

  invalidateKeyId(keyId: string): void {
    this.note({ keyId });
    const id = this.byKeyId.get(keyId);
    if (id !== undefined) this.remove(id);
  }

  invalidateAccount(accountId: string): void {
    this.note({ accountId });
    for (const id of [...(this.byAccount.get(accountId) ?? [])]) this.remove(id);
  }

  clear(): void {
    this.note({ all: true });
    this.entries.clear();
    this.byKeyId.clear();
    this.byAccount.clear();
  }

  /** Feed every auth.user.v1 event here. */
  onUserEvent(event: UserEvent): void {
    if (
      event.kind === UserEventKind.USER_EVENT_KIND_API_KEY_REVOKED ||
      event.kind === UserEventKind.USER_EVENT_KIND_API_KEY_ROTATED
    ) {
      this.invalidateKeyId(event.apiKeyId);
    }
  }

  /** Feed every billing.subscription.v1 event here. */
  onSubscriptionChanged(event: SubscriptionChanged): void {
    this.invalidateAccount(event.accountId);
  }

  get stats(): ApiKeyClientCacheStats {
    return { hits: this.hits, misses: this.misses, size: this.entries.size };
  }

  private note(invalidation: { keyId?: string; accountId?: string; all?: true }): void {
    this.seq++;
    if (this.inFlight.size === 0) {
      this.invalidations = [];
      return;
    }
    // Bounded: past the cap, everything in flight counts as invalidated.
    if (this.invalidations.length >= 10_000) this.invalidations = [{ seq: this.seq, all: true }];
    else this.invalidations.push({ seq: this.seq, ...invalidation });
  }

  private raced(since: number, value: ResolvedApiKey | undefined): boolean {
    return this.invalidations.some(
      (entry) =>
        entry.seq > since &&
        (entry.all === true || value === undefined || entry.keyId === value.keyId || entry.accountId === value.accountId),
    );
  }

  private async load(id: string, key: string): Promise<ResolvedApiKey> {
    const since = this.seq;
    try {
      const value = await this.options.resolve(key);
      if (!this.raced(since, value)) this.store(id, { value, error: undefined }, this.maxAgeMs);
      return value;
    } catch (error) {
      // Only a definite "invalid key" or "revoked key" is remembered; outages are not.
      const definite =
        error instanceof UnauthenticatedError || (error instanceof PermissionDeniedError && error.reason === 'api_key_revoked');
      if (isDomainError(error) && definite && !this.raced(since, undefined)) {
        this.store(id, { value: undefined, error }, this.negativeMaxAgeMs);
      }
      throw error;
    }
  }

  private store(id: string, result: Pick<Entry, 'value' | 'error'>, maxAgeMs: number): void {
    const now = this.now();
    const entry: Entry = { value: result.value, error: result.error, expiresAt: now + maxAgeMs, movedAt: now };
    this.remove(id);
    this.entries.set(id, entry);
    if (entry.value) {
      this.byKeyId.set(entry.value.keyId, id);
      let ids = this.byAccount.get(entry.value.accountId);
      if (!ids) this.byAccount.set(entry.value.accountId, (ids = new Set()));
      ids.add(id);
    }
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    if (!entry?.value) return;
    this.byKeyId.delete(entry.value.keyId);
    const ids = this.byAccount.get(entry.value.accountId);
    ids?.delete(id);
    if (ids?.size === 0) this.byAccount.delete(entry.value.accountId);
  }
}
