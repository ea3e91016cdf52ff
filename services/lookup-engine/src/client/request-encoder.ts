import type { BatchLookupRequest } from '@ipdata/proto/lookup/v1/lookup';
import { Sink } from '../wire/wire-sink.js';
import { LEN, tag } from '../wire/wire-types.js';

const IPS = tag(1, LEN);

/**
 * BatchLookupRequest bytes (BatchLookupCompactRequest has the same field): the generated writer
 * builds an operation object per string, ~3,000 short-lived objects and ~0.1 ms per 1,000
 * addresses on the client (measured); this writes the strings straight into one buffer.
 */
export function encodeBatchLookupRequest({ ips }: BatchLookupRequest): Buffer {
  const sink = new Sink(16 + ips.length * 18);
  for (const ip of ips) sink.string(IPS, ip);
  return sink.take();
}
