import { randomUUID } from 'node:crypto';
import { NotFoundError, PermissionDeniedError, ResourceExhaustedError, UnauthenticatedError } from '@ipdata/common';
import type { ApiKey } from '@ipdata/proto/auth/v1/auth';
import type { PlanLimits, PlanTier } from '@ipdata/proto/events/v1/billing';
import { UserEventKind } from '@ipdata/proto/events/v1/user';
import type { Account, UserEventInput } from '../accounts/account.js';
import { apiPlanOf, type SubscriptionRepository } from '../entitlements/entitlements.js';
import type { Clock } from '@ipdata/common';
import { MESSAGES } from '../shared/messages.js';
import { randomToken, sha256Hex } from '../shared/secrets.js';
import { invalid } from '../shared/validation.js';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** "ipd_" + first 8 characters of the secret part: enough to recognise, useless to call with. */
  prefix: string;
  keyHash: string;
  createdAt: Date;
  revokedAt: Date | undefined;
}

/** Keys and their auth.user.v1 events, stored in the same document write (outbox). */
export interface ApiKeyStore {
  /**
   * Stores the key unless the account already has `max` active keys; false then. Atomic across
   * replicas (parallel creates cannot pass the cap together).
   */
  insertWithinCap(record: ApiKeyRecord, max: number, events: readonly UserEventInput[]): Promise<boolean>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listForAccount(accountId: string, includeRevoked: boolean): Promise<ApiKeyRecord[]>;
  /** Marks an active key of the account revoked; undefined when there is none with that id. */
  revoke(accountId: string, keyId: string, at: Date, events: readonly UserEventInput[]): Promise<ApiKeyRecord | undefined>;
  /** Revokes an active key and stores `next` in its place (within the cap); the old record, or undefined. */
  replace(
    accountId: string,
    oldKeyId: string,
    next: ApiKeyRecord,
    at: Date,
    events: { revoked: readonly UserEventInput[]; created: readonly UserEventInput[] },
  ): Promise<ApiKeyRecord | undefined>;
  activeHashesForAccount(accountId: string): Promise<string[]>;
}

export interface ResolvedApiKey {
  accountId: string;
  keyId: string;
  tier: PlanTier;
  planId: string;
  limits: PlanLimits;
  /** Epoch ms; 0 on the free plan. */
  periodEnd: number;
}

/** `revoked`: the key existed and was revoked or rotated (403), not merely unknown (401). */
export type CachedApiKey = ResolvedApiKey | { invalid: true; revoked?: true };

export interface ApiKeyCache {
  get(keyHash: string): Promise<CachedApiKey | undefined>;
  /** Fills an empty slot only, so a revocation tombstone written meanwhile wins. */
  fill(keyHash: string, entry: CachedApiKey, ttlMs: number): Promise<void>;
  put(keyHash: string, entry: CachedApiKey, ttlMs: number): Promise<void>;
  delete(keyHashes: readonly string[]): Promise<void>;
}

const KEY_FORMAT = /^ipd_[A-Za-z0-9_-]{43}$/;
const MAX_ACTIVE_KEYS = 20;
// Unknown keys are remembered briefly so a flood of bad keys does not reach MongoDB.
const NEGATIVE_TTL_MS = 30_000;

export function toApiKey(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
  };
}

function invalidKey(): UnauthenticatedError {
  return new UnauthenticatedError(MESSAGES.apiKeyInvalid, { reason: 'api_key_invalid' });
}

function revokedKey(): PermissionDeniedError {
  return new PermissionDeniedError(MESSAGES.apiKeyRevoked, { reason: 'api_key_revoked' });
}

/**
 * API keys: `ipd_` + 32 random bytes base64url. Only SHA-256 hashes are stored; resolving a key
 * (every public API call) is served from Redis keyed by the hash, dropped on revoke/rotate and
 * when the account's subscription changes.
 */
