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

describe('SegmentSpace', () => {
  it('makes an entry once per kind and key and gives its segments back as made', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(2), fc.nat(30)), { minLength: 1, maxLength: 200 }), (lookups) => {
        const space = new SegmentSpace(3, 64 * 1024, 16 * 1024, 1024);
        space.beginBatch();
        const made: string[] = [];
        for (const [kind, key] of lookups) {
          const at = space.entry(kind, key, () => {
            made.push(`${kind}/${key}`);
            return [utf8(`k${kind}`), utf8(`北${key}`), utf8('')];
          });
          expect(segmentsAt(space, at)).toEqual([`k${kind}`, `北${key}`, '']);
        }
        expect(made).toEqual([...new Set(lookups.map(([kind, key]) => `${kind}/${key}`))]);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the entries in use across generations and lets one-offs go, within its bounds', () => {
    // Entries of 1 + 2 + 100 bytes: ~20 per generation, 5 per batch's reserve.
    const space = new SegmentSpace(1, 2_060, 515, 1024);
    const segment = (key: number) => [utf8(String(key).padStart(100, '.'))];
    let madeHot = 0;
    for (let batch = 0; batch < 200; batch++) {
      space.beginBatch();
      const hot = space.entry(0, -7 + 7 * 1_000, () => (madeHot++, segment(7_000)));
      expect(segmentsAt(space, hot)).toEqual([String(7_000).padStart(100, '.')]);
      const oneOff = space.entry(0, batch, () => segment(batch));
      expect(segmentsAt(space, oneOff)).toEqual([String(batch).padStart(100, '.')]);
      expect(space.size).toBeLessThanOrEqual(42);
    }
    expect(madeHot).toBe(1);
    // A one-off of long ago was dropped: asked again, it is made again.
    let madeAgain = false;
    space.beginBatch();
    space.entry(0, 0, () => ((madeAgain = true), segment(0)));
    expect(madeAgain).toBe(true);
  });

  it('answers -1 for segments it cannot hold, and for a batch that outgrew its reserve', () => {
    const space = new SegmentSpace(1, 1_000, 200, 1024);
    space.beginBatch();
    expect(space.entry(0, 1, () => [Buffer.alloc(70_000, 97)])).toBe(-1);
    let placed = 0;
    for (let key = 2; key < 20; key++) if (space.entry(0, key, () => [Buffer.alloc(97, 98)]) >= 0) placed++;
    expect(placed).toBe(10);
    expect(space.entry(0, 99, () => [Buffer.alloc(97, 98)])).toBe(-1);
  });

  it('drops every entry on clear', () => {
    const space = new SegmentSpace(2, 1_000, 200, 1024);
    space.beginBatch();
    space.entry(1, 5, () => [utf8('five')]);
    space.clear();
    expect(space.size).toBe(0);
    let made = false;
    space.entry(1, 5, () => ((made = true), [utf8('five')]));
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
          const space = new SegmentSpace(1, 1_000, 200, 256);
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
