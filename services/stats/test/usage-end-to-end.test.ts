import { createGrpcClient } from '@ipdata/common';
import { grpcCaller, testGrpcTls, waitFor } from '@ipdata/common/testing';
import { RollupGranularity } from '@ipdata/proto/events/v1/billing';
import * as statsApi from '@ipdata/proto/stats/v1/stats';
import { StatsServiceClient, StatsServiceService } from '@ipdata/proto/stats/v1/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bffEnUrl,
  createTestAccount,
  systemAddresses,
  systemClients,
  useTestSystem,
} from '../../../scripts/test/system/index.js';

// The whole usage path on the running system: public API calls → bff-en's ledger on
// usage.lookup.v1 → stats' rollups → GET /v1/usage and stats' GetUsage → stats' running month
// total on usage.rollup.v1 → billing's upcoming invoice for the month.

let stats: ReturnType<typeof grpcCaller<typeof StatsServiceService>>;
let client: StatsServiceClient;

beforeAll(async () => {
  await useTestSystem();
  client = createGrpcClient(StatsServiceClient, { address: systemAddresses().statsGrpc, tls: testGrpcTls('bff-en') });
  stats = grpcCaller(client, StatsServiceService, { codecs: statsApi });
});

afterAll(() => client?.close());

interface UsageAnswer {
  quota: { used: number; remaining: number; limit: number };
  per_day: Array<{ date: string; count: number }>;
  key_per_day: Array<{ date: string; count: number }>;
}

const sum = (days: Array<{ count: number }>) => days.reduce((total, day) => total + day.count, 0);

/** The UTC month of an instant (the quota's, the rollups' and the invoice's month). */
const utcMonth = (time: Date) => time.toISOString().slice(0, 7);

/**
 * Runs the scenario with the instant it starts at. The system reads the real clock: when a UTC
 * month ends while the scenario runs, "this month" changes under it, so a failure then is
 * followed by one more run with a new account, which stays inside one month (a month is longer
 * than this test). A failure inside one month is a failure.
 */
async function withinOneMonth(scenario: (startedAt: Date) => Promise<void>): Promise<void> {
  const startedAt = new Date();
  try {
    await scenario(startedAt);
  } catch (error) {
    if (utcMonth(startedAt) === utcMonth(new Date())) throw error;
    process.stdout.write(`usage end to end: the month changed during the run (${String(error)}), running again\n`);
    await scenario(new Date());
  }
}

describe('usage end to end', () => {
  it('N public API lookups show in GET /v1/usage and in billing’s invoice for the month', async () => {
    await withinOneMonth(lookupsShowEverywhere);
  });
});

async function lookupsShowEverywhere(startedAt: Date): Promise<void> {
  const account = await createTestAccount({ plan: 'api-test-large' });
  const auth = { authorization: `Bearer ${account.apiKey}` };
  const singles = ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '9.9.9.9', '208.67.222.222'];
  for (const ip of singles) expect((await fetch(`${bffEnUrl()}/v1/ip/${ip}`, { headers: auth })).status).toBe(200);
  // A reserved address is answered free: no lookup counted.
  expect((await fetch(`${bffEnUrl()}/v1/ip/10.0.0.1`, { headers: auth })).status).toBe(200);
  const batch = await fetch(`${bffEnUrl()}/v1/batch`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(['8.8.4.4', '1.0.0.1', '192.168.1.1', 'not-an-ip', '4.2.2.2']),
  });
  expect(batch.status).toBe(200);
  const n = singles.length + 3;
  const answered = Date.now();

  let usage: UsageAnswer | undefined;
  await waitFor(
    async () => {
      const response = await fetch(`${bffEnUrl()}/v1/usage`, { headers: auth });
      usage = (await response.json()) as UsageAnswer;
      return sum(usage.per_day) === n && sum(usage.key_per_day) === n;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `GET /v1/usage to show ${n} lookups per day` },
  );
  process.stdout.write(`usage end to end: ${n} lookups in GET /v1/usage after ${Date.now() - answered} ms\n`);
  expect(usage?.quota.used).toBe(n);

  // The per-day counts came from stats (the rollups of the ledger), not only from the quota counters.
  const month = new Date(Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), 1));
  const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  const rollups = await stats.getUsage({
    accountId: account.accountId,
    apiKeyId: '',
    from: month,
    to: next,
    granularity: RollupGranularity.ROLLUP_GRANULARITY_MONTH,
  });
  expect(rollups.total?.lookups).toBe(n);
  expect(rollups.total?.requests).toBe(singles.length + 2);
  expect(rollups.total?.free).toBe(3);
  const monthUsage = await stats.getMonthUsage({ accountId: account.accountId });
  expect(monthUsage.used).toBe(n);

  const { billing } = systemClients();
  await waitFor(async () => (await billing.getUpcomingInvoice({ accountId: account.accountId })).invoice?.lookups === n, {
    timeoutMs: 60_000,
    intervalMs: 200,
    what: `billing's upcoming invoice to count ${n} lookups`,
  });
}
