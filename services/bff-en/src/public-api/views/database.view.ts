import type { DatabaseFile, ListDatabasesResponse } from '@ipdata/proto/downloads/v1/downloads';

/** One file as GET /v1/databases lists it, with the public API paths that download it. */
export function databaseFileView(file: DatabaseFile): Record<string, unknown> {
  const database = encodeURIComponent(file.database);
  const format = encodeURIComponent(file.format);
  return {
    database: file.database,
    format: file.format,
    file_name: file.fileName,
    version: file.version,
    updated_at: file.updatedAt?.toISOString() ?? null,
    update_frequency: file.updateFrequency,
    size_bytes: file.sizeBytes,
    sha256: file.sha256,
    row_count: file.rowCount,
    datasets: file.datasets,
    entitled: file.entitled,
    download_url: `/v1/databases/${database}/${format}`,
    sample_url: file.hasSample ? `/v1/databases/${database}/sample.${format}` : null,
  };
}

/** GET /v1/databases: the current version, the caller's download plan and every file. */
export function catalogueView(catalogue: ListDatabasesResponse, planName: string | null): Record<string, unknown> {
  return {
    version: catalogue.version === '' ? null : catalogue.version,
    plan: { id: catalogue.planId, name: planName, datasets: catalogue.entitledDatasets },
    databases: catalogue.files.map(databaseFileView),
  };
}
