import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { webApi } from '../api/web.api.js';
import type { WebError } from '../api/base-query.js';
import { CheckField, Field, FormError, PasswordField, fieldBinder } from '../forms/field.js';
import { TermsDocuments, TermsLinks, TermsMessage } from '../forms/terms.js';
import { checkSignUp, hasErrors, type FieldErrors } from '../forms/validation.js';
import '../forms/forms.css';

type SignUpField = 'email' | 'password' | 'confirmation' | 'agree';
/** The server's field names, as this form calls them. */
const FIELD_OF: Readonly<Record<string, SignUpField>> = {
  email: 'email',
  password: 'password',
  password_confirmation: 'confirmation',
  agree_terms: 'agree',
};

/** Sign-up, then the confirm-email state (spec section 4): click the emailed link, check the spam folder. */
export function SignUpPage() {
  const [signUp, state] = webApi.useSignUpMutation();
  const [form, setForm] = useState({ name: '', email: '', password: '', confirmation: '', agree: false });
  const [errors, setErrors] = useState<FieldErrors<SignUpField>>({});
  const [failure, setFailure] = useState('');
  const [sentTo, setSentTo] = useState('');
  const bind = fieldBinder(form, setForm, errors);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkSignUp(form);
    setErrors(found);
    setFailure('');
    if (hasErrors(found)) return;
    const answer = await signUp({
      email: form.email.trim(),
      password: form.password,
      password_confirmation: form.confirmation,
      agree_terms: form.agree,
      name: form.name.trim(),
    });
    if ('error' in answer) {
      const error = answer.error as WebError;
      // auth names the field for its own checks (e.g. a too common password): show it there.
      const field = error.field === undefined ? undefined : FIELD_OF[error.field];
      if (field) setErrors({ [field]: error.msg });
      else setFailure(error.msg);
      return;
    }
    setSentTo(form.email.trim());
  };
  if (sentTo) {
    return (
      <section className="form-page account-page" aria-live="polite">
        <h1>Confirm your email</h1>
        <p>
          We have sent a confirmation link to <strong>{sentTo}</strong>. Please click it to activate your account; if you cannot
          find the email, check your spam folder.
        </p>
        <p>
          Once confirmed, <Link to="/login">log in</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="form-page account-page">
      <h1>Sign up</h1>
      <p className="lead">50,000 free lookups every month, no credit card.</p>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field id="name" label="Name (optional)" autoComplete="name" maxLength={100} {...bind('name')} />
        <Field id="email" label="Email" type="email" autoComplete="email" {...bind('email')} />
        <PasswordField id="password" label="Password" purpose="new" hint="8 to 128 characters." {...bind('password')} />
        <PasswordField id="confirmation" label="Confirm password" purpose="new" {...bind('confirmation')} />
        <CheckField
          id="agree"
          label={
            <>
              I agree to <TermsLinks />
            </>
          }
          error={errors.agree && <TermsMessage />}
          checked={form.agree}
          onChange={(agree) => setForm({ ...form, agree })}
        />
        <FormError message={failure} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={state.isLoading}>
            Create account
          </button>
        </div>
      </form>
      <p>
        Already have an account? <Link to="/login">Log in</Link>
      </p>
      <TermsDocuments />
    </section>
  );
}
