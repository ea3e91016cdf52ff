import { InvalidArgumentError } from '@ipdata/common';

/** Mainland China mobile numbers (face A): 11 digits starting 13-19. */
export const CHINA_MOBILE = /^1[3-9]\d{9}$/;
// Pragmatic address check: one @, a dot in the domain, no spaces; the confirmation mail proves the rest.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/;
// ASVS 5.0 V6.2: at least 8 characters; at most 128 so a request cannot make scrypt hash megabytes.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

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
