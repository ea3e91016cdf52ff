/**
 * Quota reconciliation end to end: bff-en's own quota store grants lookups in Redis and the
 * matching usage events go through the ledger into stats' rollups; then Redis loses the counters,
 * and ReconcileQuotas (called over gRPC as `operator`, as `make usage-reconcile` does) brings
 * back exactly what was accepted — the month per account, the days per account and per key —
 * while a counter already above the rollups (traffic after the loss) is not lowered; then the
 * interval (QUOTA_RECONCILE_INTERVAL_SECONDS) does the same without being asked.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventProducer,
  PermissionDeniedError,
  TOPICS,
  createGrpcClient,
  createKafka,
  ensureTopics,
  topicSpecs,
} from '@ipdata/common';
import { RedisQuotaStore, quotaAccountDayKey, quotaDay, quotaKeyDayKey, quotaMonth, quotaMonthKey } from '@ipdata/metering';
import { grpcCaller, stackAddresses, testGrpcTls, uniqueName, waitFor } from '@ipdata/common/testing';
import { UsageChannel, UsageEvent } from '@ipdata/proto/events/v1/usage';
import * as statsApi from '@ipdata/proto/stats/v1/stats';
import { StatsServiceClient, StatsServiceService } from '@ipdata/proto/stats/v1/stats';
import { bucketSums } from './fixtures/rollup-sums.js';
import { StatsProcess, freePort, statsTestEnv } from './fixtures/stats-process.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

describe('ReconcileQuotas', () => {
  const stack = stackAddresses();
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'reconcile-test' }, logger);
  const name = uniqueName('stats-reconcile');
  const logFile = join(mkdtempSync(join(tmpdir(), 'stats-reconcile-')), 'stats.log');
  let env: Record<string, string>;
  let stats: StatsProcess;
  let producer: EventProducer;
  let redis: Redis;
  let mongo: Connection;
  let clients: StatsServiceClient[] = [];

  const caller = (identity: string) => {
    const client = createGrpcClient(StatsServiceClient, {
      address: `127.0.0.1:${env['GRPC_PORT']}`,
      tls: testGrpcTls(identity),
      defaultDeadlineMs: 30_000,
    });
    clients.push(client);
    return grpcCaller(client, StatsServiceService, { codecs: statsApi });
  };

  beforeAll(async () => {
    // Only the operator's calls raise here: the interval's runs would raise the wiped counters first.
    env = { ...statsTestEnv(name, { grpc: await freePort(), health: await freePort() }), QUOTA_RECONCILE_INTERVAL_SECONDS: '0' };
    await ensureTopics(kafka, topicSpecs([TOPICS.usageLookup]), logger);
    producer = EventProducer.fromConfig({ kafka, source: 'bff-en' }, logger);
    await producer.start();
    redis = new Redis(stack.redisUrl);
    mongo = await mongoose.createConnection(env['MONGO_URL']!).asPromise();
    stats = new StatsProcess(env, logFile);
    stats.start();
    await waitFor(() => stats.ready(), { timeoutMs: 90_000, intervalMs: 250, what: 'stats ready' }).catch((error: Error) => {
      throw new Error(`${error.message}; log:\n${readFileSync(logFile, 'utf8').slice(-4_000)}`);
    });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    clients = [];
    await stats?.close();
    await producer?.shutdown();
    redis?.disconnect();
    await mongo?.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('raises the wiped counters back to what was accepted and never lowers one', async () => {
    const prefix = env['QUOTA_KEY_PREFIX']!;
    const quota = new RedisQuotaStore(redis, { keyPrefix: prefix });
    const now = new Date();
    const month = quotaMonth(now);
    // One time on each day of this month so far, of the 1st and of today: two days, or one on the
    // 1st (the day's counter keys must not repeat, or a counter would be counted twice).
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const byDay = new Map<string, Date>();
    for (const time of [monthStart + 30 * 60_000, now.getTime() - 1_000]) {
      if (time < monthStart || time > now.getTime()) continue;
      const at = new Date(time);
      if (!byDay.has(quotaDay(at))) byDay.set(quotaDay(at), at);
    }
    if (byDay.size === 0) byDay.set(quotaDay(now), now);
    const times = [...byDay.values()];
    const accounts = [`${name}-a`, `${name}-b`];
    const keys: Record<string, string[]> = { [accounts[0]!]: [`${name}-a1`, `${name}-a2`], [accounts[1]!]: [`${name}-b1`] };
    const events: Array<{ event: UsageEvent; key: string }> = [];
    let n = 0;
    for (const at of times) {
      for (const accountId of accounts) {
        for (const keyId of keys[accountId]!) {
          for (const count of [1, 3, 25]) {
            const requestId = `${name}-r${n++}`;
            const [outcome] = await quota.reserveCall(
              requestId,
              [
                {
                  accountId,
                  keyId,
                  count,
                  partial: false,
                  ceiling: -1,
                  burstPerSecond: 0,
                  month,
                  day: quotaDay(at),
                  second: Math.floor(at.getTime() / 1000),
                },
              ],
              60,
            );
            expect(outcome?.granted).toBe(count);
            events.push({
              key: keyId,
              event: UsageEvent.fromPartial({
                meta: { id: requestId, source: 'bff-en', time: at },
                channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
                accountId,
                apiKeyId: keyId,
                endpoint: '/v1/batch',
                count,
                httpStatus: 200,
              }),
            });
          }
        }
      }
    }
    // Not quota: a web lookup of the same account, and a re-sent copy of a counted event.
    events.push({
      key: accounts[0]!,
      event: UsageEvent.fromPartial({
        meta: { id: `${name}-web`, source: 'bff-en', time: times[0] },
        channel: UsageChannel.USAGE_CHANNEL_WEB_EN,
        accountId: accounts[0]!,
        endpoint: 'ip_search',
        count: 50,
      }),
    });
    events.push(events[0]!);
    await producer.sendMany(TOPICS.usageLookup, events);

    const granted = events.slice(0, -2).reduce((sum, planned) => sum + planned.event.count, 0);
    await waitFor(
      async () => {
        const sums = await bucketSums(mongo, 'usage_rollups', { accountId: { $in: accounts }, g: 'd', channel: 1 });
        return [...sums.values()].reduce((sum, c) => sum + (c['lookups'] ?? 0), 0) === granted;
      },
      // The shared ledger may hold other files' events before ours: this stats reads it from the beginning.
      { timeoutMs: 240_000, intervalMs: 250, what: `${granted} public API lookups in the rollups` },
    );

    // What bff-en accepted, counter by counter.
    const counterKeys = [
      ...accounts.map((accountId) => quotaMonthKey(prefix, accountId, month)),
      ...times.flatMap((at) => accounts.map((accountId) => quotaAccountDayKey(prefix, accountId, quotaDay(at)))),
      ...times.flatMap((at) =>
        Object.values(keys)
          .flat()
          .map((keyId) => quotaKeyDayKey(prefix, keyId, quotaDay(at))),
      ),
    ];
    const accepted = (await redis.mget(counterKeys)).map(Number);
    expect(accepted.every((value) => value > 0)).toBe(true);

    // Redis loses the counters; then account a gets traffic again before anyone reconciles.
    await redis.del(...counterKeys);
    const monthA = counterKeys[0]!;
    await redis.set(monthA, accepted[0]! + 7);
    const dayA = counterKeys[accounts.length]!;
    await redis.set(dayA, 1);

    await expect(caller('bff-en').reconcileQuotas({})).rejects.toBeInstanceOf(PermissionDeniedError);
    const operator = caller('operator');
    // Per account, so the figures are ours alone (this stats reads the whole shared ledger).
    const ofAccount = (accountId: string) =>
      counterKeys.filter((key) => key.includes(`:${accountId}:`) || keys[accountId]!.some((keyId) => key.includes(`:${keyId}:`)));
    const answerA = await operator.reconcileQuotas({ accountId: accounts[0]! });
    expect(answerA).toEqual({
      accounts: 1,
      countersRaised: ofAccount(accounts[0]!).length - 1,
      monthStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    });
    const answerB = await operator.reconcileQuotas({ accountId: accounts[1]! });
    expect(answerB.countersRaised).toBe(ofAccount(accounts[1]!).length);
    expect(ofAccount(accounts[0]!).length + ofAccount(accounts[1]!).length).toBe(counterKeys.length);

    const after = (await redis.mget(counterKeys)).map(Number);
    expect(after).toEqual(accepted.map((value, i) => (i === 0 ? value + 7 : value)));
    for (const key of counterKeys.slice(1)) {
      expect(await redis.ttl(key)).toBeGreaterThan(60 * 24 * 3600); // bff-en's 62 days
    }
    // And bff-en reads them back as before through its own store.
    const usage = await quota.usage(accounts[1]!, keys[accounts[1]!]![0]!, month, times.map(quotaDay));
    expect(usage.used).toBe(accepted[1]);

    // Again: nothing left to raise for ours. Every account at once also raises the counters of the
    // shared ledger's other accounts (this stats reads the whole topic), never ours.
    expect((await operator.reconcileQuotas({ accountId: accounts[0]! })).countersRaised).toBe(0);
    expect((await operator.reconcileQuotas({})).accounts).toBeGreaterThanOrEqual(accounts.length);
    expect((await redis.mget(counterKeys)).map(Number)).toEqual(after);

    // The interval (QUOTA_RECONCILE_INTERVAL_SECONDS) does the same unasked: Redis loses the
    // counters again, and a stats started with a 1-second interval raises them back by itself, to
    // what was accepted (the +7 since the first loss went to Redis only, not through the ledger).
    await stats.stop();
    await redis.del(...counterKeys);
    stats.start({ QUOTA_RECONCILE_INTERVAL_SECONDS: '1' });
    await waitFor(async () => JSON.stringify((await redis.mget(counterKeys)).map(Number)) === JSON.stringify(accepted), {
      timeoutMs: 90_000,
      intervalMs: 250,
      what: 'the counters raised back by the interval',
    });
  }, 300_000);
});
