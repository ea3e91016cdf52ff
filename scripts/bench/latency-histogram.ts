/**
 * Latencies kept as a histogram (0.05-ms buckets up to 2 s, one overflow bucket), so that many
 * short rounds of a benchmark can be pooled and resampled cheaply: a percentile of 240,000
 * answers is a scan of 40,000 counters instead of a sort, and a bootstrap of 1,000 resamples
 * stays under a second.
 */
import { seeded } from './bench-support.js';

const BUCKET_MS = 0.05;
const BUCKETS = 40_000;

export class LatencyHistogram {
  readonly counts = new Uint32Array(BUCKETS + 1);
  total = 0;

  add(ms: number): void {
    this.counts[Math.min(BUCKETS, Math.max(0, Math.floor(ms / BUCKET_MS)))]! += 1;
    this.total += 1;
  }

  addAll(other: LatencyHistogram): void {
    for (let i = 0; i <= BUCKETS; i++) this.counts[i]! += other.counts[i]!;
    this.total += other.total;
  }

  /** The p-th percentile (the upper edge of its bucket, in ms; NaN when empty). */
  percentile(p: number): number {
    if (this.total === 0) return Number.NaN;
    // The same rank as bench-support's percentile() of a sorted array.
    const rank = Math.min(this.total - 1, Math.floor((p / 100) * this.total));
    let seen = 0;
    for (let i = 0; i <= BUCKETS; i++) {
      seen += this.counts[i]!;
      if (seen > rank) return (i + 1) * BUCKET_MS;
    }
    return (BUCKETS + 1) * BUCKET_MS;
  }

  static pooled(parts: readonly LatencyHistogram[]): LatencyHistogram {
    const all = new LatencyHistogram();
    for (const part of parts) all.addAll(part);
    return all;
  }
}

export interface PairedDifference {
  /** pooled(a).percentile(p) − pooled(b).percentile(p) over every round. */
  readonly difference: number;
  /** The 5th and 95th percentile of that difference over `resamples` bootstrap resamples. */
  readonly low: number;
  readonly high: number;
}

/**
 * How far apart two variants' pooled p-th percentiles are, with a 90% interval: rounds are
 * resampled with replacement, the same rounds for both variants (a round's two runs took turns
 * within seconds of each other, so they shared the machine's state: pairing keeps that out of
 * the difference).
 */
export function pairedPercentileDifference(
  a: readonly LatencyHistogram[],
  b: readonly LatencyHistogram[],
  p: number,
  resamples = 1_000,
  seed = 7,
): PairedDifference {
  if (a.length !== b.length || a.length === 0) throw new Error('paired rounds: both variants need the same rounds');
  const next = seeded(seed);
  const differences: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const pickedA = new LatencyHistogram();
    const pickedB = new LatencyHistogram();
    for (let i = 0; i < a.length; i++) {
      const round = Math.floor(next() * a.length);
      pickedA.addAll(a[round]!);
      pickedB.addAll(b[round]!);
    }
    differences.push(pickedA.percentile(p) - pickedB.percentile(p));
  }
  differences.sort((x, y) => x - y);
  const at = (q: number) => differences[Math.min(differences.length - 1, Math.floor(q * differences.length))]!;
  return {
    difference: LatencyHistogram.pooled(a).percentile(p) - LatencyHistogram.pooled(b).percentile(p),
    low: at(0.05),
    high: at(0.95),
  };
}
