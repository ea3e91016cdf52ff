import { join } from 'node:path';
import { HashedFile, type WrittenFile } from './hashed-file.js';

export type ColumnKind = 'text' | 'int' | 'float' | 'bool';

export interface Column {
  name: string;
  kind: ColumnKind;
}

/**
 * A cell: text/int columns take strings/numbers, float columns take already-formatted number
 * text (written as is, so float32 coordinates keep their shortest exact form), bool columns
 * take booleans; null is an empty CSV field and a JSON null.
 */
export type Cell = string | number | boolean | null;

export const SAMPLE_ROWS = 1000;

/** `"` around fields holding a comma, quote, line break or outer space; quotes doubled (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Shortest decimal text that reads back as the same float32 value. */
export function float32Text(value: number): string {
  const target = Math.fround(value);
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = Number(target.toPrecision(precision));
    if (Math.fround(candidate) === target) return String(candidate);
  }
  return String(target);
}

/** A row's cells after the address columns, encoded once for CSV and once for NDJSON. */
export interface EncodedCells {
  csv: string;
  json: string;
}

/** Encodes cells for the columns they belong to (both formats); reused for every row sharing them. */
export function encodeCells(columns: readonly Column[], cells: readonly Cell[]): EncodedCells {
  const csv: string[] = [];
  const json: string[] = [];
  columns.forEach((column, i) => {
    const cell = cells[i] ?? null;
    if (cell === null) {
      csv.push('');
      json.push(`${JSON.stringify(column.name)}:null`);
    } else if (column.kind === 'text') {
      csv.push(csvField(String(cell)));
      json.push(`${JSON.stringify(column.name)}:${JSON.stringify(String(cell))}`);
    } else {
      csv.push(String(cell));
      json.push(`${JSON.stringify(column.name)}:${String(cell)}`);
    }
  });
  return { csv: csv.join(','), json: json.join(',') };
}

/**
 * Writes one downloadable database as `<name>.csv` and `<name>.ndjson`, plus
 * `<name>-sample.csv`/`.ndjson` holding its first SAMPLE_ROWS rows. Every row starts with
 * `start_ip,end_ip`; the rest comes pre-encoded (EncodedCells), since many rows share it.
 */
export class TableWriter {
  private readonly csv: HashedFile;
  private readonly ndjson: HashedFile;
  private readonly sampleCsv: HashedFile;
  private readonly sampleNdjson: HashedFile;
  rows = 0;

  constructor(
    folder: string,
    private readonly name: string,
    readonly columns: readonly Column[],
  ) {
    const file = (suffix: string) => new HashedFile(join(folder, `${name}${suffix}`), `${name}${suffix}`);
    this.csv = file('.csv');
    this.ndjson = file('.ndjson');
    this.sampleCsv = file('-sample.csv');
    this.sampleNdjson = file('-sample.ndjson');
    const header = `start_ip,end_ip${columns.map((column) => `,${column.name}`).join('')}\n`;
    this.csv.write(header);
    this.sampleCsv.write(header);
  }

  row(startIp: string, endIp: string, cells: EncodedCells): void {
    const csv = `${startIp},${endIp},${cells.csv}\n`;
    const json = `{"start_ip":"${startIp}","end_ip":"${endIp}",${cells.json}}\n`;
    this.csv.write(csv);
    this.ndjson.write(json);
    if (this.rows < SAMPLE_ROWS) {
      this.sampleCsv.write(csv);
      this.sampleNdjson.write(json);
    }
    this.rows++;
  }

  close(): WrittenFile[] {
    const sampleRows = Math.min(this.rows, SAMPLE_ROWS);
    return [
      this.csv.close(this.rows),
      this.ndjson.close(this.rows),
      this.sampleCsv.close(sampleRows),
      this.sampleNdjson.close(sampleRows),
    ];
  }
}
