import type { IncomingMessage } from 'node:http';
import { readBody } from '@ipdata/common';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import type { LookupEngine } from '../../lookups/lookup.ports.js';
import type { Accounting, Caller } from '../accounting.js';
import { JSON_TYPE } from '../api-call.js';
import { ApiError, badRequest } from '../api-error.js';
import { compactAnswers, lookUpBatch, mapBatchItems, type RefusedItem } from '../batch-lookup.js';
import type { PublicRoute } from '../public-route.js';
import { CSV_TYPE, jsonText, selectorOf, wantsCsv } from '../render.js';
import { csvBatch, type CsvBatchItem } from '../views/csv.js';
import { IP_INFO_FIELDS, ipInfoView } from '../views/ip-info.view.js';
import { batchJsonBody } from '../views/batch-json.js';

export const BATCH_MAX_ITEMS = 1_000;

function errorItem(item: RefusedItem): { query: string; error: { code: string; message: string } } {
  return { query: item.query, error: { code: item.code, message: item.message } };
}
/** 1,000 of the longest addresses as JSON strings fit with room to spare. */
export const BATCH_MAX_BODY_BYTES = 128 * 1024;

export interface BatchRoutesDeps {
  accounting: Accounting;
  engine: LookupEngine;
}

export function requireContentType(request: IncomingMessage, accepted: readonly string[]): void {
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (!accepted.includes(type)) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `Content-Type must be ${accepted.join(' or ')}${type === '' ? '' : `, not ${type}`}.`,
      `Send the body with Content-Type: ${accepted[0] ?? ''}.`,
    );
  }
}

/** The inputs of a batch body: a JSON array, or an object with an `ips` array. */
export function batchInputs(body: Buffer): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest(
      'malformed_json',
      'The request body is not valid JSON.',
      'Send a JSON array of addresses, or {"ips": [...]}.',
    );
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { ips?: unknown } | null)?.ips;
  if (!Array.isArray(list)) {
    throw badRequest(
      'invalid_batch',
      'The body must be a JSON array of addresses or {"ips": [...]}.',
      'Send ["8.8.8.8", "1.1.1.1"].',
    );
  }
  if (list.length === 0) throw badRequest('empty_batch', 'The batch has no addresses.', 'Send between 1 and 1,000 addresses.');
  if (list.length > BATCH_MAX_ITEMS) {
    throw badRequest(
      'batch_too_large',
      `The batch has ${list.length} items; at most ${BATCH_MAX_ITEMS} are allowed.`,
      'Split the list, or use POST /v1/bulk for large lists.',
    );
  }
  return list;
}

/**
 * POST /v1/batch: up to 1,000 inputs, counted by lookUpBatch's rules (partial reservation: when
 * the quota has room for only some addresses, the rest carry `quota_exceeded`); one usage event
 * for the whole batch.
 */
export function batchRoutes(deps: BatchRoutesDeps): PublicRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/batch',
      auth: true,
      handle: async (call, _params, caller) => {
        requireContentType(call.request, ['application/json']);
        const csv = wantsCsv(call);
        const selector = selectorOf(call, IP_INFO_FIELDS);
        const inputs = batchInputs(await readBody(call.request, BATCH_MAX_BODY_BYTES));
        const { items, granted, free } = await lookUpBatch(inputs, compactAnswers(deps.engine), (count) =>
          deps.accounting.reserve(call, caller as Caller, count, true),
        );
        await deps.accounting.record(call, caller as Caller, {
          endpoint: '/v1/batch',
          ip: '',
          ipVersion: 0,
          countryCode: '',
          province: '',
          result: granted > 0 ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_RESERVED,
          httpStatus: 200,
          count: granted,
          freeCount: free,
        });
        if (csv) {
          const rows = mapBatchItems<CsvBatchItem>(
            items,
            (info) => ({ view: selector.apply(ipInfoView(info)) }),
            (item) => ({ query: item.query, error: item.code }),
          );
          call.send(200, CSV_TYPE, csvBatch(rows, selector.columns));
          return;
        }
        if (selector.all && call.param('pretty') === null) {
          // The common case, and the batch's largest cost: views/batch-json.ts.
          call.send(
            200,
            JSON_TYPE,
            batchJsonBody(items, (item) => JSON.stringify(errorItem(item))),
          );
          return;
        }
        const out = mapBatchItems<unknown>(items, (info) => selector.apply(ipInfoView(info)), errorItem);
        call.sendJsonText(200, jsonText(call, out));
      },
    },
  ];
}
