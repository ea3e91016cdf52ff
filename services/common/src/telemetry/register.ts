/**
 * Loaded with `node --import @ipdata/common/telemetry/register dist/main.js`, before any other
 * module, so the instrumentations can hook into http, grpc, kafkajs, mongodb and ioredis as
 * they are imported (ESM needs the import-in-the-middle loader hook registered first).
 */
import { register } from 'node:module';
import { startTelemetry } from './telemetry.js';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

// The lifecycle flushes it with shutdownTelemetry() at the end of a graceful shutdown.
startTelemetry({
  serviceName: process.env['OTEL_SERVICE_NAME'] ?? process.env['SERVICE_NAME'] ?? 'ipdata',
  otlpEndpoint: process.env['OTEL_EXPORTER_OTLP_ENDPOINT'],
});
