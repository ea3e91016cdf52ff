import type { Redis } from 'ioredis';
import { defineRedisScript } from '@ipdata/common';
import {
  DEFAULT_QUOTA_KEY_PREFIX,
  QUOTA_COUNTER_TTL_SECONDS,
  quotaAccountDayKey,
  quotaKeyDayKey,
  quotaMonthKey,
} from './quota-keys.js';

/** A quota counter's lower bound: what the ledger's rollups say was counted (stats' reconciler). */
export interface QuotaCounterFloor {
  kind: 'month' | 'accountDay' | 'keyDay';
  /** Account id (month, accountDay) or API key id (keyDay). */
  owner: string;
  /** YYYY-MM (month) or YYYY-MM-DD. */
  period: string;
  value: number;
}

export interface QuotaCounters {
  /** Raises each counter below its floor to the floor, never lowers one; answers how many were raised. */
  raise(floors: readonly QuotaCounterFloor[]): Promise<number>;
}

/**
 * Raises each counter to its floor when it is below, in one atomic script run per chunk, so a
 * reservation of bff-en running at the same moment either sees the old value and its INCRBY
 * lands on top of the raised one, or runs after and adds to it: a grant is never overwritten.
 * A raised counter gets bff-en's counter TTL again (bff-en sets it when a grant makes the counter).
 * The keys come from ARGV like bff-en's reservation script (one Redis primary; a cluster would
 * need chunks grouped per hash slot).
 * ARGV: ttl, then key, floor pairs. Reply: counters raised.
 */
const RAISE = `
local ttl = tonumber(ARGV[1])
local raised = 0
for i = 2, #ARGV, 2 do
  local key, floor = ARGV[i], tonumber(ARGV[i + 1])
  local current = tonumber(redis.call('GET', key) or '0')
  if current < floor then
    redis.call('SET', key, floor, 'EX', ttl)
    raised = raised + 1
  end
end
return raised
`;

const CHUNK = 500;

export interface RedisQuotaCountersOptions {
  /** bff-en's QUOTA_KEY_PREFIX (default "quota:"). */
  keyPrefix?: string;
  counterTtlSeconds?: number;
}

export class RedisQuotaCounters implements QuotaCounters {
  private readonly prefix: string;
  private readonly ttl: number;
  private readonly script: (...args: Array<string | number>) => Promise<number>;

  constructor(redis: Redis, options: RedisQuotaCountersOptions = {}) {
    this.prefix = options.keyPrefix ?? DEFAULT_QUOTA_KEY_PREFIX;
    this.ttl = options.counterTtlSeconds ?? QUOTA_COUNTER_TTL_SECONDS;
    this.script = defineRedisScript<Array<string | number>, number>(redis, 'statsQuotaRaise', { keys: 0, lua: RAISE });
  }

  /** The Redis key of a counter (bff-en's layout, services/common/src/redis/quota-keys.ts). */
  keyOf(floor: Pick<QuotaCounterFloor, 'kind' | 'owner' | 'period'>): string {
    if (floor.kind === 'month') return quotaMonthKey(this.prefix, floor.owner, floor.period);
    if (floor.kind === 'accountDay') return quotaAccountDayKey(this.prefix, floor.owner, floor.period);
    return quotaKeyDayKey(this.prefix, floor.owner, floor.period);
  }

  async raise(floors: readonly QuotaCounterFloor[]): Promise<number> {
    let raised = 0;
    for (let start = 0; start < floors.length; start += CHUNK) {
      const args: Array<string | number> = [this.ttl];
      for (const floor of floors.slice(start, start + CHUNK)) args.push(this.keyOf(floor), Math.floor(floor.value));
      raised += Number(await this.script(...args));
    }
    return raised;
  }
}
