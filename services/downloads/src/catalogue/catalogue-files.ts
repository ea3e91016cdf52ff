/**
 * The downloadable files of a dataset version folder (services/dataset README, "Output") and
 * what each one is: database, format, the datasets whose data it carries (a plan must include
 * every one of them) and its free sample. Files of the folder not listed here (licences,
 * manifest.json, samples themselves) are not catalogue entries.
 */
export interface CatalogueEntry {
  database: string;
  format: string;
  fileName: string;
  datasets: readonly string[];
  /** The first 1,000 rows, free for anyone; undefined for the binary formats. */
  sampleFileName: string | undefined;
  contentType: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  ipdat: 'application/octet-stream',
  mmdb: 'application/octet-stream',
};

function tableEntry(database: string, format: string): CatalogueEntry {
  return {
    database,
    format,
    fileName: `${database}.${format}`,
    datasets: [database],
    sampleFileName: `${database}-sample.${format}`,
    contentType: CONTENT_TYPES[format]!,
  };
}

const ALL_DATASETS = ['geolocation', 'privacy', 'asn'] as const;

export const CATALOGUE_ENTRIES: readonly CatalogueEntry[] = [
  ...ALL_DATASETS.flatMap((database) => [tableEntry(database, 'csv'), tableEntry(database, 'ndjson')]),
  {
    database: 'complete',
    format: 'ipdat',
    fileName: 'ipdata.ipdat',
    datasets: ALL_DATASETS,
    sampleFileName: undefined,
    contentType: CONTENT_TYPES['ipdat']!,
  },
  {
    database: 'complete',
    format: 'mmdb',
    fileName: 'ipdata-city.mmdb',
    datasets: ALL_DATASETS,
    sampleFileName: undefined,
    contentType: CONTENT_TYPES['mmdb']!,
  },
];

export function entryFor(database: string, format: string): CatalogueEntry | undefined {
  return CATALOGUE_ENTRIES.find((entry) => entry.database === database && entry.format === format);
}

export function entryForFile(fileName: string): CatalogueEntry | undefined {
  return CATALOGUE_ENTRIES.find((entry) => entry.fileName === fileName);
}

export function entryForSample(fileName: string): CatalogueEntry | undefined {
  return CATALOGUE_ENTRIES.find((entry) => entry.sampleFileName === fileName);
}

/** The datasets of `entry` a plan with `entitled` lacks (empty = the plan includes the file). */
export function missingDatasets(entry: CatalogueEntry, entitled: readonly string[]): string[] {
  return entry.datasets.filter((dataset) => !entitled.includes(dataset));
}

export const UPDATE_FREQUENCY = 'every 7 days';
