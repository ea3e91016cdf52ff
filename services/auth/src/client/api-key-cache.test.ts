import { UnauthenticatedError, UnavailableError } from '@ipdata/common';
import { PlanTier, SubscriptionChanged } from '@ipdata/proto/events/v1/billing';
import { UserEvent, UserEventKind } from '@ipdata/proto/events/v1/user';
import { describe, expect, it } from 'vitest';
import { ApiKeyClientCache, type ResolvedApiKey } from './api-key-cache.js';

function resolved(key: string): ResolvedApiKey {
  const [, account, id] = key.split(':');
  return {
    accountId: account ?? '',
    keyId: id ?? '',
    tier: PlanTier.PLAN_TIER_FREE,
    planId: '',
    limits: undefined,
    periodEnd: undefined,
  };
}

function setup(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  let now = 0;
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  const cache = new ApiKeyClientCache({
    resolve: async (key) => {
      calls.push(key);
      await gate;
      if (key.startsWith('bad')) throw new UnauthenticatedError('Invalid API key');
      if (key.startsWith('down')) throw new UnavailableError('auth down');
      return resolved(key);
    },
    maxAgeMs: 1_000,
    negativeMaxAgeMs: 100,
    now: () => now,
    ...options,
  });
  return { cache, calls, tick: (ms: number) => (now += ms), hold: (p: Promise<void>) => (gate = p) };
}

describe('ApiKeyClientCache', () => {
  it('serves hits locally until maxAge, then asks again', async () => {
    const { cache, calls, tick } = setup();
    await cache.resolve('k:acc:1');
    await cache.resolve('k:acc:1');
    expect(calls).toHaveLength(1);
    tick(1_000);
    await cache.resolve('k:acc:1');
    expect(calls).toHaveLength(2);
  });

  it('drops keys on API_KEY_REVOKED/ROTATED and accounts on SubscriptionChanged', async () => {
    const { cache, calls } = setup();
    await cache.resolve('k:acc:1');
    await cache.resolve('k:acc:2');
    await cache.resolve('k:other:3');
    cache.onUserEvent(UserEvent.fromPartial({ kind: UserEventKind.USER_EVENT_KIND_API_KEY_CREATED, apiKeyId: '1' }));
    expect(cache.stats.size).toBe(3);
    cache.onUserEvent(UserEvent.fromPartial({ kind: UserEventKind.USER_EVENT_KIND_API_KEY_REVOKED, apiKeyId: '1' }));
    expect(cache.stats.size).toBe(2);
    cache.onSubscriptionChanged(SubscriptionChanged.fromPartial({ accountId: 'acc' }));
    expect(cache.stats.size).toBe(1);
    await cache.resolve('k:other:3');
    expect(calls).toHaveLength(3);
  });

  it('remembers invalid keys briefly but never outages', async () => {
    const { cache, calls, tick } = setup();
    await expect(cache.resolve('bad')).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(cache.resolve('bad')).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(calls).toHaveLength(1);
    tick(100);
    await expect(cache.resolve('bad')).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(cache.resolve('down')).rejects.toBeInstanceOf(UnavailableError);
    await expect(cache.resolve('down')).rejects.toBeInstanceOf(UnavailableError);
    expect(calls).toHaveLength(4);
  });

  it('shares one call between concurrent misses and does not cache a result that raced with a revocation', async () => {
    const { cache, calls, hold } = setup();
    let release!: () => void;
    void hold(new Promise<void>((resolve) => (release = resolve)));
    const a = cache.resolve('k:acc:1');
    const b = cache.resolve('k:acc:1');
    cache.invalidateKeyId('1');
    release();
    expect(await a).toEqual(await b);
    expect(calls).toHaveLength(1);
    expect(cache.stats.size).toBe(0);
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const { cache, calls, tick } = setup({ maxEntries: 2, maxAgeMs: 10_000 });
    await cache.resolve('k:a:1');
    await cache.resolve('k:a:2');
    tick(1_000);
    await cache.resolve('k:a:1');
    await cache.resolve('k:a:3');
    expect(cache.stats.size).toBe(2);
    await cache.resolve('k:a:1');
    expect(calls).toHaveLength(3);
    await cache.resolve('k:a:2');
    expect(calls).toHaveLength(4);
  });

  it('moves a hit to the recent end at most once a second: recency to within a second', async () => {
    const { cache, calls, tick } = setup({ maxEntries: 2, maxAgeMs: 10_000 });
    await cache.resolve('k:a:1');
    await cache.resolve('k:a:2');
    tick(999);
    // Used again, but within a second of being stored: still the older of the two.
    await cache.resolve('k:a:1');
    await cache.resolve('k:a:3');
    expect(calls).toHaveLength(3);
    await cache.resolve('k:a:2');
    expect(calls).toHaveLength(3);
    await cache.resolve('k:a:1');
    expect(calls).toHaveLength(4);
  });
});
