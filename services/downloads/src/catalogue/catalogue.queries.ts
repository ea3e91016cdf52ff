import { NotFoundError } from '@ipdata/common';
import type { Entitlements } from '../entitlements/entitlement.js';
import { filePath } from '../links/download-links.js';
import { checkAccountId, checkWord } from '../links/request-checks.js';
import { Catalogue, type CatalogueFile } from './catalogue.js';
import { entryFor, missingDatasets } from './catalogue-files.js';

export interface ListedFile extends CatalogueFile {
  /** With an account: its plan includes every dataset of the file. */
  entitled: boolean;
}

export interface CatalogueListing {
  version: string;
  files: ListedFile[];
  entitledDatasets: string[];
  planId: string;
}

export interface SampleLink {
  url: string;
  fileName: string;
  sizeBytes: number;
  sha256: string;
}

/** ListDatabases and GetSampleLink: the current version's files, per account entitlement, and free samples. */
export class CatalogueQueries {
  constructor(private readonly deps: { catalogue: Catalogue; entitlements: Entitlements; publicBaseUrl: string }) {}

  async list(accountId: string): Promise<CatalogueListing> {
    const plan = accountId === '' ? undefined : await this.deps.entitlements.of(checkAccountId(accountId));
    const version = await this.deps.catalogue.current();
    const files = version === undefined ? [] : Catalogue.filesOf(version);
    return {
      version: version?.version ?? '',
      files: files.map((file) => ({
        ...file,
        entitled: plan !== undefined && missingDatasets(file.entry, plan.datasets).length === 0,
      })),
      entitledDatasets: plan?.datasets ?? [],
      planId: plan?.planId ?? '',
    };
  }

  async sample(database: string, format: string): Promise<SampleLink> {
    const entry = entryFor(checkWord('database', database), checkWord('format', format));
    if (!entry) throw new NotFoundError(`no ${database} database in ${format} format`, { reason: 'unknown_database' });
    if (entry.sampleFileName === undefined) {
      throw new NotFoundError(`the ${format} format has no sample (only CSV and NDJSON do)`, { reason: 'no_sample' });
    }
    const version = await this.deps.catalogue.current();
    const sample = version?.files.find((file) => file.name === entry.sampleFileName);
    if (!version || !sample) throw new NotFoundError(`no ${entry.sampleFileName} published yet`, { reason: 'no_sample' });
    return {
      url: `${this.deps.publicBaseUrl}${filePath('samples', version.version, sample.name)}`,
      fileName: sample.name,
      sizeBytes: sample.sizeBytes,
      sha256: sample.sha256,
    };
  }
}
