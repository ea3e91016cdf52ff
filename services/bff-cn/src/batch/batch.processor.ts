import type { BulkChunk, BulkJob, ChunkProcessor, ChunkResult } from '@ipdata/bulk-jobs';
import { checkAddress } from '@ipdata/lookup-engine/client';
import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import type { CallContext } from '../face-a/face-a-call.js';
import { platOf } from '../face-a/plat.js';
import type { UsageEmitter } from '../usage/usage-emitter.js';
import { encodeRow, infoRow, invalidRow, reservedRow, type BatchRow } from './batch-rows.js';
import type { BatchLookupEngine } from './batch.ports.js';

/** What a batch call stores with its job: who asked (usage events) and through which call. */
export interface BatchJobContext extends Record<string, string> {
  visitorId: string;
  accountId: string;
  plat: string;
  endpoint: string;
}

/**
 * A batch job's chunk (≤ 1,000 lines, the engine's batch size): invalid lines and reserved
 * addresses are answered here, the others in one BatchLookupCompact call (the tuned client).
 * Usage: one event per (country, province, result) group of the chunk with its count, id
 * `<chunk requestId>:<group>` — the trends keep their countries and provinces, a chunk redone
 * after a crash repeats the same ids (stats counts an event id once), and 10,000 addresses are
 * tens of events, not 10,000.
 */
export class BatchLookupProcessor implements ChunkProcessor {
  constructor(private readonly deps: { engine: BatchLookupEngine; usage: UsageEmitter }) {}

  async process(job: BulkJob, chunk: BulkChunk): Promise<ChunkResult> {
    const started = performance.now();
    const rows: BatchRow[] = new Array<BatchRow>(chunk.lines.length);
    const usage = new UsageGroups();
    const lookUp: { at: number; ip: string }[] = [];
    chunk.lines.forEach((line, at) => {
      const address = line.length <= 100 ? checkAddress(line) : undefined;
      if (address === undefined) {
        rows[at] = invalidRow(line);
        usage.free(UsageResult.USAGE_RESULT_INVALID);
      } else if (address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
        rows[at] = reservedRow(line, address.text, address.reserved);
        usage.free(UsageResult.USAGE_RESULT_RESERVED);
      } else lookUp.push({ at, ip: address.text });
    });
    const items = lookUp.length > 0 ? await this.deps.engine.batchLookup(lookUp.map((entry) => entry.ip)) : [];
    let accepted = 0;
    lookUp.forEach(({ at }, i) => {
      const info = items[i]?.info;
      const line = chunk.lines[at] ?? '';
      if (info === undefined) {
        // The engine refused an address checkAddress accepted (should not happen): shown, not counted.
        rows[at] = invalidRow(line);
        usage.free(UsageResult.USAGE_RESULT_INVALID);
        return;
      }
      rows[at] = infoRow(line, info);
      accepted++;
      const countryCode = info.countryCode ?? '';
      usage.lookup(
        countryCode,
        countryCode === 'CN' ? (info.zh?.province ?? '') : '',
        countryCode !== '' ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_NOT_FOUND,
      );
    });
    await this.record(job, chunk, usage.groups(), started);
    return { rows: rows.map(encodeRow), accepted, free: chunk.lines.length - accepted };
  }

  /** Resolves once every group's event is stored: the chunk counts as done only then. */
  private async record(job: BulkJob, chunk: BulkChunk, groups: readonly UsageGroup[], started: number): Promise<void> {
    const { visitorId = '', accountId = '', plat = 'pc', endpoint = 'query_ip_batch_zone' } = job.context;
    const stored = groups.map((group, i) => {
      const context: CallContext = {
        requestId: `${chunk.requestId}:${i}`,
        clientIp: '',
        visitorId,
        plat: platOf(plat),
        token: undefined,
        accountId: accountId === '' ? undefined : accountId,
        startedAt: started,
      };
      return this.deps.usage.record(context, {
        endpoint,
        ip: '',
        ipVersion: 0,
        countryCode: group.countryCode,
        province: group.province,
        result: group.result,
        count: group.count,
        freeCount: group.free,
      });
    });
    await Promise.all(stored);
  }
}

interface UsageGroup {
  countryCode: string;
  province: string;
  result: UsageResult;
  count: number;
  free: number;
}

/** A chunk's lookups counted per (country, province, result), in first-seen order (stable ids on a redo). */
class UsageGroups {
  private readonly byKey = new Map<string, UsageGroup>();

  lookup(countryCode: string, province: string, result: UsageResult): void {
    this.group(countryCode, province, result).count++;
  }

  free(result: UsageResult): void {
    this.group('', '', result).free++;
  }

  groups(): UsageGroup[] {
    return [...this.byKey.values()];
  }

  private group(countryCode: string, province: string, result: UsageResult): UsageGroup {
    const key = `${countryCode}|${province}|${result}`;
    let group = this.byKey.get(key);
    if (group === undefined) {
      group = { countryCode, province, result, count: 0, free: 0 };
      this.byKey.set(key, group);
    }
    return group;
  }
}
