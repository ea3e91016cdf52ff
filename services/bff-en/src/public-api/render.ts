import type { ApiCall } from './api-call.js';
import { badRequest } from './api-error.js';
import { csvDocument } from './views/csv.js';
import { jsonBody } from './views/json-output.js';
import { compileFields, type FieldSelector } from './views/field-selector.js';
import type { FieldSet } from './views/field-set.js';

export const CSV_TYPE = 'text/csv; charset=utf-8';

/** `format=csv|json` wins; else `Accept: text/csv` asks for CSV; JSON by default. */
export function wantsCsv(call: ApiCall): boolean {
  const format = call.param('format');
  if (format !== null) {
    if (format === 'csv') return true;
    if (format === 'json') return false;
    throw badRequest('invalid_format', `format must be json or csv, not "${format}".`, 'Use format=json or format=csv.');
  }
  const accept = call.request.headers.accept;
  return accept !== undefined && accept.includes('text/csv');
}

export function selectorOf(call: ApiCall, fieldSet: FieldSet): FieldSelector {
  return compileFields(call.param('fields'), fieldSet);
}

/** `pretty=1` (or true) indents JSON by two spaces. */
export function jsonText(call: ApiCall, value: unknown): string {
  const pretty = call.param('pretty');
  return jsonBody(value, pretty === '1' || pretty === 'true');
}

/** One answer object with `fields=`, as JSON or CSV (header + one row). */
export function sendView(call: ApiCall, view: object, fieldSet: FieldSet, status = 200): void {
  const selector = selectorOf(call, fieldSet);
  if (wantsCsv(call)) {
    call.send(status, CSV_TYPE, csvDocument(selector.apply(view), selector.columns));
    return;
  }
  call.sendJsonText(status, jsonText(call, selector.apply(view)));
}
