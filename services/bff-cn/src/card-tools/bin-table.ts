import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import { type BankCardTypeCode } from './card-tools.types.js';

/**
 * Chinese banks' card BINs from bankcardinfo's offline table (navyxie/bankcardinfo, ISC). The
 * package's only API, getBankBin, sends the full card number to an Alipay web service whenever
 * its table has no match, so it is never called: the table is read from the package's source
 * text instead, without running it. Every entry there is `/^(p1|p2|...)\d{n}$/g` with a card
 * type, i.e. a prefix list and the card length; the parser accepts nothing else and counts what
 * it read against the source, so a changed package fails at start-up instead of answering less.
 */
export interface BinEntry {
  readonly bankName: string;
  readonly bankCode: string;
  readonly cardType: BankCardTypeCode;
  /** The whole card number's length. */
  readonly length: number;
}

export interface BinTable {
  /** Number of (prefix, length) entries. */
  readonly size: number;
  lookup(cardNumber: string): BinEntry | undefined;
}

const LIST_START = 'var bankcardList = [';
const LIST_END = 'function getBankNameByBankCode';
const BANK = /\{\s*bankName:\s*"([^"\\]+)",\s*bankCode:\s*"([A-Z0-9_]+)",\s*patterns:\s*\[([^\]]*)\]\s*\}/g;
const PATTERN = /\{\s*reg:\s*\/\^\(([0-9|]+)\)\\d\{(\d+)\}\$\/g,\s*cardType:\s*"(DC|CC|SCC|PC)"\s*\}/g;

export function parseBinTable(source: string): BinTable {
  const start = source.indexOf(LIST_START);
  const end = source.indexOf(LIST_END, start);
  if (start < 0 || end < 0) throw new Error('bankcardinfo: the bankcardList table was not found');
  const list = source.slice(start, end);

  const byPrefix = new Map<string, BinEntry[]>();
  let banks = 0;
  let patterns = 0;
  let size = 0;
  for (const [, bankName, bankCode, body] of list.matchAll(BANK)) {
    banks += 1;
    for (const [, prefixes, rest, cardType] of body!.matchAll(PATTERN)) {
      patterns += 1;
      for (const prefix of prefixes!.split('|')) {
        const entry: BinEntry = {
          bankName: bankName!,
          bankCode: bankCode!,
          cardType: cardType as BankCardTypeCode,
          length: prefix.length + Number(rest),
        };
        // Kept in table order: of two entries with the same prefix and length, the package
        // answers the first, and so does lookup.
        const entries = byPrefix.get(prefix) ?? [];
        entries.push(entry);
        byPrefix.set(prefix, entries);
        size += 1;
      }
    }
  }
  const expectedBanks = list.split('bankName:').length - 1;
  const expectedPatterns = list.split('reg:').length - 1;
  if (banks === 0 || banks !== expectedBanks || patterns !== expectedPatterns) {
    throw new Error(
      `bankcardinfo: read ${banks}/${expectedBanks} banks and ${patterns}/${expectedPatterns} patterns; the table format changed`,
    );
  }
  return createBinTable(byPrefix, size);
}

function createBinTable(byPrefix: ReadonlyMap<string, readonly BinEntry[]>, size: number): BinTable {
  let longest = 0;
  for (const prefix of byPrefix.keys()) longest = Math.max(longest, prefix.length);
  return {
    size,
    // The longest matching prefix wins (the most specific BIN). The package tries its entries in
    // table order instead; the two differ for 62249802 and 94004602 (秦皇岛市商业银行 here, 河北银行
    // there, whose shorter 622498 / 940046 come first in its table).
    lookup(cardNumber) {
      for (let length = Math.min(longest, cardNumber.length - 1); length > 0; length -= 1) {
        const entries = byPrefix.get(cardNumber.slice(0, length));
        const entry = entries?.find((candidate) => candidate.length === cardNumber.length);
        if (entry !== undefined) return entry;
      }
      return undefined;
    },
  };
}

/** The installed package's table (its index.js, about 45 kB). */
export async function loadBinTable(): Promise<BinTable> {
  const file = createRequire(import.meta.url).resolve('bankcardinfo');
  return parseBinTable(await readFile(file, 'utf8'));
}
