import type { Logger } from 'pino';
import { unary, type GrpcServer } from '@ipdata/common';
import { DownloadsServiceService, type DatabaseFile, type DownloadsServiceServer } from '@ipdata/proto/downloads/v1/downloads';
import type { CatalogueFile } from '../../catalogue/catalogue.js';
import { UPDATE_FREQUENCY } from '../../catalogue/catalogue-files.js';
import type { CatalogueQueries } from '../../catalogue/catalogue.queries.js';
import type { DownloadHistory } from '../../history/download-history.js';
import type { DownloadLinks } from '../../links/download-links.js';

export const DOWNLOADS_SERVICE_NAME = 'ipdata.downloads.v1.DownloadsService';

export interface DownloadsHandlerDeps {
  catalogue: CatalogueQueries;
  links: DownloadLinks;
  history: DownloadHistory;
}

function fileMessage(file: CatalogueFile, entitled: boolean): DatabaseFile {
  return {
    database: file.entry.database,
    format: file.entry.format,
    fileName: file.entry.fileName,
    version: file.version.version,
    updatedAt: file.version.builtAt,
    updateFrequency: UPDATE_FREQUENCY,
    sizeBytes: file.file.sizeBytes,
    sha256: file.file.sha256,
    rowCount: file.file.rows,
    datasets: [...file.entry.datasets],
    entitled,
    hasSample: file.sample !== undefined,
  };
}

/** Thin gRPC handlers: messages in, domain calls, messages out; errors are mapped by unary(). */
export function addDownloadsService(server: GrpcServer, deps: DownloadsHandlerDeps, logger: Logger): void {
  const implementation: DownloadsServiceServer = {
    listDatabases: unary(logger, 'ListDatabases', async (request) => {
      const listing = await deps.catalogue.list(request.accountId);
      return {
        files: listing.files.map((file) => fileMessage(file, file.entitled)),
        version: listing.version,
        entitledDatasets: listing.entitledDatasets,
        planId: listing.planId,
      };
    }),
    createDownloadLink: unary(logger, 'CreateDownloadLink', async (request) => {
      const created = await deps.links.create(request);
      return {
        url: created.url,
        expiresAt: created.expiresAt,
        file: fileMessage(created.file, true),
        remainingToday: created.remainingToday,
      };
    }),
    getSampleLink: unary(logger, 'GetSampleLink', (request) => deps.catalogue.sample(request.database, request.format)),
    listDownloadHistory: unary(logger, 'ListDownloadHistory', async (request) => {
      const page = await deps.history.list(request);
      return {
        downloads: page.downloads.map((record) => ({ ...record })),
        total: page.total,
        remainingToday: page.remainingToday,
        dailyLimit: page.dailyLimit,
      };
    }),
  };
  server.addService(DOWNLOADS_SERVICE_NAME, DownloadsServiceService, implementation);
}
