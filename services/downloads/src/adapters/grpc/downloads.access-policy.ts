import { defineAccessPolicy } from '@ipdata/common';
import { DownloadsServiceService } from '@ipdata/proto/downloads/v1/downloads';

/**
 * Who may call downloads (identity = client certificate CN, see services/common/README.md
 * "gRPC"). bff-en serves the public /v1/databases routes and the web app's downloads page, so it
 * may call every method; operators may read (catalogue, samples, an account's history) but not
 * create links, which count against the account's daily limit.
 */
export const downloadsAccessPolicy = defineAccessPolicy(DownloadsServiceService, {
  listDatabases: ['bff-en', 'operator'],
  createDownloadLink: ['bff-en'],
  getSampleLink: ['bff-en', 'operator'],
  listDownloadHistory: ['bff-en', 'operator'],
});
