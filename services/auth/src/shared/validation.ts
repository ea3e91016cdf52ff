import { InvalidArgumentError } from '@ipdata/common';

/** Mainland China mobile numbers (face A): 11 digits starting 13-19. */
export const CHINA_MOBILE = /^1[3-9]\d{9}$/;
// Pragmatic address check: one @, a dot in the domain, no spaces; the confirmation mail proves the rest.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 64;

export function invalid(field: string, message: string, reason = 'invalid_argument'): InvalidArgumentError {
  return new InvalidArgumentError(message, { reason, details: { field } });
}

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export function isPhone(value: string): boolean {
  return CHINA_MOBILE.test(value);
}

export function passwordLengthOk(password: string): boolean {
  return password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX;
}
