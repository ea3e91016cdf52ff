import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Paths never written to logs (services/common/README.md, logger): credentials, tokens, API keys, passwords. */
export const REDACTED_PATHS = [
  'authorization',
  'password',
  'token',
  'apiKey',
  'secret',
  '*.authorization',
  '*.password',
  '*.token',
  '*.apiKey',
  '*.secret',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers.token',
];

export interface LoggerConfig {
  service: string;
  level?: LoggerOptions['level'];
  /** Where lines go; stdout by default. Tests pass a stream to read the lines back. */
  destination?: DestinationStream;
}

/**
 * The one pino root logger of a process. Every line is JSON with the same keys everywhere
 * (level as a label, ISO time, service, module) plus trace_id and span_id of the active span,
 * so a log line can be joined to its trace.
 */
export function createLogger(config: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: config.level ?? 'info',
    base: { service: config.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceFields,
  };
  return config.destination === undefined ? pino(options) : pino(options, config.destination);
}

/** One child logger per module, e.g. moduleLogger(root, 'kafka.consumer'). */
export function moduleLogger(root: Logger, module: string, bindings: Record<string, unknown> = {}): Logger {
  return root.child({ module, ...bindings });
}

function traceFields(): Record<string, string> {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
