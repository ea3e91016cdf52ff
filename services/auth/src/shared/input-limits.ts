import { MESSAGES } from './messages.js';
import { invalid } from './validation.js';

/**
 * Longest value accepted per request field (characters), checked before any other work, so an
 * oversized value costs no scrypt, no Redis and no MongoDB (ASVS 5.0 V2/V6: input bounds,
 * passwords ≤ 128). The domain checks the exact formats afterwards; these are upper bounds only.
 */
export const FIELD_MAX_LENGTH: Readonly<Record<string, number>> = {
  password: 128,
  passwordConfirmation: 128,
  currentPassword: 128,
  newPassword: 128,
  email: 254,
  name: 100,
  companyName: 200,
  contactName: 100,
  phone: 32,
  code: 16,
  // "IPv6%zone" is refused later; 45 is the longest IPv4-mapped IPv6 text.
  clientIp: 45,
  // Session tokens are 43 characters, email-link tokens a few hundred, API keys 47.
  token: 1024,
  key: 64,
  keyId: 64,
};

/** Any string field without its own entry. */
export const DEFAULT_FIELD_MAX_LENGTH = 256;

/** Throws INVALID_ARGUMENT (reason field_too_long, details.field) for the first string field over its bound. */
export function checkFieldLengths(request: object): void {
  for (const [field, value] of Object.entries(request)) {
    if (typeof value !== 'string') continue;
    const max = FIELD_MAX_LENGTH[field] ?? DEFAULT_FIELD_MAX_LENGTH;
    if (value.length > max) throw invalid(snakeCase(field), MESSAGES.fieldTooLong, 'field_too_long');
  }
}

function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
