import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartJsonCache } from './part-json-cache.js';

describe('PartJsonCache', () => {
  it('makes a value once per distinct key and answers equal keys with it, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 200 }), (keys) => {
        const cache = new PartJsonCache<string>(1_000);
        const made: string[] = [];
        for (const key of keys) {
          const value = cache.get(key, () => {
            made.push(key);
            return `made ${key}`;
          });
          expect(value).toBe(`made ${key}`);
        }
        expect(made).toEqual([...new Set(keys)]);
      }),
      { numRuns: 300 },
    );
  });

  it('holds at most two generations and keeps the parts in use when a generation fills', () => {
    const cache = new PartJsonCache<number>(100);
    let madeHot = 0;
    for (let i = 0; i < 1_000; i++) {
      cache.get(`one-off ${i}`, () => i);
      cache.get('hot part', () => ++madeHot);
      expect(cache.size).toBeLessThanOrEqual(200);
    }
    expect(madeHot).toBe(1);
    // Long gone one-offs are made again.
    let madeAgain = false;
    cache.get('one-off 0', () => ((madeAgain = true), 0));
    expect(madeAgain).toBe(true);
  });
});
