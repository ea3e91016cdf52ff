import type { Redis } from 'ioredis';
import { defineRedisScript } from '@ipdata/common';
import type { EventClaims } from '../../ledger/ledger-ports.js';

/**
 * Claims a round's event ids in one script run: `SET <prefix><id> "<partition>:<offset>" NX EX ttl`.
 * 1 = first occurrence (claimed now, or claimed earlier by this very record: a round that crashed
 * after claiming), 0 = another record claimed the id (a duplicate). Ids repeated inside the round
 * are decided in order by the same rule, since the script sees its own writes.
 * ARGV: ttl, then id and position per record.
 */
const CLAIM = `
local ttl = tonumber(ARGV[1])
local prefix = ARGV[2]
local out = {}
for i = 3, #ARGV, 2 do
  local key = prefix .. ARGV[i]
  local position = ARGV[i + 1]
  if redis.call('SET', key, position, 'NX', 'EX', ttl) then
    out[#out + 1] = 1
  elseif redis.call('GET', key) == position then
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out
`;

/** Records per script run: a long round is split so one run never blocks Redis for long. */
const CHUNK = 1_000;

export class RedisEventClaims implements EventClaims {
  private readonly script: (...args: Array<string | number>) => Promise<number[]>;

  constructor(
    redis: Redis,
    private readonly options: { keyPrefix: string; ttlSeconds: number },
  ) {
    this.script = defineRedisScript<Array<string | number>, number[]>(redis, 'statsClaimEvents', { keys: 0, lua: CLAIM });
  }

  async claim(records: ReadonlyArray<{ id: string; partition: number; offset: number }>): Promise<boolean[]> {
    const first: boolean[] = [];
    for (let start = 0; start < records.length; start += CHUNK) {
      const args: Array<string | number> = [this.options.ttlSeconds, this.options.keyPrefix];
      for (const record of records.slice(start, start + CHUNK)) args.push(record.id, `${record.partition}:${record.offset}`);
      const reply = await this.script(...args);
      for (const flag of reply) first.push(flag === 1);
    }
    return first;
  }
}
