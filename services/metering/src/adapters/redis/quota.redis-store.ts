import type { Redis } from 'ioredis';
import { defineRedisScript } from '@ipdata/common';
import { QuotaService, type QuotaServiceOptions } from '../../quota/quota.service.js';
import {
  DEFAULT_QUOTA_KEY_PREFIX,
  QUOTA_COUNTER_TTL_SECONDS,
  QUOTA_KEY_SEGMENTS,
  quotaAccountDayKey,
  quotaKeyDayKey,
  quotaMonthKey,
} from './quota-keys.js';
import type {
  KeyedReserveCommand,
  LeaseRoundAnswer,
  LeaseRoundCommand,
  QuotaStore,
  ReserveCommand,
  ReserveOutcome,
  ReserveStatus,
  UsageCounters,
} from '../../quota/quota.ports.js';

// The counters' key layout is common's (redis/quota-keys.ts): stats' quota reconciliation rebuilds the same keys.
const { month: M, accountDay: DA, keyDay: DK } = QUOTA_KEY_SEGMENTS;

/** Marks a call whose grants a journal replay counted: the call itself, arriving late, counts nothing. */
const REPLAYED = 'replayed';

// Shared by both scripts: counter changes are summed per key and written once at the end (one
// INCRBY per distinct key), so many requests of one account cost a few commands. A counter gets
// its TTL when this makes it (INCRBY answering the delta itself) and keeps it: an EXPIRE per
// counter per call cost ~18% of a one-request call's time in Redis (scripts/bench/quota-redis.bench.ts,
// paired runs: 51 / 41 / 44 against 41 / 34 / 35 µs), and a counter only matters within its own
// month or day, well inside the 62 days.
const DELTAS = `
local deltas = {}
local function add(key, value, ttl)
  local delta = deltas[key]
  if delta then delta[1] = delta[1] + value else deltas[key] = { value, ttl } end
end
local function write_deltas()
  for key, delta in pairs(deltas) do
    if redis.call('INCRBY', key, delta[1]) == delta[1] then redis.call('EXPIRE', key, delta[2]) end
  end
end
`;

// Leases (quota/quota-leases.ts): hash l:<account>:<month>, one field per process, "<lookups>:<expires ms>"
// (Redis' clock). The field '!' is a recall: a reservation waited for leased lookups, so no lease is
// renewed until it expires. Reservations count the unexpired leases as taken.
const LEASES = `
local now_ms
local function clock_ms()
  if now_ms == nil then
    local t = redis.call('TIME')
    now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return now_ms
end
-- A lease field's value "<lookups>:<expires ms>" as two numbers.
local function lease_of(value)
  local sep = string.find(value, ':', 1, true)
  return tonumber(string.sub(value, 1, sep - 1)), tonumber(string.sub(value, sep + 1))
end
local leased_sums = {}
local function leased_of(lease_key)
  local sum = leased_sums[lease_key]
  if sum ~= nil then return sum end
  sum = 0
  local fields = redis.call('HGETALL', lease_key)
  for i = 1, #fields, 2 do
    local lookups, expires = lease_of(fields[i + 1])
    if expires > clock_ms() then sum = sum + lookups end
  end
  leased_sums[lease_key] = sum
  return sum
end
local function recall(lease_key, ms)
  redis.call('HSET', lease_key, '!', '0:' .. (clock_ms() + ms))
  redis.call('PEXPIRE', lease_key, ms * 2)
end
-- What a reservation that does not fit beside the leases gets: 3 (wait, leases recalled) when it
-- would fit without them, else the usual answer (partial: what is left; otherwise nothing).
local function beside_leases(lease_key, leased, ceiling, used, count, partial, recall_ms)
  local room = ceiling - used
  if leased > 0 and room > 0 and (partial or count <= room) then
    recall(lease_key, recall_ms)
    return 3, 0
  end
  local left = room - leased
  if left < 0 then left = 0 end
  if partial and left > 0 then return 0, left end
  return 1, 0
end
`;