export class ApiKeyService {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly cache: ApiKeyCache,
    private readonly subscriptions: SubscriptionRepository,
    private readonly clock: Clock,
    private readonly options: { cacheTtlMs: number },
  ) {}

  async create(account: Account, rawName: string): Promise<{ apiKey: ApiKey; secret: string }> {
    const name = rawName.trim() || 'Default key';
    if (name.length > 60) throw invalid('name', MESSAGES.apiKeyNameTooLong, 'name_too_long');
    const { record, secret } = this.newKey(account.id, name);
    const created = { kind: UserEventKind.USER_EVENT_KIND_API_KEY_CREATED, account, apiKeyId: record.id };
    if (!(await this.store.insertWithinCap(record, MAX_ACTIVE_KEYS, [created]))) {
      throw new ResourceExhaustedError(MESSAGES.apiKeyLimit, { reason: 'api_key_limit' });
    }
    return { apiKey: toApiKey(record), secret };
  }

  async list(accountId: string, includeRevoked: boolean): Promise<ApiKey[]> {
    return (await this.store.listForAccount(accountId, includeRevoked)).map(toApiKey);
  }

  async revoke(account: Account, keyId: string): Promise<ApiKey> {
    const revoked = { kind: UserEventKind.USER_EVENT_KIND_API_KEY_REVOKED, account, apiKeyId: keyId };
    const record = await this.store.revoke(account.id, keyId, this.clock.now(), [revoked]);
    return toApiKey(await this.tombstone(record));
  }

  /** Revokes the key and issues a new one with the same name; the ROTATED event names the old key. */
  async rotate(account: Account, keyId: string): Promise<{ apiKey: ApiKey; secret: string; revokedKeyId: string }> {
    const existing = (await this.store.listForAccount(account.id, false)).find((key) => key.id === keyId);
    const { record, secret } = this.newKey(account.id, existing?.name ?? 'Default key');
    const old = await this.store.replace(account.id, keyId, record, this.clock.now(), {
      revoked: [{ kind: UserEventKind.USER_EVENT_KIND_API_KEY_ROTATED, account, apiKeyId: keyId }],
      created: [{ kind: UserEventKind.USER_EVENT_KIND_API_KEY_CREATED, account, apiKeyId: record.id }],
    });
    await this.tombstone(old);
    return { apiKey: toApiKey(record), secret, revokedKeyId: keyId };
  }

  async resolve(key: string): Promise<ResolvedApiKey> {
    if (!KEY_FORMAT.test(key)) throw invalidKey();
    const keyHash = sha256Hex(key);
    const cached = await this.cache.get(keyHash);
    // A cached paid plan whose period ended (by the injectable clock) is looked up afresh.
    if (
      cached !== undefined &&
      !('invalid' in cached) &&
      cached.periodEnd !== 0 &&
      cached.periodEnd <= this.clock.now().getTime()
    ) {
      await this.cache.delete([keyHash]);
    } else if (cached !== undefined) {
      if ('invalid' in cached) throw cached.revoked ? revokedKey() : invalidKey();
      return cached;
    }
    const record = await this.store.findByHash(keyHash);
    if (!record) {
      await this.cache.fill(keyHash, { invalid: true }, NEGATIVE_TTL_MS);
      throw invalidKey();
    }
    if (record.revokedAt !== undefined) {
      await this.cache.fill(keyHash, { invalid: true, revoked: true }, NEGATIVE_TTL_MS);
      throw revokedKey();
    }
    const plan = apiPlanOf(await this.subscriptions.forAccount(record.accountId), this.clock.now());
    const resolved: ResolvedApiKey = {
      accountId: record.accountId,
      keyId: record.id,
      tier: plan.tier,
      planId: plan.planId,
      limits: plan.limits,
      periodEnd: plan.periodEnd?.getTime() ?? 0,
    };
    let ttl = this.options.cacheTtlMs;
    // A paid period ending must drop the plan even without an event.
    if (plan.periodEnd) ttl = Math.max(1, Math.min(ttl, plan.periodEnd.getTime() - this.clock.now().getTime()));
    await this.cache.fill(keyHash, resolved, ttl);
    return resolved;
  }

  /** Called when the account's subscription changed: its keys resolve afresh. */
  async invalidateAccount(accountId: string): Promise<void> {
    await this.cache.delete(await this.store.activeHashesForAccount(accountId));
  }

  private newKey(accountId: string, name: string): { record: ApiKeyRecord; secret: string } {
    const body = randomToken(32);
    const secret = `ipd_${body}`;
    const record: ApiKeyRecord = {
      id: randomUUID(),
      accountId,
      name,
      prefix: `ipd_${body.slice(0, 8)}`,
      keyHash: sha256Hex(secret),
      createdAt: this.clock.now(),
      revokedAt: undefined,
    };
    return { record, secret };
  }

  private async tombstone(record: ApiKeyRecord | undefined): Promise<ApiKeyRecord> {
    if (!record) throw new NotFoundError(MESSAGES.apiKeyNotFound, { reason: 'api_key_not_found', details: { field: 'key_id' } });
    // Tombstone, not delete: a resolve racing with the revocation cannot re-fill the old answer.
    await this.cache.put(record.keyHash, { invalid: true, revoked: true }, this.options.cacheTtlMs);
    return record;
  }
}
