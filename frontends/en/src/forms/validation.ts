// The spec's face B form messages (section 5 and 8), word for word, and the checks that use them.
// auth checks the same rules and answers with the same texts; checking here first saves a round
// trip and puts the message next to its field.

export const MESSAGES = {
  email: 'Please enter the correct email address',
  password: 'Please enter your login password',
  passwordsDiffer: 'The two passwords do not match',
  /** Shown with the two documents as links (forms/terms.tsx). */
  terms: 'Please agree to the Terms of Service and Privacy Policy',
  currentPassword: 'Please enter your current password',
  /** auth's own wording (the spec shows no length bounds): sign-up, reset and change check it. */
  passwordLength: 'The password must be 8 to 128 characters long',
  nameTooLong: 'The name must be at most 100 characters long',
  loginSucceeded: 'Login succeeded',
  profileSaved: 'Your new information has been saved',
  passwordChanged: 'Your password has been changed',
  copyFailed: 'copy failed',
  copied: 'Replicating Success',
  contactSent: 'Information submitted successfully, we will give you feedback as soon as possible',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_NAME = 100;
const PASSWORD_LENGTH = { min: 8, max: 128 };

/** A password being chosen: present, then within auth's bounds. */
function newPasswordProblem(password: string): string | undefined {
  if (password === '') return MESSAGES.password;
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) return MESSAGES.passwordLength;
  return undefined;
}

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export const hasErrors = (errors: FieldErrors<string>): boolean => Object.keys(errors).length > 0;

export function checkEmail(form: { email: string }): FieldErrors<'email'> {
  return EMAIL.test(form.email.trim()) ? {} : { email: MESSAGES.email };
}

export function checkLogin(form: { email: string; password: string }): FieldErrors<'email' | 'password'> {
  const errors: FieldErrors<'email' | 'password'> = checkEmail(form);
  if (form.password === '') errors.password = MESSAGES.password;
  return errors;
}

export function checkSignUp(form: {
  email: string;
  password: string;
  confirmation: string;
  agree: boolean;
}): FieldErrors<'email' | 'password' | 'confirmation' | 'agree'> {
  const errors: FieldErrors<'email' | 'password' | 'confirmation' | 'agree'> = checkEmail(form);
  const password = newPasswordProblem(form.password);
  if (password) errors.password = password;
  if (form.password !== form.confirmation) errors.confirmation = MESSAGES.passwordsDiffer;
  if (!form.agree) errors.agree = MESSAGES.terms;
  return errors;
}

/** The reset link's form: a new password twice. */
export function checkNewPassword(form: { password: string; confirmation: string }): FieldErrors<'password' | 'confirmation'> {
  const errors: FieldErrors<'password' | 'confirmation'> = {};
  const password = newPasswordProblem(form.password);
  if (password) errors.password = password;
  if (form.password !== form.confirmation) errors.confirmation = MESSAGES.passwordsDiffer;
  return errors;
}

/** Spec section 5: the profile's password change needs the current password, a new one and a confirmation. */
export function checkPasswordChange(form: {
  current: string;
  next: string;
  confirmation: string;
}): FieldErrors<'current' | 'next' | 'confirmation'> {
  const errors: FieldErrors<'current' | 'next' | 'confirmation'> = {};
  if (form.current === '') errors.current = MESSAGES.currentPassword;
  const next = newPasswordProblem(form.next);
  if (next) errors.next = next;
  if (form.next !== form.confirmation) errors.confirmation = MESSAGES.passwordsDiffer;
  return errors;
}

export function checkProfile(form: { name: string }): FieldErrors<'name'> {
  return form.name.trim().length > MAX_NAME ? { name: MESSAGES.nameTooLong } : {};
}
