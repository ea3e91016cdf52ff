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
  /** YYYY-MM, YYYY-MM-DD and unix second of the reservation (a release keeps its grant's time). */
  month: string;
  day: string;
  second: number;
}

/** A reservation remembered under its own request id: bulk chunks (resumed by id) and releases. */
export interface KeyedReserveCommand extends ReserveCommand {
  requestId: string;
  /**
   * Count unconditionally (the grant was already given), still once per request id. Only a forced
   * command may have a negative count: a release of an earlier grant (QuotaService.release).
   */
  force: boolean;
  /** How long a grant stays stored under its request id (retries within it count nothing). */
  rememberSeconds: number;
  /**
   * A forced grant of an API request counted after the fact: the call it was sent in and its place
   * there. That call may have run late (then it counted the grant, and this does not) or never
   * (then this counts it and makes sure the call never will). QuotaService sends none: fail-open
   * grants are counted from their usage events (README.md, "Redis unavailable").
   */
  call?: { id: string; index: number };
}

/**
 * `lease_held`: the reservation would fit in the month if the lookups leased to processes
 * (QuotaLeases) were not held: nothing counted; the store has told the holders to give them back,
 * and the reservation is asked again shortly (QuotaService).
 */
export type ReserveStatus = 'granted' | 'quota_exceeded' | 'burst_exceeded' | 'lease_held';

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

/**
 * One account's part of a lease round (quota-leases.ts): what this process granted from its lease
 * since the last round (counted now), and the lease it wants to hold until the next one.
 */
export interface LeaseRoundCommand {
  accountId: string;
  /** YYYY-MM of the lease and of everything settled with it. */
  month: string;
  /** As ReserveCommand: lookups the account may have counted this month; -1 = no limit. */
  ceiling: number;
  /** Lookups wanted in hand after this round; 0 gives the lease back. */
  want: number;
  /**
   * Lookups of the lease still unused when the round was sent: the process may grant them while
   * the round is in flight, so the store keeps at least this many leased even when it refuses `want`.
   */
  hold: number;
  /** Lookups granted from the lease since the last round: the monthly counter's delta. */
  settled: number;
  /** The same per day (YYYY-MM-DD), for the account's and each key's day counters. */
  accountDays: ReadonlyArray<readonly [day: string, count: number]>;
  keyDays: ReadonlyArray<readonly [keyId: string, day: string, count: number]>;
  /** Burst slots wanted: `want` more requests of `keyId` in the window of unix second `second`. */
  slots: ReadonlyArray<{ keyId: string; burstPerSecond: number; second: number; want: number }>;
}

export interface LeaseRoundAnswer {
  /** Lookups leased to this process now (at least `hold`; more when `want` was granted). */
  leased: number;
  /** true when `want` was granted; false: the account is near its limit (or recalled), stop leasing. */
  renewed: boolean;
  /** The monthly counter after the settled lookups were counted. */
  used: number;
  /** Burst slots given, in the order of `slots`. */
  slots: number[];
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
  /**
   * One lease round of process `holder`: settles and renews each account's lease atomically. A
   * lease lives `ttlMs` in the store unless renewed; the store grants `want` only while the
   * account keeps `farFactor` × `want` free beyond all leases (far from its limit).
   */
  leaseRound(
    holder: string,
    options: { ttlMs: number; farFactor: number },
    commands: readonly LeaseRoundCommand[],
  ): Promise<LeaseRoundAnswer[]>;
}
