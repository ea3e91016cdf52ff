/** A file of the catalogue as far as naming it goes. */
export interface NamedFile {
  database: string;
  format: string;
  hasSample?: boolean;
}

/** "geolocation (csv, ndjson), complete (ipdat, mmdb)": the databases and their formats, in catalogue order. */
export function formatsByDatabase(files: readonly NamedFile[]): string {
  const formats = new Map<string, string[]>();
  for (const file of files) {
    const list = formats.get(file.database) ?? [];
    if (!list.includes(file.format)) list.push(file.format);
    formats.set(file.database, list);
  }
  return [...formats].map(([database, list]) => `${database} (${list.join(', ')})`).join(', ');
}

/**
 * The 404 message for a database/format the catalogue does not have: a known database names its
 * own formats, an unknown one lists all of them. `sample`: only files with a sample count.
 */
export function unknownFileMessage(files: readonly NamedFile[], database: string, format: string, sample: boolean): string {
  const candidates = sample ? files.filter((file) => file.hasSample === true) : files;
  const what = sample ? 'sample' : 'database';
  if (candidates.length === 0) {
    return sample ? 'No sample is available yet.' : 'No database has been published yet; retry later.';
  }
  const shown = (text: string) => JSON.stringify(text.slice(0, 40));
  const known = candidates.filter((file) => file.database === database);
  if (known.length > 0) {
    return `There is no ${database} ${what} in format ${shown(format)}. Its formats: ${known.map((file) => file.format).join(', ')}.`;
  }
  return `There is no ${what} ${shown(database)}. Available: ${formatsByDatabase(candidates)}.`;
}
