import { decisionCounts, type PendingReservation } from './quota-decision.js';
import { periodOf, type QuotaPeriod } from './quota-period.js';
import type { LeaseRoundAnswer, LeaseRoundCommand } from './quota.ports.js';
import { monthlyCeiling, type QuotaDecision, type QuotaSubject } from './quota.types.js';

export interface QuotaLeaseOptions {
  /** How often leases are renewed and what was granted from them is counted (default 100 ms). */
  intervalMs?: number;
  /** A lease not renewed for this long is dropped by the store (default 1,000 ms); used here for 80% of it. */
  ttlMs?: number;
  /** A lease is given only while the account keeps this many times it free beyond all leases (default 4). */
  farFactor?: number;
  /** Reservations of an account within one interval before it is given a lease (default 8). */
  minRequests?: number;
  /** The smallest lease, in lookups (default 100). */
  minLookups?: number;
  /**
   * Monotonic milliseconds (default performance.now): how long a lease is used is measured
   * against the store's expiry of it, real time that the wall clock (months, burst seconds) is not.
   */
  monotonicMs?: () => number;
}

/** A lease holds this many intervals' worth of the account's recent demand. */
const LEASE_INTERVALS = 3;
/** Burst slots are asked for this share above the key's recent rate. */
const SLOT_HEADROOM = 1.5;
/** Rounds without a reservation before an account with nothing to settle is forgotten. */
const IDLE_ROUNDS = 50;
/** A lease is used locally for this share of its life in the store (the rest covers the round trip). */
const USABLE_SHARE = 0.8;

/** One key's burst slots: requests it may still start in the window of a unix second, without asking. */
class KeySlots {
  requests = 0;
  readonly windows = new Map<number, number>();
  constructor(
    readonly keyId: string,
    public burstPerSecond: number,
  ) {}
}

/** What this process holds of one account's month, and what it granted from it not yet counted. */
class AccountLease {
  /** Lookups this process may still grant without asking. */
  allowance = 0;
  /** What the store holds leased for this process after the last round (given back by a round with nothing to hold). */
  inStore = 0;
  /** Monotonic time (QuotaLeaseOptions.monotonicMs) after which the allowance is no longer used (the store may have dropped it). */
  usableUntil = 0;
  /** The monthly counter as the last round left it (for the quota headers). */
  used = 0;
  /** Lookups granted from the lease and not yet counted in the store. */
  unsettled = 0;
  /** Of those, granted since the last round was sent (the store did not see them yet). */
  sinceSent = 0;
  accountDays = new Map<string, number>();
  keyDays = new Map<string, Map<string, number>>();
  /** Demand since the last round. */
  requests = 0;
  lookups = 0;
  idleRounds = 0;
  /** A reservation waits for leased lookups: give this one back at the next round. */
  givingBack = false;
  readonly keys = new Map<string, KeySlots>();

  constructor(
    public month: string,
    public ceiling: number,
  ) {}

  countGranted(subject: QuotaSubject, day: string, count: number): void {
    this.allowance -= count;
    this.unsettled += count;
    this.sinceSent += count;
    addTo(this.accountDays, day, count);
    this.addKeyDay(subject.keyId, day, count);
  }

  addKeyDay(keyId: string, day: string, count: number): void {
    let days = this.keyDays.get(keyId);
    if (days === undefined) this.keyDays.set(keyId, (days = new Map<string, number>()));
    addTo(days, day, count);
  }
}

/** A lease round as sent: the commands, and the accounts they are for, in the same order. */
export interface LeaseRound {
  commands: LeaseRoundCommand[];
  accounts: string[];
  sentAt: number;
}

/**
 * Quota leases (README.md, "Quotas"): while an account is far from its monthly limit, this process
 * holds a block of its lookups, leased in Redis, and grants reservations from it without a round
 * trip. Every `intervalMs` one round (QuotaService) counts what was granted and renews each lease,
 * sized to a few intervals of the account's demand. Near the limit the store stops renewing and
 * reservations are decided one by one again, counting the leases still out as taken, so the limit
 * is exact: the store never grants past it, and a reservation that only fails because of leases
 * waits for them to come back. The per-key burst limit is leased the same way, as slots per second.
 */
