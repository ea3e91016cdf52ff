/**
 * What a quota reservation costs Redis (issue 11: the accounting's share of the public API's
 * budget). bff-en's RedisQuotaStore against the stack's Redis, one call in flight at a time:
 * - `ping`: the round trip alone, the in-run baseline (Redis's CPU per call here is its network
 *   and event-loop work, which every call pays);
 * - `reserve_1`: one reservation per script call, what each GET costs at low rates, when a
 *   request has no other to share its event-loop turn with (the open-loop benchmark's shape);
 * - `reserve_<coalesced>`: that many reservations of one key in one call, what a busy turn costs
 *   (per reservation).
 * Per row: calls/s, Redis's CPU per call or reservation (/proc, user+system) and its time inside
 * the command (`INFO commandstats`, usec_per_call: the script alone, no network). Prints one JSON
 * line per run and a summary of medians with ratios to `ping`; never asserts. Keys under a prefix of
 * their own, deleted at the end.
 *
 *   make stack-up
 *   node --conditions=source --import tsx scripts/bench/quota-redis.bench.ts [--calls 20000] [--coalesced 50] [--runs 3]
 *
 * Written for (2026-11-28): a counter's EXPIRE on every grant cost ~18% of a one-reservation
 * call's time inside Redis (runs of each version in turn: 51 / 41 / 44 against 41 / 34 / 35 µs;
 * Redis's CPU per call with the network 164 / 102 / 118 against 150 / 101 / 98 µs, PING's 37–72);
 * it is set once, when a grant makes the counter. At low rates the round trip itself (PING) is
 * about half of what a reservation costs Redis: coalescing, not the script, is the lever there.
 */
import { Redis } from 'ioredis';
import { RedisQuotaStore, type ReserveCommand } from '@ipdata/metering';
import { emit, median, numberOption as option, processCpuMs } from './bench-support.js';

const calls = option('calls', 20_000);
const coalesced = option('coalesced', 50);
const runs = option('runs', 3);
const WARM_UP_CALLS = 1_000;

const redis = new Redis(process.env['REDIS_URL'] ?? `redis://127.0.0.1:${process.env['REDIS_PORT'] ?? 6379}`);
const prefix = `bench-quota:${process.pid}:`;
const store = new RedisQuotaStore(redis, { keyPrefix: prefix, counterTtlSeconds: 600 });
const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
if (!Number.isInteger(redisPid)) throw new Error('INFO server gave no process_id');

/** A reservation of one lookup for one key with room to spare: the common GET. */
function reservation(): ReserveCommand {
  const now = new Date();
  return {
    accountId: 'bench-account',
    keyId: 'bench-key',
    count: 1,
    partial: false,
    ceiling: -1,
    burstPerSecond: 1_000_000_000,
    month: now.toISOString().slice(0, 7),
    day: now.toISOString().slice(0, 10),
    second: Math.floor(now.getTime() / 1000),
  };
}

/** usec_per_call of a command since the last RESETSTAT (INFO commandstats). */
async function usecPerCall(command: string): Promise<number> {
  const line = (await redis.info('commandstats')).split('\n').find((text) => text.startsWith(`cmdstat_${command}:`));
  return Number(/usec_per_call=([\d.]+)/.exec(line ?? '')?.[1] ?? 0);
}

/** `count` calls one after the other: calls/s, Redis's CPU per call (µs) and per call inside the command. */
async function measure(command: string, count: number, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARM_UP_CALLS; i++) await call(i);
  await redis.config('RESETSTAT');
  const cpuBefore = processCpuMs(redisPid);
  const started = performance.now();
  for (let i = 0; i < count; i++) await call(i);
  const wallMs = performance.now() - started;
  const cpuUs = ((processCpuMs(redisPid) - cpuBefore) * 1000) / count;
  return { callsPerSecond: Math.round((count * 1000) / wallMs), cpuUs, insideUs: await usecPerCall(command) };
}

const rows: Array<Record<string, number>> = [];
try {
  for (let run = 1; run <= runs; run++) {
    const id = `${run}-${Date.now()}`;
    const ping = await measure('ping', calls, () => redis.ping());
    const one = await measure('evalsha', calls, (i) => store.reserveCall(`${id}-1-${i}`, [reservation()], 60));
    const many = await measure('evalsha', Math.ceil(calls / coalesced), (i) =>
      store.reserveCall(`${id}-n-${i}`, Array.from({ length: coalesced }, reservation), 60),
    );
    const row = {
      ping_calls_per_s: ping.callsPerSecond,
      ping_redis_cpu_us_per_call: +ping.cpuUs.toFixed(1),
      reserve_1_calls_per_s: one.callsPerSecond,
      reserve_1_redis_cpu_us_per_call: +one.cpuUs.toFixed(1),
      reserve_1_inside_us_per_call: one.insideUs,
      reserve_1_redis_cpu_vs_ping: +(one.cpuUs / ping.cpuUs).toFixed(2),
      [`reserve_${coalesced}_redis_cpu_us_per_reservation`]: +(many.cpuUs / coalesced).toFixed(1),
      [`reserve_${coalesced}_inside_us_per_reservation`]: +(many.insideUs / coalesced).toFixed(2),
    };
    rows.push(row);
    emit({ bench: 'quota_redis', run, calls, coalesced, ...row });
  }
  const summary: Record<string, unknown> = { bench: 'quota_redis_summary', runs, calls, coalesced };
  for (const key of Object.keys(rows[0] ?? {})) summary[key] = median(rows.map((row) => row[key] as number));
  emit(summary);
} finally {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
}
