import { TOPICS } from '@ipdata/common';
import { TopicRecorder, waitFor } from '@ipdata/common/testing';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, spawnBffEn, useTestSystem, type BffEnProcess } from '../../../scripts/test/system/index.js';

// The usage ledger through real bff-en processes: every answered request has exactly one event
// on usage.lookup.v1 (event id = X-Request-Id), also when bff-en is killed with SIGKILL mid-load.

let recorder: TopicRecorder<UsageEvent>;

beforeAll(async () => {
  await useTestSystem();
  recorder = await TopicRecorder.start(TOPICS.usageLookup, { fromLogEnd: true });
});

afterAll(async () => {
  await recorder.stop();
});

function eventsOf(accountId: string): UsageEvent[] {
  return recorder.records.map((record) => record.event).filter((event) => event.accountId === accountId);
}

describe('usage events of the public API', () => {
  it('one event per answered request, with the facts of the lookup', async () => {
    const account = await createTestAccount({ plan: 'api-test-large' });
    const bff = await spawnBffEn();
    try {
      const single = await fetch(`${bff.url}/v1/ip/2606:4700:4700::1111`, {
        headers: { authorization: `Bearer ${account.apiKey}` },
      });
      const batch = await fetch(`${bff.url}/v1/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(['8.8.8.8', '1.1.1.1', '10.0.0.1', 'bad']),
      });
      expect([single.status, batch.status]).toEqual([200, 200]);
      const located = ((await single.json()) as { country_code: string | null }).country_code !== null;
      await waitFor(() => eventsOf(account.accountId).length >= 2, { timeoutMs: 30_000, what: 'two usage events' });
      const byId = new Map(eventsOf(account.accountId).map((event) => [event.meta?.id, event]));
      expect(byId.get(single.headers.get('x-request-id') ?? '')).toMatchObject({
        apiKeyId: account.keyId,
        endpoint: '/v1/ip/{ip}',
        ip: '2606:4700:4700::1111',
        ipVersion: 6,
        count: 1,
        freeCount: 0,
        httpStatus: 200,
        result: located ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_NOT_FOUND,
      });
      expect(byId.get(batch.headers.get('x-request-id') ?? '')).toMatchObject({ endpoint: '/v1/batch', count: 2, freeCount: 2 });
    } finally {
      await bff.stop();
    }
  });

  it('a bff-en killed with SIGKILL mid-load loses no event of a request it answered', async () => {
    const account = await createTestAccount({ plan: 'api-test-large' });
    const first = await spawnBffEn();
    let restarted: BffEnProcess | undefined;
    const answered: string[] = [];
    try {
      // 8 clients in a loop until the process dies under them.
      const clients = Array.from({ length: 8 }, async (_, client) => {
        for (let i = 0; ; i++) {
          let response: Response;
          try {
            response = await fetch(`${first.url}/v1/ip/${20 + client}.${i % 250}.1.1`, {
              headers: { authorization: `Bearer ${account.apiKey}` },
            });
            await response.text();
          } catch {
            return; // the process is gone
          }
          if (response.status === 200) answered.push(response.headers.get('x-request-id') ?? '');
        }
      });
      await waitFor(() => answered.length >= 400, { timeoutMs: 30_000, what: '400 answered requests' });
      first.kill('SIGKILL');
      await Promise.all(clients);
      await first.exited();
      // Same instance: the new relay first sends what the killed one left pending in the stream.
      restarted = await spawnBffEn({ INSTANCE_ID: first.instance });
      const ids = new Set(answered);
      await waitFor(
        () => {
          const seen = new Set(eventsOf(account.accountId).map((event) => event.meta?.id));
          return [...ids].every((id) => seen.has(id));
        },
        { timeoutMs: 60_000, intervalMs: 250, what: `all ${ids.size} answered requests' events on the topic` },
      );
      const events = eventsOf(account.accountId);
      // Re-sent after the crash is allowed (consumers de-duplicate by id); an event without an answered request is not.
      const distinct = new Set(events.map((event) => event.meta?.id));
      expect(distinct.size).toBeGreaterThanOrEqual(ids.size);
      // At most the requests in flight at the kill were stored without reaching their client.
      expect(distinct.size - ids.size).toBeLessThanOrEqual(8);
    } finally {
      await restarted?.stop();
    }
  });
});