/**
 * API requests, one script run per call (the hot path). Requests come grouped by who and when
 * (account, key, limits, second), so the per-request work is two arguments and a few additions:
 * for each one, in order, the key's burst window (requests per second), then the account's
 * monthly counter (all, part or nothing). Idempotent by the call: the answer is stored under the
 * call id, and the same call arriving again (a client resend) answers it again, counting nothing.
 * A journal replay that counted this call's grants first leaves REPLAYED there: then the call
 * fails (its caller gave up long ago) and counts nothing.
 *
 * The keys are built here from ARGV because one call spans many accounts: fine for one Redis
 * primary (what we run); a Redis Cluster would need calls grouped per hash slot.
 *
 * ARGV: prefix, counter ttl (s), call id, call ttl (s), requests, recall (ms); then per group:
 * account, key id, ceiling (-1 none), burst (0 none), month, day, second, n, then n × (count,
 * index), a count < 0 being a partial request. Reply: status (0 granted, 1 quota, 2 burst, 3 wait
 * for leases), granted, used per request, at its index.
 */
const RESERVE_CALL = `
local prefix = ARGV[1]
local counter_ttl = tonumber(ARGV[2])
local call_key = prefix .. 'c:' .. ARGV[3]
local done = redis.call('GET', call_key)
if done == '${REPLAYED}' then return redis.error_reply('QUOTA_CALL_REPLAYED the journal counted this call') end
local out = {}
if done then
  for value in string.gmatch(done, '[^,]+') do out[#out + 1] = tonumber(value) end
  return out
end
${DELTAS}
${LEASES}
local recall_ms = tonumber(ARGV[6])
local month_used, burst_started = {}, {}
local at = 7
while at <= #ARGV do
  local account, key_id = ARGV[at], ARGV[at + 1]
  local ceiling, burst = tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
  local month, day, second = ARGV[at + 4], ARGV[at + 5], ARGV[at + 6]
  local n = tonumber(ARGV[at + 7])
  at = at + 8
  local month_key = prefix .. '${M}' .. account .. ':' .. month
  local used = month_used[month_key]
  if used == nil then used = tonumber(redis.call('GET', month_key) or '0') end
  local lease_key = prefix .. 'l:' .. account .. ':' .. month
  local leased = 0
  if ceiling >= 0 then leased = leased_of(lease_key) end
  local burst_key, started, started_before
  if burst > 0 then
    burst_key = prefix .. 'b:' .. key_id .. ':' .. second
    started = burst_started[burst_key]
    if started == nil then started = tonumber(redis.call('GET', burst_key) or '0') end
    started_before = started
  end
  local granted_sum = 0
  for _ = 1, n do
    local count, slot = tonumber(ARGV[at]), tonumber(ARGV[at + 1]) * 3
    at = at + 2
    local partial = count < 0
    if partial then count = -count end
    local status, granted = 0, 0
    if burst_key and started >= burst then
      status = 2
    else
      if burst_key then started = started + 1 end
      granted = count
      if ceiling >= 0 and count > 0 and count > ceiling - used - leased then
        status, granted = beside_leases(lease_key, leased, ceiling, used, count, partial, recall_ms)
        -- A reservation that waits for leases has not started yet: it asks again.
        if status == 3 and burst_key then started = started - 1 end
      end
    end
    used = used + granted
    granted_sum = granted_sum + granted
    out[slot + 1] = status
    out[slot + 2] = granted
    out[slot + 3] = used
  end
  month_used[month_key] = used
  if burst_key then
    burst_started[burst_key] = started
    if started > started_before then add(burst_key, started - started_before, 2) end
  end
  if granted_sum > 0 then
    add(month_key, granted_sum, counter_ttl)
    add(prefix .. '${DA}' .. account .. ':' .. day, granted_sum, counter_ttl)
    add(prefix .. '${DK}' .. key_id .. ':' .. day, granted_sum, counter_ttl)
  end
end
write_deltas()
redis.call('SET', call_key, table.concat(out, ','), 'EX', tonumber(ARGV[4]))
return out
`;

