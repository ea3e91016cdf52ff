import { dictionary } from '@zxcvbn-ts/language-common';
import { MESSAGES } from '../shared/messages.js';
import { invalid, passwordLengthOk } from '../shared/validation.js';

// Built once: ~49,000 leaked passwords (zxcvbn's "passwords-common"), compared lower-cased so
// "Password1" counts as "password1" (ASVS 5.0 V6.2: refuse commonly used passwords).
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

export interface PasswordTexts {
  missing: string;
  length: string;
  common: string;
}

export const EMAIL_PASSWORD_TEXTS: PasswordTexts = {
  missing: MESSAGES.missingPassword,
  length: MESSAGES.passwordLength,
  common: MESSAGES.passwordTooCommon,
};

export const PHONE_PASSWORD_TEXTS: PasswordTexts = {
  missing: MESSAGES.phonePasswordMissing,
  length: MESSAGES.phonePasswordLength,
  common: MESSAGES.phonePasswordTooCommon,
};

/** The policy for every new password: present, 8–128 characters, not a common password. */
export function checkPasswordPolicy(password: string, texts: PasswordTexts, field = 'password'): void {
  if (!password) throw invalid(field, texts.missing, 'password_missing');
  if (!passwordLengthOk(password)) throw invalid(field, texts.length, 'password_length');
  if (isCommonPassword(password)) throw invalid(field, texts.common, 'password_too_common');
}
