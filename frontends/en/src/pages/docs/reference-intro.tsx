import { useMemo } from 'react';
import {
  errorResponses,
  errorSchema,
  quotaHeaders,
  securitySchemes,
  type DocOperation,
  type Json,
  type SecurityScheme,
} from './openapi-model.js';
import { KEY_PLACEHOLDER, shellQuote } from './code-examples.js';
import { inline, Prose } from './prose.js';
import { outlineSchema } from './schema-outline.js';
import { SchemaView } from './schema-view.js';

const SCHEME_TITLES: Record<SecurityScheme['kind'], string> = {
  bearer: 'Bearer token (recommended)',
  header: 'X-API-Key header',
  query: 'key query parameter (least safe)',
  other: 'Other',
};

function schemeExample(scheme: SecurityScheme, baseUrl: string, path: string): string {
  const url = `${baseUrl}${path}`;
  if (scheme.kind === 'bearer')
    return `curl ${shellQuote(url)} \\\n  -H ${shellQuote(`Authorization: Bearer ${KEY_PLACEHOLDER}`)}`;
  if (scheme.kind === 'header') return `curl ${shellQuote(url)} \\\n  -H ${shellQuote(`${scheme.name}: ${KEY_PLACEHOLDER}`)}`;
  if (scheme.kind === 'query') return `curl ${shellQuote(`${url}?${scheme.name}=${KEY_PLACEHOLDER}`)}`;
  return '';
}

/** Authentication, the one error shape and the quota headers: what every operation below shares. */
export function ApiReferenceIntro({ doc, operations, baseUrl }: { doc: Json; operations: DocOperation[]; baseUrl: string }) {
  const schemes = useMemo(() => securitySchemes(doc), [doc]);
  const errors = useMemo(() => errorResponses(doc, operations), [doc, operations]);
  const headers = useMemo(() => quotaHeaders(doc), [doc]);
  const shape = useMemo(() => {
    const schema = errorSchema(doc);
    return schema ? outlineSchema(doc, schema) : undefined;
  }, [doc]);
  const example = errors.find((error) => error.example !== '')?.example;
  // The examples call the caller's own address: an operation every key may use.
  const samplePath = operations.find((operation) => operation.id === 'getOwnIp')?.path ?? '/v1/ip';
  return (
    <>
      <section id="authentication" aria-labelledby="authentication-title">
        <h2 id="authentication-title">Authentication</h2>
        <p>
          Every call except those marked &quot;no key needed&quot; identifies your account by an API key (create one under API
          keys in the console). Send it one of these ways, safest first:
        </p>
        <ol className="schemes">
          {schemes.map((scheme) => (
            <li key={scheme.id} data-scheme={scheme.kind}>
              <h3>{SCHEME_TITLES[scheme.kind]}</h3>
              <Prose text={scheme.description} />
              {scheme.kind === 'query' && (
                <p className="note warning">
                  A key in the URL is kept in browser history and in proxy and server logs. Prefer a header; use{' '}
                  <code>?{scheme.name}=</code> only where you cannot set one.
                </p>
              )}
              {scheme.kind !== 'other' && (
                <pre tabIndex={0}>
                  <code>{schemeExample(scheme, baseUrl, samplePath)}</code>
                </pre>
              )}
            </li>
          ))}
        </ol>
      </section>
      <section id="errors" aria-labelledby="errors-title">
        <h2 id="errors-title">Errors</h2>
        <p>
          Every error, whatever the status, has one shape: a stable machine-readable <code>code</code>, a <code>message</code>{' '}
          naming what was wrong and a <code>resolution</code> saying what to do.
        </p>
        {shape && <SchemaView node={shape} />}
        {example && (
          <pre tabIndex={0}>
            <code>{example}</code>
          </pre>
        )}
        <table className="error-table">
          <caption>Error statuses and their codes</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((error) => (
              <tr key={error.name} data-error={error.name}>
                <td>{error.statuses.join(', ')}</td>
                <td>{inline(error.description.replace(/\s+/g, ' ').trim())}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section id="rate-limits" aria-labelledby="rate-limits-title">
        <h2 id="rate-limits-title">Quota and rate-limit headers</h2>
        <p>
          Every answer, errors included, says where your key stands in its monthly quota. A request beyond the quota, or above the
          key&apos;s per-second burst limit, answers <code>429</code> with <code>Retry-After</code>.
        </p>
        <dl className="header-list">
          {headers.map((header) => (
            <div key={header.name}>
              <dt>
                <code>{header.name}</code>
              </dt>
              <dd>{inline(header.description)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}
