import type ExcelJS from 'exceljs';
import { InvalidArgumentError } from '@ipdata/common';
import type { UploadedFile } from '../face-a/form-body.js';
import { CpuMeter, emptyStats, XlsxBoundError, xlsxBoundsFor, type XlsxReadStats } from './xlsx-bounds.js';
import { firstSheetRows } from './xlsx-first-sheet.js';

/**
 * The `ips` text: one address per line or separated by commas (also the Chinese ，), semicolons,
 * tabs or spaces (an address contains none of them). Empty pieces are dropped; every other piece
 * is one row of the answer, valid or not.
 */
export function splitIpsText(text: string): string[] {
  return text.split(/[\r\n,，;；\t ]+/).filter((piece) => piece !== '');
}

/** The upload kinds the call reads, from the file name's extension. */
export type UploadKind = 'xlsx' | 'text';

export function uploadKindOf(file: UploadedFile): UploadKind {
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.filename.trim())?.[1]?.toLowerCase();
  if (extension === 'xlsx') return 'xlsx';
  if (extension === 'csv' || extension === 'txt') return 'text';
  throw new InvalidArgumentError('仅支持 .xlsx、.csv、.txt 文件');
}

/** Header cells naming the address column of a sheet (lower-case, spaces removed). */
const IP_TITLES = new Set(['ip', 'ips', 'ip地址', 'ipaddress', 'ip_address', 'address', '地址']);
const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');

/** A workbook past one of its bounds (xlsx-bounds.ts): the rows counted include empty ones. */
export const XLSX_TOO_LARGE_MSG = '文件过大或行数过多（空行也计入），请分批查询';

/** The row limit xlsxLines assumes when the caller gives none: a visitor's (BATCH_MAX_ROWS). */
const DEFAULT_MAX_ROWS = 10_000;
/** Lines handed on together: the consumer's time between them is not charged to the parse. */
const LINE_BATCH = 256;

export interface XlsxLinesOptions {
  /** The caller's row limit; the workbook's bounds are derived from it (xlsxBoundsFor). */
  maxRows?: number;
  /** Filled with what the read counted (bytes, rows, cells, CPU) when it ends. */
  stats?: XlsxReadStats;
}

/**
 * The lines of an .xlsx upload, read as the sheet is parsed (rows are not all held): the first
 * tab, the column whose title in the first non-empty row is ip/IP/IP地址 (that row is then
 * skipped), otherwise the first column. Empty cells give empty lines (skipped like blank lines of
 * a text upload). A file that is not an xlsx workbook: InvalidArgumentError (code 400); past a
 * bound derived from `maxRows` (rows, cells, bytes, shared strings, CPU): InvalidArgumentError
 * XLSX_TOO_LARGE_MSG.
 */
export async function* xlsxLines(data: Buffer, options: XlsxLinesOptions = {}): AsyncGenerator<string> {
  if (data.length < 4 || !data.subarray(0, 4).equals(ZIP_MAGIC)) throw unreadable();
  const bounds = xlsxBoundsFor(options.maxRows ?? DEFAULT_MAX_ROWS);
  const meter = new CpuMeter(bounds.cpuMs);
  const read = { bounds, meter, stats: options.stats ?? emptyStats() };
  let column: number | undefined;
  const batch: string[] = [];
  try {
    for await (const row of firstSheetRows(data, read)) {
      const cells = rowCells(row);
      if (column === undefined) {
        if (cells.every((cell) => cell === '')) continue;
        const titled = cells.findIndex((cell) => IP_TITLES.has(cell.replace(/\s+/g, '').toLowerCase()));
        column = titled >= 0 ? titled : 0;
        if (titled >= 0) continue;
      }
      if (batch.push(cells[column] ?? '') === LINE_BATCH) yield* handOn(batch, meter);
    }
    yield* handOn(batch, meter);
  } catch (error) {
    if (error instanceof XlsxBoundError) {
      read.stats.stoppedBy = error.bound;
      throw new InvalidArgumentError(XLSX_TOO_LARGE_MSG);
    }
    // Whatever the zip or XML parser met: the user can only re-save the file.
    throw unreadable();
  }
}

/** Checks the budget, yields the batch's lines and empties it; the time until the consumer asks again is not charged. */
function* handOn(batch: string[], meter: CpuMeter): Generator<string> {
  meter.pause();
  try {
    meter.check();
    for (const line of batch) yield line;
    batch.length = 0;
  } finally {
    meter.resume();
  }
}

/** The row's cells as trimmed text, index 0 = column A. */
function rowCells(row: ExcelJS.Row): string[] {
  const values = Array.isArray(row.values) ? row.values : [];
  // exceljs rows are 1-based: values[0] is always empty.
  return values.slice(1).map((value) => cellText(value));
}

function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    if ('result' in value && value.result !== undefined) return cellText(value.result);
  }
  return '';
}

function unreadable() {
  return new InvalidArgumentError('无法读取 Excel 文件，请上传 .xlsx 格式的文件');
}