/**
 * Reservations remembered under their own request id (bulk chunks, journal replays), in order:
 * one already made with the same (account, request id) answers its stored result again;
 * otherwise the burst window and the monthly counter decide as above, and a grant is stored
 * under the request id. A replay (`force`) counts without limits; for an API request's grant it
 * first looks at the call the request was sent in: if that call ran, it counted the grant
 * already; if not, the replay counts it and marks the call REPLAYED. A forced negative count is a
 * release (a granted lookup that failed, given back), counted once under its own id like a grant.
 *
 * Leases are counted as taken, as in RESERVE_CALL (status 3: wait for them).
 *
 * ARGV: prefix, counter ttl (s), recall (ms), then EACH_FIELDS values per reservation.
 * Reply: 4 integers per reservation: status, granted, used, replayed.
 */
const EACH_FIELDS = 14;
const RESERVE_EACH = `
local prefix = ARGV[1]
local counter_ttl = tonumber(ARGV[2])
local recall_ms = tonumber(ARGV[3])
local out = {}
local n = (#ARGV - 3) / ${EACH_FIELDS}
${DELTAS}
${LEASES}
local month_used, burst_started, calls = {}, {}, {}
-- A call's stored answer as a list of numbers; false when it never ran (then it never will).
local function call_record(call, ttl)
  local record = calls[call]
  if record ~= nil then return record end
  local key = prefix .. 'c:' .. call
  local text = redis.call('GET', key)
  if not text then
    redis.call('SET', key, '${REPLAYED}', 'EX', ttl)
    record = false
  elseif text == '${REPLAYED}' then
    record = false
  else
    record = {}
    for value in string.gmatch(text, '[^,]+') do record[#record + 1] = tonumber(value) end
  end
  calls[call] = record
  return record
end
for i = 0, n - 1 do
  local b = 3 + i * ${EACH_FIELDS}
  local request_id, account, key_id = ARGV[b + 1], ARGV[b + 2], ARGV[b + 3]
  local count, partial = tonumber(ARGV[b + 4]), ARGV[b + 5] == '1'
  local ceiling, burst, force = tonumber(ARGV[b + 6]), tonumber(ARGV[b + 7]), ARGV[b + 8] == '1'
  local month, day, second = ARGV[b + 9], ARGV[b + 10], ARGV[b + 11]
  local request_ttl = tonumber(ARGV[b + 12])
  local call, call_index = ARGV[b + 13], tonumber(ARGV[b + 14])
  local month_key = prefix .. '${M}' .. account .. ':' .. month
  local request_key = prefix .. 'r:' .. account .. ':' .. request_id
  local done = redis.call('GET', request_key)
  if not done and force and call ~= '' then
    local record = call_record(call, request_ttl)
    local granted = record and record[call_index * 3 + 2]
    if granted and granted > 0 then
      done = granted .. ':' .. record[call_index * 3 + 3]
      redis.call('SET', request_key, done, 'EX', request_ttl)
    end
  end
  if done then
    local sep = string.find(done, ':', 1, true)
    out[#out + 1] = 0
    out[#out + 1] = tonumber(string.sub(done, 1, sep - 1))
    out[#out + 1] = tonumber(string.sub(done, sep + 1))
    out[#out + 1] = 1
  else
    local status = 0
    local burst_key
    if not force and burst > 0 then
      burst_key = prefix .. 'b:' .. key_id .. ':' .. second
      local started = burst_started[burst_key]
      if started == nil then started = tonumber(redis.call('GET', burst_key) or '0') end
      if started >= burst then
        status = 2
        burst_key = nil
      else
        burst_started[burst_key] = started + 1
        add(burst_key, 1, 2)
      end
    end
    local used = month_used[month_key]
    if used == nil then used = tonumber(redis.call('GET', month_key) or '0') end
    local granted = 0
    if status == 0 then
      granted = count
      if not force and ceiling >= 0 then
        local lease_key = prefix .. 'l:' .. account .. ':' .. month
        local leased = leased_of(lease_key)
        if count > 0 and count > ceiling - used - leased then
          status, granted = beside_leases(lease_key, leased, ceiling, used, count, partial, recall_ms)
          if status == 3 and burst_key then
            burst_started[burst_key] = burst_started[burst_key] - 1
            add(burst_key, -1, 2)
          end
        end
      end
    end
    if granted ~= 0 then
      used = used + granted
      add(month_key, granted, counter_ttl)
      add(prefix .. '${DA}' .. account .. ':' .. day, granted, counter_ttl)
      add(prefix .. '${DK}' .. key_id .. ':' .. day, granted, counter_ttl)
      redis.call('SET', request_key, granted .. ':' .. used, 'EX', request_ttl)
    end
    month_used[month_key] = used
    out[#out + 1] = status
    out[#out + 1] = granted
    out[#out + 1] = used
    out[#out + 1] = 0
  end
end
write_deltas()
return out
`;

