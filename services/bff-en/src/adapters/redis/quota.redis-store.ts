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
import type { QuotaStore, ReserveCommand, ReserveOutcome, ReserveStatus, UsageCounters } from '../../quota/quota.ports.js';

/**
 * Decides a batch of reservations in order, atomically: for each one, a reservation already made
 * with the same (account, request id) answers its stored result again; otherwise the key's burst
 * window is checked (requests per second), then the account's monthly counter (all, part or
 * nothing), and a grant moves the monthly counter, the account's and the key's day counters and
 * stores the result under the request id, all in this one script run.
 *
 * The keys are built here from ARGV because one batch spans many accounts: fine for one Redis
 * primary (what we run); a Redis Cluster would need batches grouped per hash slot.
 *
 * ARGV: prefix, counter ttl (s), then FIELDS values per reservation.
 * Reply: 4 integers per reservation: status (0 granted, 1 quota, 2 burst), granted, used, replayed.
 */
const FIELDS = 12;
// The counters' key layout is common's (redis/quota-keys.ts): stats' quota reconciliation rebuilds the same keys.
const { month: M, accountDay: DA, keyDay: DK } = QUOTA_KEY_SEGMENTS;
const RESERVE = `
local prefix = ARGV[1]
local counter_ttl = tonumber(ARGV[2])
local out = {}
local n = (#ARGV - 2) / ${FIELDS}
-- Counters are read once per script run and written once at its end (one INCRBY and EXPIRE per
-- distinct key): a batch of many requests of one account costs a few commands, not ten each.
-- The decisions are the same as one call each, since the script runs atomically and in order.
local month_used, burst_started, deltas = {}, {}, {}
local function add(key, value, ttl)
  local delta = deltas[key]
  if delta then delta[1] = delta[1] + value else deltas[key] = { value, ttl } end
end
for i = 0, n - 1 do
  local b = 2 + i * ${FIELDS}
  local request_id, account, key_id = ARGV[b + 1], ARGV[b + 2], ARGV[b + 3]
  local count, partial = tonumber(ARGV[b + 4]), ARGV[b + 5] == '1'
  local ceiling, burst, force = tonumber(ARGV[b + 6]), tonumber(ARGV[b + 7]), ARGV[b + 8] == '1'
  local month, day, second = ARGV[b + 9], ARGV[b + 10], ARGV[b + 11]
  local request_ttl = tonumber(ARGV[b + 12])
  local month_key = prefix .. '${M}' .. account .. ':' .. month
  local request_key = prefix .. 'r:' .. account .. ':' .. request_id
  local done = redis.call('GET', request_key)
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
    if granted > 0 then
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
for key, delta in pairs(deltas) do
  redis.call('INCRBY', key, delta[1])
  redis.call('EXPIRE', key, delta[2])
end
return out
`;

const STATUS: readonly ReserveStatus[] = ['granted', 'quota_exceeded', 'burst_exceeded'];

export interface RedisQuotaStoreOptions {
  /** Prefix of every key (default "quota:"); tests use their own. */
  keyPrefix?: string;
  /** Monthly and daily counters live this long after their last change (default 62 days). */
  counterTtlSeconds?: number;
}

export class RedisQuotaStore implements QuotaStore {
  private readonly prefix: string;
  private readonly counterTtl: number;
  private readonly script: (...args: Array<string | number>) => Promise<number[]>;
  /** Script calls sent (reservations and replays). */
  calls = 0;

  constructor(
    private readonly redis: Redis,
    options: RedisQuotaStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? DEFAULT_QUOTA_KEY_PREFIX;
    this.counterTtl = options.counterTtlSeconds ?? QUOTA_COUNTER_TTL_SECONDS;
    this.script = defineRedisScript<Array<string | number>, number[]>(redis, 'bffEnQuotaReserve', { keys: 0, lua: RESERVE });
  }

  async reserve(commands: readonly ReserveCommand[]): Promise<ReserveOutcome[]> {
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
      );
    }
    this.calls++;
    const reply = await this.script(...args);
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
