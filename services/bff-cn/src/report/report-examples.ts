import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkAddress } from '@ipdata/lookup-engine/client';
import { parse } from 'yaml';

/** config/report-examples.yaml beside src/ and dist/ alike. */
export const REPORT_EXAMPLES_FILE = fileURLToPath(new URL('../../config/report-examples.yaml', import.meta.url));

export interface ReportExample {
  ip: string;
  label: string;
}

/** The example list, read and checked once at start: a bad entry stops the start, not a request. */
export function loadReportExamples(file = REPORT_EXAMPLES_FILE): ReportExample[] {
  const list: unknown = parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${file}: expected a non-empty list of {ip, label}`);
  return list.map((entry: unknown, index) => {
    const { ip, label } = (entry ?? {}) as { ip?: unknown; label?: unknown };
    const address = typeof ip === 'string' ? checkAddress(ip) : undefined;
    if (address === undefined || typeof label !== 'string' || label.trim() === '')
      throw new Error(`${file}: entry ${index + 1} needs a valid ip and a label`);
    return { ip: address.text, label: label.trim() };
  });
}
