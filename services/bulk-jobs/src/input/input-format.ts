import type { InputFormat } from '../jobs/bulk-job.js';

export type ResolvedInputFormat = Exclude<InputFormat, 'auto'>;

/** Header cells that name the address column of a CSV upload (compared lower-case, trimmed). */
const IP_COLUMN_NAMES = new Set(['ip', 'ip_address', 'ipaddress', 'ip address', 'address', 'ips']);
const CSV_DELIMITERS = [',', '\t', ';'] as const;
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Decides the format from the first non-blank line: a JSON value (`"1.2.3.4"`, `{"ip": ...}`) is
 * NDJSON, a line with a delimiter is CSV, anything else is one address per line (an address never
 * contains `,`, tab or `;`).
 */
export function detectInputFormat(firstLine: string): ResolvedInputFormat {
  const text = firstLine.trim();
  if (text.startsWith('{')) return 'ndjson';
  if (text.startsWith('"')) {
    try {
      if (typeof JSON.parse(text) === 'string') return 'ndjson';
    } catch {
      // `"1.2.3.4","x"` is a quoted CSV row, not JSON.
    }
  }
  return CSV_DELIMITERS.some((d) => text.includes(d)) ? 'csv' : 'lines';
}

/**
 * Turns uploaded lines into the job's input values, one per data line. Blank lines and a CSV
 * header are skipped; every other line gives exactly one value, also when it is not an address
 * (a broken JSON line, an empty cell): the processor marks it, so the owner sees every line of
 * their file in the result. Values are trimmed and never contain a line break.
 */
export class InputLineReader {
  private format: ResolvedInputFormat | undefined;
  private seenFirst = false;
  private delimiter = ',';
  private column = 0;

  constructor(format: InputFormat = 'auto') {
    this.format = format === 'auto' ? undefined : format;
  }

  /** The format in use (known after the first non-blank line). */
  get resolvedFormat(): ResolvedInputFormat {
    return this.format ?? 'lines';
  }

  /** The value for one uploaded line, or undefined when the line is not data (blank, header). */
  read(rawLine: string): string | undefined {
    let line = rawLine;
    if (!this.seenFirst) {
      if (line.startsWith(BYTE_ORDER_MARK)) line = line.slice(1);
      if (line.trim() === '') return undefined;
      this.seenFirst = true;
      this.format ??= detectInputFormat(line);
      if (this.format === 'csv' && this.readCsvHeader(line)) return undefined;
      // A one-column file may start with its column name too.
      if (this.format === 'lines' && IP_COLUMN_NAMES.has(line.trim().toLowerCase())) return undefined;
    } else if (line.trim() === '') {
      return undefined;
    }
    switch (this.format) {
      case 'ndjson':
        return clean(ndjsonValue(line));
      case 'csv':
        return clean(csvCells(line, this.delimiter)[this.column] ?? '');
      default:
        return clean(line);
    }
  }

  /** Picks the delimiter and, when the first row names an address column, that column. */
  private readCsvHeader(line: string): boolean {
    this.delimiter = CSV_DELIMITERS.find((d) => line.includes(d)) ?? ',';
    const cells = csvCells(line, this.delimiter).map((cell) => cell.trim().toLowerCase());
    const named = cells.findIndex((cell) => IP_COLUMN_NAMES.has(cell));
    if (named === -1) return false;
    this.column = named;
    return true;
  }
}

function ndjsonValue(line: string): string {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'string') return value;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'ip' in value) {
      const ip = value.ip;
      if (typeof ip === 'string') return ip;
      if (typeof ip === 'number') return String(ip);
    }
  } catch {
    // Not JSON: passed on as it is, the processor marks it invalid.
  }
  return line;
}

/** One CSV row (RFC 4180 quoting within the line; quoted line breaks are not supported). */
export function csvCells(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) {
          cell += line.slice(i);
          i = line.length;
          break;
        }
        cell += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          cell += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      const next = line.indexOf(delimiter, i);
      cell += next === -1 ? line.slice(i) : line.slice(i, next);
      i = next === -1 ? line.length : next;
    } else {
      const next = line.indexOf(delimiter, i);
      cell = next === -1 ? line.slice(i) : line.slice(i, next);
      i = next === -1 ? line.length : next;
    }
    cells.push(cell);
    if (i >= line.length) return cells;
    i += delimiter.length;
    if (i === line.length) {
      cells.push('');
      return cells;
    }
  }
}

function clean(value: string): string {
  const trimmed = value.trim();
  return /[\r\n]/.test(trimmed) ? trimmed.replace(/[\r\n]+/g, ' ') : trimmed;
}
