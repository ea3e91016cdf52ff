import { useId, useState, type FormEvent } from 'react';
import type { ToolResult } from './ip-input.js';

export interface ToolField {
  name: string;
  label: string;
  placeholder?: string;
  /** a choice instead of free text */
  options?: readonly { value: string; label: string }[];
  optional?: boolean;
}

export type ResultRows = [label: string, value: string][];

interface ToolFormProps {
  title: string;
  fields: readonly ToolField[];
  submitLabel?: string;
  compute: (values: Record<string, string>) => ToolResult<ResultRows>;
}

/** One calculator form: labelled fields, a submit button, the answer as a table or a Chinese validation message. */
export function ToolForm({ title, fields, submitLabel = '计算', compute }: ToolFormProps) {
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.name, field.options?.[0]?.value ?? ''])),
  );
  const [result, setResult] = useState<ToolResult<ResultRows> | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(compute(values));
  };

  return (
    <form className="tool-form" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>{title}</h2>
      {fields.map((field) => (
        <label key={field.name} className="field">
          <span>
            {field.label}
            {field.optional ? '（可选）' : ''}
          </span>
          {field.options ? (
            <select value={values[field.name]} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              type="text"
              value={values[field.name]}
              placeholder={field.placeholder}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={result?.ok === false}
              aria-describedby={result?.ok === false ? `${id}-error` : undefined}
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
            />
          )}
        </label>
      ))}
      <button type="submit">{submitLabel}</button>
      {result?.ok === false && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {result.error}
        </p>
      )}
      {result?.ok === true && (
        <table className="result-table">
          <tbody>
            {result.value.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>
                  <code>{value}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  );
}

/** Maps a tool's answer to table rows, keeping its validation message. */
export function rowsOf<T>(result: ToolResult<T>, toRows: (value: T) => ResultRows): ToolResult<ResultRows> {
  return result.ok ? { ok: true, value: toRows(result.value) } : result;
}
