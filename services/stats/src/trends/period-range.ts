import { InvalidArgumentError } from '@ipdata/common';
import { dayStart, hourStart } from '../counters/counter-delta.js';

export type PeriodUnit = 'hour' | 'day';

/** A query range on UTC period boundaries: `from` inclusive, `to` exclusive, and each period start in it. */
export interface PeriodRange {
  from: Date;
  to: Date;
  starts: Date[];
}

/** A month of hours: the most buckets one call may ask for (stats.proto). */
export const MAX_BUCKETS = 744;

const STEP_MS: Record<PeriodUnit, number> = { hour: 3_600_000, day: 86_400_000 };

/**
 * Rounds `from` and `to` down to the unit (stats.proto: UTC periods, `from` inclusive, `to`
 * exclusive) and lists the period starts, so a query can answer empty periods with zeros.
 * Rejects a missing or reversed range and ranges of more than `maxBuckets` periods, which would
 * make one call read an unbounded number of documents.
 */
export function periodRange(
  from: Date | undefined,
  to: Date | undefined,
  unit: PeriodUnit,
  maxBuckets: number = MAX_BUCKETS,
): PeriodRange {
  if (from === undefined || to === undefined || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
    throw new InvalidArgumentError('from and to are required', { reason: 'range_required' });
  }
  const round = unit === 'hour' ? hourStart : dayStart;
  const start = round(from);
  const end = round(to);
  if (start.getTime() >= end.getTime()) {
    throw new InvalidArgumentError(
      `from must be before to, at least one ${unit} apart once both are rounded down to the ${unit}`,
      {
        reason: 'empty_range',
        details: { from: start.toISOString(), to: end.toISOString() },
      },
    );
  }
  const count = (end.getTime() - start.getTime()) / STEP_MS[unit];
  if (count > maxBuckets) {
    throw new InvalidArgumentError(`at most ${maxBuckets} ${unit} buckets per call, asked for ${count}`, {
      reason: 'range_too_long',
      details: { maxBuckets: String(maxBuckets), buckets: String(count) },
    });
  }
  const starts: Date[] = [];
  for (let at = start.getTime(); at < end.getTime(); at += STEP_MS[unit]) starts.push(new Date(at));
  return { from: start, to: end, starts };
}
