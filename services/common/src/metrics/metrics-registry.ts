import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { Histogram, Meter } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** The instrumentation scope of every metric common records. */
export const METRICS_SCOPE = '@ipdata/common';

/** Pull-only reader: the `/metrics` route collects on each scrape. */
class ScrapeReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The process's metrics: one OpenTelemetry MeterProvider (its own, not the global one, so the
 * instrumentations' default metrics stay off) and one pull reader, read on a scrape and
 * written by the Prometheus exporter's serializer.
 * One resource per service: `service.name` from `setMetricsServiceName()` (HttpServer sets it
 * from its logger's `service` binding), else OTEL_SERVICE_NAME / SERVICE_NAME.
 */
class MetricsRegistry {
  private readonly reader = new ScrapeReader();
  private readonly provider = new MeterProvider({ readers: [this.reader] });
  private readonly serializer = new PrometheusSerializer('', false);
  readonly meter: Meter = this.provider.getMeter(METRICS_SCOPE);
  serviceName: string | undefined;

  /** Everything recorded so far, in Prometheus' text format 0.0.4. */
  async prometheusText(): Promise<string> {
    const { resourceMetrics } = await this.reader.collect();
    const name = this.serviceName ?? process.env['OTEL_SERVICE_NAME'] ?? process.env['SERVICE_NAME'] ?? 'ipdata';
    return this.serializer.serialize({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: name }),
      scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({ ...scope, metrics: scope.metrics.map(withUnitSuffix) })),
    });
  }
}

/** The OpenTelemetry → Prometheus unit suffixes (spec "Prometheus and OpenMetrics Compatibility"); `{…}` units add none. */
const UNIT_SUFFIXES: Readonly<Record<string, string>> = { s: 'seconds', ms: 'milliseconds', By: 'bytes', '1': 'ratio' };

/** The serializer of exporter-prometheus 0.223 writes no unit suffix: `http.server.request.duration` (s) → `…_seconds`. */
function withUnitSuffix(metric: MetricData): MetricData {
  const suffix = UNIT_SUFFIXES[metric.descriptor.unit];
  if (suffix === undefined || metric.descriptor.name.endsWith(`.${suffix}`)) return metric;
  return { ...metric, descriptor: { ...metric.descriptor, name: `${metric.descriptor.name}.${suffix}` } };
}

const registry = new MetricsRegistry();

export function metricsMeter(): Meter {
  return registry.meter;
}

export interface DurationHistogramOptions {
  name: string;
  unit: string;
  description: string;
  boundaries: number[];
}

/**
 * A duration histogram with its own buckets. The SDK's record() costs ~50 ns with a reused
 * attributes object (scripts/bench/metrics-record.bench.ts): callers keep one frozen object per
 * route and status instead of building one per request.
 */
export function durationHistogram(options: DurationHistogramOptions): Histogram {
  const { name, unit, description, boundaries } = options;
  return registry.meter.createHistogram(name, { unit, description, advice: { explicitBucketBoundaries: boundaries } });
}

/** The first name given wins: a process is one service. */
export function setMetricsServiceName(name: string | undefined): void {
  if (name !== undefined && registry.serviceName === undefined) registry.serviceName = name;
}

export function prometheusText(): Promise<string> {
  return registry.prometheusText();
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Answers a scrape (GET or HEAD). */
export async function serveMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const text = await prometheusText();
  response.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' });
  response.end(request.method === 'HEAD' ? undefined : text);
}
