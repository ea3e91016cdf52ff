import { createRequire } from 'node:module';
import { readDataCsv } from './data-file.js';
import { SourceError } from './source-error.js';

const require = createRequire(import.meta.url);

/** Everything the dataset says about a country, keyed by its ISO 3166-1 alpha-2 code. */
export interface CountryInfo {
  name: string | null;
  capital: string | null;
  continentCode: string | null;
  /** "+" and the first calling code countries-list gives, e.g. "+86", "+1809" for DO. */
  callingCode: string | null;
  flag: string | null;
  currencyCode: string | null;
  currencyName: string | null;
  currencySymbol: string | null;
  isEu: boolean;
}

interface CountriesListCountry {
  name: string;
  phone: number[];
  continent: string;
  capital: string;
  currency: string[];
}

interface CountriesList {
  countries: Record<string, CountriesListCountry>;
  getEmojiFlag(code: string): string;
}

interface I18nIsoCountries {
  getName(code: string, language: string): string | undefined;
}

export interface CountryLookup {
  info(code: string): CountryInfo | null;
  /** EU membership is known for every country code: the member list is complete. */
  isEu(code: string): boolean;
}

/**
 * Country metadata from countries-list (name, capital, continent, calling code, currency,
 * emoji flag), i18n-iso-countries (English name where countries-list has none), Node's ICU
 * (currency name and narrow symbol) and our EU member list.
 */
export function loadCountryMetadata(euFile: string): CountryLookup {
  const euRows = readDataCsv(euFile, ['country_code']);
  const eu = new Set(
    euRows.map(({ line, fields }) => {
      const code = fields[0] as string;
      if (!/^[A-Z]{2}$/.test(code)) throw new SourceError(euFile, `line ${line}: "${code}" is not an ISO 3166-1 alpha-2 code`);
      return code;
    }),
  );
  if (eu.size !== 27) throw new SourceError(euFile, `lists ${eu.size} member states, expected 27`);

  const list = require('countries-list') as CountriesList;
  const i18n = require('i18n-iso-countries') as I18nIsoCountries;
  const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
  const cache = new Map<string, CountryInfo | null>();

  const currencySymbol = (code: string): string | null => {
    try {
      const parts = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: code,
        currencyDisplay: 'narrowSymbol',
      }).formatToParts(1);
      return parts.find((part) => part.type === 'currency')?.value ?? null;
    } catch {
      return null;
    }
  };

  const info = (code: string): CountryInfo | null => {
    if (cache.has(code)) return cache.get(code) ?? null;
    const country = list.countries[code];
    const name = country?.name ?? i18n.getName(code, 'en') ?? null;
    let result: CountryInfo | null = null;
    if (country !== undefined || name !== null) {
      const currency = country?.currency[0] ?? null;
      const phone = country?.phone[0];
      result = {
        name,
        capital: country?.capital || null,
        continentCode: country?.continent || null,
        callingCode: phone === undefined ? null : `+${phone}`,
        flag: country ? list.getEmojiFlag(code) || null : null,
        currencyCode: currency,
        currencyName: currency === null ? null : (currencyNames.of(currency) ?? null),
        currencySymbol: currency === null ? null : currencySymbol(currency),
        isEu: eu.has(code),
      };
    }
    cache.set(code, result);
    return result;
  };
  return { info, isEu: (code) => eu.has(code) };
}
