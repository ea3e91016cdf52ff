import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id.js';

describe('newRequestId', () => {
  it('is r-<10 random characters of this process>-<counter in base 36>, never repeating', () => {
    const ids = Array.from({ length: 10_000 }, () => newRequestId());
    for (const id of ids.slice(0, 5)) expect(id).toMatch(/^r-[\w-]{10}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    // One process prefix; the counter after it counts up.
    const prefixes = new Set(ids.map((id) => id.slice(0, 13)));
    expect(prefixes.size).toBe(1);
    const counters = ids.map((id) => parseInt(id.slice(13), 36));
    expect(counters.every((value, i) => i === 0 || value === (counters[i - 1] as number) + 1)).toBe(true);
  });
});
