import type { IpInfo } from '@ipdata/proto/lookup/v1/lookup';

/** What face A asks the lookup engine (adapters/grpc/lookup-engine.adapter.ts). */
export interface IpLookupEngine {
  /** One canonical, non-reserved address; rejects with a DomainError (UnavailableError when the engine is down). */
  lookup(ip: string): Promise<IpInfo>;
}

/** The per-visitor lookup limit (adapters/redis/visitor-limit.redis.ts). */
export interface VisitorRateLimiter {
  /** Counts one lookup for `key`; `allowed` false once the window's limit is reached. */
  take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}
