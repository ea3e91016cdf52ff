import { defineRedisScript } from '@ipdata/common';
import type { Redis } from 'ioredis';
import type { ApiKeyCache, CachedApiKey } from '../../api-keys/api-key.service.js';
import type { CachedSession, SessionCache } from '../../sessions/session.service.js';

/** JSON values under `<prefix><hash>` with a TTL; `fill` uses SET NX so tombstones win races. */
class JsonCache<T> {
  constructor(
    protected readonly redis: Redis,
    protected readonly prefix: string,
  ) {}

  async get(hash: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.prefix + hash);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  }

  async fill(hash: string, entry: T, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + hash, JSON.stringify(entry), 'PX', Math.max(1, Math.round(ttlMs)), 'NX');
  }

  async put(hash: string, entry: T, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + hash, JSON.stringify(entry), 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async delete(hashes: readonly string[]): Promise<void> {
    if (hashes.length > 0) await this.redis.del(...hashes.map((hash) => this.prefix + hash));
  }
}

// Replaces a live session entry only: a logout's tombstone (or an evicted slot) stays as it is,
// so recording a session's last use can never bring a revoked session back.
const REFRESH_LIVE = `
local current = redis.call('GET', KEYS[1])
if not current or string.find(current, '"revoked"', 1, true) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

export class RedisSessionCache extends JsonCache<CachedSession> implements SessionCache {
  private readonly refreshLive: (key: string, value: string, ttlMs: number) => Promise<number>;

  constructor(redis: Redis, prefix: string) {
    super(redis, `${prefix}session:`);
    this.refreshLive = defineRedisScript<[key: string, value: string, ttlMs: number], number>(redis, 'authRefreshSession', {
      keys: 1,
      lua: REFRESH_LIVE,
    });
  }

  async refresh(hash: string, entry: CachedSession, ttlMs: number): Promise<void> {
    await this.refreshLive(this.prefix + hash, JSON.stringify(entry), Math.max(1, Math.round(ttlMs)));
  }
}

export class RedisApiKeyCache extends JsonCache<CachedApiKey> implements ApiKeyCache {
  constructor(redis: Redis, prefix: string) {
    super(redis, `${prefix}apikey:`);
  }
}