/**
 * A process's lease round (quota/quota-leases.ts), per account in one run: count what it granted
 * from its lease (monthly and day counters), drop expired leases, then lease it `want` lookups
 * when the account keeps `far` × `want` free beyond every lease and no recall is on, else keep
 * `hold` (what it may grant while this round is in flight), and give it burst slots: up to half of
 * what is left in each window asked for, so other processes and plain reservations keep room.
 *
 * ARGV: prefix, counter ttl (s), holder, lease ttl (ms), far; then per account: account, month,
 * ceiling, want, hold, settled, n, n × (day, count), n, n × (key id, day, count), n, n × (key id,
 * burst, second, want). Reply per account: leased, renewed (0/1), used, then one count per slot.
 */
const LEASE_ROUND = `
local prefix = ARGV[1]
local counter_ttl = tonumber(ARGV[2])
local holder, ttl_ms, far = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
${DELTAS}
${LEASES}
local out = {}
local at = 6
while at <= #ARGV do
  local account, month = ARGV[at], ARGV[at + 1]
  local ceiling, want, hold, settled = tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3]), tonumber(ARGV[at + 4]), tonumber(ARGV[at + 5])
  local month_key = prefix .. '${M}' .. account .. ':' .. month
  local used = tonumber(redis.call('GET', month_key) or '0') + settled
  if settled ~= 0 then add(month_key, settled, counter_ttl) end
  local n = tonumber(ARGV[at + 6])
  at = at + 7
  for _ = 1, n do
    add(prefix .. '${DA}' .. account .. ':' .. ARGV[at], tonumber(ARGV[at + 1]), counter_ttl)
    at = at + 2
  end
  n = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, n do
    add(prefix .. '${DK}' .. ARGV[at] .. ':' .. ARGV[at + 1], tonumber(ARGV[at + 2]), counter_ttl)
    at = at + 3
  end
  local lease_key = prefix .. 'l:' .. account .. ':' .. month
  local fields = redis.call('HGETALL', lease_key)
  local others, recalled = 0, false
  for i = 1, #fields, 2 do
    local lookups, expires = lease_of(fields[i + 1])
    if expires <= clock_ms() then
      redis.call('HDEL', lease_key, fields[i])
    elseif fields[i] == '!' then
      recalled = true
    elseif fields[i] ~= holder then
      others = others + lookups
    end
  end
  local renewed = want > 0 and not recalled and (ceiling < 0 or ceiling - used - others - want >= far * want)
  local leased = hold
  if renewed and want > hold then leased = want end
  if leased > 0 then
    redis.call('HSET', lease_key, holder, leased .. ':' .. (clock_ms() + ttl_ms))
    redis.call('PEXPIRE', lease_key, ttl_ms * 2)
  else
    redis.call('HDEL', lease_key, holder)
  end
  out[#out + 1] = leased
  out[#out + 1] = renewed and 1 or 0
  out[#out + 1] = used
  n = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, n do
    local burst_key = prefix .. 'b:' .. ARGV[at] .. ':' .. ARGV[at + 2]
    local burst, wanted = tonumber(ARGV[at + 1]), tonumber(ARGV[at + 3])
    at = at + 4
    local give = math.floor((burst - tonumber(redis.call('GET', burst_key) or '0')) / 2)
    if give > wanted then give = wanted end
    if give > 0 then add(burst_key, give, 2) else give = 0 end
    out[#out + 1] = give
  end
end
write_deltas()
return out
`;

