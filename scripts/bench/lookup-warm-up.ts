/**
 * Brings the lookup engine and each bff-en of a benchmark to the state a server reaches in its
 * first minutes of traffic, before anything is timed.
 *
 * Why: the engine splits a record into its parts the first time it answers it and keeps them
 * (services/lookup-engine/README.md, "Compact batches"); bff-en decodes each part once per
 * process. Random addresses meet new records all the time in a fresh engine, so the first timed
 * loads paid for the engine's start: in `--only ip` runs right after a start, the
 * machine's CPU per GET with the accounting on read 218 / 246 / 182 / 131 µs in runs 1 to 4 (the
 * engine's part 29 / 22 / 15 / 11) and bff-en's ratio to Express 1.26 / 1.12 / 1.25 / 1.65.
 *
 * How: every address the timed loads will send goes once through each bff-en as 1,000-address
 * batches (a few seconds per server); the engine's CPU per 1,000 addresses in the first server's
 * pass and in the last's says how much of the pass was the engine's start.
 */
import { groupCpuReader } from './process-cpu.js';

const BATCH = 1_000;
const IN_FLIGHT = 4;
/** One batch answers in a few ms; a server that takes this long is stuck, and the benchmark stops. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface LookupWarmUp {
  addresses: number;
  seconds: number;
  /** The engine's CPU per 1,000 addresses (µs) in the first server's pass and in the last's; undefined off Linux. */
  engineUsPer1000First: number | undefined;
  engineUsPer1000Last: number | undefined;
}

export async function warmLookups(
  origins: readonly string[],
  apiKey: string,
  addressLists: ReadonlyArray<readonly string[]>,
): Promise<LookupWarmUp> {
  const startedAt = performance.now();
  const engineCpuMs = groupCpuReader('lookup_engine');
  const bodies: string[] = [];
  for (const list of addressLists)
    for (let at = 0; at < list.length; at += BATCH) bodies.push(JSON.stringify(list.slice(at, at + BATCH)));
  const addresses = addressLists.reduce((sum, list) => sum + list.length, 0);
  const perPass: Array<number | undefined> = [];
  for (const origin of origins) {
    const before = engineCpuMs();
    await postAll(`${origin}/v1/batch`, apiKey, bodies);
    const after = engineCpuMs();
    perPass.push(before === undefined || after === undefined ? undefined : ((after - before) * 1000 * BATCH) / addresses);
  }
  const rounded = (value: number | undefined) => (value === undefined ? undefined : Math.round(value));
  return {
    addresses,
    seconds: Math.round((performance.now() - startedAt) / 100) / 10,
    engineUsPer1000First: rounded(perPass[0]),
    engineUsPer1000Last: rounded(perPass.at(-1)),
  };
}

/** Every body POSTed, IN_FLIGHT at a time; any answer but 200 stops the warm-up (and the benchmark). */
async function postAll(url: string, apiKey: string, bodies: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++] as string;
      const answer = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`lookup warm-up: ${url} answered ${answer.status}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}
