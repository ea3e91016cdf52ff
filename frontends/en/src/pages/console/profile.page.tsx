import { useState, type FormEvent } from 'react';
import { showToast } from '@ipdata/web-kit/toast';
import { webApi } from '../../api/web.api.js';
import type { WebError } from '../../api/base-query.js';
import type { Profile } from '../../api/web-api.types.js';
import { Field, FormError, PasswordField, fieldBinder } from '../../forms/field.js';
import { MESSAGES, checkPasswordChange, checkProfile, hasErrors, type FieldErrors } from '../../forms/validation.js';
import { useAppDispatch, useAppSelector } from '../../store/hooks.js';
import { selectSession, userLoaded } from '../../store/session.slice.js';
import { formatDate } from './format.js';
import '../../forms/forms.css';
import './console.css';

const SERVICE_NAMES: Readonly<Record<string, string>> = { api: 'API access', download: 'Data download', vip: 'VIP' };

/** The user as the profile answer gives it, payService as the list the session made of it (spec section 3). */
function AccountFacts({ user, payService }: { user: Profile; payService: readonly string[] }) {
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Your account</h2>
      <dl className="facts">
        <div>
          <dt>Email</dt>
          <dd data-profile="email">
            {user.email}{' '}
            {user.email_confirmed ? (
              <span className="status status-paid">confirmed</span>
            ) : (
              <span className="status status-due">not confirmed</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd data-profile="name">{user.name || '—'}</dd>
        </div>
        <div>
          <dt>Company</dt>
          <dd data-profile="company_name">{user.company_name || '—'}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd data-profile="created_at">{formatDate(user.created_at)}</dd>
        </div>
        <div>
          <dt>Paid services</dt>
          <dd data-profile="payService">
            {payService.length === 0 ? (
              'None (free plans)'
            ) : (
              <ul className="inline-list">
                {payService.map((service) => (
                  <li key={service}>{SERVICE_NAMES[service] ?? service}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function DetailsForm({ user }: { user: Profile }) {
  const dispatch = useAppDispatch();
  const [save, state] = webApi.useUpdateProfileMutation();
  const [form, setForm] = useState({ name: user.name, company: user.company_name });
  const [errors, setErrors] = useState<FieldErrors<'name' | 'company'>>({});
  const bind = fieldBinder(form, setForm, errors);
  const [failure, setFailure] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkProfile(form);
    setErrors(found);
    setFailure('');
    if (hasErrors(found)) return;
    const answer = await save({ name: form.name.trim(), company_name: form.company.trim() });
    if ('error' in answer) {
      const error = answer.error as WebError;
      if (error.field === 'name') setErrors({ name: error.msg });
      else if (error.field === 'company_name') setErrors({ company: error.msg });
      else setFailure(error.msg);
      return;
    }
    dispatch(userLoaded(answer.data));
    dispatch(showToast('success', MESSAGES.profileSaved));
  };
  return (
    <form className="form-page" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="details-heading">
      <h2 id="details-heading">Your details</h2>
      <Field id="name" label="Name" autoComplete="name" {...bind('name')} />
      <Field id="company" label="Company" autoComplete="organization" {...bind('company')} />
      <FormError message={failure} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={state.isLoading}>
          Save
        </button>
      </div>
    </form>
  );
}

type PasswordKey = 'current' | 'next' | 'confirmation';
const PASSWORD_FIELD_OF: Readonly<Record<string, PasswordKey>> = {
  current_password: 'current',
  new_password: 'next',
  password_confirmation: 'confirmation',
};

function PasswordForm() {
  const [changePassword, state] = webApi.useChangePasswordMutation();
  const [form, setForm] = useState({ current: '', next: '', confirmation: '' });
  const [errors, setErrors] = useState<FieldErrors<PasswordKey>>({});
  const [failure, setFailure] = useState('');
  const [changed, setChanged] = useState(false);
  const bind = fieldBinder(form, setForm, errors);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkPasswordChange(form);
    setErrors(found);
    setFailure('');
    setChanged(false);
    if (hasErrors(found)) return;
    const answer = await changePassword({
      current_password: form.current,
      new_password: form.next,
      password_confirmation: form.confirmation,
    });
    if ('error' in answer) {
      const error = answer.error as WebError;
      const field = error.field === undefined ? undefined : PASSWORD_FIELD_OF[error.field];
      if (field) setErrors({ [field]: error.msg });
      else setFailure(error.msg);
      return;
    }
    setForm({ current: '', next: '', confirmation: '' });
    setChanged(true);
  };
  return (
    <form className="form-page" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <PasswordField id="current-password" label="Current password" purpose="current" {...bind('current')} />
      <PasswordField
        id="new-password"
        label="New password"
        purpose="new"
        hint="8 to 128 characters. Your other sessions end when it changes."
        {...bind('next')}
      />
      <PasswordField id="confirm-new-password" label="Confirm new password" purpose="new" {...bind('confirmation')} />
      <FormError message={failure} />
      <p role="status" className="success-text">
        {changed ? MESSAGES.passwordChanged : ''}
      </p>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={state.isLoading}>
          Change password
        </button>
      </div>
    </form>
  );
}

/** Profile: the user's fields and paid services, name and company, and the password change. */
export function ProfilePage() {
  const { user, payService } = useAppSelector(selectSession);
  if (!user) return null;
  return (
    <div className="console-page">
      <h1>Profile</h1>
      <AccountFacts user={user} payService={payService} />
      <div className="profile-forms">
        <DetailsForm user={user} />
        <PasswordForm />
      </div>
    </div>
  );
}
