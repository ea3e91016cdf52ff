import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../testing/stack.js';

/**
 * patches/kafkajs+2.2.4.patch (applied by `npm ci`'s postinstall, patch-package) makes kafkajs'
 * record encoding cheaper without changing a byte on the wire: pooled encoder buffers, varints
 * written in place, small varlongs without Long, headers written into their record and a linear
 * grouping of messages per partition; no hunk calls project code. It also stops
 * the 1 ms timer loop every idle broker connection ran (kafkajs #1556). These tests fail when the
 * patch is missing or wrong.
 */
const require = createRequire(import.meta.url);
interface KafkajsEncoder {
  buffer: Buffer;
  writeVarInt(value: number): KafkajsEncoder;
  writeVarLong(value: unknown): KafkajsEncoder;
  writeUVarInt(value: number): KafkajsEncoder;
}
const Encoder = require('kafkajs/src/protocol/encoder.js') as new (size?: number) => KafkajsEncoder;
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => unknown;
const Long = require('kafkajs/src/utils/long.js') as { fromNumber(value: number): unknown };
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (record: object) => KafkajsEncoder;
const Header = require('kafkajs/src/protocol/recordBatch/header/v0/index.js') as { writeTo?: unknown };
const decodeRecord = require('kafkajs/src/protocol/recordBatch/record/v0/decoder.js') as (
  decoder: unknown,
  context: object,
) => { key: Buffer | null; value: Buffer | null; headers: Record<string, Buffer>; timestamp: string; offset: string };
interface KafkajsRequestQueue {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  push(request: { entry: object; expectResponse: boolean; sendRequest: () => void }): void;
  checkPendingRequests(): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  destroy(): void;
}
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (options: object) => KafkajsRequestQueue;
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };
const groupMessagesPerPartition = require('kafkajs/src/producer/groupMessagesPerPartition.js') as (
  args: object,
) => Record<string, object[]>;

