import type { ChangeEvent, InputHTMLAttributes, ReactNode } from 'react';
import type { FieldErrors } from './validation.js';

interface FieldMessages {
  id: string;
  error?: ReactNode;
  hint?: string | undefined;
}

/** The ids of a control's hint and message for its aria-describedby (undefined when it has neither). */
function describedBy({ id, hint, error }: FieldMessages): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** The hint and the message below a control: the message is announced when it appears (role alert). */
function Messages({ id, hint, error }: FieldMessages) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * A labelled control (input, select, textarea) with its message, tied to it (aria-describedby) so a
 * screen reader reads it again on focus: `children` renders the control with the ids to point at.
 */
export function ControlField({
  id,
  label,
  error,
  hint,
  children,
}: FieldMessages & { label: string; error: string | undefined; children: (described: string | undefined) => ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(describedBy({ id, hint, error }))}
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

type FieldProps = {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
} & InputHTMLAttributes<HTMLInputElement>;

/** A labelled input with its message (see ControlField). */
export function Field({ id, label, error, hint, ...input }: FieldProps) {
  return (
    <ControlField id={id} label={label} error={error} hint={hint}>
      {(described) => <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />}
    </ControlField>
  );
}

/** A password input: `purpose` lets the browser fill the saved password or offer a new one. */
export function PasswordField({ purpose, ...field }: Omit<FieldProps, 'type' | 'autoComplete'> & { purpose: 'current' | 'new' }) {
  return <Field type="password" autoComplete={`${purpose}-password`} {...field} />;
}

type TextKeys<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string;

/**
 * For a form kept in one state object: `bind(key)` gives a Field the value, message and change
 * handler of that key, so each field is written once.
 */
export function fieldBinder<F extends object>(form: F, setForm: (form: F) => void, errors: FieldErrors<string>) {
  return (key: TextKeys<F>) => ({
    value: form[key] as string,
    error: errors[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value }),
  });
}

/** A checkbox whose label may hold links, with its message below (same rules as Field). */
export function CheckField({
  id,
  label,
  error,
  hint,
  checked,
  onChange,
}: FieldMessages & {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="field check-field">
      <div className="check">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy({ id, hint, error })}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A failure of the whole form (the server's message), announced when it appears. */
export function FormError({ message }: { message: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="error form-error">
      {message}
    </p>
  );
}
