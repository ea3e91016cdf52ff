import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@ipdata/common/testing';
import { fakeTraceroute, isAlive, writtenArgv, writtenPid } from '../../../test/support/fake-traceroute.js';
import type { TraceHop } from '../../traceroute/traceroute-output.parser.js';
import { TracerouteProcess } from './traceroute.process.js';

const logger = pino({ level: 'silent' });
const limits = { maxHops: 5, queriesPerHop: 2, waitMs: 500 };
const TRACEROUTE = '/usr/bin/traceroute';

describe('TracerouteProcess', () => {
  it('runs Debian traceroute against 127.0.0.1 and streams its hop (scripts/test/install-probe-tools.sh)', async () => {
    const tracer = new TracerouteProcess(TRACEROUTE, logger);
    expect(await tracer.isAvailable()).toBe(true);
    const hops: TraceHop[] = [];
    const end = await tracer.trace(
      { family: 4, address: '127.0.0.1' },
      limits,
      (hop) => hops.push(hop),
      new AbortController().signal,
    );
    expect(end).toEqual({ kind: 'done' });
    expect(hops).toHaveLength(1);
    expect(hops[0]).toMatchObject({ ttl: 1, ip: '127.0.0.1', sent: 2, lost: 0 });
  });

  it('runs it against ::1 with -6', async () => {
    const hops: TraceHop[] = [];
    const end = await new TracerouteProcess(TRACEROUTE, logger).trace(
      { family: 6, address: '::1' },
      limits,
      (hop) => hops.push(hop),
      new AbortController().signal,
    );
    expect(end).toEqual({ kind: 'done' });
    expect(hops.map((hop) => [hop.ttl, hop.ip])).toEqual([[1, '::1']]);
  });

  it('reports a missing binary as unavailable without throwing', async () => {
    const tracer = new TracerouteProcess('/nonexistent/traceroute', logger);
    expect(await tracer.isAvailable()).toBe(false);
    const end = await tracer.trace({ family: 4, address: '127.0.0.1' }, limits, () => undefined, new AbortController().signal);
    expect(end).toMatchObject({ kind: 'unavailable', detail: 'ENOENT' });
  });

  it('reports a non-zero exit code', async () => {
    const { binary } = fakeTraceroute('failing-traceroute.sh');
    const end = await new TracerouteProcess(binary, logger).trace(
      { family: 4, address: '192.0.2.1' },
      limits,
      () => undefined,
      new AbortController().signal,
    );
    expect(end).toEqual({ kind: 'exit', detail: 'exit code 2' });
  });

  it('passes only the built argv (no shell), streams hops before exit, and kills the whole process group on abort', async () => {
    const { binary, dir } = fakeTraceroute('slow-traceroute.sh');
    const controller = new AbortController();
    const hops: TraceHop[] = [];
    const ending = new TracerouteProcess(binary, logger).trace(
      { family: 4, address: '192.0.2.1' },
      limits,
      (hop) => hops.push(hop),
      controller.signal,
    );
    const script = await waitFor(() => writtenPid(dir, 'script.pid'), { what: 'the script to start' });
    const child = await waitFor(() => writtenPid(dir, 'child.pid'), { what: 'its child' });
    await waitFor(() => hops.length === 1, { what: 'the first hop while the process still runs' });
    expect(hops[0]).toMatchObject({ ttl: 1, ip: '192.0.2.1', rttMs: [1, 1.25, 1.5] });
    expect(writtenArgv(dir)).toEqual(['-n', '-4', '-m', '5', '-q', '2', '-w', '0.5', '--', '192.0.2.1']);
    expect(isAlive(script) && isAlive(child)).toBe(true);

    controller.abort('stopped');
    expect(await ending).toEqual({ kind: 'aborted' });
    await waitFor(() => !isAlive(script) && !isAlive(child), { what: 'the script and its child to be gone' });
  });
});
