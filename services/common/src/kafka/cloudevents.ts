import type { IHeaders } from 'kafkajs';

/**
 * CloudEvents 1.0 Kafka protocol binding, binary mode: attributes travel as `ce_*` headers and
 * the record value is the protobuf-encoded event.
 */
export const CE_SPEC_VERSION = '1.0';
export const PROTOBUF_CONTENT_TYPE = 'application/protobuf';

export interface CloudEventAttributes {
  id: string;
  type: string;
  source: string;
  /** RFC 3339 timestamp. */
  time: string;
}

export function cloudEventHeaders(attributes: CloudEventAttributes): Record<string, string> {
  return {
    ce_specversion: CE_SPEC_VERSION,
    ce_id: attributes.id,
    ce_type: attributes.type,
    ce_source: attributes.source,
    ce_time: attributes.time,
    'content-type': PROTOBUF_CONTENT_TYPE,
  };
}

/** Kafka header values arrive as Buffers (or arrays of them); this flattens them to strings. */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) result[key] = first.toString();
  }
  return result;
}

export class MalformedEventError extends Error {
  override name = 'MalformedEventError';
}

export function readCloudEventAttributes(headers: Record<string, string>): CloudEventAttributes {
  const missing = ['ce_id', 'ce_type', 'ce_source', 'ce_time', 'ce_specversion'].filter((key) => !headers[key]);
  if (missing.length > 0) throw new MalformedEventError(`missing CloudEvents headers: ${missing.join(', ')}`);
  if (headers['ce_specversion'] !== CE_SPEC_VERSION) {
    throw new MalformedEventError(`unsupported CloudEvents specversion ${headers['ce_specversion']}`);
  }
  return {
    id: headers['ce_id'] as string,
    type: headers['ce_type'] as string,
    source: headers['ce_source'] as string,
    time: headers['ce_time'] as string,
  };
}
