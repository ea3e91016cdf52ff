import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { WebError } from '../api/base-query.js';
import { webApi } from '../api/web.api.js';
import { ControlField, Field, FormError } from '../forms/field.js';
import { MESSAGES, hasErrors, type FieldErrors } from '../forms/validation.js';
import { useAppSelector } from '../store/hooks.js';
import { selectUser } from '../store/session.slice.js';
import {
  CONTACT_CATEGORIES,
  LIMITS,
  checkContact,
  isContactCategory,
  type ContactCategory,
  type ContactField,
  type ContactForm,
} from './contact/check-contact.js';
import '../forms/forms.css';
import './marketing.css';

/**
 * Contact (spec sections 2, 3, 8): name, email, description and category (Custom plans, Support,
 * Feedback); the spec's success message once content has stored it. A logged-in user's name and
 * address are filled in; pricing's "Contact sales" opens it on Custom plans.
 */
export function ContactPage() {
  const user = useAppSelector(selectUser);
  const [params] = useSearchParams();
  const asked = params.get('category');
  const [form, setForm] = useState<ContactForm>({
    name: user?.name ?? '',
    email: user?.email ?? '',
    description: '',
    category: isContactCategory(asked) ? asked : CONTACT_CATEGORIES[0],
  });
  const [errors, setErrors] = useState<FieldErrors<ContactField>>({});
  const [failure, setFailure] = useState('');
  const [sent, setSent] = useState(false);
  const [submitContact, state] = webApi.useContactMutation();
  const status = useRef<HTMLParagraphElement>(null);

  const set = (field: ContactField) => (value: string) => {
    setForm((before) => ({ ...before, [field]: value }));
    setSent(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkContact(form);
    setErrors(found);
    setFailure('');
    setSent(false);
    if (hasErrors(found)) {
      // The first field to fix gets the focus (its message is read with it).
      const first = (['name', 'email', 'category', 'description'] as const).find((field) => found[field]);
      document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    const answer = await submitContact({
      name: form.name.trim(),
      email: form.email.trim(),
      description: form.description.trim(),
      category: form.category as ContactCategory,
    });
    if ('error' in answer) {
      const error = answer.error as WebError;
      if (error.field && error.field in form) setErrors({ [error.field as ContactField]: error.msg });
      else setFailure(error.msg);
      return;
    }
    setSent(true);
    setForm((before) => ({ ...before, description: '' }));
    status.current?.focus();
  };

  return (
    <section className="form-page contact-page">
      <h1>Contact us</h1>
      <p className="lead">
        Questions about a custom plan, help with the API or the databases, or feedback on the site: tell us and we answer by
        email.
      </p>
      <p ref={status} tabIndex={-1} role="status" className={sent ? 'success-message' : 'visually-hidden'}>
        {sent ? MESSAGES.contactSent : ''}
      </p>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field
          id="contact-name"
          label="Name"
          autoComplete="name"
          value={form.name}
          error={errors.name}
          onChange={(event) => set('name')(event.target.value)}
        />
        <Field
          id="contact-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={form.email}
          error={errors.email}
          onChange={(event) => set('email')(event.target.value)}
        />
        <ControlField id="contact-category" label="Category" error={errors.category}>
          {(described) => (
            <select
              id="contact-category"
              value={form.category}
              aria-invalid={errors.category ? true : undefined}
              aria-describedby={described}
              onChange={(event) => set('category')(event.target.value)}
            >
              {CONTACT_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </select>
          )}
        </ControlField>
        <ControlField
          id="contact-description"
          label="Description"
          error={errors.description}
          hint={`What you need, in up to ${LIMITS.description.toLocaleString('en-US')} characters.`}
        >
          {(described) => (
            <textarea
              id="contact-description"
              rows={6}
              value={form.description}
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={described}
              onChange={(event) => set('description')(event.target.value)}
            />
          )}
        </ControlField>
        <FormError message={failure} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={state.isLoading}>
            Submit
          </button>
        </div>
      </form>
    </section>
  );
}
