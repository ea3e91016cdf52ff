import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  checkEmail,
  checkLogin,
  checkNewPassword,
  checkPasswordChange,
  checkProfile,
  checkSignUp,
} from './validation.js';

describe('face B form messages (spec sections 5 and 8)', () => {
  it('words every rule as the spec does', () => {
    expect(MESSAGES.email).toBe('Please enter the correct email address');
    expect(MESSAGES.password).toBe('Please enter your login password');
    expect(MESSAGES.passwordsDiffer).toBe('The two passwords do not match');
    expect(MESSAGES.terms).toBe('Please agree to the Terms of Service and Privacy Policy');
    expect(MESSAGES.loginSucceeded).toBe('Login succeeded');
    expect(MESSAGES.profileSaved).toBe('Your new information has been saved');
    expect(MESSAGES.copied).toBe('Replicating Success');
    expect(MESSAGES.copyFailed).toBe('copy failed');
  });

  it('checks the login form', () => {
    expect(checkLogin({ email: 'nope', password: '' })).toEqual({ email: MESSAGES.email, password: MESSAGES.password });
    expect(checkLogin({ email: ' dev@example.test ', password: 'x' })).toEqual({});
    expect(checkEmail({ email: 'dev@example' })).toEqual({ email: MESSAGES.email });
  });

  it('checks the sign-up form: email, password, the same password twice, the terms', () => {
    expect(checkSignUp({ email: '', password: '', confirmation: '', agree: false })).toEqual({
      email: MESSAGES.email,
      password: MESSAGES.password,
      agree: MESSAGES.terms,
    });
    expect(checkSignUp({ email: 'dev@example.test', password: 'long enough', confirmation: 'long enougH', agree: true })).toEqual(
      {
        confirmation: MESSAGES.passwordsDiffer,
      },
    );
    expect(checkSignUp({ email: 'dev@example.test', password: 'short', confirmation: 'short', agree: true })).toEqual({
      password: MESSAGES.passwordLength,
    });
    expect(checkSignUp({ email: 'dev@example.test', password: 'long enough', confirmation: 'long enough', agree: true })).toEqual(
      {},
    );
  });

  it('checks a new password (reset link) and the profile’s password change', () => {
    expect(checkNewPassword({ password: '', confirmation: 'x' })).toEqual({
      password: MESSAGES.password,
      confirmation: MESSAGES.passwordsDiffer,
    });
    expect(checkPasswordChange({ current: '', next: 'new password', confirmation: 'other password' })).toEqual({
      current: MESSAGES.currentPassword,
      confirmation: MESSAGES.passwordsDiffer,
    });
    expect(checkPasswordChange({ current: 'old', next: 'new password', confirmation: 'new password' })).toEqual({});
    expect(checkProfile({ name: 'x'.repeat(101) })).toEqual({ name: MESSAGES.nameTooLong });
  });
});
