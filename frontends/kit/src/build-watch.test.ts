import { describe, expect, it } from 'vitest';
import { BuildWatch, CHECK_INTERVAL_MS, RELOAD_GUARD_MS, fetchLatestBuildId } from './build-watch.js';

function setup(latest: string | null, start = 1_000_000) {
  let now = start;
  const stored = new Map<string, string>();
  const reloads: number[] = [];
  let asked = 0;
  const watch = new BuildWatch({
    currentId: 'b1',
    fetchLatestId: () => {
      asked++;
      return Promise.resolve(latest);
    },
    storage: { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) },
    reload: () => reloads.push(now),
    now: () => now,
  });
  return { watch, reloads, advance: (ms: number) => (now += ms), asked: () => asked };
}

describe('new build detection', () => {
  it('does nothing while the server’s build is the running one', async () => {
    const { watch, reloads } = setup('b1');
    expect(await watch.check(true)).toBe(false);
    expect(watch.navigated()).toBe(false);
    expect(reloads).toEqual([]);
  });

  it('reloads on the next navigation after a new build is found, then not again within 10 s', async () => {
    const { watch, reloads, advance } = setup('b2');
    expect(await watch.check(true)).toBe(true);
    expect(watch.navigated()).toBe(true);
    expect(reloads).toHaveLength(1);
    // Still stale (say the new build's files are not all there yet): the guard stops a loop.
    advance(RELOAD_GUARD_MS - 1);
    expect(watch.navigated()).toBe(false);
    advance(2);
    expect(watch.navigated()).toBe(true);
    expect(reloads).toHaveLength(2);
  });

  it('asks the server at most once a minute unless forced, and ignores a failed or missing answer', async () => {
    const { watch, asked, advance } = setup(null);
    await watch.check(true);
    await watch.check();
    expect(asked()).toBe(1);
    advance(CHECK_INTERVAL_MS);
    await watch.check();
    expect(asked()).toBe(2);
    expect(watch.newBuildFound).toBe(false);
  });

  it('reads the id from /build.json, and null from an HTML fallback page', async () => {
    const json = (body: string, type: string) => () => Promise.resolve(new Response(body, { headers: { 'content-type': type } }));
    expect(await fetchLatestBuildId(json('{"id":"abc"}', 'application/json'))).toBe('abc');
    expect(await fetchLatestBuildId(json('<!doctype html>', 'text/html'))).toBeNull();
  });
});
