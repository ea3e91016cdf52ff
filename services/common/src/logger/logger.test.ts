import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shutdownTelemetry, startTelemetry } from '../telemetry/telemetry.js';
import { waitFor } from '../testing/index.js';
import { createLogger, moduleLogger } from './logger.js';

function captureLines() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('logger with telemetry', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => {
    startTelemetry({ serviceName: 'logger-test', exporter });
  });
  afterAll(() => shutdownTelemetry());

  it('writes JSON lines with service, module, trace id and span id of the active span', async () => {
    const { lines, destination } = captureLines();
    const log = moduleLogger(createLogger({ service: 'auth', destination }), 'sessions');
    let traceId = '';
    let spanId = '';
    trace.getTracer('test').startActiveSpan('resolve-token', (span) => {
      traceId = span.spanContext().traceId;
      spanId = span.spanContext().spanId;
      log.info({ userId: 'u1' }, 'token resolved');
      span.end();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(lines[0]).toMatchObject({
      level: 'info',
      service: 'auth',
      module: 'sessions',
      msg: 'token resolved',
      trace_id: traceId,
      span_id: spanId,
    });
    // The SDK exports once its resource's asynchronous attributes have settled.
    await waitFor(() => exporter.getFinishedSpans().some((span) => span.name === 'resolve-token'), { what: 'exported span' });
  });

  it('redacts credentials wherever they appear', async () => {
    const { lines, destination } = captureLines();
    const log = createLogger({ service: 'bff-en', destination });
    log.info(
      { password: 'hunter2', req: { headers: { authorization: 'Bearer abc', cookie: 'token=x' } }, user: { token: 't' } },
      'login',
    );
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(lines[0]);
    expect(text).not.toMatch(/hunter2|Bearer abc|token=x|"t"/);
    expect(lines[0]).toMatchObject({ password: '[redacted]' });
  });
});
