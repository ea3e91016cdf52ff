import type { Logger } from 'pino';
import { PeriodicTask, metricsMeter } from '@ipdata/common';
import type { QuotaReconciler } from './quota-reconciler.js';

/** `ipdata_quota_reconcile_counters_raised_total`: counters a run found below the rollups (the QuotaCountersDrifting alert). */
const countersRaised = metricsMeter().createCounter('ipdata.quota.reconcile.counters_raised', {
  unit: '{counter}',
  description: 'Quota counters the periodic reconcile raised to the rollups.',
});

/**
 * Raises the quota counters to the rollups every interval (QUOTA_RECONCILE_INTERVAL_SECONDS):
 * requests bff-en granted while Redis did not answer are counted this way, from their usage
 * events (services/metering/README.md, "Redis unavailable"). A common PeriodicTask: runs never
 * overlap, a failed run is logged and the next comes on schedule, shutdown waits for a run in
 * progress. Undefined when the interval is 0 (off: `make usage-reconcile` only).
 */
export function quotaReconcileTask(
  intervalMs: number,
  reconciler: Pick<QuotaReconciler, 'reconcile'>,
  logger: Logger,
): PeriodicTask | undefined {
  if (intervalMs <= 0) return undefined;
  return PeriodicTask.fromConfig(
    {
      name: 'quota-reconcile',
      intervalMs,
      run: async () => {
        const result = await reconciler.reconcile();
        countersRaised.add(result.countersRaised);
        if (result.countersRaised > 0) {
          logger.info(
            { accounts: result.accounts, countersRaised: result.countersRaised },
            'quota counters raised to the rollups',
          );
        }
      },
    },
    logger,
  );
}
