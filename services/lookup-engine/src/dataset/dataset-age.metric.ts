import { metricsMeter, type Clock } from '@ipdata/common';

/** What the gauge reads: the served dataset's summary (DatasetStore), none before the first load. */
export interface ServedDatasetSummary {
  readonly summary: { builtAt: Date } | undefined;
}

let served: { store: ServedDatasetSummary; clock: Clock } | undefined;

/**
 * `ipdata_dataset_age_seconds`: seconds since the served dataset was built, read on each scrape
 * (the DatasetStale alert, ops/prometheus/rules/dataset.yml). Absent while no dataset is loaded:
 * readiness already says so. One gauge per process; an engine built later (tests build several)
 * takes it over.
 */
export function observeDatasetAge(store: ServedDatasetSummary, clock: Clock): void {
  if (served === undefined) {
    metricsMeter()
      .createObservableGauge('ipdata.dataset.age', { unit: 's', description: 'Seconds since the served dataset was built.' })
      .addCallback((result) => {
        const builtAt = served?.store.summary?.builtAt;
        if (served !== undefined && builtAt !== undefined)
          result.observe((served.clock.now().getTime() - builtAt.getTime()) / 1000);
      });
  }
  served = { store, clock };
}
