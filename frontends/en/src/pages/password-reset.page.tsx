import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { webApi } from '../api/web.api.js';
import type { WebError } from '../api/base-query.js';
import { Field, FormError, PasswordField, fieldBinder } from '../forms/field.js';
import { checkEmail, checkNewPassword, hasErrors, type FieldErrors } from '../forms/validation.js';
import '../forms/forms.css';

const LINK_INVALID = 'This link is invalid or has expired';
// auth answers with its own sentence; these stand in if an answer ever comes without one.
const FALLBACK_DONE = 'If this email address belongs to an account, we have sent it a link to reset the password.';
const FALLBACK_RESET = 'Your password has been reset. Please log in with the new password.';

/** Step 1: the address to mail a reset link to. The answer is the same whether or not it has an account. */
export function ForgotPasswordPage() {
  const [request, state] = webApi.useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'email'>>({});
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkEmail({ email });
    setErrors(found);
    setFailure('');
    if (hasErrors(found)) return;
    const answer = await request({ email: email.trim() });
    if ('error' in answer) {
      const error = answer.error as WebError;
      if (error.field === 'email') setErrors({ email: error.msg });
      else setFailure(error.msg);
      return;
    }
    setDone(answer.data.msg || FALLBACK_DONE);
  };
  return (
    <section className="form-page account-page">
      <h1>Forgot password</h1>
      {done ? (
        <div aria-live="polite">
          <p className="success-text">{done}</p>
          <p>
            The link is valid for a limited time; if you cannot find the email, check your spam folder.{' '}
            <Link to="/login">Back to log in</Link>
          </p>
        </div>
      ) : (
        <>
          <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
          <form noValidate onSubmit={(event) => void submit(event)}>
            <Field
              id="email"
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              error={errors.email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <FormError message={failure} />
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={state.isLoading}>
                Send reset link
              </button>
              <Link to="/login">Back to log in</Link>
            </div>
          </form>
        </>
      )}
    </section>
  );
}

/** Step 2: the mailed link (/reset-password?token=...) — a new password, twice. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [reset, state] = webApi.useResetPasswordMutation();
  const [form, setForm] = useState({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<FieldErrors<'password' | 'confirmation'>>({});
  const bind = fieldBinder(form, setForm, errors);
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkNewPassword(form);
    setErrors(found);
    setFailure('');
    if (hasErrors(found)) return;
    const answer = await reset({ token, password: form.password, password_confirmation: form.confirmation });
    if ('error' in answer) {
      const error = answer.error as WebError;
      if (error.field === 'password') setErrors({ password: error.msg });
      else if (error.field === 'password_confirmation') setErrors({ confirmation: error.msg });
      else setFailure(error.msg);
      return;
    }
    setDone(answer.data.msg || FALLBACK_RESET);
  };
  if (!token) {
    return (
      <section className="form-page account-page">
        <h1>Choose a new password</h1>
        <p role="alert" className="error">
          {LINK_INVALID}
        </p>
        <p>
          <Link to="/forgot-password">Send a new link</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="form-page account-page">
      <h1>Choose a new password</h1>
      {done ? (
        <p className="success-text" aria-live="polite">
          {done} <Link to="/login">Log in</Link>
        </p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <PasswordField id="password" label="New password" purpose="new" hint="8 to 128 characters." {...bind('password')} />
          <PasswordField id="confirmation" label="Confirm new password" purpose="new" {...bind('confirmation')} />
          {failure && (
            <p role="alert" className="error form-error">
              {failure} {failure === LINK_INVALID && <Link to="/forgot-password">Send a new link</Link>}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={state.isLoading}>
              Save new password
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
