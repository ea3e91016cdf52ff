import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';

// What spawn is called with, without running anything: the other test file runs real processes.
const spawnCalls: Array<{ file: string; args: string[]; options: Record<string, unknown> }> = [];
vi.mock('node:child_process', () => ({
  spawn: (file: string, args: string[], options: Record<string, unknown>) => {
    spawnCalls.push({ file, args, options });
    const child = Object.assign(new EventEmitter(), { pid: 4242, stdout: new PassThrough(), stderr: new PassThrough() });
    setImmediate(() => {
      child.stdout.end(' 1  192.0.2.1  1.000 ms\n');
      child.stderr.end();
      child.emit('close', 0, null);
    });
    return child;
  },
}));

// A fresh copy of the module, bound to the mock: in a run with one module graph per worker
// (--no-isolate, the calendar check) the other test file may have loaded it with the real spawn.
vi.resetModules();
const { TracerouteProcess } = await import('./traceroute.process.js');

describe('TracerouteProcess spawn call', () => {
  it('spawns the configured binary with an argv array, no shell, a fixed environment and its own process group', async () => {
    process.env['PROBE_TEST_SECRET'] = 'must-not-reach-the-child';
    const end = await new TracerouteProcess('/usr/bin/traceroute', pino({ level: 'silent' })).trace(
      { family: 6, address: '2001:db8::1' },
      { maxHops: 30, queriesPerHop: 3, waitMs: 3000 },
      () => undefined,
      new AbortController().signal,
    );
    expect(end).toEqual({ kind: 'done' });
    expect(spawnCalls).toHaveLength(1);
    const [call] = spawnCalls;
    expect(call?.file).toBe('/usr/bin/traceroute');
    expect(call?.args).toEqual(['-n', '-6', '-m', '30', '-q', '3', '-w', '3', '--', '2001:db8::1']);
    expect(call?.options).toMatchObject({ shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(call?.options['env']).toEqual({ LC_ALL: 'C', PATH: '/usr/sbin:/usr/bin:/sbin:/bin' });
    delete process.env['PROBE_TEST_SECRET'];
  });
});
