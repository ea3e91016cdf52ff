import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpServer, Lifecycle, METRIC_CATALOGUE, PROMETHEUS_CONTENT_TYPE, sendJson } from '@ipdata/common';

const logger = pino({ level: 'silent' }).child({ service: 'metrics-fixture' });
let stop: (() => Promise<void>) | undefined;

afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(metrics: boolean): Promise<string> {
  const lifecycle = new Lifecycle({ logger });
  const server = lifecycle.register(
    HttpServer.fromConfig(
      {
        host: '127.0.0.1',
        port: 0,
        metrics,
        routes: [
          { method: 'GET', path: /^\/orders\/(?<id>\d+)$/, template: '/orders/{id}', handle: (_q, r) => sendJson(r, 200, {}) },
        ],
      },
      lifecycle,
      logger,
    ),
  );
  await lifecycle.start();
  stop = () => lifecycle.shutdown('test');
  return `http://127.0.0.1:${server.boundPort}`;
}

describe('HttpServer /metrics', () => {
  it('serves Prometheus text with route templates, never raw paths, under catalogued names', async () => {
    const base = await start(true);
    for (const id of ['1', '22', '333']) expect((await fetch(`${base}/orders/${id}`)).status).toBe(200);
    expect((await fetch(`${base}/nowhere/10.1.2.3`)).status).toBe(404);
    const answer = await fetch(`${base}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(PROMETHEUS_CONTENT_TYPE);
    const text = await answer.text();
    expect(text).toContain('target_info{service_name="metrics-fixture"} 1');
    expect(text).toMatch(
      /^http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/orders\/\{id\}",http_response_status_code="200",[^}]*\} 3$/m,
    );
    expect(text).toMatch(/http_route="unmatched",http_response_status_code="404"/);
    expect(text).not.toContain('10.1.2.3');
    const catalogued = new Set(METRIC_CATALOGUE.map((metric) => metric.name));
    const names = [...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]);
    expect(names.filter((name) => !catalogued.has(name as string))).toEqual([]);
    expect(names).toContain('nodejs_eventloop_delay_p99_seconds');
  });

  it('answers 404 on /metrics unless asked to serve it (public edge ports)', async () => {
    const base = await start(false);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });
});
