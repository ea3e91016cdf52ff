import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Lifecycle, type Component } from './lifecycle.js';

function component(name: string, events: string[], ready = { value: true }): Component {
  return {
    name,
    start: async () => {
      events.push(`start ${name}`);
    },
    shutdown: async () => {
      events.push(`stop ${name}`);
    },
    isReady: async () => ready.value,
  };
}

describe('Lifecycle', () => {
  it('starts in order, stops in reverse order and is ready only while running', async () => {
    const events: string[] = [];
    const lifecycle = new Lifecycle({ logger: pino({ level: 'silent' }) });
    lifecycle.register(component('mongo', events));
    lifecycle.register(component('grpc', events));
    expect((await lifecycle.readiness()).ready).toBe(false);
    await lifecycle.start();
    expect(await lifecycle.readiness()).toEqual({ ready: true, checks: { mongo: true, grpc: true } });
    const stopping = lifecycle.shutdown();
    expect((await lifecycle.readiness()).ready).toBe(false);
    await stopping;
    expect(events).toEqual(['start mongo', 'start grpc', 'stop grpc', 'stop mongo']);
  });

  it('is not ready while a dependency check fails', async () => {
    const ready = { value: false };
    const lifecycle = new Lifecycle({ logger: pino({ level: 'silent' }) });
    lifecycle.register(component('redis', [], ready));
    await lifecycle.start();
    expect(await lifecycle.readiness()).toEqual({ ready: false, checks: { redis: false } });
    ready.value = true;
    expect((await lifecycle.readiness()).ready).toBe(true);
  });

  it('reports an advisory dependency without becoming unready', async () => {
    const kafka = { value: false };
    const lifecycle = new Lifecycle({ logger: pino({ level: 'silent' }) });
    lifecycle.register(component('redis', []));
    lifecycle.register(component('kafka', [], kafka), { readiness: 'advisory' });
    await lifecycle.start();
    expect(await lifecycle.readiness()).toEqual({ ready: true, checks: { redis: true, kafka: false } });
  });

  it('shuts down gracefully on SIGTERM, ignoring a copy of the same signal delivered with it', async () => {
    const events: string[] = [];
    const exits: number[] = [];
    const lifecycle = new Lifecycle({ logger: pino({ level: 'silent' }), exit: (code) => exits.push(code) });
    lifecycle.register(component('kafka', events));
    await lifecycle.start();
    const before = process.listeners('SIGTERM').length;
    lifecycle.handleSignals(['SIGTERM']);
    try {
      process.emit('SIGTERM');
      process.emit('SIGTERM');
      await lifecycle.shutdown();
      await new Promise((resolve) => setImmediate(resolve));
      expect(exits).toEqual([0]);
      expect(events).toEqual(['start kafka', 'stop kafka']);
    } finally {
      for (const listener of process.listeners('SIGTERM').slice(before)) process.removeListener('SIGTERM', listener);
    }
  });

  it('shuts down only once and keeps going when a component fails to stop', async () => {
    const events: string[] = [];
    const lifecycle = new Lifecycle({ logger: pino({ level: 'silent' }) });
    lifecycle.register(component('a', events));
    lifecycle.register({ name: 'b', start: async () => undefined, shutdown: async () => Promise.reject(new Error('boom')) });
    await lifecycle.start();
    await Promise.all([lifecycle.shutdown(), lifecycle.shutdown()]);
    expect(events).toEqual(['start a', 'stop a']);
  });
});
