import { describe, expect, it } from 'vitest';
import { percentile, seeded } from './bench-support.js';
import { LatencyHistogram, pairedPercentileDifference } from './latency-histogram.js';

function rounds(count: number, perRound: number, seed: number, shiftMs = 0): LatencyHistogram[] {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const histogram = new LatencyHistogram();
    // A long-tailed latency: mostly 1–3 ms, one answer in fifty 10–40 ms.
    for (let i = 0; i < perRound; i++) histogram.add(shiftMs + (next() < 0.02 ? 10 + 30 * next() : 1 + 2 * next()));
    return histogram;
  });
}

describe('LatencyHistogram', () => {
  it('gives the percentile a sorted array gives, to within one bucket', () => {
    const next = seeded(3);
    const values = Array.from({ length: 10_000 }, () => 50 * next() ** 3);
    const histogram = new LatencyHistogram();
    for (const value of values) histogram.add(value);
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [50, 90, 99, 99.9]) {
      expect(histogram.percentile(p)).toBeGreaterThanOrEqual(percentile(sorted, p));
      expect(histogram.percentile(p) - percentile(sorted, p)).toBeLessThanOrEqual(0.05);
    }
    expect(new LatencyHistogram().percentile(99)).toBeNaN();
  });

  it('pools rounds into one distribution', () => {
    const parts = rounds(3, 1_000, 5);
    const pooled = LatencyHistogram.pooled(parts);
    expect(pooled.total).toBe(3_000);
    const slow = new LatencyHistogram();
    slow.add(5_000);
    expect(slow.percentile(50)).toBeGreaterThan(2_000);
  });
});

describe('pairedPercentileDifference', () => {
  it('finds a 3-ms shift of the whole distribution, its interval around it', () => {
    const base = rounds(30, 2_000, 11);
    const shifted = rounds(30, 2_000, 11, 3);
    const found = pairedPercentileDifference(shifted, base, 99, 200);
    expect(found.difference).toBeCloseTo(3, 1);
    expect(found.low).toBeLessThanOrEqual(3.05);
    expect(found.high).toBeGreaterThanOrEqual(2.95);
  });

  it('gives an interval that holds 0 for two samples of the same distribution', () => {
    const found = pairedPercentileDifference(rounds(30, 2_000, 21), rounds(30, 2_000, 22), 99, 200);
    expect(found.low).toBeLessThanOrEqual(0);
    expect(found.high).toBeGreaterThanOrEqual(0);
    expect(found.high - found.low).toBeLessThan(10);
  });

  it('refuses rounds that do not pair', () => {
    expect(() => pairedPercentileDifference(rounds(2, 10, 1), rounds(3, 10, 1), 99)).toThrow(/same rounds/);
  });
});
