import { describe, expect, it } from 'vitest';
import type { SourceDescription } from '../sources/source-catalogue.js';
import { datasetIdentity } from './build-dataset.js';

const source = (name: string, date: string | null): SourceDescription => ({
  name,
  origin: 'test',
  version: 'test',
  licence: 'test',
  files: [],
  licenceFiles: [],
  date,
});
const digest = '0123abcd'.repeat(8);

describe('datasetIdentity (version and builtAt from the source dates, never the clock)', () => {
  it('dates the version by the newest source, across a year boundary', () => {
    const identity = datasetIdentity([source('a', '2026-12-31'), source('b', '2027-01-01'), source('c', null)], digest, null);
    expect(identity.version).toBe('2027.01.01-0123abcd');
    expect(identity.builtAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    const older = datasetIdentity([source('a', '2026-12-31'), source('b', '2026-02-28')], digest, null);
    expect(older.version).toBe('2026.12.31-0123abcd');
  });

  it('keeps 29 February', () => {
    const identity = datasetIdentity([source('a', '2028-02-28'), source('b', '2028-02-29')], digest, null);
    expect(identity.version).toBe('2028.02.29-0123abcd');
    expect(identity.builtAt.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('takes builtAt from SOURCE_DATE_EPOCH when given, to the second', () => {
    const epoch = Date.parse('2026-12-31T23:59:59Z') / 1000;
    const identity = datasetIdentity([source('a', '2026-12-30')], digest, epoch);
    expect(identity.builtAt.toISOString()).toBe('2026-12-31T23:59:59.000Z');
    expect(identity.version).toBe('2026.12.30-0123abcd');
  });

  it('falls back to the epoch without any dated source', () => {
    expect(datasetIdentity([source('a', null)], digest, null)).toEqual({
      version: '1970.01.01-0123abcd',
      builtAt: new Date('1970-01-01T00:00:00Z'),
    });
  });
});
