import type { ConsumedEvent } from '@ipdata/common';
import { FailedPreconditionError } from '@ipdata/common';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RollupGeneration } from '../counters/rollup-generation.js';
import type {
  LedgerOffsets,
  LedgerReplaySource,
  LiveLedger,
  ReplayBatchHandler,
  ReplayReader,
  RollupCollectionsAdmin,
} from './replay-ports.js';
import { RollupReplays } from './rollup-replay.js';

const logger = pino({ level: 'silent' });

function usageEvent(offset: number, time: string): ConsumedEvent<UsageEvent> {
  return {
    event: { meta: { id: `e${offset}`, source: 't', time: new Date(time), correlationId: '' } } as UsageEvent,
    id: `e${offset}`,
    type: 'ipdata.events.v1.UsageEvent',
    source: 't',
    time,
    key: null,
    topic: 'usage.lookup.v1',
    partition: 0,
    offset: String(offset),
    headers: {},
  };
}

/** A ledger of one partition whose records are handed to the handler in one chunk per readUpTo. */
function fakeLedger(records: Array<ConsumedEvent<UsageEvent>>, calls: string[], failAt?: number) {
  const source: LedgerReplaySource = {
    earliestOffsets: async () => new Map([[0, 0]]),
    offsetsAtTime: async (time) => {
      calls.push(`offsetsAtTime ${time.toISOString()}`);
      return new Map([[0, 1]]);
    },
    open: async (_id, start, handler: ReplayBatchHandler): Promise<ReplayReader> => {
      const next = new Map(start);
      let read = 0;
      return {
        positions: () => next,
        recordsRead: () => read,
        readUpTo: async (targets: LedgerOffsets) => {
          const from = next.get(0) ?? 0;
          const to = targets.get(0) ?? from;
          calls.push(`readUpTo ${to}`);
          if (failAt !== undefined && to >= failAt) throw new Error('broker gone');
          const events = records.filter((record) => Number(record.offset) >= from && Number(record.offset) < to);
          if (events.length > 0)
            await handler({
              topic: 'usage.lookup.v1',
              partition: 0,
              events,
              heartbeat: async () => {},
            });
          read += to - from;
          next.set(0, to);
        },
        close: async () => {
          calls.push('close');
        },
      };
    },
  };
  return source;
}

function setup(options: { failAt?: number } = {}) {
  const calls: string[] = [];
  const records = [
    usageEvent(0, '2025-03-09T23:30:00Z'),
    usageEvent(1, '2025-03-10T00:10:00Z'),
    usageEvent(2, '2025-03-10T05:00:00Z'),
  ];
  let committed = 2;
  const live: LiveLedger = {
    pause: async () => {
      calls.push('pause');
      committed = 3; // the live consumer went on meanwhile
    },
    resume: () => calls.push('resume'),
    committedOffsets: async () => new Map([[0, committed]]),
  };
  const admin: RollupCollectionsAdmin = {
    prepare: async (c) => void calls.push(`prepare ${c.usage}`),
    copyBefore: async (_f, _t, before) => (calls.push(`copyBefore ${before.toISOString()}`), 7),
    copyOpenCarries: async () => (calls.push('copyOpenCarries'), 0),
    drop: async (c) => void calls.push(`drop ${c.usage}`),
  };
  const saved: string[] = [];
  const generation = new RollupGeneration({ load: async () => null, save: async (s) => void saved.push(s) });
  const handled: string[] = [];
  const replays = new RollupReplays({
    generation,
    source: fakeLedger(records, calls, options.failAt),
    live,
    admin,
    handlerFor: (collections) => async (batch) => {
      handled.push(...batch.events.map((e) => `${collections.usage}:${e.offset}`));
      return batch.events.length;
    },
    openFrom: () => new Date('2025-03-10T06:00:00Z'),
    clock: { now: () => new Date('2025-03-10T07:00:00Z') },
    logger,
  });
  return { calls, replays, generation, saved, handled };
}

describe('RollupReplays', () => {
  it('catches up, pauses the live consumer, reads up to its committed offsets, copies carries, swaps, resumes', async () => {
    const { calls, replays, generation, handled } = setup();
    const started = replays.start({ kind: 'earliest' });
    expect(started.state).toBe('running');
    expect(() => replays.start({ kind: 'earliest' })).toThrow(FailedPreconditionError);
    await replays.settled();
    const status = replays.get(started.id);
    const suffix = `_g${started.id}`;
    expect(status).toMatchObject({ state: 'swapped', recordsRead: 3, eventsCounted: 3, recordsLeft: 0, generation: suffix });
    expect(generation.current().usage).toBe(`usage_rollups${suffix}`);
    expect(handled).toEqual([0, 1, 2].map((offset) => `usage_rollups${suffix}:${offset}`));
    expect(calls).toEqual([
      `prepare usage_rollups${suffix}`,
      'readUpTo 2',
      'pause',
      'readUpTo 3',
      'copyOpenCarries',
      'resume',
      'close',
    ]);
  });

  it('rebuilds from a time: copies earlier days, starts an hour before the day, skips events of earlier days', async () => {
    const { calls, replays, handled } = setup();
    const { id } = replays.start({ kind: 'time', time: new Date('2025-03-10T04:00:00Z') });
    await replays.settled();
    expect(calls).toContain('copyBefore 2025-03-10T00:00:00.000Z');
    expect(calls).toContain('offsetsAtTime 2025-03-09T23:00:00.000Z');
    expect(handled.map((entry) => entry.split(':')[1])).toEqual(['1', '2']);
    expect(replays.get(id).state).toBe('swapped');
  });

  it('leaves the live generation untouched and resumes the live consumer when the replay fails', async () => {
    const { calls, replays, generation, saved } = setup({ failAt: 3 });
    const { id } = replays.start({ kind: 'earliest' });
    await replays.settled();
    const failed = replays.get(id);
    expect(failed).toMatchObject({ state: 'failed', generation: '' });
    expect(failed.error).toContain('broker gone');
    expect(generation.current().usage).toBe('usage_rollups');
    expect(saved).toEqual([]);
    expect(calls.slice(-4)).toEqual(['readUpTo 3', 'resume', 'close', `drop usage_rollups_g${id}`]);
    // A new replay may start after a failed one.
    expect(replays.start({ kind: 'earliest' }).state).toBe('running');
    await replays.settled();
  });
});
