import { TimeZone } from '@ipdata/proto/lookup/v1/lookup';
import { zoneTime } from './time-zone.js';

/**
 * Encoded TimeZone messages (name, offset, current time) per zone, cached for the current second:
 * the offset and local time change with the clock, so they are never stored, but a batch encodes
 * each zone once.
 */
export class ZoneBytes {
  private readonly cache = new Map<string, { second: number; bytes: Uint8Array }>();

  /** The zone's TimeZone bytes at `nowMs`, or null for a zone the runtime does not know. */
  get(zone: string, nowMs: number): Uint8Array | null {
    const second = Math.floor(nowMs / 1000);
    const hit = this.cache.get(zone);
    if (hit !== undefined && hit.second === second) return hit.bytes;
    const time = zoneTime(zone, nowMs);
    if (time === null) return null;
    const bytes = TimeZone.encode({ name: zone, offset: time.offset, currentTime: time.currentTime }).finish();
    this.cache.set(zone, { second, bytes });
    return bytes;
  }
}
