import type { Redis } from 'ioredis';

/**
 * Remembers which event ids a consumer group has handled, so a re-delivered event (after a
 * crash before the offset commit, or a producer retry) is skipped. The mark is written after
 * the handler succeeded: a crash between the handler and the mark means the handler runs again,
 * so handlers whose effect is not idempotent by itself should write the effect and the event
 * id in one atomic step (e.g. one Lua script or one upsert keyed by event id).
 */
export interface EventDeduplicator {
  isProcessed(eventId: string): Promise<boolean>;
  markProcessed(eventId: string): Promise<void>;
}

export class RedisEventDeduplicator implements EventDeduplicator {
  constructor(
    private readonly redis: Redis,
    private readonly options: { namespace: string; ttlSeconds?: number },
  ) {}

  private key(eventId: string): string {
    return `dedup:${this.options.namespace}:${eventId}`;
  }

  async isProcessed(eventId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(eventId))) === 1;
  }

  async markProcessed(eventId: string): Promise<void> {
    // Longer than any topic's retention, so a replay from the start of a topic is still deduplicated.
    await this.redis.set(this.key(eventId), '1', 'EX', this.options.ttlSeconds ?? 35 * 24 * 3600);
  }
}
