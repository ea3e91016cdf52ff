import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { prometheusText } from '@ipdata/common';
import { waitFor } from '@ipdata/common/testing';
import { quotaReconcileTask } from './quota-reconcile.task.js';
import type { ReconcileResult } from './quota-reconciler.js';

describe('quotaReconcileTask', () => {
  it('is off at interval 0', () => {
    expect(
      quotaReconcileTask(0, { reconcile: () => Promise.reject(new Error('never')) }, pino({ level: 'silent' })),
    ).toBeUndefined();
  });

  it('reconciles every interval, one run at a time, logs a failed run and goes on, and stops on shutdown', async () => {
    const lines: Array<{ msg: string; reason?: string; countersRaised?: number }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
    let runs = 0;
    let running = 0;
    let overlapped = false;
    const reconcile = async (): Promise<ReconcileResult> => {
      runs++;
      running++;
      overlapped ||= running > 1;
      // Longer than the interval: a run still going when the next is due must not be joined by a second.
      await new Promise((resolve) => setTimeout(resolve, 15));
      running--;
      if (runs === 1) throw new Error('Redis down');
      return { accounts: 1, countersRaised: runs === 2 ? 3 : 0, monthStart: new Date(0) };
    };
    const task = quotaReconcileTask(5, { reconcile }, logger);
    if (task === undefined) throw new Error('expected a task');
    await task.start();
    await waitFor(() => runs >= 4, { what: '4 reconcile runs', intervalMs: 5 });
    await task.shutdown();
    const stoppedAt = runs;
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(runs).toBe(stoppedAt);
    expect(running).toBe(0);
    expect(overlapped).toBe(false);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'quota-reconcile failed', reason: 'Redis down' }));
    expect(lines.filter((line) => line.msg === 'quota counters raised to the rollups')).toEqual([
      expect.objectContaining({ countersRaised: 3 }),
    ]);
    // The alert's series counts the raised counters of every run.
    expect(await prometheusText()).toMatch(/^ipdata_quota_reconcile_counters_raised_total\{[^}]*\} 3$/m);
  });
});
