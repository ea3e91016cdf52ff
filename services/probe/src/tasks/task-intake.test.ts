import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock, waitFor } from '@ipdata/common/testing';
import { ProbeKind, ProbeTask } from '@ipdata/proto/events/v1/probe';
import type { TraceLimits } from '../traceroute/traceroute-args.js';
import type { TraceHop } from '../traceroute/traceroute-output.parser.js';
import type { ProbeTarget } from './probe-target.js';
import { TaskIntake } from './task-intake.js';
import { TaskPool } from './task-pool.js';
import type { ProbeResultSink, TaskRef, TraceEnd, Tracer } from './task-ports.js';

const logger = pino({ level: 'silent' });
const hop = (ttl: number): TraceHop => ({
  ttl,
  ip: `192.0.2.${ttl}`,
  otherIps: [],
  rttMs: [1],
  sent: 1,
  lost: 0,
  annotations: [],
});

/** Records what would go to probe.result.v1; `delayMs` makes every send slow (batching). */
class RecordingSink implements ProbeResultSink {
  readonly events: Array<{ taskId: string; kind: string; ttls?: number[]; error?: string }> = [];
  constructor(private readonly delayMs = 0) {}
  private async pause() {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
  }
  async running(task: TaskRef, hops: readonly TraceHop[]) {
    await this.pause();
    this.events.push({ taskId: task.taskId, kind: 'running', ttls: hops.map((h) => h.ttl) });
  }
  async done(task: TaskRef) {
    this.events.push({ taskId: task.taskId, kind: 'done' });
  }
  async failed(task: TaskRef, error: string) {
    this.events.push({ taskId: task.taskId, kind: 'failed', error });
  }
}

/** A tracer scripted by the test: emits the given TTLs, then ends (or waits for the abort). */
class ScriptedTracer implements Tracer {
  readonly calls: Array<{ target: ProbeTarget; limits: TraceLimits }> = [];
  constructor(private readonly script: { ttls: number[]; hang?: boolean }) {}
  async isAvailable() {
    return true;
  }
  async trace(target: ProbeTarget, limits: TraceLimits, onHop: (hop: TraceHop) => void, signal: AbortSignal): Promise<TraceEnd> {
    this.calls.push({ target, limits });
    for (const ttl of this.script.ttls) onHop(hop(ttl));
    if (!this.script.hang) return { kind: 'done' };
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return { kind: 'aborted' };
  }
}

function setup(options: { tracer?: ScriptedTracer; sink?: RecordingSink; capacity?: number; timeoutMs?: number } = {}) {
  const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
  const tracer = options.tracer ?? new ScriptedTracer({ ttls: [1, 2] });
  const sink = options.sink ?? new RecordingSink();
  const pool = new TaskPool(options.capacity ?? 2, { keepAliveMs: 20 });
  const intake = new TaskIntake(
    { site: 'sh', allowPrivate: false, defaultMaxHops: 30, maxHops: 40, queriesPerHop: 3, waitMs: 1000, defaultTtlMs: 60_000 },
    { pool, sink, tracer, clock, logger, timeoutMs: options.timeoutMs ?? 10_000 },
  );
  const accept = (fields: Partial<ProbeTask>, keepAlive = async () => undefined, published = clock.now()) =>
    intake.accept(
      {
        task: ProbeTask.fromPartial({
          taskId: 't1',
          kind: ProbeKind.PROBE_KIND_TRACEROUTE,
          target: '8.8.8.8',
          site: 'sh',
          ...fields,
        }),
        id: `event-${fields.taskId ?? 't1'}`,
        time: published.toISOString(),
      },
      keepAlive,
    );
  return { clock, tracer, sink, pool, accept };
}

