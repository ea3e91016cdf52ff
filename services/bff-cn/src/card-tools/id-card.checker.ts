import { InvalidArgumentError } from '@ipdata/common';

import { type CardProblem, type IdCardCheck, type IdCardRegion } from './card-tools.types.js';
import { checkOutcome } from './check-outcome.js';
import { type DivisionCatalogue } from './division.catalogue.js';

/**
 * PRC resident identity card numbers (GB 11643-1999): 6-digit address code (GB/T 2260), 8-digit
 * birth date, 3-digit sequence (odd for men, even for women) and an ISO 7064 MOD 11-2 check
 * character (0-9 or X). The legacy 15-digit form (issued until 1999) has a 2-digit year, taken
 * as 19xx, and no check character.
 */

/** Weight of position i is 2^(17-i) mod 11 (ISO 7064 MOD 11-2). */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
/** Check character by the weighted sum mod 11. */
const CHECK_CHARACTERS = '10X98765432';
/** Longer input is no ID number with stray spaces; refused before any work. */
const MAX_INPUT_LENGTH = 64;
const EARLIEST_BIRTH_YEAR = 1900;
const CHINA_UTC_OFFSET_MS = 8 * 3600_000;

/** The check character of the first 17 digits of an 18-digit number. */
export function idCardCheckCharacter(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK_CHARACTERS[sum % 11]!;
}

/** The 18-digit form of a legacy 15-digit number: year 19xx, check character appended. */
export function convertLegacyIdCard(number15: string): string {
  const first17 = `${number15.slice(0, 6)}19${number15.slice(6)}`;
  return first17 + idCardCheckCharacter(first17);
}

export function checkIdCard(divisions: DivisionCatalogue, text: string, now: Date = new Date()): IdCardCheck {
  const compact = normaliseInput(text);
  const legacy15 = compact.length === 15;
  const number = legacy15 ? convertLegacyIdCard(compact) : compact;
  const problems: CardProblem[] = [];

  if (!legacy15 && idCardCheckCharacter(number.slice(0, 17)) !== number[17]) {
    problems.push({ code: 'checksum_mismatch', message: '校验码错误' });
  }
  const today = chinaDate(now);
  const birth = birthDate(number.slice(6, 14), today);
  if (birth === undefined) problems.push({ code: 'birth_date_invalid', message: '出生日期无效' });
  const region = idCardRegion(divisions, number.slice(0, 6));
  if (region === undefined) problems.push({ code: 'region_unknown', message: '地区码无效' });

  const male = Number(number[16]) % 2 === 1;
  return {
    ...checkOutcome(problems),
    number,
    legacy15,
    ...(birth === undefined ? {} : { birthDate: birth.iso, age: fullYears(birth, today) }),
    sex: male ? 'male' : 'female',
    sexName: male ? '男' : '女',
    ...(region === undefined ? {} : { region }),
  };
}

/** Spaces removed, x upper-cased; anything that is not 15 digits or 17 digits + digit/X throws. */
function normaliseInput(text: string): string {
  if (text.length > MAX_INPUT_LENGTH) {
    throw new InvalidArgumentError('身份证号长度应为15或18位', { reason: 'id_card_length' });
  }
  const compact = text.replace(/\s/g, '').toUpperCase();
  if (compact.length === 0) throw new InvalidArgumentError('请输入身份证号', { reason: 'id_card_missing' });
  if (compact.length !== 15 && compact.length !== 18) {
    throw new InvalidArgumentError('身份证号长度应为15或18位', { reason: 'id_card_length' });
  }
  const pattern = compact.length === 15 ? /^\d{15}$/ : /^\d{17}[\dX]$/;
  if (!pattern.test(compact)) {
    throw new InvalidArgumentError('身份证号只能包含数字，18位号码的最后一位可以是X', { reason: 'id_card_format' });
  }
  return compact;
}

interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

interface BirthDate extends CalendarDate {
  readonly iso: string;
}

/** Birth dates are calendar dates in China: "today" is the date in UTC+8. */
function chinaDate(now: Date): CalendarDate {
  const shifted = new Date(now.getTime() + CHINA_UTC_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** YYYYMMDD as a real calendar date from 1900 up to today, else undefined. */
function birthDate(digits: string, today: CalendarDate): BirthDate | undefined {
  const year = Number(digits.slice(0, 4));
  const month = Number(digits.slice(4, 6));
  const day = Number(digits.slice(6, 8));
  if (year < EARLIEST_BIRTH_YEAR || month < 1 || month > 12 || day < 1) return undefined;
  // Day 0 of the next month is the last day of this one (leap years included).
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  if (compareDates({ year, month, day }, today) > 0) return undefined;
  return { year, month, day, iso: `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}` };
}

function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** Completed years (周岁); someone born on 29 February turns a year older on 1 March in common years. */
function fullYears(birth: CalendarDate, today: CalendarDate): number {
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

/**
 * The levels of the address code that the current division list knows; undefined when not even
 * the province is known (the only case called invalid: a county code that no longer exists may
 * still be on a genuine card).
 */
function idCardRegion(divisions: DivisionCatalogue, code: string): IdCardRegion | undefined {
  const province = divisions.province(code.slice(0, 2));
  if (province === undefined) return undefined;
  const city = divisions.city(code.slice(0, 4));
  const county = divisions.county(code);
  // A code ending in 00 names the prefecture itself, one ending in 0000 the province (cards
  // issued at that level, and the residence permits of Hong Kong, Macao and Taiwan residents).
  const current = county !== undefined || (code.endsWith('00') && city !== undefined) || code.endsWith('0000');
  return {
    code,
    province,
    ...(city === undefined ? {} : { city }),
    // Cities without counties (东莞市 441900) list themselves as their own county.
    ...(county === undefined || county === city ? {} : { county }),
    current,
  };
}
