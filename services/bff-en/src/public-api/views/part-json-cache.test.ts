import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartJsonCache, PartKeys } from './part-json-cache.js';

describe('PartJsonCache', () => {
  it('makes a value once per distinct key and answers equal keys with it, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 200 }), (keys) => {
        const cache = new PartJsonCache<string>(1_000);
        const made: number[] = [];
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
    const HOT = -7;
    let madeHot = 0;
    for (let i = 0; i < 1_000; i++) {
      cache.get(i, () => i);
      cache.get(HOT, () => ++madeHot);
      expect(cache.size).toBeLessThanOrEqual(200);
    }
    expect(madeHot).toBe(1);
    // Long gone one-offs are made again.
    let madeAgain = false;
    cache.get(0, () => ((madeAgain = true), 0));
    expect(madeAgain).toBe(true);
  });
});

describe('PartKeys', () => {
  it('keys one id differently under two epochs, and equally under one', () => {
    const keys = new PartKeys([]);
    const a = keys.slotOf('epoch-a');
    const b = keys.slotOf('epoch-b');
    expect(PartKeys.keyOf(a, 42)).not.toBe(PartKeys.keyOf(b, 42));
    expect(PartKeys.keyOf(keys.slotOf('epoch-a'), 42)).toBe(PartKeys.keyOf(a, 42));
    expect(PartKeys.keyOf(a, 41)).not.toBe(PartKeys.keyOf(a, 42));
  });

  it('gives no key without an epoch, without an id, or for an id too large to key', () => {
    const keys = new PartKeys([]);
    expect(keys.slotOf('')).toBe(-1);
    expect(PartKeys.keyOf(-1, 5)).toBe(-1);
    expect(PartKeys.keyOf(keys.slotOf('e'), -1)).toBe(-1);
    expect(PartKeys.keyOf(keys.slotOf('e'), 2 ** 24)).toBe(-1);
  });

  it('clears the caches when the slots run out, so no key keeps a value from an epoch it no longer means', () => {
    const cache = new PartJsonCache<string>(1_000);
    const keys = new PartKeys([cache]);
    const first = keys.slotOf('epoch-0');
    cache.get(PartKeys.keyOf(first, 1), () => 'part 1 of epoch-0');
    for (let e = 1; e < 64; e++) keys.slotOf(`epoch-${e}`);
    expect(cache.size).toBe(1);
    // The 65th epoch reuses slot numbers: the cache starts over.
    const reused = keys.slotOf('epoch-64');
    expect(reused).toBe(first);
    expect(cache.size).toBe(0);
    expect(cache.get(PartKeys.keyOf(reused, 1), () => 'part 1 of epoch-64')).toBe('part 1 of epoch-64');
    // Every key stays a small integer.
    expect(PartKeys.keyOf(63, 2 ** 24 - 1)).toBe(2 ** 30 - 1);
  });
});
