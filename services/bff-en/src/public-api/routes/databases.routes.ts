import { isDomainError, type ClientAddressResolver } from '@ipdata/common';
import { DATABASE_ERRORS, type DatabaseAccess } from '../../databases/database-access.js';
import type { Accounting, Caller } from '../accounting.js';
import { ApiError, apiErrorOf } from '../api-error.js';
import type { PublicRoute } from '../public-route.js';
import { jsonText } from '../render.js';
import { catalogueView } from '../views/database.view.js';

const RESOLUTIONS: Record<string, string> = {
  [DATABASE_ERRORS.notFound]: 'Use a database and format listed by GET /v1/databases.',
  [DATABASE_ERRORS.sampleNotFound]: 'Samples exist in csv and ndjson; see sample_url in GET /v1/databases.',
  [DATABASE_ERRORS.planExcludes]:
    'Upgrade your data download plan to one named in the message, or download a file with "entitled": true in GET /v1/databases.',
  [DATABASE_ERRORS.dailyLimit]: 'Retry after the time given in Retry-After (00:00 UTC).',
  [DATABASE_ERRORS.unavailable]: 'Retry in a few seconds.',
};

/** The access's DomainErrors with the resolution and headers a script can act on. */
function databaseError(error: unknown): ApiError {
  if (!isDomainError(error) || error.reason === undefined || !(error.reason in RESOLUTIONS)) return apiErrorOf(error);
  const api = apiErrorOf(error);
  const headers: Record<string, string> = {};
  if (error.reason === DATABASE_ERRORS.dailyLimit) headers['Retry-After'] = error.details['retryAfterSeconds'] ?? '60';
  if (error.reason === DATABASE_ERRORS.unavailable) headers['Retry-After'] = '5';
  return new ApiError(api.status, error.reason, error.message, RESOLUTIONS[error.reason] as string, headers);
}

async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw databaseError(error);
  }
}

/**
 * The downloadable databases for scripts and cron jobs (scripts/ipdata-update.ts): the catalogue
 * and 302 redirects to short-lived signed links on the downloads service, which serves the bytes
 * (Range, ETag). No lookup is counted; the key's burst limit applies as to every request. The
 * sample route comes before the download route: `sample.csv` would otherwise be read as a format.
 */
export function databaseRoutes(deps: {
  accounting: Accounting;
  databases: DatabaseAccess;
  clientAddress: ClientAddressResolver;
}): PublicRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/databases',
      auth: true,
      handle: async (call, _params, caller) => {
        await deps.accounting.reserve(call, caller as Caller, 0, false);
        const { catalogue, planName } = await answering(deps.databases.catalogue((caller as Caller).key.accountId));
        call.sendJsonText(200, jsonText(call, catalogueView(catalogue, planName)), ['Cache-Control', 'private, no-cache']);
      },
    },
    {
      method: 'GET',
      path: '/v1/databases/{database}/sample.{format}',
      auth: false,
      handle: async (call, [database = '', format = '']) => {
        const sample = await answering(deps.databases.sampleLink(database, format));
        const body = { url: sample.url, file_name: sample.fileName, size_bytes: sample.sizeBytes, sha256: sample.sha256 };
        // The sample's URL names the dataset version: a short cache follows a new version soon enough.
        call.sendJsonText(302, jsonText(call, body), ['Location', sample.url, 'Cache-Control', 'public, max-age=300']);
      },
    },
    {
      method: 'GET',
      path: '/v1/databases/{database}/{format}',
      auth: true,
      handle: async (call, [database = '', format = ''], caller) => {
        const { key } = caller as Caller;
        await deps.accounting.reserve(call, caller as Caller, 0, false);
        const link = await answering(
          deps.databases.downloadLink({
            accountId: key.accountId,
            database,
            format,
            clientIp: deps.clientAddress.clientIp(call.request),
            nowMs: call.nowMs,
          }),
        );
        const body = {
          url: link.url,
          expires_at: link.expiresAt?.toISOString() ?? null,
          file_name: link.file?.fileName ?? '',
          size_bytes: link.file?.sizeBytes ?? 0,
          sha256: link.file?.sha256 ?? '',
          remaining_today: link.remainingToday,
        };
        // Each answer is a fresh link counted against the daily limit: no cache may replay it.
        call.sendJsonText(302, jsonText(call, body), ['Location', link.url, 'Cache-Control', 'no-store']);
      },
    },
  ];
}
