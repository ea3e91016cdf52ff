import { propagation, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { MongooseInstrumentation } from '@opentelemetry/instrumentation-mongoose';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  NoopSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface TelemetryConfig {
  serviceName: string;
  /** OTLP/HTTP endpoint; without it spans are still created (trace ids in logs, propagation) but not exported. */
  otlpEndpoint?: string | undefined;
  /** Extra exporter that receives each span as it ends, e.g. an in-memory one in tests. */
  exporter?: SpanExporter;
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

export function telemetryInstrumentations() {
  return [
    new HttpInstrumentation({
      // Probes would drown the traces of real requests.
      ignoreIncomingRequestHook: (request) => request.url === '/healthz' || request.url === '/readyz',
    }),
    new ExpressInstrumentation(),
    new GrpcInstrumentation(),
    new KafkaJsInstrumentation(),
    new MongoDBInstrumentation(),
    new MongooseInstrumentation(),
    new IORedisInstrumentation(),
  ];
}

/**
 * Starts the OpenTelemetry NodeSDK. Must run before the instrumented libraries are imported,
 * which is why services load it with `node --import @ipdata/common/telemetry/register`.
 */
export function startTelemetry(config: TelemetryConfig): Telemetry {
  const spanProcessors: SpanProcessor[] = [];
  if (config.otlpEndpoint) {
    spanProcessors.push(
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/$/, '')}/v1/traces` })),
    );
  }
  if (config.exporter) spanProcessors.push(new SimpleSpanProcessor(config.exporter));
  // NodeSDK registers no tracer provider without a processor; spans are still wanted for trace
  // ids in log lines and for propagating trace context to the next service.
  if (spanProcessors.length === 0) spanProcessors.push(new NoopSpanProcessor());
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    spanProcessors,
    textMapPropagator: new W3CTraceContextPropagator(),
    instrumentations: telemetryInstrumentations(),
    // Metrics and logs pipelines are not used: pino writes logs, traces are the shared signal.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const telemetry = { shutdown: () => sdk.shutdown() };
  active = telemetry;
  return telemetry;
}

let active: Telemetry | undefined;

/** Flushes and stops the SDK started for this process, if any (the lifecycle calls it last). */
export async function shutdownTelemetry(): Promise<void> {
  const current = active;
  active = undefined;
  await current?.shutdown();
}

export function tracer(name: string): Tracer {
  return trace.getTracer(name);
}

export { propagation };
