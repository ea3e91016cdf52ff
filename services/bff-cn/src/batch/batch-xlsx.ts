import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { BATCH_COLUMNS, type BatchRow } from './batch-rows.js';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The answer workbook, written with exceljs's streaming WorkbookWriter (each row is committed and
 * zipped as it comes; rows are never all held as cell objects): one sheet, the column titles, then
 * one row per line with its position (序号). The zipped bytes are collected and returned, so a
 * failure while writing still leaves the call free to answer the `{code, msg}` JSON (the dispatcher
 * sends a file answer as one body); 100,000 rows are a few MB.
 */
export async function writeBatchXlsx(rows: AsyncIterable<BatchRow>): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'ipdata';
  const sheet = workbook.addWorksheet('查询结果', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = BATCH_COLUMNS.map((column) => ({ header: column.title, key: column.key, width: column.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let n = 0;
  for await (const row of rows) {
    n++;
    // An array in column order: no per-row key mapping.
    sheet.addRow(BATCH_COLUMNS.map((column) => (column.key === 'n' ? n : row[column.key]))).commit();
  }
  sheet.commit();
  await workbook.commit();
  await ended;
  return Buffer.concat(parts);
}
