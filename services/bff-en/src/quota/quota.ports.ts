/**
 * What the quota domain needs from its store (Redis in production, see
 * adapters/redis/quota.redis-store.ts). One call decides a whole batch of reservations
 * atomically, so the decisions are exactly those of one call per reservation, in some order.
 */
export interface ReserveCommand {
  accountId: string;
  keyId: string;
  count: number;
  partial: boolean;
  /** Lookups the account may have counted this month after this one; -1 = no limit. */
  ceiling: number;
  /** Requests per second for the key; 0 = not checked. */
  burstPerSecond: number;
  /** YYYY-MM, YYYY-MM-DD and unix second of the reservation (a replay keeps its original time). */
  month: string;
  day: string;
  second: number;
}

/** A reservation remembered under its own request id: bulk chunks (resumed by id) and journal replays. */
export interface KeyedReserveCommand extends ReserveCommand {
  requestId: string;
  /**
   * Journal replay or release: count unconditionally (the grant was already given), still once per
   * request id. Only a forced command may have a negative count: a release of an earlier grant.
   */
  force: boolean;
  /** How long a grant stays stored under its request id (retries within it count nothing). */
  rememberSeconds: number;
  /**
   * A replayed grant of an API request: the call it was sent in and its place there. That call may
   * have run late (then it counted the grant, and the replay does not) or never (then the replay
   * counts it and makes sure the call never will).
   */
  call?: { id: string; index: number };
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
  /**
   * API requests: one call decides them all and is remembered under `callId` for `rememberSeconds`,
   * so a call that reaches the store twice (a client resend) counts once. No record per request:
   * a request id is never reserved twice (each API request makes one reservation).
   */
  reserveCall(callId: string, commands: readonly ReserveCommand[], rememberSeconds: number): Promise<ReserveOutcome[]>;
  /** Each reservation remembered under its own request id: the same id again answers the stored grant. */
  reserveEach(commands: readonly KeyedReserveCommand[]): Promise<ReserveOutcome[]>;
  usage(accountId: string, keyId: string, month: string, days: readonly string[]): Promise<UsageCounters>;
}
