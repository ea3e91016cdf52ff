import { describe, expect, it } from 'vitest';
import { prometheusText } from '@ipdata/common';
import { ManualClock } from '@ipdata/common/testing';
import { observeDatasetAge } from './dataset-age.metric.js';

describe('dataset age metric', () => {
  it('reports the served dataset age in seconds on each scrape, nothing before a dataset is loaded', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    const store: { summary: { builtAt: Date } | undefined } = { summary: undefined };
    observeDatasetAge(store, clock);
    expect(await prometheusText()).not.toMatch(/^ipdata_dataset_age_seconds/m);

    store.summary = { builtAt: new Date(clock.now().getTime() - 9 * 86_400_000) };
    expect(await prometheusText()).toMatch(/^ipdata_dataset_age_seconds\{[^}]*\} 777600$/m);
    clock.advance(60_000);
    expect(await prometheusText()).toMatch(/^ipdata_dataset_age_seconds\{[^}]*\} 777660$/m);
  });
});
