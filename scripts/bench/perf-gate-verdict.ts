/** The perf gate's rule, apart from running the benchmarks so that it can be unit-tested. */

export interface GateCheck {
  metric: string;
  /** The ratio (baseline cost / our cost, measured in one run) committed in perf-gate.json. */
  committed: number;
  what: string;
}

export interface CheckVerdict {
  metric: string;
  committed: number;
  measured: number | undefined;
  /** The lowest ratio that passes: `committed × (1 − tolerance)`. */
  floor: number;
  pass: boolean;
}

/**
 * Each check against a benchmark's summary line: a ratio passes unless it falls more than
 * `tolerance` below its committed value. A ratio the summary lacks fails: a renamed field must
 * not turn the gate off.
 */
export function judge(checks: GateCheck[], summary: Record<string, unknown>, tolerance: number): CheckVerdict[] {
  return checks.map(({ metric, committed }) => {
    const value = summary[metric];
    const measured = typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    const floor = Number((committed * (1 - tolerance)).toFixed(3));
    return { metric, committed, measured, floor, pass: measured !== undefined && measured >= floor };
  });
}

/** The last `"bench":"summary"` JSON line of a benchmark's output. */
export function summaryOf(output: string): Record<string, unknown> | undefined {
  const lines = output.split('\n').filter((line) => line.startsWith('{'));
  for (const line of lines.reverse()) {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed['bench'] === 'summary') return parsed;
  }
  return undefined;
}