export class QuotaLeases {
  readonly intervalMs: number;
  readonly ttlMs: number;
  readonly farFactor: number;
  private readonly minRequests: number;
  private readonly minLookups: number;
  private readonly monotonicMs: () => number;
  private readonly accounts = new Map<string, AccountLease>();
  /** Reservations answered from leases. */
  granted = 0;

  constructor(options: QuotaLeaseOptions = {}) {
    this.intervalMs = options.intervalMs ?? 100;
    this.ttlMs = options.ttlMs ?? 1_000;
    this.farFactor = options.farFactor ?? 4;
    this.minRequests = options.minRequests ?? 8;
    this.minLookups = options.minLookups ?? 100;
    this.monotonicMs = options.monotonicMs ?? (() => performance.now());
  }

  /**
   * The decision for an API reservation when this process's lease can grant all of it, else
   * undefined (then the store decides). Notes the demand either way: it sizes the next lease.
   */
  grant(item: PendingReservation): QuotaDecision | undefined {
    const { request, period } = item;
    if (request.durable === true) return undefined;
    const { subject, count } = request;
    const ceiling = monthlyCeiling(subject);
    let lease = this.accounts.get(subject.accountId);
    if (lease === undefined) this.accounts.set(subject.accountId, (lease = new AccountLease(period.month, ceiling)));
    lease.requests++;
    lease.lookups += count;
    const checkBurst = request.checkBurst !== false && subject.burstPerSecond > 0;
    let slots: KeySlots | undefined;
    if (checkBurst) {
      slots = lease.keys.get(subject.keyId);
      if (slots === undefined) lease.keys.set(subject.keyId, (slots = new KeySlots(subject.keyId, subject.burstPerSecond)));
      slots.requests++;
      if (slots.burstPerSecond !== subject.burstPerSecond) {
        // A plan change: slots leased under the old limit are not used.
        slots.burstPerSecond = subject.burstPerSecond;
        slots.windows.clear();
      }
    }
    if (lease.ceiling !== ceiling) {
      // A plan change: decided by the store until the next round leases under the new limit.
      lease.ceiling = ceiling;
      lease.allowance = 0;
      return undefined;
    }
    if (lease.allowance < count || lease.month !== period.month || this.monotonicMs() > lease.usableUntil) return undefined;
    if (slots !== undefined) {
      const left = slots.windows.get(period.second) ?? 0;
      if (left < 1) return undefined;
      slots.windows.set(period.second, left - 1);
    }
    lease.countGranted(subject, period.day, count);
    this.granted++;
    const decision = decisionCounts(subject, period, count, lease.used + lease.unsettled);
    decision.at = item.now;
    decision.leased = true;
    return decision;
  }

  /** Takes back `count` lookups granted from a lease on `day` (their work failed); false when there is no lease to take them back from. */
  giveBackGranted(subject: QuotaSubject, day: string, count: number): boolean {
    const lease = this.accounts.get(subject.accountId);
    if (lease === undefined || !day.startsWith(lease.month)) return false;
    lease.countGranted(subject, day, -count);
    // Not granted again from this lease before the next round (which counts it back from the store's side).
    lease.allowance -= count;
    return true;
  }

  /** A reservation of this account waits for leased lookups: stop granting from this process's lease. */
  giveBack(accountId: string): void {
    const lease = this.accounts.get(accountId);
    if (lease === undefined) return;
    lease.allowance = 0;
    lease.givingBack = true;
  }

  /** Lookups granted from this account's lease that the store has not counted yet. */
  unsettled(accountId: string): number {
    return this.accounts.get(accountId)?.unsettled ?? 0;
  }

  /** Every account's lease is to be given back at the next round (shutdown). */
  giveBackAll(): void {
    for (const accountId of this.accounts.keys()) this.giveBack(accountId);
  }

