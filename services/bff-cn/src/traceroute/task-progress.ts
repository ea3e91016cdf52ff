/**
 * A traceroute task as bff-cn keeps it (adapters/redis/probe-state.redis.ts) and how the stored
 * pieces fold into what `traceroute_task_get` answers. The probe worker delivers at least once:
 * hops may come twice (a re-run after a crash) and records of different runs may interleave, so
 * hops are keyed by TTL (a repeat replaces, never adds), the first final state wins, and a RUNNING
 * record after it changes nothing.
 */
export interface StoredTask {
  taskId: string;
  /** The canonical address probed. */
  target: string;
  /** What the visitor typed (an address or a domain). */
  targetInput: string;
  site: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  expiresAt: number;
}

export interface StoredHop {
  ttl: number;
  /** '' when no probe of this TTL was answered. */
  ip: string;
  rttMs: number[];
  sent: number;
  lost: number;
  otherIps: string[];
  annotations: string[];
}

export interface StoredProgress {
  /** A RUNNING record arrived: a worker started the task. */
  started: boolean;
  final?: { state: 'done' | 'failed'; error: string };
  /** In any order, possibly with repeated TTLs. */
  hops: StoredHop[];
}

export type TaskState = 'pending' | 'running' | 'done' | 'failed';

export interface TaskProgressView {
  state: TaskState;
  error: string | null;
  /** One per TTL, ascending. */
  hops: StoredHop[];
}

/** Shown when no final record came in time: the worker died (SIGKILL) or never took the task. */
export const TIMED_OUT_MSG = '探测超时';

/**
 * The state of a task at `now`. Without a final record after `expiresAt + graceMs` (the worker's
 * longest run after the last moment it may start the task) the task counts as failed, timed out.
 */
export function foldProgress(task: StoredTask, progress: StoredProgress, now: number, graceMs: number): TaskProgressView {
  const byTtl = new Map<number, StoredHop>();
  // Later entries replace earlier ones of the same TTL; a hop with an answer is kept over an
  // unanswered repeat, so a re-run that lost a probe does not erase a measured router.
  for (const hop of progress.hops) {
    const seen = byTtl.get(hop.ttl);
    if (seen === undefined || seen.ip === '' || hop.ip !== '') byTtl.set(hop.ttl, hop);
  }
  const hops = [...byTtl.values()].sort((a, b) => a.ttl - b.ttl);
  if (progress.final) return { state: progress.final.state, error: progress.final.error || null, hops };
  if (now > task.expiresAt + graceMs) return { state: 'failed', error: TIMED_OUT_MSG, hops };
  return { state: progress.started || hops.length > 0 ? 'running' : 'pending', error: null, hops };
}

/** A probe site alive now: its workers' heartbeats summed. */
export interface ProbeSiteView {
  site: string;
  name: string;
  workers: number;
  running: number;
  capacity: number;
}

export interface StoredHeartbeat {
  workerId: string;
  site: string;
  siteName: string;
  running: number;
  capacity: number;
  /** When the heartbeat was sent (event time, ms), not when bff-cn read it: replays are not "alive". */
  sentAt: number;
  intervalSeconds: number;
}

/** Heartbeats count for three intervals (probe.proto: a worker silent for 3 intervals is gone). */
export function isAlive(heartbeat: StoredHeartbeat, now: number): boolean {
  return now - heartbeat.sentAt <= Math.max(1, heartbeat.intervalSeconds) * 3000;
}

/** The alive sites, by site id; the name of the latest heartbeat of a site wins. */
export function aliveSites(heartbeats: readonly StoredHeartbeat[], now: number): ProbeSiteView[] {
  const sites = new Map<string, ProbeSiteView & { latest: number }>();
  for (const beat of heartbeats) {
    if (!isAlive(beat, now)) continue;
    const site = sites.get(beat.site) ?? { site: beat.site, name: beat.siteName, workers: 0, running: 0, capacity: 0, latest: 0 };
    site.workers += 1;
    site.running += beat.running;
    site.capacity += beat.capacity;
    if (beat.sentAt >= site.latest) {
      site.latest = beat.sentAt;
      site.name = beat.siteName || beat.site;
    }
    sites.set(beat.site, site);
  }
  return [...sites.values()].map(({ latest: _latest, ...site }) => site).sort((a, b) => a.site.localeCompare(b.site));
}

/** The default site: the one with the most free slots (ties: by id, so the choice is stable). */
export function pickSite(sites: readonly ProbeSiteView[]): ProbeSiteView | undefined {
  let best: ProbeSiteView | undefined;
  for (const site of sites) {
    if (best === undefined || site.capacity - site.running > best.capacity - best.running) best = site;
  }
  return best;
}
