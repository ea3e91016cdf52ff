import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@ipdata/common/testing';
import { InProcessClosingGate } from './closing-gate.js';
import type { ClosedRecord, ClosedRecords, ClosingState, ClosingStateStore } from './closing-ports.js';
import { HourCloser } from './hour-closer.js';

const logger = pino({ level: 'silent' });
const DELAY = 5 * 60_000;
const at = (iso: string) => new Date(iso);

/** The persisted boundary, compare-and-set like the Mongo store. */
class MemoryState implements ClosingStateStore {
  state: ClosingState | undefined;
  async loadOrCreate(initial: Date): Promise<ClosingState> {
    this.state ??= { openFrom: initial, closedTo: initial };
    return { ...this.state };
  }
  async advanceOpenFrom(from: Date, to: Date): Promise<ClosingState> {
    if (this.state!.openFrom.getTime() === from.getTime()) this.state = { ...this.state!, openFrom: to };
    return { ...this.state! };
  }
  async advanceClosedTo(from: Date, to: Date): Promise<ClosingState> {
    if (this.state!.closedTo.getTime() === from.getTime()) this.state = { ...this.state!, closedTo: to };
    return { ...this.state! };
  }
}

/** usage_closed: one record per (period, account, start). */
class MemoryRecords implements ClosedRecords {
  readonly records: ClosedRecord[] = [];
  async insertIfAbsent(record: ClosedRecord): Promise<string | null> {
    const id = `${record.period}|${record.accountId}|${record.periodStart.toISOString()}`;
    if (this.records.some((r) => `${r.period}|${r.accountId}|${r.periodStart.toISOString()}` === id)) return null;
    this.records.push(record);
    return id;
  }
  async hourSums(from: Date, to: Date): Promise<Map<string, number>> {
    const sums = new Map<string, number>();
    for (const r of this.records) {
      if (r.period !== 'hour' || r.periodStart < from || r.periodStart >= to) continue;
      sums.set(r.accountId, (sums.get(r.accountId) ?? 0) + r.lookups);
    }
    return sums;
  }
  months(): Array<[string, string, number]> {
    return this.records.filter((r) => r.period === 'month').map((r) => [r.accountId, r.periodStart.toISOString(), r.lookups]);
  }
  hours(): string[] {
    return this.records.filter((r) => r.period === 'hour').map((r) => r.periodStart.toISOString());
  }
}

const running: HourCloser[] = [];
afterEach(async () => {
  for (const closer of running.splice(0)) await closer.shutdown();
});

/** A closer whose clock starts at `start`, billing `usage` (hour ISO → account → lookups). */
async function closerAt(start: string, usage: Record<string, Record<string, number>>) {
  const clock = new ManualClock(at(start));
  const gate = new InProcessClosingGate();
  const records = new MemoryRecords();
  const closer = new HourCloser(
    { closeDelayMs: DELAY, intervalMs: 3_600_000 },
    {
      gate,
      state: new MemoryState(),
      usage: { hourTotals: async (hour) => new Map(Object.entries(usage[hour.toISOString()] ?? {})) },
      records,
      publisher: { publishPending: async () => true },
      clock,
      isLedgerReady: () => true,
    },
    logger,
  );
  running.push(closer);
  await closer.start();
  return { clock, gate, records, closer };
}

describe('HourCloser at month and year ends', () => {
  it('closes December with the year’s last hour, at 00:05 on 1 January, and January’s hours into January', async () => {
    const { clock, gate, records, closer } = await closerAt('2026-12-31T22:10:00.000Z', {
      '2026-12-31T22:00:00.000Z': { a: 5 },
      '2026-12-31T23:00:00.000Z': { a: 7, b: 1 },
      '2027-01-01T00:00:00.000Z': { a: 3 },
    });
    // First start: the boundary is the current hour.
    expect(gate.openFrom).toEqual(at('2026-12-31T22:00:00.000Z'));

    clock.set(at('2027-01-01T00:04:59.999Z'));
    expect(await closer.runOnce()).toBe(1); // 22:00; 23:00 is due at 00:05
    expect(gate.openFrom).toEqual(at('2026-12-31T23:00:00.000Z'));
    expect(records.months()).toEqual([]);

    clock.set(at('2027-01-01T00:05:00.000Z'));
    expect(await closer.runOnce()).toBe(1);
    expect(gate.openFrom).toEqual(at('2027-01-01T00:00:00.000Z'));
    expect(records.months().sort()).toEqual([
      ['a', '2026-12-01T00:00:00.000Z', 12],
      ['b', '2026-12-01T00:00:00.000Z', 1],
    ]);
    // Running again closes nothing and adds no second month.
    expect(await closer.runOnce()).toBe(0);

    clock.set(at('2027-01-01T01:05:00.000Z'));
    expect(await closer.runOnce()).toBe(1);
    expect(records.hours()).toEqual([
      '2026-12-31T22:00:00.000Z',
      '2026-12-31T23:00:00.000Z',
      '2026-12-31T23:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    // January is not over: its month is not closed, December's stays as it was.
    expect(records.months().sort()).toEqual([
      ['a', '2026-12-01T00:00:00.000Z', 12],
      ['b', '2026-12-01T00:00:00.000Z', 1],
    ]);
  });

  it('closes February after 29 February’s last hour in a leap year', async () => {
    const { clock, records, closer } = await closerAt('2028-02-28T23:10:00.000Z', {
      '2028-02-28T23:00:00.000Z': { a: 1 },
      '2028-02-29T12:00:00.000Z': { a: 2 },
      '2028-02-29T23:00:00.000Z': { a: 4 },
      '2028-03-01T00:00:00.000Z': { a: 100 },
    });
    clock.set(at('2028-02-29T00:05:00.000Z'));
    expect(await closer.runOnce()).toBe(1);
    // 28 February's last hour is not February's last in 2028.
    expect(records.months()).toEqual([]);

    clock.set(at('2028-03-01T00:04:59.999Z'));
    expect(await closer.runOnce()).toBe(23); // 29 February 00:00 to 22:00
    expect(records.months()).toEqual([]);

    clock.set(at('2028-03-01T00:05:00.000Z'));
    expect(await closer.runOnce()).toBe(1);
    expect(records.months()).toEqual([['a', '2028-02-01T00:00:00.000Z', 7]]);
  });

  it('closes February after 28 February’s last hour in a common year', async () => {
    const { clock, records, closer } = await closerAt('2027-02-28T22:10:00.000Z', {
      '2027-02-28T22:00:00.000Z': { a: 2 },
      '2027-02-28T23:00:00.000Z': { a: 3 },
    });
    clock.set(at('2027-03-01T00:05:00.000Z'));
    expect(await closer.runOnce()).toBe(2);
    expect(records.months()).toEqual([['a', '2027-02-01T00:00:00.000Z', 5]]);
  });
});