  /** The next round's commands (empty: nothing to do). `now` is the clock's time: months and burst windows. */
  nextRound(now: Date): LeaseRound {
    const period = periodOf(now);
    const sentAt = this.monotonicMs();
    const round: LeaseRound = { commands: [], accounts: [], sentAt };
    for (const [accountId, lease] of this.accounts) {
      const current = lease.month === period.month;
      const wanted =
        current && !lease.givingBack && lease.requests >= this.minRequests
          ? Math.max(this.minLookups, Math.ceil(lease.lookups * LEASE_INTERVALS))
          : 0;
      const hold = sentAt <= lease.usableUntil ? Math.max(0, lease.allowance) : 0;
      if (wanted === 0 && hold === 0 && lease.unsettled === 0 && lease.inStore === 0) {
        this.forgetIfIdle(accountId, lease, period);
        continue;
      }
      lease.idleRounds = 0;
      round.commands.push({
        accountId,
        month: lease.month,
        ceiling: lease.ceiling,
        want: wanted,
        hold,
        settled: lease.unsettled,
        accountDays: [...lease.accountDays],
        keyDays: [...lease.keyDays].flatMap(([keyId, days]) => [...days].map(([day, count]) => [keyId, day, count] as const)),
        slots: wanted > 0 ? this.slotsWanted(lease, now) : [],
      });
      round.accounts.push(accountId);
      lease.accountDays = new Map();
      lease.keyDays = new Map();
      lease.sinceSent = 0;
      lease.requests = 0;
      lease.lookups = 0;
      lease.givingBack = false;
      for (const slots of lease.keys.values()) slots.requests = 0;
    }
    return round;
  }

  /** The store answered the round: counted lookups leave `unsettled`, and each lease is what the store holds now. */
  settle(round: LeaseRound, answers: readonly LeaseRoundAnswer[]): void {
    for (const [i, accountId] of round.accounts.entries()) {
      const lease = this.accounts.get(accountId);
      const command = round.commands[i] as LeaseRoundCommand;
      const answer = answers[i] as LeaseRoundAnswer;
      if (lease === undefined) continue;
      lease.unsettled -= command.settled;
      lease.used = answer.used;
      lease.inStore = answer.leased;
      // Granted while the round was in flight: out of what the store holds for us now (it kept at least
      // `hold`). A lease being given back (giveBack() while the round was out) is not used again.
      lease.allowance = answer.renewed && command.want > 0 && !lease.givingBack ? answer.leased - lease.sinceSent : 0;
      lease.usableUntil = round.sentAt + this.ttlMs * USABLE_SHARE;
      for (const [j, slot] of command.slots.entries()) {
        const slots = lease.keys.get(slot.keyId);
        if (slots !== undefined) slots.windows.set(slot.second, (slots.windows.get(slot.second) ?? 0) + (answer.slots[j] ?? 0));
      }
    }
  }

  /** The round failed: what it was to count is counted by the next one; leases run out when their time is up. */
  roundFailed(round: LeaseRound): void {
    for (const [i, accountId] of round.accounts.entries()) {
      const lease = this.accounts.get(accountId);
      const command = round.commands[i] as LeaseRoundCommand;
      if (lease === undefined) continue;
      for (const [day, count] of command.accountDays) addTo(lease.accountDays, day, count);
      for (const [keyId, day, count] of command.keyDays) lease.addKeyDay(keyId, day, count);
    }
  }

  /** Burst slots to ask for: this second's rest and the next second, at the key's recent rate with headroom. */
  private slotsWanted(lease: AccountLease, now: Date): LeaseRoundCommand['slots'] {
    const nowMs = now.getTime();
    const second = Math.floor(nowMs / 1000);
    const slots: Array<LeaseRoundCommand['slots'][number]> = [];
    for (const key of lease.keys.values()) {
      for (const window of key.windows.keys()) if (window < second) key.windows.delete(window);
      if (key.requests < this.minRequests) continue;
      const perSecond = (key.requests * 1000) / this.intervalMs;
      const rest = (1000 - (nowMs - second * 1000)) / 1000;
      const wants: Array<[number, number]> = [
        [second, Math.ceil(perSecond * rest * SLOT_HEADROOM)],
        [second + 1, Math.ceil(perSecond * SLOT_HEADROOM)],
      ];
      for (const [window, want] of wants) {
        const more = want - (key.windows.get(window) ?? 0);
        if (more > 0) slots.push({ keyId: key.keyId, burstPerSecond: key.burstPerSecond, second: window, want: more });
      }
    }
    return slots;
  }

  private forgetIfIdle(accountId: string, lease: AccountLease, period: QuotaPeriod): void {
    lease.requests = 0;
    lease.lookups = 0;
    if (lease.month !== period.month) {
      // A new month: the next reservation starts its lease afresh.
      this.accounts.delete(accountId);
    } else if (++lease.idleRounds >= IDLE_ROUNDS) {
      this.accounts.delete(accountId);
    }
  }
}

function addTo(map: Map<string, number>, key: string, count: number): void {
  map.set(key, (map.get(key) ?? 0) + count);
}
