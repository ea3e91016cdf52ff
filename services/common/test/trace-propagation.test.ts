import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';

const fixture = fileURLToPath(new URL('./fixtures/traced-service.ts', import.meta.url));
const register = fileURLToPath(new URL('../src/telemetry/register.ts', import.meta.url));

describe('trace context across HTTP → gRPC → Kafka (instrumented process)', () => {
  it('carries the caller trace id into every log line of the flow', async () => {
    const stack = stackAddresses();
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--import', register, fixture], {
      env: {
        ...process.env,
        KAFKA_BROKERS: stack.kafkaBrokers.join(','),
        TOPIC: uniqueName('test.trace'),
        SERVICE_NAME: 'traced-fixture',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: Record<string, unknown>[] = [];
    let port = 0;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('READY ')) port = Number(line.slice(6));
      else if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    try {
      await waitFor(() => port > 0, { timeoutMs: 60_000, what: 'fixture ready' });
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const response = await fetch(`http://127.0.0.1:${port}/lookup/203.0.113.5`, {
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      });
      expect(await response.json()).toEqual({ ip: '203.0.113.5' });
      const handled = await waitFor(() => lines.find((line) => line['msg'] === 'usage event handled'), {
        what: 'consumer log line',
      });
      const http = lines.find((line) => line['msg'] === 'http request');
      const grpc = lines.find((line) => line['msg'] === 'lookup called');
      expect(http).toMatchObject({ module: 'http-route', trace_id: traceId });
      expect(grpc).toMatchObject({ module: 'grpc-handler', trace_id: traceId });
      expect(handled).toMatchObject({ module: 'usage-consumer', trace_id: traceId });
      // Each hop runs in its own span of the same trace.
      expect(new Set([http?.['span_id'], grpc?.['span_id'], handled['span_id']]).size).toBe(3);
    } finally {
      // The fixture shuts down gracefully on SIGTERM; wait for it, so no process outlives the test.
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  }, 90_000);
});
