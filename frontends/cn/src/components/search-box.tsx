import { useId, useState, type FormEvent } from 'react';

interface SearchBoxProps {
  label: string;
  placeholder?: string;
  buttonLabel?: string;
  initial?: string;
  busy?: boolean;
  /** A Chinese message for input the page refuses before calling (empty input is refused here). */
  validate?: (value: string) => string | null;
  onSearch: (value: string) => void;
}

/** A labelled one-line search form; the message of a refused input is announced. */
export function SearchBox({
  label,
  placeholder,
  buttonLabel = '查询',
  initial = '',
  busy = false,
  validate,
  onSearch,
}: SearchBoxProps) {
  const id = useId();
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = value.trim();
    const refused = input === '' ? '请输入查询内容' : (validate?.(input) ?? null);
    setProblem(refused);
    if (!refused) onSearch(input);
  };

  return (
    <form className="search-box" role="search" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-input`}>{label}</label>
      <div className="search-row">
        <input
          id={`${id}-input`}
          value={value}
          placeholder={placeholder}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={busy}>
          {busy ? '查询中…' : buttonLabel}
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
