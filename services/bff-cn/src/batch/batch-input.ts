import type ExcelJS from 'exceljs';
import { badInput } from '../face-a/envelope.js';
import type { UploadedFile } from '../face-a/form-body.js';
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
  throw badInput('仅支持 .xlsx、.csv、.txt 文件');
}

/** Header cells naming the address column of a sheet (lower-case, spaces removed). */
const IP_TITLES = new Set(['ip', 'ips', 'ip地址', 'ipaddress', 'ip_address', 'address', '地址']);
const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');

/**
 * The lines of an .xlsx upload, read as the sheet is parsed (rows are not all held): the first
 * tab, the column whose title in the first non-empty row is ip/IP/IP地址 (that row is then
 * skipped), otherwise the first column. Empty cells give empty lines (skipped like blank lines of
 * a text upload). A file that is not an xlsx workbook: code 400.
 */
export async function* xlsxLines(data: Buffer): AsyncGenerator<string> {
  if (data.length < 4 || !data.subarray(0, 4).equals(ZIP_MAGIC)) throw unreadable();
  let column: number | undefined;
  try {
    for await (const row of firstSheetRows(data)) {
      const cells = rowCells(row);
      if (column === undefined) {
        if (cells.every((cell) => cell === '')) continue;
        const titled = cells.findIndex((cell) => IP_TITLES.has(cell.replace(/\s+/g, '').toLowerCase()));
        column = titled >= 0 ? titled : 0;
        if (titled >= 0) continue;
      }
      yield cells[column] ?? '';
    }
  } catch {
    // Whatever the zip or XML parser met: the user can only re-save the file.
    throw unreadable();
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
  return badInput('无法读取 Excel 文件，请上传 .xlsx 格式的文件');
}
