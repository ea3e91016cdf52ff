import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's scheduling priority to `nice` (0 normal, 19 lowest). Linux keeps a
 * nice value per thread, and setpriority(2) given a thread id changes that thread alone, so a
 * worker thread doing background work (the usage ledger's Kafka sends) gives way to the main
 * thread answering requests when the cores are short, and still runs whenever one is idle.
 * Lowering needs no privilege. Threads the caller starts afterwards inherit the value.
 *
 * Returns the thread id, or undefined where threads have no priority of their own
 * (no /proc/thread-self: not Linux), in which case nothing changed.
 */
export function lowerThreadPriority(nice: number): number | undefined {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new RangeError(`nice must be 0..19, not ${nice}`);
  let tid: number;
  try {
    // "<pid>/task/<tid>"
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(tid) || tid <= 0) return undefined;
  setPriority(tid, nice);
  return tid;
}
