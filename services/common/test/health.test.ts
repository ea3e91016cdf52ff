import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpServer, Lifecycle, RedisConnection } from '@ipdata/common';
import { waitFor } from '@ipdata/common/testing';

const logger = pino({ level: 'silent' });

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A Redis of this test's own, so stopping it does not disturb the shared test stack. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(true));
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
      }),
    { what: 'redis-server listening' },
  );
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

async function probe(port: number, path: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: (await response.json()) as { status: string; checks?: Record<string, boolean> } };
}

describe('health and readiness endpoints', () => {
  const lifecycle = new Lifecycle({ logger });
  afterAll(() => lifecycle.shutdown());

  it('answer not ready while a dependency is down and ready when it is back', async () => {
    const redisPort = await freePort();
    let redisProcess = await startRedis(redisPort);
    const health = lifecycle.register(
      HttpServer.fromConfig({ port: 0, host: '127.0.0.1', name: 'health-server' }, lifecycle, logger),
    );
    lifecycle.register(RedisConnection.fromConfig({ url: `redis://127.0.0.1:${redisPort}`, commandTimeoutMs: 500 }, logger));
    await lifecycle.start();
    const port = health.boundPort;

    expect(await probe(port, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(port, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ready', checks: { 'health-server': true, redis: true } },
    });

    await stopRedis(redisProcess);
    await waitFor(async () => (await probe(port, '/readyz')).status === 503, { what: 'not ready after Redis stopped' });
    expect((await probe(port, '/readyz')).body).toEqual({ status: 'not ready', checks: { 'health-server': true, redis: false } });
    // Liveness does not depend on dependencies: restarting the process would not help.
    expect((await probe(port, '/healthz')).status).toBe(200);

    redisProcess = await startRedis(redisPort);
    try {
      await waitFor(async () => (await probe(port, '/readyz')).status === 200, {
        timeoutMs: 15_000,
        what: 'ready after Redis is back',
      });
    } finally {
      await lifecycle.shutdown();
      await stopRedis(redisProcess);
    }
  });

  it('answers not ready once shutdown has begun', async () => {
    const ownLifecycle = new Lifecycle({ logger });
    let releaseShutdown: () => void = () => undefined;
    const health = ownLifecycle.register(
      HttpServer.fromConfig({ port: 0, host: '127.0.0.1', name: 'health-server' }, ownLifecycle, logger),
    );
    ownLifecycle.register({
      name: 'slow-drain',
      start: async () => undefined,
      shutdown: () => new Promise<void>((resolve) => (releaseShutdown = resolve)),
    });
    await ownLifecycle.start();
    expect((await probe(health.boundPort, '/readyz')).status).toBe(200);
    const stopping = ownLifecycle.shutdown();
    expect((await probe(health.boundPort, '/readyz')).status).toBe(503);
    releaseShutdown();
    await stopping;
  });
});
