import { useState, type FormEvent } from 'react';
import type { DocOperation } from './openapi-model.js';
import { headerText, sendTry, type TryAnswer } from './try-it.js';

interface TryItBoxProps {
  operation: DocOperation;
  values: Record<string, string>;
  onValues: (values: Record<string, string>) => void;
  body: string;
  onBody: (body: string) => void;
  /** The page's "API key" field: one key for every operation. */
  apiKey: string;
}

function AnswerView({ answer }: { answer: TryAnswer }) {
  const kind = answer.status >= 500 ? 'bad' : answer.status >= 400 ? 'warn' : 'ok';
  return (
    <div className="try-answer" data-status={answer.status}>
      <p className="try-status">
        <span className={`status-badge status-${kind}`}>
          {answer.status} {answer.statusText}
        </span>{' '}
        <span className="muted">in {answer.ms} ms</span>
      </p>
      {answer.headers.length > 0 && (
        <dl className="try-headers">
          {answer.headers.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{headerText(name, value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {answer.note && <p className="note">{answer.note}</p>}
      {answer.body !== '' && (
        <pre tabIndex={0} className="try-body">
          {answer.body}
        </pre>
      )}
    </div>
  );
}

/**
 * Sends the operation from the browser with the page's key (Authorization: Bearer) and the
 * values typed here, and shows the status, the X-RateLimit-* headers and the body.
 */
export function TryItBox({ operation, values, onValues, body, onBody, apiKey }: TryItBoxProps) {
  const [answer, setAnswer] = useState<TryAnswer | null>(null);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const prefix = `${operation.id}-try`;
  const fields = operation.parameters.filter((parameter) => parameter.in === 'path' || parameter.in === 'query');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure('');
    try {
      setAnswer(await sendTry({ operation, values, body, key: apiKey }));
    } catch (error) {
      setAnswer(null);
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="try-it" aria-label={`Try it: ${operation.summary || operation.id}`} onSubmit={(event) => void submit(event)}>
      <h4>Try it</h4>
      {operation.needsKey && !apiKey.trim() && (
        <p className="muted try-hint">
          Enter your key in the <a href="#try-key">API key</a> field first (without it the API answers 401).
        </p>
      )}
      {fields.length > 0 && (
        <div className="try-fields">
          {fields.map((parameter) => (
            <label key={parameter.name} className="field" htmlFor={`${prefix}-${parameter.name}`}>
              <span>
                <code>{parameter.name}</code>{' '}
                <span className="muted">
                  ({parameter.in}
                  {parameter.required ? ', required' : ''})
                </span>
              </span>
              {Array.isArray(parameter.schema['enum']) ? (
                <select
                  id={`${prefix}-${parameter.name}`}
                  value={values[parameter.name] ?? ''}
                  required={parameter.required}
                  onChange={(event) => onValues({ ...values, [parameter.name]: event.target.value })}
                >
                  <option value="">(not sent)</option>
                  {parameter.schema['enum'].map((option) => (
                    <option key={String(option)} value={String(option)}>
                      {String(option)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`${prefix}-${parameter.name}`}
                  value={values[parameter.name] ?? ''}
                  placeholder={parameter.example}
                  required={parameter.required}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(event) => onValues({ ...values, [parameter.name]: event.target.value })}
                />
              )}
            </label>
          ))}
        </div>
      )}
      {operation.body && (
        <label className="field" htmlFor={`${prefix}-body`}>
          <span>
            Request body <span className="muted">({operation.body.contentTypes[0]})</span>
          </span>
          <textarea
            id={`${prefix}-body`}
            value={body}
            rows={Math.min(10, Math.max(3, body.split('\n').length))}
            spellCheck={false}
            onChange={(event) => onBody(event.target.value)}
          />
        </label>
      )}
      <button type="submit" className="button primary" disabled={busy}>
        Try it
      </button>
      <p className="visually-hidden" role="status">
        {busy ? 'Sending…' : answer ? `Answer: ${answer.status} ${answer.statusText}` : ''}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {answer && <AnswerView answer={answer} />}
    </form>
  );
}
