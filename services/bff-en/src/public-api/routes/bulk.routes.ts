import { pipeline } from 'node:stream/promises';
import { InvalidArgumentError } from '@ipdata/common';
import type { BulkJob, BulkJobs } from '@ipdata/bulk-jobs';
import type { QuotaDecision } from '@ipdata/metering';
import type { Accounting, Caller } from '../accounting.js';
import type { ApiCall } from '../api-call.js';
import { ApiError, badRequest } from '../api-error.js';
import { bulkContext } from '../bulk/bulk-lookup.processor.js';
import type { PublicRoute } from '../public-route.js';
import { jsonText, selectorOf } from '../render.js';
import { requireContentType } from './batch.routes.js';
import { IP_INFO_FIELDS } from '../views/ip-info.view.js';

const BULK_TYPES = ['text/plain', 'text/csv', 'application/x-ndjson', 'application/jsonl', 'application/octet-stream'];

/** The job as GET /v1/bulk/{id} shows it. */
export function bulkJobView(job: BulkJob): Record<string, unknown> {
  const finished = job.state === 'completed' || job.state === 'quota_exhausted';
  return {
    id: job.id,
    state: job.state,
    format: job.resultFormat,
    progress: {
      total_lines: job.progress.totalLines,
      lines_done: job.progress.linesDone,
      percent: job.progress.percent,
      accepted: job.progress.accepted,
      free: job.progress.free,
    },
    message: job.message,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    expires_at: job.expiresAt.toISOString(),
    result_url: finished ? `/v1/bulk/${job.id}/result` : null,
  };
}

/** `format` of a bulk job is the result file's: ndjson (default) or csv. */
function resultFormat(call: ApiCall): 'csv' | 'ndjson' {
  const value = call.param('format') ?? 'ndjson';
  if (value !== 'csv' && value !== 'ndjson') {
    throw badRequest('invalid_format', `format must be ndjson or csv, not "${value}".`, 'Use format=ndjson or format=csv.');
  }
  return value;
}

function inputTooLarge(maxBytes: number): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `The upload is larger than ${maxBytes} bytes.`,
    'Split the list into several jobs.',
    { Connection: 'close' },
  );
}

/** The quota is checked before a job starts: nothing left (and no overage allowed) → 429 at once. */
function requireQuotaLeft(call: ApiCall, caller: Caller, quota: QuotaDecision): void {
  if (quota.remaining > 0) return;
  const { subject } = caller;
  const ceiling = subject.overageAllowed ? subject.maxPerMonth : subject.includedPerMonth;
  if (ceiling === undefined || quota.used < ceiling) return;
  throw new ApiError(
    429,
    'quota_exceeded',
    `The monthly quota of ${quota.limit} lookups is used up; the job was not started.`,
    'Wait until the quota resets (X-RateLimit-Reset) or upgrade your plan.',
    { 'Retry-After': String(Math.max(1, Math.ceil((quota.resetAt.getTime() - call.nowMs) / 1000))) },
  );
}

/**
 * POST /v1/bulk (202 + job), GET /v1/bulk/{id} (state and progress), GET /v1/bulk/{id}/result
 * (the result file, streamed). Jobs belong to the key's account; another account's job id is 404.
 */
export function bulkRoutes(deps: { accounting: Accounting; bulk: BulkJobs; bulkMaxBytes: number }): PublicRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/bulk',
      auth: true,
      handle: async (call, _params, caller) => {
        const { subject } = caller as Caller;
        requireContentType(call.request, BULK_TYPES);
        // A declared length over the limit is refused before a byte is read.
        if (Number(call.request.headers['content-length']) > deps.bulkMaxBytes) throw inputTooLarge(deps.bulkMaxBytes);
        const format = resultFormat(call);
        selectorOf(call, IP_INFO_FIELDS);
        requireQuotaLeft(call, caller as Caller, await deps.accounting.reserveDecision(call, caller as Caller, 0, false));
        let job: BulkJob;
        try {
          job = await deps.bulk.submit({ id: subject.accountId }, call.request, {
            resultFormat: format,
            context: bulkContext(subject, call.param('fields')),
          });
        } catch (error) {
          if (error instanceof InvalidArgumentError) {
            // The rest of the upload is not read: the connection cannot be reused.
            const status = error.reason === 'input_too_large' ? 413 : 400;
            throw new ApiError(
              status,
              error.reason ?? 'invalid_input',
              error.message,
              'Send at most 1,000,000 lines of addresses (CSV, NDJSON or one per line).',
              {
                Connection: 'close',
              },
            );
          }
          throw error;
        }
        call.sendJsonText(202, jsonText(call, bulkJobView(job)), ['Location', `/v1/bulk/${job.id}`]);
      },
    },
    {
      method: 'GET',
      path: '/v1/bulk/{id}',
      auth: true,
      handle: async (call, [id = ''], caller) => {
        await deps.accounting.reserve(call, caller as Caller, 0, false);
        const job = await deps.bulk.get(id, (caller as Caller).subject.accountId);
        call.sendJsonText(200, jsonText(call, bulkJobView(job)));
      },
    },
    {
      method: 'GET',
      path: '/v1/bulk/{id}/result',
      auth: true,
      handle: async (call, [id = ''], caller) => {
        await deps.accounting.reserve(call, caller as Caller, 0, false);
        const result = await deps.bulk.openResult(id, (caller as Caller).subject.accountId);
        call.streamHeaders(200, result.contentType, [
          'Content-Length',
          String(result.size),
          'Content-Disposition',
          `attachment; filename="${result.fileName}"`,
        ]);
        if (call.request.method === 'HEAD') {
          result.stream.destroy();
          call.response.end();
          return;
        }
        await pipeline(result.stream, call.response);
      },
    },
  ];
}