const STATUS: readonly ReserveStatus[] = ['granted', 'quota_exceeded', 'burst_exceeded', 'lease_held'];

export interface RedisQuotaStoreOptions {
  /** Prefix of every key (default "quota:"); tests use their own. */
  keyPrefix?: string;
  /** Monthly and daily counters live this long after a grant makes them (default 62 days). */
  counterTtlSeconds?: number;
  /**
   * How long a recall (a reservation waiting for leased lookups) stops leases from being renewed:
   * as long as a lease lives (QuotaLeaseOptions.ttlMs; default 1,000 ms), so every lease has
   * been given back or has expired when it ends.
   */
  recallMs?: number;
}

export class RedisQuotaStore implements QuotaStore {
  private readonly prefix: string;
  private readonly counterTtl: number;
  private readonly callScript: (...args: Array<string | number>) => Promise<number[]>;
  private readonly eachScript: (...args: Array<string | number>) => Promise<number[]>;
  private readonly leaseScript: (...args: Array<string | number>) => Promise<number[]>;
  private readonly recallMs: number;
  /** Script calls sent (reservations and replays). */
  calls = 0;

  constructor(
    private readonly redis: Redis,
    options: RedisQuotaStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? DEFAULT_QUOTA_KEY_PREFIX;
    this.counterTtl = options.counterTtlSeconds ?? QUOTA_COUNTER_TTL_SECONDS;
    this.recallMs = options.recallMs ?? 1_000;
    const define = (name: string, lua: string) =>
      defineRedisScript<Array<string | number>, number[]>(redis, name, { keys: 0, lua });
    this.callScript = define('bffEnQuotaReserveCall', RESERVE_CALL);
    this.eachScript = define('bffEnQuotaReserveEach', RESERVE_EACH);
    this.leaseScript = define('bffEnQuotaLeaseRound', LEASE_ROUND);
  }

  async reserveCall(callId: string, commands: readonly ReserveCommand[], rememberSeconds: number): Promise<ReserveOutcome[]> {
    if (commands.length === 0) return [];
    // Requests grouped by everything the script reads once per group, in order of first appearance.
    const groups = new Map<string, { first: ReserveCommand; items: number[] }>();
    for (let index = 0; index < commands.length; index++) {
      const command = commands[index] as ReserveCommand;
      const id = `${command.accountId}\n${command.keyId}\n${command.ceiling}\n${command.burstPerSecond}\n${command.second}`;
      const group = groups.get(id);
      if (group === undefined) groups.set(id, { first: command, items: [index] });
      else group.items.push(index);
    }
    const args: Array<string | number> = [this.prefix, this.counterTtl, callId, rememberSeconds, commands.length, this.recallMs];
    for (const { first, items } of groups.values()) {
      args.push(first.accountId, first.keyId, first.ceiling, first.burstPerSecond, first.month, first.day, first.second);
      args.push(items.length);
      for (const index of items) {
        const { count, partial } = commands[index] as ReserveCommand;
        args.push(partial ? -count : count, index);
      }
    }
    this.calls++;
    const reply = await this.callScript(...args);
    const outcomes: ReserveOutcome[] = [];
    for (let i = 0; i < commands.length; i++) {
      outcomes.push({
        status: STATUS[reply[i * 3] ?? 0] ?? 'granted',
        granted: reply[i * 3 + 1] ?? 0,
        used: reply[i * 3 + 2] ?? 0,
        replayed: false,
      });
    }
    return outcomes;
  }

