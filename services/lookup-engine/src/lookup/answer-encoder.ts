import { isDomainError } from '@ipdata/common';
import { forEachIpv4Cidr } from '@ipdata/common/ip';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { LoadedDataset, Resolution } from '../dataset/loaded-dataset.js';
import { Sink } from '../wire/wire-sink.js';
import { LEN, tag, VARINT } from '../wire/wire-types.js';
import { staticIpInfo } from './ip-info.js';
import { ZoneBytes } from './zone-bytes.js';

// Field tags of ipdata.lookup.v1 messages (see lookup.proto).
const INFO_IP = tag(1, LEN);
const INFO_TIME_ZONE = tag(17, LEN);
const INFO_START_IP = tag(21, LEN);
const INFO_END_IP = tag(22, LEN);
const INFO_NETWORKS = tag(23, LEN);
const INFO_RESERVED = tag(25, VARINT);
const RESPONSE_INFO = tag(1, LEN);
const BATCH_ITEM = tag(1, LEN);
const ITEM_QUERY = tag(1, LEN);
const ITEM_INFO = tag(2, LEN);
const ITEM_ERROR = tag(3, LEN);

/**
 * Writes LookupResponse / BatchLookupResponse bytes directly. The record part of every IpInfo is
 * encoded once per record (by the generated ts-proto codec) and spliced in; only the per-lookup
 * fields (ip, range, networks, time zone, reserved) are written per answer. Protobuf parsers
 * accept fields in any order, so the result decodes to the same message as encoding the whole
 * object. One encoder per loaded dataset, so its cache swaps with the dataset.
 */
export class AnswerEncoder {
  private readonly recordBytes: Array<Uint8Array | undefined>;
  private readonly emptyRecord = IpInfo.encode(staticIpInfo(null)).finish();
  private readonly zoneBytes = new ZoneBytes();

  constructor(readonly dataset: LoadedDataset) {
    this.recordBytes = new Array<Uint8Array | undefined>(dataset.summary.records);
  }

  private staticBytes(resolution: Resolution): Uint8Array {
    if (resolution.record === null) return this.emptyRecord;
    let bytes = this.recordBytes[resolution.recordIndex];
    if (bytes === undefined) {
      bytes = IpInfo.encode(staticIpInfo(resolution.record)).finish();
      this.recordBytes[resolution.recordIndex] = bytes;
    }
    return bytes;
  }

  /** Writes one IpInfo message (field tag + length + payload) into the sink, in place. */
  private writeInfo(sink: Sink, fieldTag: number, query: string, resolution: Resolution, nowMs: number): void {
    const at = sink.openLength(fieldTag);
    sink.append(this.staticBytes(resolution));
    sink.string(INFO_IP, query);
    const zone = resolution.record?.time_zone ?? null;
    const zoneBytes = zone === null ? null : this.zoneBytes.get(zone, nowMs);
    if (zoneBytes !== null) sink.raw(INFO_TIME_ZONE, zoneBytes);
    if (resolution.family === 4) this.writeIpv4Range(sink, resolution.range);
    else {
      const dataset = this.dataset;
      sink.string(INFO_START_IP, dataset.rangeStart(6, resolution.range));
      sink.string(INFO_END_IP, dataset.rangeEnd(6, resolution.range));
      for (const network of dataset.networks(6, resolution.range)) sink.string(INFO_NETWORKS, network);
    }
    if (resolution.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
      sink.varint(INFO_RESERVED);
      sink.varint(resolution.reserved);
    }
    sink.closeLength(at);
  }

  /** start_ip, end_ip and the CIDR blocks of an IPv4 range, straight as ASCII (the common case). */
  private writeIpv4Range(payload: Sink, range: number): void {
    const first = this.dataset.view.ipv4Starts[range] as number;
    const last = this.dataset.lastOf4(range);
    payload.ipv4(INFO_START_IP, first);
    payload.ipv4(INFO_END_IP, last);
    forEachIpv4Cidr(first, last, (network, prefixLength) => payload.ipv4(INFO_NETWORKS, network, prefixLength));
  }

  /** LookupResponse bytes; throws InvalidArgumentError for a malformed address. */
  encodeLookup(query: string, nowMs: number): Buffer {
    const resolution = this.dataset.resolve(query);
    const sink = new Sink(512);
    this.writeInfo(sink, RESPONSE_INFO, query, resolution, nowMs);
    return sink.take();
  }

  /** BatchLookupResponse bytes: every query gets an info or its error, in request order. */
  encodeBatch(queries: readonly string[], nowMs: number): Buffer {
    const sink = new Sink(Math.max(1024, queries.length * 400));
    for (const query of queries) {
      const at = sink.openLength(BATCH_ITEM);
      sink.string(ITEM_QUERY, query);
      let resolution;
      try {
        resolution = this.dataset.resolve(query);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        sink.string(ITEM_ERROR, error.message);
        sink.closeLength(at);
        continue;
      }
      this.writeInfo(sink, ITEM_INFO, query, resolution, nowMs);
      sink.closeLength(at);
    }
    return sink.take();
  }
}
