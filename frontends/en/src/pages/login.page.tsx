import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { showToast } from '@ipdata/web-kit/toast';
import { webApi } from '../api/web.api.js';
import type { WebError } from '../api/base-query.js';
import { CheckField, Field, FormError, PasswordField, fieldBinder } from '../forms/field.js';
import { MESSAGES, checkLogin, hasErrors, type FieldErrors } from '../forms/validation.js';
import { useAppDispatch } from '../store/hooks.js';
import { userArrived } from '../store/session.thunks.js';
import '../forms/forms.css';

/** Login by email: remember-me asks for the 30-day cookie (7 days otherwise); then the console. */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logIn, state] = webApi.useLogInMutation();
  const [form, setForm] = useState({ email: '', password: '', remember: false });
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [failure, setFailure] = useState('');
  const bind = fieldBinder(form, setForm, errors);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkLogin(form);
    setErrors(found);
    setFailure('');
    if (hasErrors(found)) return;
    const answer = await logIn({ email: form.email.trim(), password: form.password, remember_me: form.remember });
    if ('error' in answer) {
      const error = answer.error as WebError;
      if (error.field === 'email' || error.field === 'password') setErrors({ [error.field]: error.msg });
      else setFailure(error.msg);
      return;
    }
    await dispatch(userArrived(answer.data.user));
    dispatch(showToast('success', MESSAGES.loginSucceeded));
    void navigate('/console');
  };
  return (
    <section className="form-page account-page">
      <h1>Log in</h1>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field id="email" label="Email" type="email" autoComplete="email" {...bind('email')} />
        <PasswordField id="password" label="Password" purpose="current" {...bind('password')} />
        <CheckField
          id="remember"
          label="Remember me"
          hint="Stay logged in on this device for 30 days instead of 7."
          checked={form.remember}
          onChange={(remember) => setForm({ ...form, remember })}
        />
        <FormError message={failure} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={state.isLoading}>
            Log in
          </button>
          <Link to="/forgot-password">Forgot password?</Link>
        </div>
      </form>
      <p>
        No account yet? <Link to="/signup">Sign up free</Link>
      </p>
    </section>
  );
}