  async reserveEach(commands: readonly KeyedReserveCommand[]): Promise<ReserveOutcome[]> {
    if (commands.length === 0) return [];
    const args: Array<string | number> = [this.prefix, this.counterTtl, this.recallMs];
    for (const command of commands) {
      args.push(
        command.requestId,
        command.accountId,
        command.keyId,
        command.count,
        command.partial ? 1 : 0,
        command.ceiling,
        command.burstPerSecond,
        command.force ? 1 : 0,
        command.month,
        command.day,
        command.second,
        command.rememberSeconds,
        command.call?.id ?? '',
        command.call?.index ?? -1,
      );
    }
    this.calls++;
    const reply = await this.eachScript(...args);
    const outcomes: ReserveOutcome[] = [];
    for (let i = 0; i < commands.length; i++) {
      outcomes.push({
        status: STATUS[reply[i * 4] ?? 0] ?? 'granted',
        granted: reply[i * 4 + 1] ?? 0,
        used: reply[i * 4 + 2] ?? 0,
        replayed: reply[i * 4 + 3] === 1,
      });
    }
    return outcomes;
  }

  async leaseRound(
    holder: string,
    options: { ttlMs: number; farFactor: number },
    commands: readonly LeaseRoundCommand[],
  ): Promise<LeaseRoundAnswer[]> {
    if (commands.length === 0) return [];
    const args: Array<string | number> = [this.prefix, this.counterTtl, holder, options.ttlMs, options.farFactor];
    for (const command of commands) {
      args.push(command.accountId, command.month, command.ceiling, command.want, command.hold, command.settled);
      args.push(command.accountDays.length);
      for (const [day, count] of command.accountDays) args.push(day, count);
      args.push(command.keyDays.length);
      for (const [keyId, day, count] of command.keyDays) args.push(keyId, day, count);
      args.push(command.slots.length);
      for (const slot of command.slots) args.push(slot.keyId, slot.burstPerSecond, slot.second, slot.want);
    }
    this.calls++;
    const reply = await this.leaseScript(...args);
    let at = 0;
    return commands.map((command) => {
      const answer: LeaseRoundAnswer = {
        leased: reply[at] ?? 0,
        renewed: reply[at + 1] === 1,
        used: reply[at + 2] ?? 0,
        slots: reply.slice(at + 3, at + 3 + command.slots.length),
      };
      at += 3 + command.slots.length;
      return answer;
    });
  }

  async usage(accountId: string, keyId: string, month: string, days: readonly string[]): Promise<UsageCounters> {
    const keys = [
      quotaMonthKey(this.prefix, accountId, month),
      ...days.map((day) => quotaAccountDayKey(this.prefix, accountId, day)),
      ...days.map((day) => quotaKeyDayKey(this.prefix, keyId, day)),
    ];
    const values = (await this.redis.mget(keys)).map((value) => Number(value ?? 0));
    return {
      used: values[0] ?? 0,
      accountDays: values.slice(1, 1 + days.length),
      keyDays: values.slice(1 + days.length),
    };
  }
}

export type RedisQuotaServiceOptions = Omit<QuotaServiceOptions, 'store'> & { redis: Redis; store?: RedisQuotaStoreOptions };

/** The quota service on a Redis client (give it a short command timeout: see README.md, "Quotas"). */
export function createRedisQuotaService(options: RedisQuotaServiceOptions): QuotaService {
  const { redis, store, ...rest } = options;
  return QuotaService.create(Object.assign(rest, { store: new RedisQuotaStore(redis, store) }));
}
