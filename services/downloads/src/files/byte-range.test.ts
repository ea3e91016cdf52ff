import { describe, expect, it } from 'vitest';
import { ifRangeMatches, resolveRange } from './byte-range.js';

describe('resolveRange', () => {
  const size = 1000;
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-99', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=100-199', { kind: 'partial', start: 100, end: 199 }],
    ['bytes=900-', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-100', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'partial', start: 0, end: 999 }],
    ['bytes=990-5000', { kind: 'partial', start: 990, end: 999 }],
    ['BYTES = 5-5', { kind: 'partial', start: 5, end: 5 }],
    ['bytes=0-1,5-6', { kind: 'full' }],
    ['items=0-1', { kind: 'full' }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=1000-1001', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-2', { kind: 'unsatisfiable' }],
    ['bytes=abc', { kind: 'unsatisfiable' }],
    ['bytes=-', { kind: 'unsatisfiable' }],
    ['bytes=', { kind: 'unsatisfiable' }],
    ['garbage', { kind: 'unsatisfiable' }],
    ['bytes=1.5-2', { kind: 'unsatisfiable' }],
  ])('%s', (header, answer) => {
    expect(resolveRange(header, size)).toEqual(answer);
  });

  it('refuses every range of an empty file', () => {
    expect(resolveRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('ifRangeMatches', () => {
  const etag = '"abc"';
  const date = 'Tue, 10 Jan 2026 00:00:00 GMT';
  it('matches our strong ETag or exactly our date, nothing else', () => {
    expect(ifRangeMatches(undefined, etag, date)).toBe(true);
    expect(ifRangeMatches('"abc"', etag, date)).toBe(true);
    expect(ifRangeMatches(date, etag, date)).toBe(true);
    expect(ifRangeMatches('W/"abc"', etag, date)).toBe(false);
    expect(ifRangeMatches('"abd"', etag, date)).toBe(false);
    expect(ifRangeMatches('Wed, 11 Jan 2026 00:00:00 GMT', etag, date)).toBe(false);
  });
});
