import { InvalidArgumentError } from '@ipdata/common';

/**
 * Input checks shared by every RPC. Messages are safe to show: bff-cn passes them to the visitor
 * as `msg` (Chinese, face A's forms), bff-en as its envelope's `msg` (English, face B's contact
 * form). Lengths count characters (code points), not UTF-16 units, so a Chinese text gets the
 * same limit as its visible length.
 */

// Control characters other than tab and line breaks never belong in a form field.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LINE_BREAK = /[\r\n]/;

export function invalid(message: string, field: string): InvalidArgumentError {
  return new InvalidArgumentError(message, { reason: 'invalid_input', details: { field } });
}

export interface TextRule {
  /** Label used in messages: Chinese ("反馈内容"), or with `english` a noun phrase ("your name"). */
  label: string;
  max: number;
  required?: boolean;
  /** Line breaks allowed (long texts). */
  multiline?: boolean;
  /** Face B's forms: the messages in English. */
  english?: boolean;
}

interface TextWording {
  required(label: string): string;
  tooLong(label: string, max: number): string;
  notAllowed(label: string): string;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const WORDING: Record<'zh' | 'en', TextWording> = {
  zh: {
    required: (label) => `请填写${label}`,
    tooLong: (label, max) => `${label}不能超过 ${max} 个字符`,
    notAllowed: (label) => `${label}包含不允许的字符`,
  },
  en: {
    required: (label) => `Please enter ${label}`,
    tooLong: (label, max) => `${capitalised(label)} must be at most ${max} characters long`,
    notAllowed: (label) => `${capitalised(label)} contains characters that are not allowed`,
  },
};

/** Trimmed text within its limits; '' when optional and empty. */
export function checkText(field: string, value: string | undefined, rule: TextRule): string {
  const wording = WORDING[rule.english ? 'en' : 'zh'];
  const text = (value ?? '').trim();
  if (text === '') {
    if (rule.required) throw invalid(wording.required(rule.label), field);
    return '';
  }
  if ([...text].length > rule.max) throw invalid(wording.tooLong(rule.label, rule.max), field);
  if (CONTROL.test(text) || (!rule.multiline && LINE_BREAK.test(text))) throw invalid(wording.notAllowed(rule.label), field);
  return text;
}

/** Account ids as auth issues them (lower-case UUIDs). */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkAccountId(value: string | undefined, options: { required: boolean }): string {
  const id = value ?? '';
  if (id === '') {
    if (options.required) throw invalid('缺少账号标识', 'account_id');
    return '';
  }
  if (!ACCOUNT_ID.test(id)) throw invalid('账号标识格式不正确', 'account_id');
  return id;
}

export interface Paging {
  page: number;
  pageSize: number;
  skip: number;
}

/** 1-based page and a capped page size; 0 means "default" (proto3 has no absent numbers). */
export function checkPaging(
  page: number | undefined,
  pageSize: number | undefined,
  limits: { default: number; max: number },
): Paging {
  const p = page || 1;
  const size = pageSize || limits.default;
  if (!Number.isSafeInteger(p) || p < 1 || p > 10_000) throw invalid('页码不正确', 'page');
  if (!Number.isSafeInteger(size) || size < 1 || size > limits.max)
    throw invalid(`每页条数须在 1 到 ${limits.max} 之间`, 'page_size');
  return { page: p, pageSize: size, skip: (p - 1) * size };
}

/** A count limit (0 = default) capped at `max`. */
export function checkLimit(field: string, value: number | undefined, limits: { default: number; max: number }): number {
  const limit = value || limits.default;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > limits.max) throw invalid(`数量须在 1 到 ${limits.max} 之间`, field);
  return limit;
}
