/**
 * Where a load's CPU time went, machine-wide: every process's user+system time (/proc/<pid>/stat)
 * and the machine's busy time (/proc/stat) before and after, grouped by what the process is. On
 * two shared cores the load generator, the server and its dependencies all compete, so the CPU
 * one answer costs across all of them (µs per request) says more about how far a server can go
 * than its requests per second alone. Linux only; elsewhere the figures are empty.
 *
 * The busiest process of a load (the server under test) also gets its main thread's share of the
 * wall time: running, waiting runnable for a core (/proc/<pid>/task/<pid>/schedstat) and the rest,
 * idle in its event loop. A Node server whose main thread idles under a closed-loop load is held
 * back by the round trips it waits for, or by the cores being shared, not by its own JavaScript;
 * CPU of its other threads (GC helpers, workers) is reported apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { processCpuMs } from './bench-support.js';

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
  ['vegeta', /(^|\/)vegeta /],
];

const TICKS_PER_SECOND = 100;

interface ProcessTicks {
  ticks: number;
  group: string;
  /** The main thread's (tid = pid) CPU ticks and its schedstat: ns running, ns runnable but waiting. */
  mainTicks: number;
  mainRunNs: number;
  mainWaitNs: number;
}

export interface CpuSnapshot {
  readonly processes: Map<number, ProcessTicks>;
  readonly machineBusy: number;
  readonly machineTotal: number;
  readonly atNs: bigint;
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

/** utime + stime of a /proc stat line; the fields after the command name (which may hold spaces). */
function statTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** [ns running, ns waiting runnable]; zeros where the kernel keeps no schedstat. */
function schedstat(pid: number): [number, number] {
  try {
    const [run = 0, wait = 0] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return [run, wait];
  } catch {
    return [0, 0];
  }
}

/** Every process running now, pid → its group (GROUPS, or `other`). Throws without /proc. */
function processGroups(): Map<number, string> {
  const groups = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      groups.set(pid, groupOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')));
    } catch {
      // The process exited meanwhile.
    }
  }
  return groups;
}

/** The processes running now that fall in a group (GROUPS; `other` is left out), pid → group. */
export function groupedProcesses(): Map<number, string> {
  return new Map([...processGroups()].filter(([, group]) => group !== 'other'));
}

/**
 * A reader of one stack process's CPU time so far (ms), found by its group ('kafka',
 * 'lookup_engine', ...): undefined when no such process runs (or off Linux).
 */
export function groupCpuReader(group: string): () => number | undefined {
  const pid = [...groupedProcesses()].find(([, name]) => name === group)?.[0];
  return () => (pid === undefined ? undefined : processCpuMs(pid));
}

/** The machine's busy CPU time so far (all cores, idle and iowait left out), in ms. */
export function machineBusyMs(): number {
  return (machineTicks().busy * 1000) / TICKS_PER_SECOND;
}

export function cpuSnapshot(): CpuSnapshot {
  const processes = new Map<number, ProcessTicks>();
  const atNs = process.hrtime.bigint();
  let machine = { busy: 0, total: 0 };
  try {
    machine = machineTicks();
    for (const [pid, group] of processGroups()) {
      try {
        const ticks = statTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        const mainTicks = statTicks(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
        const [mainRunNs, mainWaitNs] = schedstat(pid);
        processes.set(pid, { ticks, group, mainTicks, mainRunNs, mainWaitNs });
      } catch {
        // The process exited meanwhile.
      }
    }
  } catch {
    // No /proc: not Linux.
  }
  return { processes, machineBusy: machine.busy, machineTotal: machine.total, atNs };
}

/**
 * CPU µs per request since `before`, per group and for the whole machine (kernel work such as
 * loopback networking included), and the machine's busy share. Processes that started and ended
 * between the two snapshots are missed (none do during a load).
 */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): Record<string, number> {
  const perGroup = new Map<string, number>();
  let server: { now: ProcessTicks; then: ProcessTicks | undefined; ticks: number } | undefined;
  for (const [pid, now] of after.processes) {
    const then = before.processes.get(pid);
    const ticks = Math.max(0, now.ticks - (then?.ticks ?? 0));
    perGroup.set(now.group, (perGroup.get(now.group) ?? 0) + ticks);
    if (server === undefined || ticks > server.ticks) server = { now, then, ticks };
  }
  const usPerRequest = (ticks: number) => Math.round((ticks * 1e6) / TICKS_PER_SECOND / Math.max(1, requests));
  // Every group, zeros included: each run's row has the same keys (the summary takes medians per key).
  const row: Record<string, number> = {};
  for (const group of [...GROUPS.map(([name]) => name), 'other'])
    row[`cpu_us_per_req_${group}`] = usPerRequest(perGroup.get(group) ?? 0);
  const busy = after.machineBusy - before.machineBusy;
  row['cpu_us_per_req_machine'] = usPerRequest(busy);
  row['machine_busy_percent'] = Math.round((100 * busy) / Math.max(1, after.machineTotal - before.machineTotal));
  Object.assign(row, serverMainThread(server, Number(after.atNs - before.atNs), usPerRequest));
  return row;
}

/** The busiest process's main thread: percent of the wall time running / waiting for a core / neither, and CPU per request of its other threads. */
function serverMainThread(
  server: { now: ProcessTicks; then: ProcessTicks | undefined } | undefined,
  wallNs: number,
  usPerRequest: (ticks: number) => number,
): Record<string, number> {
  const { now, then } = server ?? {};
  if (now === undefined || then === undefined || wallNs <= 0 || now.mainRunNs === 0)
    return {
      server_main_run_percent: 0,
      server_main_wait_percent: 0,
      server_main_idle_percent: 0,
      server_other_threads_cpu_us_per_req: 0,
    };
  const run = (100 * (now.mainRunNs - then.mainRunNs)) / wallNs;
  const wait = (100 * (now.mainWaitNs - then.mainWaitNs)) / wallNs;
  return {
    server_main_run_percent: Math.round(run),
    server_main_wait_percent: Math.round(wait),
    server_main_idle_percent: Math.max(0, Math.round(100 - run - wait)),
    server_other_threads_cpu_us_per_req: usPerRequest(Math.max(0, now.ticks - then.ticks - (now.mainTicks - then.mainTicks))),
  };
}
