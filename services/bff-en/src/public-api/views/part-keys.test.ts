import { describe, expect, it } from 'vitest';
import { PartKeys } from './part-keys.js';

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
    const cache = new Map<number, string>();
    const keys = new PartKeys([cache]);
    const first = keys.slotOf('epoch-0');
    cache.set(PartKeys.keyOf(first, 1), 'part 1 of epoch-0');
    for (let e = 1; e < 64; e++) keys.slotOf(`epoch-${e}`);
    expect(cache.size).toBe(1);
    // The 65th epoch reuses slot numbers: the cache starts over.
    const reused = keys.slotOf('epoch-64');
    expect(reused).toBe(first);
    expect(cache.size).toBe(0);
    // Every key stays a small integer.
    expect(PartKeys.keyOf(63, 2 ** 24 - 1)).toBe(2 ** 30 - 1);
  });
});
