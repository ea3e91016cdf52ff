import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SegmentSpace, segmentLength, segmentsStart } from './segment-space.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** The segments of the entry at `at`, as text. */
function segmentsAt(space: SegmentSpace, at: number): string[] {
  const count = space.bytes[at] as number;
  const out: string[] = [];
  let from = segmentsStart(space.bytes, at);
  for (let index = 0; index < count; index++) {
    const length = segmentLength(space.bytes, at, index);
    out.push(Buffer.from(space.bytes.subarray(from, from + length)).toString('utf8'));
    from += length;
  }
  return out;
}

/** Part `key`'s entry, cached or made now, as batch-json.ts finds it. */
function entry(space: SegmentSpace, key: number, make: () => Uint8Array[]): number {
  const at = space.cached(key);
  return at >= 0 ? at : space.store(key, make());
}

describe('SegmentSpace', () => {
  it('makes an entry once per key and gives its segments back as made', () => {
    // Keys of three epoch slots (slot × 2^24 + id), ids past a table's first size among them.
    const keys = fc
      .tuple(fc.nat(2), fc.oneof(fc.nat(30), fc.integer({ min: 1_000, max: 5_000 })))
      .map(([slot, id]) => slot * 2 ** 24 + id);
    fc.assert(
      fc.property(fc.array(keys, { minLength: 1, maxLength: 200 }), (lookups) => {
        const space = new SegmentSpace(64 * 1024, 16 * 1024, 1024);
        space.beginBatch();
        const made: number[] = [];
        for (const key of lookups) {
          const at = entry(space, key, () => {
            made.push(key);
            return [utf8(`k${key}`), utf8(`北${key}`), utf8('')];
          });
          expect(segmentsAt(space, at)).toEqual([`k${key}`, `北${key}`, '']);
        }
        expect(made).toEqual([...new Set(lookups)]);
        expect(space.size).toBe(made.length);
      }),
      { numRuns: 200 },
    );
  });

  it('places a part with no key, or an id too large for its table, without caching it', () => {
    const space = new SegmentSpace(64 * 1024, 16 * 1024, 1024);
    space.beginBatch();
    for (const key of [-1, 2 ** 22, 2 ** 24 - 1]) {
      let made = 0;
      for (let i = 0; i < 2; i++)
        expect(
          segmentsAt(
            space,
            entry(space, key, () => (made++, [utf8('x')])),
          ),
        ).toEqual(['x']);
      expect(made).toBe(2);
    }
    expect(space.size).toBe(0);
  });

  it('keeps the entries in use across generations and lets one-offs go, within its bounds', () => {
    // Entries of 1 + 2 + 100 bytes: ~20 per generation, 5 per batch's reserve.
    const space = new SegmentSpace(2_060, 515, 1024);
    const segment = (key: number) => [utf8(String(key).padStart(100, '.'))];
    let madeHot = 0;
    for (let batch = 0; batch < 200; batch++) {
      space.beginBatch();
      const hot = entry(space, 7_000, () => (madeHot++, segment(7_000)));
      expect(segmentsAt(space, hot)).toEqual([String(7_000).padStart(100, '.')]);
      const oneOff = entry(space, batch, () => segment(batch));
      expect(segmentsAt(space, oneOff)).toEqual([String(batch).padStart(100, '.')]);
      expect(space.size).toBeLessThanOrEqual(42);
    }
    expect(madeHot).toBe(1);
    // A one-off of long ago was dropped: asked again, it is made again.
    let madeAgain = false;
    space.beginBatch();
    entry(space, 0, () => ((madeAgain = true), segment(0)));
    expect(madeAgain).toBe(true);
  });

  it('answers -1 for segments it cannot hold, and for a batch that outgrew its reserve', () => {
    const space = new SegmentSpace(1_000, 200, 1024);
    space.beginBatch();
    expect(entry(space, 1, () => [Buffer.alloc(70_000, 97)])).toBe(-1);
    let placed = 0;
    for (let key = 2; key < 20; key++) if (entry(space, key, () => [Buffer.alloc(97, 98)]) >= 0) placed++;
    expect(placed).toBe(10);
    expect(entry(space, 99, () => [Buffer.alloc(97, 98)])).toBe(-1);
  });

  it('drops every entry on clear', () => {
    const space = new SegmentSpace(1_000, 200, 1024);
    space.beginBatch();
    entry(space, 5, () => [utf8('five')]);
    space.clear();
    expect(space.size).toBe(0);
    let made = false;
    entry(space, 5, () => ((made = true), [utf8('five')]));
    expect(made).toBe(true);
  });

  it('writes a body larger than its body range, in order, and starts each body empty', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.constant('北🇺🇸'), fc.string({ minLength: 100, maxLength: 300 })), {
          maxLength: 60,
        }),
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 10 }),
        (texts, addresses) => {
          const space = new SegmentSpace(1_000, 200, 256);
          const constant = space.constant(utf8('<>'));
          space.beginBody();
          space.append('stale');
          space.takeBody();
          space.beginBody();
          let expected = '';
          for (const text of texts) {
            space.append(text);
            space.reserve(2);
            space.copy(constant, 2);
            expected += `${text}<>`;
          }
          for (const address of addresses) {
            space.reserve(18);
            space.appendIpv4(address, 24);
            expected += `${[24, 16, 8, 0].map((shift) => (address >>> shift) & 255).join('.')}/24`;
          }
          expect(space.takeBody().toString('utf8')).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
