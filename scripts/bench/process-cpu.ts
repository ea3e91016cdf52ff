/**
 * Where a load's CPU time went, machine-wide: every process's user+system time (/proc/<pid>/stat)
 * and the machine's busy time (/proc/stat) before and after, grouped by what the process is. On
 * two shared cores the load generator, the server and its dependencies all compete, so the CPU
 * one answer costs across all of them (µs per request) says more about how far a server can go
 * than its requests per second alone. Linux only; elsewhere the figures are empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Process groups by command line, first match wins; the rest counts as `other`. */
const GROUPS: ReadonlyArray<readonly [string, RegExp]> = [
  ['bff_en', /services\/bff-en\//],
  ['lookup_engine', /services\/lookup-engine\//],
  ['stats', /services\/stats\//],
  ['auth_billing', /services\/(auth|billing)\//],
  ['peer', /scripts\/bench\/peer-servers/],
  ['redis', /redis-server/],
  ['kafka', /kafka|java/],
  ['mongo', /ferretdb|mongod/],
  ['wrk', /(^|\/)wrk /],
];

const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  /** Per pid: ticks so far and its group. */
  readonly processes: Map<number, { ticks: number; group: string }>;
  readonly machineBusy: number;
  readonly machineTotal: number;
}

function groupOf(commandLine: string): string {
  for (const [group, pattern] of GROUPS) if (pattern.test(commandLine)) return group;
  return 'other';
}

function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // idle and iowait
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

export function cpuSnapshot(): CpuSnapshot {
  const processes = new Map<number, { ticks: number; group: string }>();
  let machine = { busy: 0, total: 0 };
  try {
    machine = machineTicks();
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        processes.set(pid, { ticks, group: groupOf(commandLine) });
      } catch {
        // The process exited meanwhile.
      }
    }
  } catch {
    // No /proc: not Linux.
  }
  return { processes, machineBusy: machine.busy, machineTotal: machine.total };
}

/**
 * CPU µs per request since `before`, per group and for the whole machine (kernel work such as
 * loopback networking included), and the machine's busy share. Processes that started and ended
 * between the two snapshots are missed (none do during a load).
 */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): Record<string, number> {
  const perGroup = new Map<string, number>();
  for (const [pid, now] of after.processes) {
    const then = before.processes.get(pid)?.ticks ?? 0;
    perGroup.set(now.group, (perGroup.get(now.group) ?? 0) + Math.max(0, now.ticks - then));
  }
  const usPerRequest = (ticks: number) => Math.round((ticks * 1e6) / TICKS_PER_SECOND / Math.max(1, requests));
  // Every group, zeros included: each run's row has the same keys (the summary takes medians per key).
  const row: Record<string, number> = {};
  for (const group of [...GROUPS.map(([name]) => name), 'other'])
    row[`cpu_us_per_req_${group}`] = usPerRequest(perGroup.get(group) ?? 0);
  const busy = after.machineBusy - before.machineBusy;
  row['cpu_us_per_req_machine'] = usPerRequest(busy);
  row['machine_busy_percent'] = Math.round((100 * busy) / Math.max(1, after.machineTotal - before.machineTotal));
  return row;
}
