import type { Redis } from 'ioredis';
import type { ApiKeyCache, CachedApiKey } from '../../api-keys/api-key.service.js';
import type { CachedSession, SessionCache } from '../../sessions/session.service.js';

/** JSON values under `<prefix><hash>` with a TTL; `fill` uses SET NX so tombstones win races. */
class JsonCache<T> {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
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

export class RedisSessionCache extends JsonCache<CachedSession> implements SessionCache {
  constructor(redis: Redis, prefix: string) {
    super(redis, `${prefix}session:`);
  }
}

export class RedisApiKeyCache extends JsonCache<CachedApiKey> implements ApiKeyCache {
  constructor(redis: Redis, prefix: string) {
    super(redis, `${prefix}apikey:`);
  }
}
