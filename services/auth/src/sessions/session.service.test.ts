import { ManualClock } from '@ipdata/common/testing';
import { describe, expect, it } from 'vitest';
import {
  SessionService,
  type CachedSession,
  type SessionCache,
  type SessionRecord,
  type SessionStore,
} from './session.service.js';

const DAY = 24 * 3600_000;

/** In-memory store and cache; an idle timeout longer than a session, so only the absolute expiry ends it. */
function sessions(clock: ManualClock) {
  const records = new Map<string, SessionRecord>();
  const store: SessionStore = {
    insert: async (session) => void records.set(session.tokenHash, { ...session }),
    findByHash: async (hash) => records.get(hash),
    revoke: async () => undefined,
    touch: async (hash, at) => {
      const record = records.get(hash);
      if (record) record.lastSeenAt = at;
    },
    revokeAllForAccount: async () => [],
    deleteExpired: async () => 0,
  };
  const entries = new Map<string, CachedSession>();
  const cache: SessionCache = {
    get: async (hash) => entries.get(hash),
    fill: async (hash, entry) => void (entries.has(hash) || entries.set(hash, entry)),
    put: async (hash, entry) => void entries.set(hash, entry),
    refresh: async (hash, entry) => void (entries.has(hash) && entries.set(hash, entry)),
  };
  return new SessionService(store, cache, clock, { maxCacheTtlMs: 60_000, idleTimeoutMs: 40 * DAY });
}

describe('SessionService expiry across calendar boundaries', () => {
  it('runs a 7-day session over the year boundary to the millisecond', async () => {
    const clock = new ManualClock(new Date('2026-12-25T23:59:59.999Z'));
    const service = sessions(clock);
    const { token, expiresAt } = await service.create('acc-1', false);
    expect(expiresAt.toISOString()).toBe('2027-01-01T23:59:59.999Z');
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    await expect(service.resolve(token)).resolves.toMatchObject({ accountId: 'acc-1' });
    clock.advance(1); // 1 Jan 2027
    await expect(service.resolve(token)).resolves.toMatchObject({ accountId: 'acc-1' });
    clock.set(new Date(expiresAt.getTime() - 1));
    await expect(service.resolve(token)).resolves.toMatchObject({ accountId: 'acc-1' });
    clock.advance(1);
    await expect(service.resolve(token)).rejects.toMatchObject({ reason: 'session_invalid' });
  });

  it('counts 29 February as a day of a 30-day session', async () => {
    const clock = new ManualClock(new Date('2028-02-15T12:00:00Z'));
    const leap = sessions(clock);
    expect((await leap.create('acc-2', true)).expiresAt.toISOString()).toBe('2028-03-16T12:00:00.000Z');
    clock.set(new Date('2027-02-15T12:00:00Z'));
    expect((await sessions(clock).create('acc-3', true)).expiresAt.toISOString()).toBe('2027-03-17T12:00:00.000Z');

    clock.set(new Date('2028-02-22T00:00:00Z'));
    const { token, expiresAt } = await leap.create('acc-4', false);
    expect(expiresAt.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    clock.set(new Date('2028-02-28T23:59:59.999Z'));
    await expect(leap.resolve(token)).resolves.toMatchObject({ accountId: 'acc-4' });
    clock.advance(1);
    await expect(leap.resolve(token)).rejects.toMatchObject({ reason: 'session_invalid' });
  });
});