/** LEB128 of a zigzag-encoded integer, written out plainly (BigInt, any size). */
function zigzagVarint(value: bigint): number[] {
  let rest = value >= 0n ? value << 1n : (-value << 1n) - 1n;
  const bytes: number[] = [];
  while (rest >= 0x80n) {
    bytes.push(Number((rest & 0x7fn) | 0x80n));
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return bytes;
}

const text = fc.string({ maxLength: 40, unit: 'grapheme' });
/** A record's key, value, headers, timestamp delta and offset delta. */
const recordArbitraries = [
  fc.option(text, { nil: null }),
  fc.uint8Array({ maxLength: 600 }),
  fc.dictionary(fc.stringMatching(/^[a-z][a-z_-]{0,19}$/), text, { maxKeys: 8 }),
  fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
  fc.nat(100_000),
] as const;

describe('kafkajs patch (patches/kafkajs+2.2.4.patch)', () => {
  it('is applied', () => {
    expect(typeof Header.writeTo).toBe('function');
  });

  it('writes varints and varlongs as the protocol defines them, small varlongs as Long would', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (value) => {
        expect([...new Encoder().writeVarInt(value).buffer]).toEqual(zigzagVarint(BigInt(value)));
        expect([...new Encoder().writeVarLong(value).buffer]).toEqual(zigzagVarint(BigInt(value)));
        expect(new Encoder().writeVarLong(value).buffer).toEqual(new Encoder().writeVarLong(Long.fromNumber(value)).buffer);
      }),
      { numRuns: 3_000 },
    );
    const big = 2 ** 40 + 3;
    expect([...new Encoder().writeVarLong(big).buffer]).toEqual(zigzagVarint(BigInt(big)));
  });

  it('encodes records that kafkajs reads back as written: key, value, every header, timestamp and offset', () => {
    fc.assert(
      fc.property(...recordArbitraries, (key, value, headers, timestampDelta, offsetDelta) => {
        const bytes = Record({ key, value: Buffer.from(value), headers, timestampDelta, offsetDelta }).buffer;
        // A record is framed by its length (varint), which the record batch decoder reads first.
        const prefix = lengthPrefix(bytes);
        expect([...bytes.subarray(0, prefix)]).toEqual(zigzagVarint(BigInt(bytes.length - prefix)));
        const body = bytes.subarray(prefix);
        const read = decodeRecord(new Decoder(body), { firstOffset: '0', firstTimestamp: '0' });
        expect(read.key?.toString() ?? null).toBe(key);
        expect(read.value).toEqual(Buffer.from(value));
        expect(Object.fromEntries(Object.entries(read.headers).map(([k, v]) => [k, v.toString()]))).toEqual(headers);
        expect(read.timestamp).toBe(String(timestampDelta));
        expect(read.offset).toBe(String(offsetDelta));
      }),
      { numRuns: 1_000 },
    );
  });

  it('calls no project code: a message is grouped by the partitioner whatever it carries, and no hunk names the project', () => {
    const grouped = groupMessagesPerPartition({
      topic: 't',
      partitionMetadata: [{ partitionId: 0 }, { partitionId: 1 }],
      messages: [{ key: '1', recordBatches: () => [{ partition: 0, recordBatch: Buffer.from('a') }] }],
      partitioner: ({ message }: { message: { key: string } }) => Number(message.key),
    });
    expect(Object.keys(grouped)).toEqual(['1']);
    const patch = readFileSync(fileURLToPath(new URL('../../../../patches/kafkajs+2.2.4.patch', import.meta.url)), 'utf8');
    const added = patch.split('\n').filter((line) => line.startsWith('+') && !line.startsWith('+++'));
    expect(added.filter((line) => /services\/|@ipdata|recordBatch/.test(line))).toEqual([]);
  });

  it('groups messages per partition in their order', () => {
    const messages = Array.from({ length: 500 }, (_, i) => ({ key: String(i) }));
    const grouped = groupMessagesPerPartition({
      topic: 't',
      partitionMetadata: [{ partitionId: 0 }, { partitionId: 1 }, { partitionId: 2 }],
      messages,
      partitioner: ({ message }: { message: { key: string } }) => Number(message.key) % 3,
    });
    for (const partition of [0, 1, 2]) {
      expect(grouped[partition]?.map((message) => Number((message as { key: string }).key))).toEqual(
        messages.map((_, i) => i).filter((i) => i % 3 === partition),
      );
    }
  });

  describe('request queue', () => {
    const newQueue = (maxInFlightRequests: number) =>
      new RequestQueue({
        maxInFlightRequests,
        requestTimeout: 30_000,
        enforceRequestTimeout: false,
        clientId: 'test',
        broker: '127.0.0.1:9092',
        logger: silentLogger,
      });
    const request = (correlationId: number, sent: number[]) => ({
      entry: { correlationId, resolve: () => undefined, reject: () => undefined },
      expectResponse: true,
      sendRequest: () => sent.push(correlationId),
    });

    it('schedules nothing while nothing is pending (no timer loop on an idle connection)', async () => {
      const queue = newQueue(1);
      let checks = 0;
      const check = queue.checkPendingRequests.bind(queue);
      queue.checkPendingRequests = () => {
        checks++;
        check();
      };
      const sent: number[] = [];
      queue.push(request(1, sent));
      queue.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
      expect(queue.throttleCheckTimeoutId).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Unpatched: one check per millisecond for as long as the queue lives.
      expect(checks).toBe(1);
      queue.destroy();
    });

    it('still sends a request queued behind a throttle when it ends, and one behind a full queue when room frees', async () => {
      const throttled = newQueue(10);
      const sent: number[] = [];
      throttled.throttledUntil = Date.now() + 30;
      throttled.push(request(1, sent));
      expect(sent).toEqual([]);
      expect(throttled.throttleCheckTimeoutId).not.toBeNull();
      await waitFor(() => sent.length > 0, { intervalMs: 5, what: 'the request after the throttle' });
      expect(sent).toEqual([1]);
      throttled.destroy();

      const full = newQueue(1);
      const order: number[] = [];
      full.push(request(1, order));
      full.push(request(2, order));
      expect(order).toEqual([1]);
      full.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
      expect(order).toEqual([1, 2]);
      full.destroy();
    });
  });
});

/** How many bytes the record's leading length varint takes. */
function lengthPrefix(bytes: Buffer): number {
  let at = 0;
  while ((bytes[at] as number) & 0x80) at++;
  return at + 1;
}
