import { describe, expect, it } from 'vitest';
import {
  RollupGeneration,
  collectionsFor,
  isGenerationSuffix,
  newGenerationSuffix,
  type GenerationStore,
} from './rollup-generation.js';

function memoryStore(initial: string | null = null): GenerationStore & { saved: string[] } {
  let value = initial;
  const saved: string[] = [];
  return {
    saved,
    load: async () => value,
    save: async (suffix) => {
      saved.push(suffix);
      value = suffix;
    },
  };
}

describe('RollupGeneration', () => {
  it('starts on the base collections and switches the names its functions return', async () => {
    const store = memoryStore();
    const generation = new RollupGeneration(store);
    await generation.load();
    const usage = generation.usageCollection;
    expect(generation.current()).toEqual({ usage: 'usage_rollups', trends: 'trend_rollups' });
    await generation.switchTo('_g1');
    expect(usage()).toBe('usage_rollups_g1');
    expect(generation.trendsCollection()).toBe('trend_rollups_g1');
    expect(store.saved).toEqual(['_g1']);
  });

  it('loads the persisted suffix', async () => {
    const generation = new RollupGeneration(memoryStore('_gabc'));
    await generation.load();
    expect(generation.current().usage).toBe('usage_rollups_gabc');
    expect(generation.suffix()).toBe('_gabc');
  });

  it('keeps the live names when persisting fails, and refuses unsafe suffixes', async () => {
    const generation = new RollupGeneration({ load: async () => null, save: () => Promise.reject(new Error('down')) });
    await expect(generation.switchTo('_g2')).rejects.toThrow('down');
    expect(generation.current().usage).toBe('usage_rollups');
    await expect(generation.switchTo('.x')).rejects.toThrow(RangeError);
    expect(() => collectionsFor('_g$')).toThrow(RangeError);
  });

  it('makes ordered, valid suffixes', () => {
    const a = newGenerationSuffix(new Date('2025-01-02T03:04:05Z'), () => 0);
    expect(a).toBe('_g202501020304050000');
    expect(isGenerationSuffix(a)).toBe(true);
  });
});
