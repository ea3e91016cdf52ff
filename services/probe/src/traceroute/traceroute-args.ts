import type { ProbeTarget } from '../tasks/probe-target.js';

/** Bounds of one run, from the worker's configuration and the task's max_hops (already clamped). */
export interface TraceLimits {
  /** 1..64. */
  maxHops: number;
  /** Probes per hop, 1..10 (traceroute's own limit). */
  queriesPerHop: number;
  /** How long a probe waits for its answer, 100..10000 ms. */
  waitMs: number;
}

export const MAX_HOPS_LIMIT = 64;

function boundedInt(name: string, value: number, min: number, max: number): string {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer between ${min} and ${max}, got ${value}`);
  }
  return String(value);
}

/**
 * The argv of Debian's traceroute for one run, built only from the validated target and bounded
 * integers (spawned without a shell, so nothing is ever interpreted): `-n` so the child makes no
 * DNS queries, `-4`/`-6` by the target's family, `-m` hops, `-q` probes per hop, `-w` wait in
 * seconds, then `--` and the canonical address (which never starts with "-" anyway).
 */
export function tracerouteArgs(target: ProbeTarget, limits: TraceLimits): string[] {
  const waitMs = Number(boundedInt('waitMs', limits.waitMs, 100, 10_000));
  return [
    '-n',
    target.family === 4 ? '-4' : '-6',
    '-m',
    boundedInt('maxHops', limits.maxHops, 1, MAX_HOPS_LIMIT),
    '-q',
    boundedInt('queriesPerHop', limits.queriesPerHop, 1, 10),
    '-w',
    // Seconds with up to three decimals ("0.5", "3"): traceroute accepts floating point here.
    String(waitMs / 1000),
    '--',
    target.address,
  ];
}
