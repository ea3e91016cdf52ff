import { NotFoundError, UnauthenticatedError, createKafka, EventProducer } from '@ipdata/common';
import { uniqueName, waitFor } from '@ipdata/common/testing';
import { SmsPurpose } from '@ipdata/proto/auth/v1/auth';
import { PlanTier, SubscriptionChange, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { UserEventKind } from '@ipdata/proto/events/v1/user';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyClientCache, apiKeyCacheConsumers, grpcApiKeyResolver } from '../src/client/index.js';
import { sha256Hex } from '../src/shared/secrets.js';
import { AuthHarness, randomPhone } from './fixtures/auth-harness.js';

const DAY = 24 * 3_600_000;

describe('API keys: create, list, rotate, revoke, resolve with plan and limits', () => {
  const auth = new AuthHarness();
  beforeAll(() => auth.start({ readEvents: true, billing: true }));
  afterAll(() => auth.stop());

  async function account() {
    const phone = randomPhone();
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_REGISTER);
    const { session, user } = await auth.call('registerWithPhone', { phone, code, password: 'secret-1234' });
    return { token: session?.token ?? '', accountId: user?.id ?? '', phone };
  }

  const resolve = (key: string) => auth.call('resolveApiKey', { key });

  it('shows the secret once, lists prefixes only and stores only hashes', async () => {
    const { token, accountId } = await account();
    const created = await auth.call('createApiKey', { token, name: 'production' });
    expect(created.secret).toMatch(/^ipd_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({ name: 'production', prefix: created.secret.slice(0, 12) });
    const listed = await auth.call('listApiKeys', { token });
    expect(listed.apiKeys).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(12));
    const stored = await (await auth.mongoDb()).collection('api_keys').findOne({ accountId });
    expect(stored).toMatchObject({ keyHash: sha256Hex(created.secret), prefix: created.secret.slice(0, 12) });
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(12));
    await auth.waitForEvent(
      (e) => e.apiKeyId === created.apiKey?.id && e.kind === UserEventKind.USER_EVENT_KIND_API_KEY_CREATED,
      'API_KEY_CREATED',
    );
  });

  it('holds the cap of 20 active keys under 40 parallel creates', async () => {
    const { token, accountId } = await account();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => auth.call('createApiKey', { token, name: `parallel ${i}` })),
    );
    const created = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(created).toHaveLength(20);
    for (const result of refused) expect(result.reason).toMatchObject({ reason: 'api_key_limit' });
    expect(await (await auth.mongoDb()).collection('api_keys').countDocuments({ accountId, revokedAt: null })).toBe(20);
    expect((await auth.call('listApiKeys', { token })).apiKeys).toHaveLength(20);
    // Revoking frees a slot; rotating keeps the count.
    const [first, second] = (await auth.call('listApiKeys', { token })).apiKeys;
    await auth.call('revokeApiKey', { token, keyId: first?.id ?? '' });
    await auth.call('rotateApiKey', { token, keyId: second?.id ?? '' });
    await expect(auth.call('createApiKey', { token, name: 'one more' })).resolves.toMatchObject({ apiKey: { name: 'one more' } });
    await expect(auth.call('createApiKey', { token, name: 'too many' })).rejects.toMatchObject({ reason: 'api_key_limit' });
    expect((await auth.call('listApiKeys', { token })).apiKeys).toHaveLength(20);
  });

  it('resolves a key to its account and the FREE plan (50,000 lookups) before any subscription event', async () => {
    const { token, accountId } = await account();
    const { secret, apiKey } = await auth.call('createApiKey', { token, name: 'k' });
    const resolved = await resolve(secret);
    expect(resolved).toMatchObject({ accountId, keyId: apiKey?.id, tier: PlanTier.PLAN_TIER_FREE, planId: '' });
    expect(resolved.limits?.lookupsPerMonth).toBe(50_000);
    await expect(resolve('ipd_' + 'x'.repeat(43))).rejects.toMatchObject({ reason: 'api_key_invalid' });
    await expect(resolve('not a key')).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('refuses a revoked key at once, even right after it was cached', async () => {
    const { token, accountId } = await account();
    const { secret, apiKey } = await auth.call('createApiKey', { token, name: 'k' });
    await resolve(secret);
    await resolve(secret);
    const revoked = await auth.call('revokeApiKey', { token, keyId: apiKey?.id ?? '' });
    expect(revoked.apiKey?.revokedAt).toBeInstanceOf(Date);
    // Revoked is not unknown: callers answer 403 with a reason the key owner can act on.
    await expect(resolve(secret)).rejects.toMatchObject({ reason: 'api_key_revoked' });
    expect((await auth.call('listApiKeys', { token })).apiKeys).toHaveLength(0);
    expect((await auth.call('listApiKeys', { token, includeRevoked: true })).apiKeys).toHaveLength(1);
    await auth.waitForEvent(
      (e) => e.accountId === accountId && e.apiKeyId === apiKey?.id && e.kind === UserEventKind.USER_EVENT_KIND_API_KEY_REVOKED,
      'API_KEY_REVOKED',
    );
  });

  it('rotates a key: the old one stops working, the new one works', async () => {
    const { token } = await account();
    const first = await auth.call('createApiKey', { token, name: 'ci' });
    await resolve(first.secret);
    const rotated = await auth.call('rotateApiKey', { token, keyId: first.apiKey?.id ?? '' });
    expect(rotated.revokedKeyId).toBe(first.apiKey?.id);
    expect(rotated.apiKey?.name).toBe('ci');
    await expect(resolve(first.secret)).rejects.toMatchObject({ reason: 'api_key_revoked' });
    await expect(resolve(`${first.secret.slice(0, -2)}xx`)).rejects.toMatchObject({ reason: 'api_key_invalid' });
    await expect(resolve(rotated.secret)).resolves.toMatchObject({ keyId: rotated.apiKey?.id });
    await auth.waitForEvent(
      (e) => e.apiKeyId === first.apiKey?.id && e.kind === UserEventKind.USER_EVENT_KIND_API_KEY_ROTATED,
      'API_KEY_ROTATED',
    );
  });

  it("does not let one account revoke another's key, nor use a dead session", async () => {
    const owner = await account();
    const other = await account();
    const { apiKey, secret } = await auth.call('createApiKey', { token: owner.token, name: 'mine' });
    await expect(auth.call('revokeApiKey', { token: other.token, keyId: apiKey?.id ?? '' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(auth.call('createApiKey', { token: 'stale', name: 'x' })).rejects.toMatchObject({ reason: 'session_invalid' });
    await expect(resolve(secret)).resolves.toMatchObject({ accountId: owner.accountId });
  });

  it('follows subscription changes from billing: plan, limits, auth list and payService', async () => {
    const startedAt = auth.clock.now();
    const { token, accountId, phone } = await account();
    const { secret } = await auth.call('createApiKey', { token, name: 'k' });
    expect((await resolve(secret)).tier).toBe(PlanTier.PLAN_TIER_FREE); // cached now
    const periodEnd = new Date(auth.clock.now().getTime() + 3 * DAY);
    await auth.publishSubscription({
      accountId,
      subscriptionId: 'sub-1',
      kind: SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS,
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED,
      planId: 'api-standard-monthly',
      tier: PlanTier.PLAN_TIER_STANDARD,
      limits: {
        lookupsPerMonth: 1_000_000,
        overagePricePer1kMinor: 50,
        currency: 'USD',
        supportLevel: 'priority',
        downloadableDatasets: [],
        maxLookupsPerMonth: 0,
        burstPerSecond: 0,
      },
      periodEnd,
    });
    await auth.publishSubscription({
      accountId,
      subscriptionId: 'sub-2',
      kind: SubscriptionKind.SUBSCRIPTION_KIND_DATA_DOWNLOAD,
      change: SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED,
      planId: 'download-business-yearly',
      tier: PlanTier.PLAN_TIER_BUSINESS,
      periodEnd,
    });
    const upgraded = await waitFor(
      async () => {
        const resolved = await resolve(secret);
        return resolved.tier === PlanTier.PLAN_TIER_STANDARD && resolved;
      },
      { what: 'the standard plan on the key' },
    );
    expect(upgraded).toMatchObject({ planId: 'api-standard-monthly', periodEnd });
    expect(upgraded.limits).toMatchObject({ lookupsPerMonth: 1_000_000, supportLevel: 'priority' });
    const { user } = await waitFor(async () => {
      const got = await auth.call('getUser', { token });
      return got.user?.auth.includes('download:business') && got;
    });
    expect(user).toMatchObject({ auth: ['api:standard', 'download:business'], payService: ['api', 'download'] });

    // Past the paid period, the key falls back to FREE without any event.
    auth.clock.set(new Date(periodEnd.getTime() + 1_000));
    await waitFor(async () => (await resolve(secret)).tier === PlanTier.PLAN_TIER_FREE, { what: 'free plan after the period' });
    // The first session went idle meanwhile (24 h idle timeout): the user logs in again.
    const later = await auth.call('loginWithPhonePassword', { phone, password: 'secret-1234' });
    expect((await auth.call('getUser', { token: later.session?.token ?? '' })).user).toMatchObject({
      auth: ['api:free'],
      payService: [],
    });
    // Back to where this test started, for the tests after it.
    auth.clock.set(startedAt);
  });

  it('client-side cache: hits locally, drops revoked keys when auth.user.v1 says so', async () => {
    const { token } = await account();
    const { secret, apiKey } = await auth.call('createApiKey', { token, name: 'bff' });
    let remoteCalls = 0;
    const remote = grpcApiKeyResolver(auth.client);
    const cache = new ApiKeyClientCache({ resolve: (key) => (remoteCalls++, remote(key)), maxAgeMs: 60_000 });
    const logger = pino({ level: 'silent' });
    const kafka = createKafka({ brokers: auth.kafka ? stackBrokers() : [], clientId: uniqueName('bff') }, logger);
    const dlq = EventProducer.fromConfig({ kafka, source: 'bff-test' }, logger);
    await dlq.start();
    const consumers = apiKeyCacheConsumers({ kafka, groupId: uniqueName('bff-cache'), cache, dlqProducer: dlq, logger });
    try {
      await Promise.all(consumers.map((consumer) => consumer.start()));
      await Promise.all(consumers.map((consumer) => consumer.waitUntilJoined()));
      const [a, b] = await Promise.all([cache.resolve(secret), cache.resolve(secret)]);
      expect(a).toEqual(b);
      await cache.resolve(secret);
      expect(remoteCalls).toBe(1);
      expect(cache.stats.hits).toBe(1);

      await auth.call('revokeApiKey', { token, keyId: apiKey?.id ?? '' });
      await waitFor(() => cache.stats.size === 0, { what: 'the cache entry dropped by API_KEY_REVOKED' });
      await expect(cache.resolve(secret)).rejects.toMatchObject({ reason: 'api_key_revoked' });
      // The refusal is remembered too: a client hammering with a revoked key does not reach auth each time.
      await expect(cache.resolve(secret)).rejects.toMatchObject({ reason: 'api_key_revoked' });
      expect(remoteCalls).toBe(2);
    } finally {
      await Promise.all(consumers.map((consumer) => consumer.shutdown()));
      await dlq.shutdown();
    }
  });
});

function stackBrokers(): string[] {
  return (process.env['KAFKA_BROKERS'] ?? '').split(',');
}
