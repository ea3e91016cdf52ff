/**
 * CSV answers (RFC 4180): a header of dotted column names (`asn.asn`, `proxy_data.is_vpn`) and
 * one record per answer, CRLF line ends. Columns come from the field selector (the view's order,
 * after `fields=`), not from an answer, so a null `asn` still fills its `asn.*` cells (empty).
 * Cells: null empty, booleans true/false, numbers as in JSON, lists joined by a space (prefixes
 * and networks hold no spaces), quoted when they hold a comma, a quote, CR or LF.
 */

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * Text a spreadsheet would run as a formula (OWASP "CSV injection"): a batch echoes what the
 * caller sent (`=HYPERLINK(...)` as an "address"), and the file may be opened by someone else.
 * Such cells get a leading apostrophe. Signed numbers and UTC offsets ("-07:00") are data, left
 * as they are.
 */
const SIGNED_DATA = /^[+-](?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|\d{2}:\d{2})$/i;

/** '=', '+', '-', '@', tab, CR: a character check, since most cells are tested and few match. */
function formulaStart(code: number): boolean {
  return code === 61 || code === 43 || code === 45 || code === 64 || code === 9 || code === 13;
}

/** One cell's text, quoted when needed. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') {
    text = formulaStart(value.charCodeAt(0)) && !SIGNED_DATA.test(value) ? `'${value}` : value;
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  } else if (Array.isArray(value)) {
    text = value.map((item) => (item === null || item === undefined ? '' : String(item))).join(' ');
  } else {
    text = JSON.stringify(value);
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header record, with its CRLF. */
export function csvHeader(columns: readonly string[]): string {
  return csvRow(columns);
}

/** One record of cell values, with its CRLF. */
export function csvRow(values: readonly unknown[]): string {
  return `${csvLine(values)}\r\n`;
}

/** One record without a line end, for writers that add their own (bulk result rows). */
export function csvLine(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
  return line;
}

/** A column as [field, child] (child null for a top-level value); split once per column list. */
type ColumnPath = readonly [string, string | null];
const splitColumnsCache = new WeakMap<readonly string[], readonly ColumnPath[]>();

function columnPaths(columns: readonly string[]): readonly ColumnPath[] {
  let paths = splitColumnsCache.get(columns);
  if (paths === undefined) {
    paths = columns.map((column): ColumnPath => {
      const dot = column.indexOf('.');
      return dot < 0 ? [column, null] : [column.slice(0, dot), column.slice(dot + 1)];
    });
    splitColumnsCache.set(columns, paths);
  }
  return paths;
}

/** The values of an answer's columns (dotted paths: at most one level of nesting). */
export function csvValues(view: object, columns: readonly string[]): unknown[] {
  const source = view as Record<string, unknown>;
  const values: unknown[] = [];
  for (const [name, child] of columnPaths(columns)) {
    const value = source[name];
    if (child === null) values.push(value);
    else values.push(value === null || typeof value !== 'object' ? null : (value as Record<string, unknown>)[child]);
  }
  return values;
}

/** A whole single-answer CSV body: header and one record. */
export function csvDocument(view: object, columns: readonly string[]): string {
  return csvHeader(columns) + csvRow(csvValues(view, columns));
}

/** One item of a batch: an answer, or the input as sent and why it failed. */
export type CsvBatchItem = { readonly view: object } | { readonly query: string; readonly error: string };

/** The batch columns: the answer's columns and `error` last. */
export function csvBatchColumns(columns: readonly string[]): string[] {
  return [...columns, 'error'];
}

/**
 * One record of a batch (columns from csvBatchColumns). An error item fills `ip` with the input
 * as sent (when `ip` is a column: `fields=-ip` drops it, rows stay in request order) and `error`;
 * its other cells are empty.
 */
export function csvBatchRow(item: CsvBatchItem, batchColumns: readonly string[]): string {
  if ('view' in item) {
    const values = csvValues(item.view, batchColumns);
    values[values.length - 1] = null;
    return csvRow(values);
  }
  return csvRow(
    batchColumns.map((column, i) => (i === batchColumns.length - 1 ? item.error : column === 'ip' ? item.query : null)),
  );
}

/** A whole batch CSV body: header and one record per item, in order. */
export function csvBatch(items: readonly CsvBatchItem[], columns: readonly string[]): string {
  const batchColumns = csvBatchColumns(columns);
  let body = csvHeader(batchColumns);
  for (const item of items) body += csvBatchRow(item, batchColumns);
  return body;
}
