import { UnavailableError, type Clock } from '@ipdata/common';
import type { BulkJob, ChunkProcessor } from '@ipdata/bulk-jobs';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import type { LookupEngine } from '../../lookups/lookup.ports.js';
import type { QuotaSubject } from '@ipdata/metering';
import type { Accounting } from '../accounting.js';
import { ApiError } from '../api-error.js';
import { decodedAnswers, lookUpBatch, mapBatchItems, type BatchItem } from '../batch-lookup.js';
import { csvBatchColumns, csvBatchRow, csvLine } from '../views/csv.js';
import { compileFields, type FieldSelector } from '../views/field-selector.js';
import { IP_INFO_FIELDS, ipInfoView } from '../views/ip-info.view.js';
import { ipInfoJson } from '../views/json-output.js';

/** What POST /v1/bulk stores with the job, so chunks are counted and formatted as the caller asked. */
export interface BulkJobContext extends Record<string, string> {
  subject: string;
  fields: string;
}

export function bulkContext(subject: QuotaSubject, fields: string | null): BulkJobContext {
  return { subject: JSON.stringify(subject), fields: fields ?? '' };
}

function selectorOf(job: BulkJob): FieldSelector {
  return compileFields(job.context['fields'] || null, IP_INFO_FIELDS);
}

function subjectOf(job: BulkJob): QuotaSubject {
  return JSON.parse(job.context['subject'] ?? '{}') as QuotaSubject;
}

/**
 * A bulk job's chunks, counted by the batch rules (lookUpBatch) with the chunk's own id
 * (`<jobId>:<index>`) as reservation and usage event id: a chunk redone after a crash is neither
 * charged nor recorded twice. The plan is the one the key had when the job was submitted. When the
 * quota runs out inside a chunk, its remaining addresses say `quota_exceeded` and the job stops
 * in state `quota_exhausted`.
 */
export class BulkLookupProcessor implements ChunkProcessor {
  constructor(private readonly deps: { engine: LookupEngine; accounting: Accounting; clock: Clock }) {}

  header(job: BulkJob): string | undefined {
    return job.resultFormat === 'csv' ? csvLine(csvBatchColumns(selectorOf(job).columns)) : undefined;
  }

  async process(
    job: BulkJob,
    chunk: { index: number; requestId: string; lines: string[] },
  ): Promise<{ rows: string[]; accepted: number; free: number; stop?: { state: 'quota_exhausted'; message: string } }> {
    const started = performance.now();
    const now = this.deps.clock.now();
    const subject = subjectOf(job);
    let outcome;
    try {
      outcome = await lookUpBatch(chunk.lines, decodedAnswers(this.deps.engine), async (count) => {
        const decision = await this.deps.accounting.reserveChunk(subject, chunk.requestId, count, now.getTime());
        return decision.granted;
      });
    } catch (error) {
      // The engine retries transient failures; a 503 from the quota rule is one.
      if (error instanceof ApiError && error.status === 503) throw new UnavailableError(error.message, { cause: error });
      throw error;
    }
    if (outcome.granted + outcome.free > 0) {
      await this.deps.accounting.recordAs(
        subject,
        {
          endpoint: '/v1/bulk',
          ip: '',
          ipVersion: 0,
          countryCode: '',
          province: '',
          result: outcome.granted > 0 ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_RESERVED,
          httpStatus: 200,
          count: outcome.granted,
          freeCount: outcome.free,
        },
        chunk.requestId,
        performance.now() - started,
        now,
      );
    }
    const rows = this.rows(job, outcome.items);
    if (outcome.refused === 0) return { rows, accepted: outcome.granted, free: outcome.free };
    return {
      rows,
      accepted: outcome.granted,
      free: outcome.free,
      stop: {
        state: 'quota_exhausted',
        message: 'The monthly quota ran out: the lines after the last answered address were not looked up.',
      },
    };
  }

  private rows(job: BulkJob, items: BatchItem[]): string[] {
    const selector = selectorOf(job);
    if (job.resultFormat === 'csv') {
      const columns = csvBatchColumns(selector.columns);
      // The engine ends lines itself: each row without its CRLF.
      return mapBatchItems(
        items,
        (info) => csvBatchRow({ view: selector.apply(ipInfoView(info)) }, columns).slice(0, -2),
        (item) => csvBatchRow({ query: item.query, error: item.code }, columns).slice(0, -2),
      );
    }
    return mapBatchItems(
      items,
      (info) => {
        const view = ipInfoView(info);
        // The full answer (most jobs) through the specialised serialiser: same bytes, about twice as fast.
        return selector.all ? ipInfoJson(view, info) : JSON.stringify(selector.apply(view));
      },
      (item) => JSON.stringify({ query: item.query, error: { code: item.code, message: item.message } }),
    );
  }
}
