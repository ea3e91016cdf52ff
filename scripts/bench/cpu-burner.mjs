/**
 * A stand-in for another thread's CPU on the same cores (open-loop-tail.bench.ts --try-burn): it
 * spins `<ms per 100 ms>` of CPU in slices every 10 ms, which is how background threads and the
 * broker spread theirs under load. The bench pauses it with SIGSTOP and lets it run with
 * SIGCONT around the attacks it should load; it exits when its stdin closes (the bench ended,
 * however it ended), so it never outlives the run.
 *
 *   node scripts/bench/cpu-burner.mjs <ms per 100 ms>
 */
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval } from 'node:timers';

const perHundredMs = Number(process.argv[2]);
if (!(perHundredMs > 0 && perHundredMs < 100)) {
  process.stderr.write('usage: cpu-burner.mjs <ms of CPU per 100 ms, 0-100>\n');
  process.exit(2);
}
const PERIOD_MS = 10;
const slice = (perHundredMs * PERIOD_MS) / 100;
let sink = 0;
setInterval(() => {
  const until = performance.now() + slice;
  while (performance.now() < until) sink += Math.sqrt(sink + 1);
}, PERIOD_MS);
process.stdin.on('end', () => process.exit(sink >= 0 ? 0 : 1));
process.stdin.resume();
