import { describe, expect, it } from 'vitest';
import { formatsByDatabase, unknownFileMessage } from './catalogue-listing.js';

const FILES = [
  { database: 'geolocation', format: 'csv', hasSample: true },
  { database: 'geolocation', format: 'ndjson', hasSample: true },
  { database: 'asn', format: 'csv', hasSample: true },
  { database: 'complete', format: 'ipdat', hasSample: false },
  { database: 'complete', format: 'mmdb', hasSample: false },
];

describe('unknownFileMessage', () => {
  it('lists every database and its formats for an unknown database', () => {
    expect(formatsByDatabase(FILES)).toBe('geolocation (csv, ndjson), asn (csv), complete (ipdat, mmdb)');
    expect(unknownFileMessage(FILES, 'weather', 'csv', false)).toBe(
      'There is no database "weather". Available: geolocation (csv, ndjson), asn (csv), complete (ipdat, mmdb).',
    );
  });

  it("names a known database's own formats for an unknown format", () => {
    expect(unknownFileMessage(FILES, 'complete', 'csv', false)).toBe(
      'There is no complete database in format "csv". Its formats: ipdat, mmdb.',
    );
  });

  it('counts only files with a sample for samples', () => {
    expect(unknownFileMessage(FILES, 'complete', 'mmdb', true)).toBe(
      'There is no sample "complete". Available: geolocation (csv, ndjson), asn (csv).',
    );
    expect(unknownFileMessage([], 'asn', 'csv', true)).toBe('No sample is available yet.');
    expect(unknownFileMessage([], 'asn', 'csv', false)).toBe('No database has been published yet; retry later.');
  });

  it('quotes and shortens what the caller sent', () => {
    expect(unknownFileMessage(FILES, 'x'.repeat(100), 'csv', false)).toContain(`"${'x'.repeat(40)}"`);
  });
});
