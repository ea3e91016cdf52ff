import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import type { BulkJobRepository } from '../jobs/bulk-job.ports.js';
import { LeaseKeeper } from './lease-keeper.js';

const lease = { jobId: 'job-1', epoch: 1, token: 'me:1' };
// Heartbeats are not started (start() is not called): the tests write by hand.
const unusedRepository = {} as BulkJobRepository;

describe('LeaseKeeper (times from the clock it is given)', () => {
  it('holds the job for two thirds of a lease after the last confirmed write, across New Year', async () => {
    const clock = new ManualClock(new Date('2030-12-31T23:59:58.000Z'));
    const keeper = new LeaseKeeper(lease, unusedRepository, clock, 3_000, pino({ level: 'silent' }));
    clock.advance(1_999);
    expect(keeper.held).toBe(true);
    expect(keeper.lost).toBeUndefined();
    // A write asks the store for a lease until one lease after it was issued: in the new year.
    const asked: Date[] = [];
    const record = async (until: Date) => {
      asked.push(until);
      return true;
    };
    expect(await keeper.write(record)).toBe(true);
    expect(asked).toEqual([new Date('2031-01-01T00:00:02.999Z')]);
    // Held until 2 s (two thirds of 3 s) after that write, not from the start.
    clock.set(new Date('2031-01-01T00:00:01.998Z'));
    expect(keeper.held).toBe(true);
    clock.advance(1);
    expect(keeper.held).toBe(false);
    expect(keeper.lost).toBe('lease ran out');
    // Not held: no more writes reach the store.
    expect(await keeper.write(record)).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('a write that matched nothing (the job was taken over) loses the job at once', async () => {
    const clock = new ManualClock(new Date('2028-02-29T23:59:40.000Z'));
    const keeper = new LeaseKeeper(lease, unusedRepository, clock, 60_000, pino({ level: 'silent' }));
    expect(await keeper.write(async () => false)).toBe(false);
    expect(keeper.held).toBe(false);
    expect(keeper.lost).toBe('the job was taken over by another process');
  });
});
