import { Metadata, status, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import { DeadlineExceededError, fromGrpcError, type Component, type DomainError } from '@ipdata/common';
import type { BatchLookupResponse } from '@ipdata/proto/lookup/v1/lookup';
import { decodeBatchLookupCompactResponse, decodeCompactBatch, type CompactBatch } from './compact-batch-decoder.js';
import { DecodeError, WireCursor } from '../wire/wire-cursor.js';
import { parseError, serviceError, type TunedLookupServiceClient } from './lookup-client.js';

interface Waiting<T> {
  ips: string[];
  resolve(response: T): void;
  reject(error: DomainError): void;
  timer: NodeJS.Timeout;
  /** Sent again once already, after a stream ended before answering it. */
  resent: boolean;
  /** Answered, failed or timed out: a late answer is dropped. */
  done: boolean;
}

interface OpenStream<T> {
  call: ClientDuplexStream<{ ips: string[] }, Buffer>;
  /** Sent on this stream and not answered yet, oldest first (the engine answers in order). */
  waiting: Array<Waiting<T>>;
}

/**
 * BatchLookup over one long-lived BatchLookupCompactStream instead of a unary call per batch. For
 * a caller sending many small batches (bff-en's coalesced single lookups), the per-call cost of
 * gRPC on both sides (a new HTTP/2 stream, headers, trailers, the engine's access check) was most
 * of the engine's CPU under load; for 1,000-address batches it was still ~0.6 ms of the engine's
 * ~3 ms per batch (docs/adr/0008). Answers are decoded by `decode`: `decoded()` gives
 * the BatchLookupResponse objects `client.batchLookup` gives, `compact()` the CompactBatch of
 * `client.batchLookupParts`.
 *
 * One stream at a time. The engine ends a stream every few seconds (the engine's LOOKUP_STREAM_MAX_AGE_MS) and
 * whenever a batch fails; batches it had not answered are sent once more on a new stream (a lookup
 * is idempotent), and fail with the stream's error only if that one ends without answering them
 * too. A batch not answered within `deadlineMs` fails with DeadlineExceededError and the stream is
 * cancelled (its other batches go to the next one).
 */
export class BatchLookupStream<T> implements Component {
  private stream: OpenStream<T> | undefined;
  private streamsOpened = 0;

  constructor(
    private readonly client: TunedLookupServiceClient,
    private readonly decode: (bytes: Uint8Array) => T,
    readonly name = 'lookup-stream',
    private readonly deadlineMs = 5_000,
  ) {}

  /** Answers as BatchLookupResponse objects. */
  static decoded(client: TunedLookupServiceClient, name?: string, deadlineMs?: number): BatchLookupStream<BatchLookupResponse> {
    return new BatchLookupStream(client, decodeBatchLookupCompactResponse, name, deadlineMs);
  }

  /** Answers as CompactBatches (parts and answers as sent). */
  static compact(client: TunedLookupServiceClient, name?: string, deadlineMs?: number): BatchLookupStream<CompactBatch> {
    return new BatchLookupStream(client, decodeCompactBatch, name, deadlineMs);
  }

  batchLookup(ips: string[]): Promise<T> {
    return new Promise((resolve, reject) => {
      const waiting: Waiting<T> = { ips, resolve, reject, resent: false, done: false, timer: undefined as never };
      waiting.timer = setTimeout(() => this.expire(waiting), this.deadlineMs);
      this.send(waiting);
    });
  }

  /** How many streams this client has opened so far (one, plus one after each stream ended). */
  get opened(): number {
    return this.streamsOpened;
  }

  /** Opens on the first batch. */
  async start(): Promise<void> {}

  /** Registered before the HTTP server: requests have drained when this ends the stream. */
  async shutdown(): Promise<void> {
    this.close();
  }

  /** Ends the open stream (its unanswered batches go once more on a new one); the next batch opens a new one. */
  close(): void {
    const stream = this.stream;
    this.stream = undefined;
    stream?.call.cancel();
  }

  private send(waiting: Waiting<T>): void {
    const stream = this.stream ?? this.open();
    stream.waiting.push(waiting);
    stream.call.write({ ips: waiting.ips });
  }

  private open(): OpenStream<T> {
    // No deadline for the stream itself (the client's default would end it): each batch has its own.
    const call = this.client.batchLookupCompactStream(new Metadata(), { deadline: Number.POSITIVE_INFINITY });
    const stream: OpenStream<T> = { call: call as unknown as OpenStream<T>['call'], waiting: [] };
    call.on('data', (bytes: Buffer) => this.answer(stream, bytes));
    call.on('status', ({ code }) => {
      if (code === status.OK) this.ended(stream, undefined);
    });
    call.on('error', (error: ServiceError) => this.ended(stream, error));
    this.stream = stream;
    this.streamsOpened++;
    return stream;
  }

  private answer(stream: OpenStream<T>, bytes: Buffer): void {
    const waiting = stream.waiting.shift();
    if (waiting === undefined || waiting.done) return;
    waiting.done = true;
    clearTimeout(waiting.timer);
    // Decoded on a turn of its own, as FastClient.decodedCall does (why: lookup-client.ts).
    setImmediate(() => {
      let response: T;
      try {
        response = this.decode(batchOf(bytes));
      } catch (failure) {
        waiting.reject(fromGrpcError(parseError(failure)));
        return;
      }
      waiting.resolve(response);
    });
  }

  /**
   * The stream ended: OK (the engine's age limit) or with an error. The engine answers in order,
   * so an error that is about a batch (not the connection) belongs to the oldest one unanswered:
   * it fails with it, and the ones behind it go again.
   */
  private ended(stream: OpenStream<T>, error: ServiceError | undefined): void {
    if (this.stream === stream) this.stream = undefined;
    const left = stream.waiting.splice(0).filter((waiting) => !waiting.done);
    const first = left[0];
    if (error !== undefined && first !== undefined && !TRANSPORT_CODES.has(error.code)) {
      left.shift();
      first.done = true;
      clearTimeout(first.timer);
      first.reject(fromGrpcError(error));
    }
    for (const waiting of left) {
      if (!waiting.resent) {
        waiting.resent = true;
        this.send(waiting);
        continue;
      }
      waiting.done = true;
      clearTimeout(waiting.timer);
      waiting.reject(fromGrpcError(error ?? serviceError(status.UNAVAILABLE, 'the lookup stream ended before answering')));
    }
  }

  private expire(waiting: Waiting<T>): void {
    if (waiting.done) return;
    waiting.done = true;
    waiting.reject(new DeadlineExceededError(`lookup engine did not answer within ${this.deadlineMs} ms`));
    // A stream that left a batch unanswered this long is not trusted with the next ones.
    if (this.stream?.waiting.includes(waiting)) this.close();
  }
}

/** Statuses about the stream or connection rather than a batch: every batch unanswered goes again. */
const TRANSPORT_CODES = new Set<number>([status.CANCELLED, status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.UNKNOWN]);

/** The BatchLookupCompactResponse inside a BatchLookupCompactStreamResponse (field 1). */
function batchOf(bytes: Buffer): Buffer {
  if (bytes.length === 0) return bytes;
  const cursor = new WireCursor();
  cursor.reset(bytes);
  const tag = cursor.varint();
  if (tag !== 0x0a) throw new DecodeError(`unexpected field tag ${tag}`);
  const end = cursor.limit();
  if (end !== bytes.length) throw new DecodeError('batch length does not match the message');
  return bytes.subarray(cursor.pos, end);
}