describe('TaskIntake', () => {
  it('runs a task: RUNNING, hops, DONE, with max_hops defaulted or clamped', async () => {
    const { accept, sink, tracer } = setup();
    expect(await accept({ taskId: 'a', maxHops: 0 })).toBe('started');
    expect(await accept({ taskId: 'b', maxHops: 64, site: '' })).toBe('started');
    await waitFor(() => sink.events.filter((e) => e.kind === 'done').length === 2);
    expect(tracer.calls.map((call) => call.limits.maxHops)).toEqual([30, 40]);
    expect(sink.events.filter((e) => e.taskId === 'a')).toEqual([
      { taskId: 'a', kind: 'running', ttls: [] },
      { taskId: 'a', kind: 'running', ttls: [1, 2] },
      { taskId: 'a', kind: 'done' },
    ]);
  });

  it('skips another site silently and a task it saw already', async () => {
    const { accept, sink } = setup();
    expect(await accept({ site: 'frankfurt' })).toBe('other-site');
    expect(await accept({ taskId: 'x' })).toBe('started');
    expect(await accept({ taskId: 'x' })).toBe('duplicate');
    expect(await accept({ taskId: 'bad id with spaces' })).toBe('malformed');
    await waitFor(() => sink.events.some((e) => e.kind === 'done'));
    expect(sink.events.every((e) => e.taskId === 'x')).toBe(true);
  });

  it('fails expired, unsupported and refused tasks without tracing', async () => {
    const { accept, sink, tracer, clock } = setup();
    expect(await accept({ taskId: 'e', expiresAt: new Date(clock.now().getTime() - 1) })).toBe('expired');
    expect(await accept({ taskId: 'p', kind: ProbeKind.PROBE_KIND_PING })).toBe('unsupported');
    expect(await accept({ taskId: 'r', target: '10.0.0.1' })).toBe('refused');
    expect(await accept({ taskId: 'i', target: '8.8.8.8 -I' })).toBe('refused');
    expect(tracer.calls).toEqual([]);
    expect(sink.events).toEqual([
      { taskId: 'e', kind: 'failed', error: '任务已过期，未执行' },
      { taskId: 'p', kind: 'failed', error: '不支持的检测类型' },
      { taskId: 'r', kind: 'failed', error: '不允许探测内网、本机或保留地址' },
      { taskId: 'i', kind: 'failed', error: '目标地址无效' },
    ]);
  });

  it('expires a task without expires_at the default TTL after it was published', async () => {
    const { accept, clock, sink } = setup();
    const published = clock.now();
    clock.advance(59_000);
    expect(await accept({ taskId: 'young', expiresAt: undefined }, undefined, published)).toBe('started');
    clock.advance(2_000);
    expect(await accept({ taskId: 'old', expiresAt: undefined }, undefined, published)).toBe('expired');
    await waitFor(() => sink.events.some((e) => e.taskId === 'young' && e.kind === 'done'));
  });

  it('expires at the exact instant across the year end and the leap day, with or without expires_at', async () => {
    const { accept, clock, sink } = setup();
    const midnight = new Date('2027-01-01T00:00:00.000Z');
    clock.set(new Date('2026-12-31T23:59:59.999Z'));
    expect(await accept({ taskId: 'y1', expiresAt: midnight })).toBe('started');
    clock.set(midnight);
    expect(await accept({ taskId: 'y2', expiresAt: midnight })).toBe('expired');

    // Published 30 s before new year with the default TTL of 60 s: good until 00:00:30 on 1 January.
    const published = new Date('2026-12-31T23:59:30.000Z');
    clock.set(new Date('2027-01-01T00:00:29.999Z'));
    expect(await accept({ taskId: 'y3', expiresAt: undefined }, undefined, published)).toBe('started');
    clock.set(new Date('2027-01-01T00:00:30.000Z'));
    expect(await accept({ taskId: 'y4', expiresAt: undefined }, undefined, published)).toBe('expired');

    const leapPublished = new Date('2028-02-29T23:59:30.000Z');
    clock.set(new Date('2028-03-01T00:00:29.999Z'));
    expect(await accept({ taskId: 'l1', expiresAt: undefined }, undefined, leapPublished)).toBe('started');
    clock.set(new Date('2028-03-01T00:00:30.000Z'));
    expect(await accept({ taskId: 'l2', expiresAt: undefined }, undefined, leapPublished)).toBe('expired');

    await waitFor(() => ['y1', 'y3', 'l1'].every((id) => sink.events.some((e) => e.taskId === id && e.kind === 'done')));
    expect(sink.events.filter((e) => e.kind === 'failed').map((e) => [e.taskId, e.error])).toEqual([
      ['y2', '任务已过期，未执行'],
      ['y4', '任务已过期，未执行'],
      ['l2', '任务已过期，未执行'],
    ]);
  });

  it('waits for a free slot (keeping the group alive), and ends hung runs FAILED on timeout and on close', async () => {
    const tracer = new ScriptedTracer({ ttls: [1], hang: true });
    const { accept, sink, pool } = setup({ tracer, capacity: 1, timeoutMs: 300 });
    expect(await accept({ taskId: 'first' })).toBe('started');
    let keepAlives = 0;
    expect(
      await accept({ taskId: 'second' }, async () => {
        keepAlives++;
      }),
    ).toBe('started');
    expect(keepAlives).toBeGreaterThan(0);
    expect(sink.events.find((e) => e.taskId === 'first' && e.kind === 'failed')).toEqual({
      taskId: 'first',
      kind: 'failed',
      error: '探测超时',
    });
    await pool.close();
    expect(sink.events.filter((e) => e.taskId === 'second').at(-1)).toEqual({
      taskId: 'second',
      kind: 'failed',
      error: '探针停止',
    });
    await expect(accept({ taskId: 'third' })).rejects.toThrow('stopping');
  });

  it('sends hops that arrive during a slow send together, in TTL order, each once', async () => {
    const tracer = new ScriptedTracer({ ttls: [1, 2, 2, 3, 1, 4] });
    const { accept, sink } = setup({ tracer, sink: new RecordingSink(30) });
    await accept({ taskId: 'batch' });
    await waitFor(() => sink.events.some((e) => e.kind === 'done'));
    const running = sink.events.filter((e) => e.kind === 'running');
    expect(running[0]?.ttls).toEqual([]);
    expect(running.flatMap((e) => e.ttls)).toEqual([1, 2, 3, 4]);
    expect(running.length).toBeLessThan(5);
    expect(sink.events.at(-1)?.kind).toBe('done');
  });
});
