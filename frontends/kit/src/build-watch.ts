// New-build detection (spec sections 4 and 9): the running app knows its build id; the server's
// latest build id is in /build.json (written by the Vite build, never cached for long). When they
// differ, the next navigation loads the new build with a full page load, unless a reload already
// happened within the guard window (10 s by default), so a half-finished deploy cannot loop.

export const BUILD_FILE = '/build.json';
export const RELOAD_GUARD_MS = 10_000;
export const CHECK_INTERVAL_MS = 60_000;
const RELOADED_AT = 'ipdata.build.reloadedAt';

export interface BuildWatchDeps {
  currentId: string;
  fetchLatestId: () => Promise<string | null>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now?: () => number;
  guardMs?: number;
}

export class BuildWatch {
  private stale = false;
  private lastCheck = -Infinity;
  private readonly now: () => number;

  constructor(private readonly deps: BuildWatchDeps) {
    this.now = deps.now ?? Date.now;
  }

  get newBuildFound(): boolean {
    return this.stale;
  }

  /** Asks the server for its latest build id (at most once per CHECK_INTERVAL_MS unless forced). */
  async check(force = false): Promise<boolean> {
    if (this.stale) return true;
    if (!force && this.now() - this.lastCheck < CHECK_INTERVAL_MS) return false;
    this.lastCheck = this.now();
    const latest = await this.deps.fetchLatestId().catch(() => null);
    this.stale = latest !== null && latest !== this.deps.currentId;
    return this.stale;
  }

  /** Called after each client-side navigation: loads the new build when one was found and the guard allows. */
  navigated(): boolean {
    void this.check();
    if (!this.stale) return false;
    const last = Number(this.deps.storage.getItem(RELOADED_AT) ?? 0);
    if (this.now() - last < (this.deps.guardMs ?? RELOAD_GUARD_MS)) return false;
    this.deps.storage.setItem(RELOADED_AT, String(this.now()));
    this.deps.reload();
    return true;
  }
}

/** The latest build id from the server, or null when there is none to compare (dev server, offline). */
export async function fetchLatestBuildId(fetchFn: typeof fetch = (input, init) => fetch(input, init)): Promise<string | null> {
  const response = await fetchFn(BUILD_FILE, { cache: 'no-store' });
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return null;
  const body = (await response.json()) as { id?: unknown };
  return typeof body.id === 'string' ? body.id : null;
}

interface RouterLike {
  state: { location: { key: string } };
  subscribe(listener: (state: { location: { key: string } }) => void): unknown;
}

/** The app's watch: a check each minute, a reload of the new build on the router's next navigation. */
export function watchBuilds(router: RouterLike, currentId: string): BuildWatch {
  const builds = new BuildWatch({
    currentId,
    fetchLatestId: () => fetchLatestBuildId(),
    storage: sessionStorage,
    reload: () => window.location.reload(),
  });
  let shownKey = router.state.location.key;
  router.subscribe((state) => {
    if (state.location.key === shownKey) return;
    shownKey = state.location.key;
    builds.navigated();
  });
  setInterval(() => void builds.check(), CHECK_INTERVAL_MS);
  return builds;
}
