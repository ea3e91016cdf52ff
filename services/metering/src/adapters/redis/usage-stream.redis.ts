import type { Redis } from 'ioredis';
import type { StoredUsageGroup, UsageEventStore, UsageStreamReader } from '../../ledger/usage.ports.js';

export interface RedisUsageStreamOptions {
  /** The stream's key (default `usage:events`); every metering process of one platform shares it. */
  key?: string;
  /** The relays' consumer group (default `usage-relay`). */
  group?: string;
}

const FIELD = 'f';

/**
 * The usage ledger's store: one Redis Stream entry per group of frames (field `f`), read by the
 * relays through one consumer group. No MAXLEN: an entry leaves the stream only when a relay
 * acknowledged it (XACK and XDEL in one MULTI), so a long Kafka outage grows the stream (its age
 * is in backlog()) and loses nothing. Redis keeps it in its append-only file (appendfsync
 * everysec, as the quota counters).
 *
 * `append` runs on the requests' connection; the relay's reads block, so they need a connection
 * of their own (`reader`), whose command timeout is longer than the block.
 */
export class RedisUsageStream implements UsageEventStore, UsageStreamReader {
  readonly key: string;
  readonly group: string;

  constructor(
    private readonly writer: Redis,
    private readonly reader: Redis = writer,
    options: RedisUsageStreamOptions = {},
  ) {
    this.key = options.key ?? 'usage:events';
    this.group = options.group ?? 'usage-relay';
  }

  async append(frames: Buffer): Promise<void> {
    await this.writer.xadd(this.key, '*', FIELD, frames);
  }

  async ensureGroup(): Promise<void> {
    try {
      // From the stream's start: entries written before any relay existed are relayed too.
      await this.writer.xgroup('CREATE', this.key, this.group, '0', 'MKSTREAM');
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('BUSYGROUP')) throw error;
    }
  }

  async read(consumer: string, options: { count: number; blockMs: number; pending: boolean }): Promise<StoredUsageGroup[]> {
    const from = options.pending ? '0' : '>';
    const reply = options.pending
      ? await this.reader.xreadgroupBuffer('GROUP', this.group, consumer, 'COUNT', options.count, 'STREAMS', this.key, from)
      : await this.reader.xreadgroupBuffer(
          'GROUP',
          this.group,
          consumer,
          'COUNT',
          options.count,
          'BLOCK',
          options.blockMs,
          'STREAMS',
          this.key,
          from,
        );
    // ioredis answers in RESP2's shape, [[key, entries]], whichever protocol it speaks.
    return reply === null ? [] : groupsOf((reply as Array<[Buffer, RawEntry[]]>)[0]?.[1] ?? []);
  }

  async claimStale(consumer: string, minIdleMs: number, count: number): Promise<StoredUsageGroup[]> {
    const reply = (await this.writer.callBuffer(
      'XAUTOCLAIM',
      this.key,
      this.group,
      consumer,
      minIdleMs,
      '0-0',
      'COUNT',
      count,
    )) as [Buffer, RawEntry[], ...unknown[]];
    return groupsOf(reply[1]);
  }

  async ack(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.writer
      .multi()
      .xack(this.key, this.group, ...ids)
      .xdel(this.key, ...ids)
      .exec();
  }

  async pruneConsumers(except: string, minIdleMs: number): Promise<string[]> {
    // XINFO CONSUMERS answers one flat field/value list per consumer: name, pending, idle, ...
    const consumers = (await this.writer.xinfo('CONSUMERS', this.key, this.group)) as unknown[][];
    const gone = consumers
      .map((fields) => Object.fromEntries(pairs(fields)) as { name?: string; pending?: number; idle?: number })
      .filter(({ name, pending, idle }) => name !== undefined && name !== except && pending === 0 && (idle ?? 0) >= minIdleMs)
      .map(({ name }) => name as string);
    // A consumer deleted while it still runs comes back with its next read: nothing pending is lost.
    for (const name of gone) await this.writer.xgroup('DELCONSUMER', this.key, this.group, name);
    return gone;
  }

  async backlog(): Promise<{ groups: number; oldestAt: Date | undefined }> {
    const [groups, first] = await Promise.all([this.writer.xlen(this.key), this.writer.xrange(this.key, '-', '+', 'COUNT', 1)]);
    const id = first[0]?.[0];
    return { groups, oldestAt: id === undefined ? undefined : new Date(Number(id.split('-')[0])) };
  }
}

function pairs(fields: readonly unknown[]): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (let at = 0; at + 1 < fields.length; at += 2) out.push([String(fields[at]), fields[at + 1]]);
  return out;
}

/** An entry as Redis answers it: its id and its field/value list (null when it was deleted meanwhile). */
type RawEntry = [Buffer, Buffer[] | null];

function groupsOf(entries: readonly RawEntry[]): StoredUsageGroup[] {
  const groups: StoredUsageGroup[] = [];
  for (const [id, fields] of entries) {
    const at = fields?.findIndex((field, index) => index % 2 === 0 && field.toString() === FIELD) ?? -1;
    const frames = at >= 0 ? fields?.[at + 1] : undefined;
    // A pending id whose entry is gone (deleted by a relay that acked it) is acknowledged empty.
    groups.push({ id: id.toString(), frames: frames ?? Buffer.alloc(0) });
  }
  return groups;
}
