/**
 * What the quota domain needs from its store (Redis in production, see
 * adapters/redis/quota.redis-store.ts). One `reserve` call decides a whole batch of reservations
 * atomically and in order, so the decisions are exactly those of one call per reservation.
 */
export interface ReserveCommand {
  requestId: string;
  accountId: string;
  keyId: string;
  count: number;
  partial: boolean;
  /** Lookups the account may have counted this month after this one; -1 = no limit. */
  ceiling: number;
  /** Requests per second for the key; 0 = not checked. */
  burstPerSecond: number;
  /** Journal replay: count unconditionally (the grant was already given), still once per request id. */
  force: boolean;
  /** How long a grant stays stored under its request id (retries within it count nothing). */
  rememberSeconds: number;
  /** YYYY-MM, YYYY-MM-DD and unix second of the reservation (a replay keeps its original time). */
  month: string;
  day: string;
  second: number;
}

export type ReserveStatus = 'granted' | 'quota_exceeded' | 'burst_exceeded';

export interface ReserveOutcome {
  status: ReserveStatus;
  granted: number;
  /** The account's monthly counter after this reservation. */
  used: number;
  /** The request id was reserved before; granted/used are that earlier answer. */
  replayed: boolean;
}

export interface UsageCounters {
  used: number;
  /** Counts per day, in the order of the days asked for. */
  accountDays: number[];
  keyDays: number[];
}

export interface QuotaStore {
  reserve(commands: readonly ReserveCommand[]): Promise<ReserveOutcome[]>;
  usage(accountId: string, keyId: string, month: string, days: readonly string[]): Promise<UsageCounters>;
}
