import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../store/hooks.js';
import { selectLoggedIn } from '../../store/session.slice.js';
import type { ExampleLanguage } from './code-examples.js';
import { ApiReferenceIntro } from './reference-intro.js';
import { groupByTag, readOperations, text, type Json } from './openapi-model.js';
import { DOCUMENT_FAILED, usePublicApiDocument } from './openapi-source.js';
import { OperationSection } from './operation-section.js';
import { Prose } from './prose.js';
import { storedTryKey } from './try-it.js';
import './docs.css';

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The page's one "API key" field, used by every "Try it" box. */
function KeyField({ apiKey, onKey, fromSession }: { apiKey: string; onKey: (key: string) => void; fromSession: boolean }) {
  const loggedIn = useAppSelector(selectLoggedIn);
  const [shown, setShown] = useState(false);
  return (
    <div className="try-key">
      <label htmlFor="try-key">API key</label>
      <div className="try-key-input">
        <input
          id="try-key"
          type={shown ? 'text' : 'password'}
          value={apiKey}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="try-key-hint"
          onChange={(event) => onKey(event.target.value)}
        />
        <button type="button" className="button" aria-pressed={shown} onClick={() => setShown(!shown)}>
          Show key
        </button>
      </div>
      <p id="try-key-hint" className="muted">
        {fromSession ? (
          'The key you created in this browser session is filled in. '
        ) : apiKey.trim() ? (
          ''
        ) : loggedIn ? (
          <>
            Paste one of your keys (<Link to="/console/keys">API keys</Link> shows a new key once).{' '}
          </>
        ) : (
          <>
            No key yet? <Link to="/signup">Sign up free</Link>.{' '}
          </>
        )}
        Every &quot;Try it&quot; sends it in the Authorization header; the page does not store it.
      </p>
    </div>
  );
}

function Contents({ groups }: { groups: ReturnType<typeof groupByTag> }) {
  return (
    <nav className="docs-toc" aria-label="Contents">
      <h2 className="toc-title">Contents</h2>
      <ul>
        <li>
          <a href="#authentication">Authentication</a>
        </li>
        <li>
          <a href="#errors">Errors</a>
        </li>
        <li>
          <a href="#rate-limits">Quota and rate-limit headers</a>
        </li>
        {groups.map((group) => (
          <li key={group.tag}>
            <span className="toc-group">{group.tag}</span>
            <ul>
              {group.operations.map((operation) => (
                <li key={operation.id}>
                  <a href={`#${operation.id}`}>
                    <span className={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span>{' '}
                    {operation.summary || operation.id}
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Reference({ doc }: { doc: Json }) {
  const [storedKey] = useState(() => storedTryKey(sessionStore()));
  const [apiKey, setApiKey] = useState(storedKey);
  const [language, setLanguage] = useState<ExampleLanguage>('curl');
  const operations = useMemo(() => readOperations(doc), [doc]);
  const groups = useMemo(() => groupByTag(doc, operations), [doc, operations]);
  const info = (doc['info'] ?? {}) as Json;
  const baseUrl = window.location.origin;
  return (
    <div className="docs-layout">
      <Contents groups={groups} />
      <div className="docs-content">
        <p className="lead">{text(info['summary'])}</p>
        <Prose text={text(info['description'])} className="docs-intro" />
        <KeyField apiKey={apiKey} onKey={setApiKey} fromSession={storedKey !== '' && apiKey === storedKey} />
        <ApiReferenceIntro doc={doc} operations={operations} baseUrl={baseUrl} />
        {groups.map((group) => (
          <section key={group.tag} className="tag-group" aria-labelledby={`tag-${group.tag}`}>
            <h2 id={`tag-${group.tag}`}>{group.tag}</h2>
            {group.operations.map((operation) => (
              <OperationSection
                key={operation.id}
                doc={doc}
                operation={operation}
                baseUrl={baseUrl}
                apiKey={apiKey}
                language={language}
                onLanguage={setLanguage}
              />
            ))}
          </section>
        ))}
      </div>
    </div>
  );
}

/**
 * /docs: the public API's reference, rendered at run time from the OpenAPI document bff-en
 * serves (GET /v1/openapi.json): every operation with its parameters, body, responses, examples
 * in curl, JavaScript and Python, and a "Try it" box; authentication, errors and quota headers.
 */
export function DocsPage() {
  const document = usePublicApiDocument();
  return (
    <div className="docs-page">
      <h1>Documentation</h1>
      {document.state === 'loading' && <p className="loading">Loading the API reference…</p>}
      {document.state === 'failed' && (
        <p role="alert" className="error">
          {DOCUMENT_FAILED}
        </p>
      )}
      {document.state === 'ready' && <Reference doc={document.doc} />}
    </div>
  );
}
