import { z } from 'zod';
import type { DatabaseAccess } from '../../databases/database-access.js';
import { catalogueView } from '../../public-api/views/database.view.js';
import { identifier, noInput } from '../web-input.js';
import { defineWebRoute, type WebRoute } from '../web-route.js';

const page = z.coerce.number({ error: 'Expected a page number' }).int().min(1).max(10_000).default(1);

/**
 * The Data Downloads screen and the database pages: the catalogue (with `entitled` per file for a
 * logged-in account), a fresh signed link per download (10 minutes, counted against the daily
 * limit, recorded with the caller's address), the free samples, and the account's history.
 */
export function downloadRoutes(deps: { databases: DatabaseAccess }): WebRoute[] {
  const { databases } = deps;
  return [
    defineWebRoute({
      name: 'listDatabases',
      method: 'GET',
      path: '/api/databases',
      login: false,
      input: noInput,
      handle: async (context) => {
        // A visitor (or an ended session) sees the catalogue as the free plan does.
        const accountId = context.token === undefined ? '' : await context.optionalAccount();
        const { catalogue, planName } = await databases.catalogue(accountId);
        return { data: catalogueView(catalogue, planName) };
      },
    }),
    defineWebRoute({
      name: 'createDownloadLink',
      method: 'POST',
      path: '/api/databases/{database}/{format}/link',
      login: true,
      input: z.object({ database: identifier, format: identifier }),
      handle: async (context, input) => {
        const link = await databases.downloadLink({
          accountId: context.accountId as string,
          database: input.database,
          format: input.format,
          clientIp: context.clientIp,
          nowMs: context.now.getTime(),
        });
        return {
          data: { url: link.url, expires_at: link.expiresAt?.toISOString() ?? null, file_name: link.file?.fileName ?? null },
        };
      },
    }),
    defineWebRoute({
      name: 'getSampleLink',
      method: 'GET',
      path: '/api/databases/{database}/sample/{format}',
      login: false,
      input: z.object({ database: identifier, format: identifier }),
      handle: async (_context, input) => {
        const sample = await databases.sampleLink(input.database, input.format);
        return { data: { url: sample.url, file_name: sample.fileName, size_bytes: sample.sizeBytes, sha256: sample.sha256 } };
      },
    }),
    defineWebRoute({
      name: 'listDownloadHistory',
      method: 'GET',
      path: '/api/downloads/history',
      login: true,
      input: z.object({ page }),
      handle: async (context, input) => {
        const history = await databases.history(context.accountId as string, input.page, 20);
        return {
          data: {
            downloads: history.downloads.map((record) => ({
              id: record.downloadId,
              downloaded_at: record.downloadedAt?.toISOString() ?? null,
              ip: record.clientIp,
              database: record.database,
              format: record.format,
              file_name: record.fileName,
              version: record.version,
              size_bytes: record.sizeBytes,
            })),
            total: history.total,
            page: input.page,
            remaining_today: history.remainingToday,
            daily_limit: history.dailyLimit,
          },
        };
      },
    }),
  ];
}
