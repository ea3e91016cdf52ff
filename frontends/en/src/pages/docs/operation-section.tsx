import { useMemo, useState } from 'react';
import { CodeTabs } from './code-tabs.js';
import type { ExampleLanguage } from './code-examples.js';
import type { DocOperation, DocResponse, Json } from './openapi-model.js';
import { inline, Prose } from './prose.js';
import { outlineSchema } from './schema-outline.js';
import { SchemaView } from './schema-view.js';
import { initialValues } from './try-it.js';
import { TryItBox } from './try-it-box.js';

const REASONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '302': 'Found',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '409': 'Conflict',
  '412': 'Precondition Failed',
  '413': 'Payload Too Large',
  '415': 'Unsupported Media Type',
  '429': 'Too Many Requests',
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
};

/** The first sentence of a description (the errors section has the rest). */
function firstSentence(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.;:](\s|$)/);
  return end === -1 ? flat : flat.slice(0, end + 1).replace(/[;:]$/, '.');
}

function Parameters({ doc, operation }: { doc: Json; operation: DocOperation }) {
  if (operation.parameters.length === 0) return null;
  return (
    <>
      <h4>Parameters</h4>
      <ul className="parameters">
        {operation.parameters.map((parameter) => {
          const schema = outlineSchema(doc, parameter.schema);
          return (
            <li key={`${parameter.in}-${parameter.name}`}>
              <code className="schema-name">{parameter.name}</code> <span className="schema-type">{schema.type}</span>{' '}
              <span className="parameter-in">in {parameter.in}</span>
              {parameter.required && <span className="schema-required"> required</span>}
              {parameter.description && <Prose text={parameter.description} className="schema-description" />}
              {schema.constraints.length > 0 && <span className="schema-constraints">{schema.constraints.join(' · ')}</span>}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Body({ doc, operation }: { doc: Json; operation: DocOperation }) {
  const body = operation.body;
  if (!body) return null;
  return (
    <>
      <h4>Request body</h4>
      <p>
        {body.required ? 'Required' : 'Optional'}; {body.contentTypes.map((type) => `${type}`).join(', ')}.
      </p>
      {body.schema && <SchemaView node={outlineSchema(doc, body.schema)} />}
    </>
  );
}

function Response({ doc, response }: { doc: Json; response: DocResponse }) {
  const error = /^[45]/.test(response.status);
  const klass = error ? (response.status.startsWith('5') ? 'status-bad' : 'status-warn') : 'status-ok';
  return (
    <li>
      <span className={`status-badge ${klass}`}>
        {response.status} {REASONS[response.status] ?? ''}
      </span>{' '}
      {error ? (
        <>
          {inline(firstSentence(response.description))} <a href="#errors">Error</a> body.
        </>
      ) : (
        <>
          {inline(response.description)}
          {response.contentTypes.length > 0 && <span className="muted"> ({response.contentTypes.join(', ')})</span>}
          {response.schema && (
            <details className="response-schema">
              <summary>Schema of the answer</summary>
              <SchemaView node={outlineSchema(doc, response.schema)} />
            </details>
          )}
        </>
      )}
    </li>
  );
}

/**
 * One operation: what it does, its parameters, body and responses, the request in three
 * languages and a "Try it" box. The examples follow what is typed in the box.
 */
export function OperationSection({
  doc,
  operation,
  baseUrl,
  apiKey,
  language,
  onLanguage,
}: {
  doc: Json;
  operation: DocOperation;
  baseUrl: string;
  apiKey: string;
  language: ExampleLanguage;
  onLanguage: (language: ExampleLanguage) => void;
}) {
  const [values, setValues] = useState(() => initialValues(operation));
  const [body, setBody] = useState(operation.body?.example ?? '');
  const request = useMemo(() => ({ operation, values, body, baseUrl }), [operation, values, body, baseUrl]);
  const titleId = `${operation.id}-title`;
  return (
    <section id={operation.id} className="operation" aria-labelledby={titleId}>
      <h3 id={titleId}>{operation.summary || operation.id}</h3>
      <p className="endpoint">
        <span className={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span>{' '}
        <code>{operation.path}</code>
        {!operation.needsKey && <span className="muted"> · no key needed</span>}
      </p>
      <Prose text={operation.description} />
      <Parameters doc={doc} operation={operation} />
      <Body doc={doc} operation={operation} />
      <h4>Responses</h4>
      <ul className="responses">
        {operation.responses.map((response) => (
          <Response key={response.status} doc={doc} response={response} />
        ))}
      </ul>
      <h4>Example</h4>
      <CodeTabs idPrefix={operation.id} request={request} language={language} onLanguage={onLanguage} />
      <TryItBox operation={operation} values={values} onValues={setValues} body={body} onBody={setBody} apiKey={apiKey} />
    </section>
  );
}
