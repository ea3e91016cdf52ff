import { readFileSync } from 'node:fs';
import { splitCsvLine, textLines } from './csv-line.js';
import { describeFsError, SourceError } from './source-error.js';

export interface CsvRow {
  line: number;
  fields: string[];
}

/**
 * Reads one of our small CSV data files: `#` lines are comments (provenance), the first other
 * line is the header, which must start with `expectedHeader` (with `headerOptional`, a first
 * line that does not start with the header's first name is data).
 */
export function readDataCsv(path: string, expectedHeader: readonly string[], headerOptional = false): CsvRow[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SourceError(path, describeFsError(error));
  }
  const rows: CsvRow[] = [];
  let header: string[] | null = null;
  textLines(text).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = splitCsvLine(line);
    if (fields === null) throw new SourceError(path, `line ${index + 1}: unclosed quote`);
    const trimmed = fields.map((field) => field.trim());
    if (header === null) {
      if (headerOptional && trimmed[0] !== expectedHeader[0]) {
        header = [...expectedHeader];
        rows.push({ line: index + 1, fields: trimmed });
        return;
      }
      header = trimmed;
      if (expectedHeader.some((name, i) => header?.[i] !== name)) {
        throw new SourceError(path, `line ${index + 1}: header must be ${expectedHeader.join(',')}`);
      }
      return;
    }
    rows.push({ line: index + 1, fields: trimmed });
  });
  if (header === null && !headerOptional) throw new SourceError(path, `no header line (${expectedHeader.join(',')})`);
  return rows;
}
