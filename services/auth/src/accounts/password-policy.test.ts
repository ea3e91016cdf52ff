import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy, EMAIL_PASSWORD_TEXTS, isCommonPassword } from './password-policy.js';

describe('password policy', () => {
  it('refuses common passwords whatever the letter case', () => {
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword('PassWord1')).toBe(true);
    expect(isCommonPassword('12345678')).toBe(true);
    expect(isCommonPassword('goodpass1')).toBe(false);
    expect(() => checkPasswordPolicy('Qwerty123', EMAIL_PASSWORD_TEXTS)).toThrowError(
      expect.objectContaining({ reason: 'password_too_common' }),
    );
  });

  it('needs 8 to 128 characters', () => {
    expect(() => checkPasswordPolicy('gh7#kq2', EMAIL_PASSWORD_TEXTS)).toThrowError(
      expect.objectContaining({ reason: 'password_length', message: 'The password must be 8 to 128 characters long' }),
    );
    expect(() => checkPasswordPolicy('gh7#kq2x', EMAIL_PASSWORD_TEXTS)).not.toThrow();
    expect(() => checkPasswordPolicy('x'.repeat(129), EMAIL_PASSWORD_TEXTS)).toThrowError(
      expect.objectContaining({ reason: 'password_length' }),
    );
    expect(() => checkPasswordPolicy('', EMAIL_PASSWORD_TEXTS)).toThrowError(
      expect.objectContaining({ reason: 'password_missing', message: 'Please enter your login password' }),
    );
  });
});
