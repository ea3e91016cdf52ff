import { InvalidArgumentError } from '@ipdata/common';
import { type NumberType, ParseError, parsePhoneNumberWithError, type PhoneNumber } from 'libphonenumber-js/max';

import { type CardProblem, type PhoneCheck, type PhoneRegion, type PhoneType } from './card-tools.types.js';
import { checkOutcome } from './check-outcome.js';
import { type PhonePrefixTable } from './phone-prefix.table.js';

/**
 * Chinese phone numbers through Google's libphonenumber: libphonenumber-js ("max" metadata, which
 * knows the number types) parses and validates; libphonenumber's carrier and geocoding tables
 * (zh) give the operator the range was allocated to and the place of the range.
 */
export interface PhoneData {
  readonly carriers: PhonePrefixTable;
  readonly geocodes: PhonePrefixTable;
  readonly regions: PhoneRegionParser;
}

/** Digits, +, spaces, dashes, dots and brackets: what people type around a number. */
const ALLOWED_INPUT = /^[\d+\s\-.()（）]+$/;
const MAX_INPUT_LENGTH = 40;

const TYPES: Readonly<Record<NonNullable<NumberType>, { type: PhoneType; name: string }>> = {
  MOBILE: { type: 'mobile', name: '手机号码' },
  FIXED_LINE: { type: 'fixed_line', name: '固定电话' },
  FIXED_LINE_OR_MOBILE: { type: 'fixed_line_or_mobile', name: '固定电话或手机号码' },
  TOLL_FREE: { type: 'toll_free', name: '免费电话' },
  PREMIUM_RATE: { type: 'premium_rate', name: '付费电话' },
  SHARED_COST: { type: 'shared_cost', name: '分摊付费电话' },
  VOIP: { type: 'voip', name: '网络电话' },
  PERSONAL_NUMBER: { type: 'personal_number', name: '个人号码' },
  PAGER: { type: 'pager', name: '寻呼号码' },
  UAN: { type: 'uan', name: '统一接入号码' },
  VOICEMAIL: { type: 'voicemail', name: '语音信箱' },
};

/** Carrier tables describe mobile ranges only (libphonenumber's documentation). */
const CARRIER_TYPES: ReadonlySet<PhoneType> = new Set(['mobile', 'fixed_line_or_mobile']);

export function checkPhone(data: PhoneData, text: string): PhoneCheck {
  const parsed = parseChineseNumber(text);
  const nationalNumber = parsed.nationalNumber;
  const problems: CardProblem[] = [];
  const valid = parsed.isValid();
  if (!valid) problems.push({ code: 'number_invalid', message: '号码无效：不属于已分配的中国号段' });

  const rawType = parsed.getType();
  const type = rawType === undefined ? undefined : TYPES[rawType];
  const carrier = type !== undefined && CARRIER_TYPES.has(type.type) ? data.carriers.lookup(nationalNumber) : undefined;
  // An unallocated range has no place; the longest-prefix table would still name one.
  const place = valid ? data.geocodes.lookup(nationalNumber) : undefined;
  const region = place === undefined ? undefined : data.regions.parse(place);
  return {
    ...checkOutcome(problems),
    e164: parsed.number,
    nationalNumber,
    ...(type === undefined ? {} : { type: type.type, typeName: type.name }),
    ...(carrier === undefined ? {} : { carrier }),
    ...(region === undefined ? {} : { region }),
  };
}

/** +86, 0086, 86 or no prefix; anything that is no number, or no Chinese one, throws. */
function parseChineseNumber(text: string): PhoneNumber {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw new InvalidArgumentError('请输入手机号', { reason: 'phone_missing' });
  if (trimmed.length > MAX_INPUT_LENGTH || !ALLOWED_INPUT.test(trimmed)) {
    throw new InvalidArgumentError('手机号格式不正确，只能包含数字、空格、短横线和开头的+86', {
      reason: 'phone_format',
    });
  }
  let parsed: PhoneNumber;
  try {
    parsed = parsePhoneNumberWithError(trimmed.replace(/[（）]/g, ''), 'CN');
  } catch (error) {
    if (error instanceof ParseError) {
      if (error.message === 'TOO_SHORT' || error.message === 'TOO_LONG') throw wrongLength();
      throw new InvalidArgumentError('手机号格式不正确', { reason: 'phone_format' });
    }
    throw error;
  }
  if (parsed.countryCallingCode !== '86') {
    throw new InvalidArgumentError('仅支持中国大陆号码（+86）', { reason: 'phone_not_cn' });
  }
  if (!parsed.isPossible()) throw wrongLength();
  return parsed;
}

function wrongLength(): InvalidArgumentError {
  return new InvalidArgumentError('手机号长度不正确，应为11位', { reason: 'phone_length' });
}

/**
 * Splits libphonenumber's place text ("广东省深圳市", "内蒙古呼和浩特市", "北京市") into the
 * official province name and the rest; autonomous regions appear there by their short names.
 */
export interface PhoneRegionParser {
  parse(text: string): PhoneRegion;
}

const PROVINCE_SUFFIX = /(省|市|壮族自治区|回族自治区|维吾尔自治区|自治区|特别行政区)$/;

export function createPhoneRegionParser(provinceNames: readonly string[]): PhoneRegionParser {
  // Full names before short ones, so "广西壮族自治区南宁市" is not cut after "广西".
  const prefixes = provinceNames
    .flatMap((name) => [
      { prefix: name, name },
      { prefix: name.replace(PROVINCE_SUFFIX, ''), name },
    ])
    .filter((entry) => entry.prefix.length > 0)
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return {
    parse(text) {
      const match = prefixes.find((entry) => text.startsWith(entry.prefix));
      if (match === undefined) return { text };
      const rest = text.slice(match.prefix.length);
      // A municipality is its own city, as in the ID card regions.
      const city = rest.length > 0 ? rest : match.name.endsWith('市') ? match.name : undefined;
      return { text, province: match.name, ...(city === undefined ? {} : { city }) };
    },
  };
}
