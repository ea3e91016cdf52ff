/**
 * The test stack's addresses and small waiting/naming helpers. The test harness
 * (scripts/test/global-setup.ts) starts the real stack and exports its addresses as
 * KAFKA_BROKERS, MONGO_URL and REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

export interface StackAddresses {
  kafkaBrokers: string[];
  mongoUrl: string;
  redisUrl: string;
}

export function stackAddresses(): StackAddresses {
  const kafka = process.env['KAFKA_BROKERS'];
  const mongo = process.env['MONGO_URL'];
  const redis = process.env['REDIS_URL'];
  if (!kafka || !mongo || !redis) {
    throw new Error('KAFKA_BROKERS, MONGO_URL and REDIS_URL are not set: run integration tests through vitest (make test)');
  }
  return { kafkaBrokers: kafka.split(','), mongoUrl: mongo, redisUrl: redis };
}

/** A name no other test run uses (topics, groups, databases, key prefixes). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** The same Mongo URL with another database, so each test file has its own. */
export function mongoUrlWithDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'condition'}`);
    await sleep(options.intervalMs ?? 50);
  }
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failing sample can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
