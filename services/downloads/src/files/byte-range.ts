/**
 * What to answer for a Range header on a file of `size` bytes (RFC 9110, section 14):
 * - `full`: no Range, a unit other than bytes (ignored, as the RFC requires), or several ranges
 *   (we may ignore Range; the whole file as a 200 is simpler for clients than multipart/byteranges);
 * - `partial`: one satisfiable range, clamped to the file (`bytes=0-99`, `bytes=100-`, `bytes=-500`);
 * - `unsatisfiable`: a bytes range that is malformed (`bytes=abc`, `bytes=9-2`) or starts at or
 *   after the end of the file, or a suffix of 0 bytes: 416 with `Content-Range: bytes *\/size`.
 */
export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SPEC = /^(\d*)-(\d*)$/;

export function resolveRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'full' };
  const text = header.trim();
  const equals = text.indexOf('=');
  if (equals < 0) return { kind: 'unsatisfiable' };
  if (text.slice(0, equals).trim().toLowerCase() !== 'bytes') return { kind: 'full' };
  const specs = text
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length === 0) return { kind: 'unsatisfiable' };
  if (specs.length > 1) return { kind: 'full' };
  const match = SPEC.exec(specs[0]!);
  if (!match) return { kind: 'unsatisfiable' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    // Suffix: the last N bytes (all of them when N exceeds the size).
    const length = Number(last);
    if (!Number.isSafeInteger(length) || length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'unsatisfiable' };
  if (last !== '' && Number(last) < start) return { kind: 'unsatisfiable' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/**
 * If-Range (RFC 9110, 13.1.5): the range applies only when the validator still matches the
 * file: a strong ETag equal to ours, or exactly our Last-Modified date. Anything else (a weak
 * ETag, another date, garbage) means the client's partial copy is stale: send the whole file.
 */
export function ifRangeMatches(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return value === lastModified;
}
