import type { Redis } from 'ioredis';
import type { UniqueVisitorStore } from '../../visits/visit-ports.js';

/** Visitor sets outlive the longest range a query may ask for (MAX_VISIT_DAYS) plus late events. */
export const UNIQUE_VISITORS_TTL_SECONDS = 400 * 24 * 3600;

/**
 * Unique visitors as Redis HyperLogLogs (`<prefix>uv:<set>`, ~12 KB each at most, standard
 * error 0.81%). PFADD is idempotent, so a re-delivered round adds nothing new. One pipeline per
 * round: one PFADD per set with all its visitors, and an EXPIRE that keeps a set as long as it
 * still receives visitors (late events of an old day push its end out; that is harmless).
 */
export class RedisUniqueVisitors implements UniqueVisitorStore {
  private readonly prefix: string;
  private readonly ttlSeconds: number;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix: string; ttlSeconds?: number },
  ) {
    this.prefix = `${options.keyPrefix}uv:`;
    this.ttlSeconds = options.ttlSeconds ?? UNIQUE_VISITORS_TTL_SECONDS;
  }

  key(set: string): string {
    return this.prefix + set;
  }

  async add(additions: ReadonlyArray<{ set: string; visitorId: string }>): Promise<void> {
    if (additions.length === 0) return;
    const bySet = new Map<string, string[]>();
    for (const { set, visitorId } of additions) {
      const visitors = bySet.get(set);
      if (visitors === undefined) bySet.set(set, [visitorId]);
      else visitors.push(visitorId);
    }
    const pipeline = this.redis.pipeline();
    for (const [set, visitors] of bySet) {
      pipeline.pfadd(this.key(set), ...visitors);
      pipeline.expire(this.key(set), this.ttlSeconds);
    }
    const replies = (await pipeline.exec()) ?? [];
    const failed = replies.find(([error]) => error !== null);
    if (failed?.[0]) throw failed[0];
  }

  async countEach(sets: readonly string[]): Promise<number[]> {
    if (sets.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const set of sets) pipeline.pfcount(this.key(set));
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, value]) => {
      if (error) throw error;
      return Number(value);
    });
  }

  async countUnion(sets: readonly string[]): Promise<number> {
    if (sets.length === 0) return 0;
    // PFCOUNT of several keys estimates the union without writing a merged key.
    return this.redis.pfcount(...sets.map((set) => this.key(set)));
  }
}
