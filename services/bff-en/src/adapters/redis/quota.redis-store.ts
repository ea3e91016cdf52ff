import type { Redis } from 'ioredis';
import {
  DEFAULT_QUOTA_KEY_PREFIX,
  QUOTA_COUNTER_TTL_SECONDS,
  QUOTA_KEY_SEGMENTS,
  defineRedisScript,
  quotaAccountDayKey,
  quotaKeyDayKey,
  quotaMonthKey,
} from '@ipdata/common';
import { QuotaService, type QuotaServiceOptions } from '../../quota/quota.service.js';
import type {
  KeyedReserveCommand,
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
 * ARGV: prefix, counter ttl (s), call id, call ttl (s), requests; then per group: account, key id,
 * ceiling (-1 none), burst (0 none), month, day, second, n, then n × (count, index), a count < 0
 * being a partial request. Reply: status (0 granted, 1 quota, 2 burst), granted, used per request,
 * at its index.
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
local month_used, burst_started = {}, {}
local at = 6
while at <= #ARGV do
  local account, key_id = ARGV[at], ARGV[at + 1]
  local ceiling, burst = tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
  local month, day, second = ARGV[at + 4], ARGV[at + 5], ARGV[at + 6]
  local n = tonumber(ARGV[at + 7])
  at = at + 8
  local month_key = prefix .. '${M}' .. account .. ':' .. month
  local used = month_used[month_key]
  if used == nil then used = tonumber(redis.call('GET', month_key) or '0') end
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
      if ceiling >= 0 then
        local left = ceiling - used
        if left < 0 then left = 0 end
        if count > left then
          if partial then granted = left else granted = 0 end
          if granted == 0 then status = 1 end
        end
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
 * ARGV: prefix, counter ttl (s), then EACH_FIELDS values per reservation.
 * Reply: 4 integers per reservation: status, granted, used, replayed.
 */
const EACH_FIELDS = 14;
const RESERVE_EACH = `
local prefix = ARGV[1]
local counter_ttl = tonumber(ARGV[2])
local out = {}
local n = (#ARGV - 2) / ${EACH_FIELDS}
${DELTAS}
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
  local b = 2 + i * ${EACH_FIELDS}
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
    if not force and burst > 0 then
      local burst_key = prefix .. 'b:' .. key_id .. ':' .. second
      local started = burst_started[burst_key]
      if started == nil then started = tonumber(redis.call('GET', burst_key) or '0') end
      if started >= burst then
        status = 2
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
        local left = ceiling - used
        if left < 0 then left = 0 end
        if count > left then
          if partial then granted = left else granted = 0 end
          if granted == 0 then status = 1 end
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

const STATUS: readonly ReserveStatus[] = ['granted', 'quota_exceeded', 'burst_exceeded'];

export interface RedisQuotaStoreOptions {
  /** Prefix of every key (default "quota:"); tests use their own. */
  keyPrefix?: string;
  /** Monthly and daily counters live this long after a grant makes them (default 62 days). */
  counterTtlSeconds?: number;
}

export class RedisQuotaStore implements QuotaStore {
  private readonly prefix: string;
  private readonly counterTtl: number;
  private readonly callScript: (...args: Array<string | number>) => Promise<number[]>;
  private readonly eachScript: (...args: Array<string | number>) => Promise<number[]>;
  /** Script calls sent (reservations and replays). */
  calls = 0;

  constructor(
    private readonly redis: Redis,
    options: RedisQuotaStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? DEFAULT_QUOTA_KEY_PREFIX;
    this.counterTtl = options.counterTtlSeconds ?? QUOTA_COUNTER_TTL_SECONDS;
    const define = (name: string, lua: string) =>
      defineRedisScript<Array<string | number>, number[]>(redis, name, { keys: 0, lua });
    this.callScript = define('bffEnQuotaReserveCall', RESERVE_CALL);
    this.eachScript = define('bffEnQuotaReserveEach', RESERVE_EACH);
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
    const args: Array<string | number> = [this.prefix, this.counterTtl, callId, rememberSeconds, commands.length];
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
    const args: Array<string | number> = [this.prefix, this.counterTtl];
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
  return QuotaService.create({ ...rest, store: new RedisQuotaStore(redis, store) });
}
