import { useState, type ComponentType, type FormEvent } from 'react';
import { Link } from 'react-router';
import { BAD_ANSWER_MSG, type WebError } from '../../api/base-query.js';
import { webApi } from '../../api/web.api.js';
import { PRODUCT_NAMES, type Product } from '../../routes/products.js';
import { useAppSelector } from '../../store/hooks.js';
import { selectSession } from '../../store/session.slice.js';
import { FieldTable } from './field-table.js';
import { pageForProduct } from './product-page.js';
import { PRODUCT_FACTS, exampleOf, type ProductFacts } from './product-facts.js';
import '../marketing.css';

/** The example's answer, fetched from the running back end (the lookup tool: the API's own data). */
function LiveExample({ facts, endpointPath }: { facts: ProductFacts; endpointPath: string }) {
  const [ip, setIp] = useState(facts.exampleIp);
  const [text, setText] = useState(facts.exampleIp);
  const { data, error, isFetching } = webApi.useLookUpQuery(ip);
  const answer = data?.results[0];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== '') setIp(text.trim());
  };
  const failure = error ? (error as WebError).msg || BAD_ANSWER_MSG : '';
  return (
    <section className="product-section" aria-labelledby="example-title">
      <h2 id="example-title">Live example</h2>
      <p>
        A real answer from our servers, fetched as this page opened. Change the address to see another one; with your key the API
        answers the same.
      </p>
      <form className="inline-form example-form" onSubmit={submit}>
        <label htmlFor="example-ip">IP address</label>
        <input
          id="example-ip"
          value={text}
          spellCheck={false}
          autoComplete="off"
          maxLength={253}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button">
          Show the answer
        </button>
      </form>
      <p className="request-line">
        <code>GET {endpointPath.replace(/\{ip\}/u, ip)}</code>
      </p>
      <div aria-live="polite">
        {isFetching && <p className="loading">Asking the API…</p>}
        {failure && !isFetching && (
          <p role="alert" className="error">
            {failure}
          </p>
        )}
      </div>
      {answer && !isFetching && (
        <pre className="json-answer" tabIndex={0} aria-label={`Answer for ${answer.ip} as JSON`}>
          {JSON.stringify(exampleOf(answer, facts.exampleMembers), null, 2)}
        </pre>
      )}
    </section>
  );
}

/** An API product page (spec section 2): what it answers, its calls, a live answer, where to go next. */
function ApiProductPage({ product }: { product: Product }) {
  const facts = PRODUCT_FACTS[product];
  const [first] = facts.endpoints;
  const { freeLookupsPerMonth } = useAppSelector(selectSession);
  return (
    <article className="product-page">
      <header className="product-hero">
        <p className="eyebrow">API</p>
        <h1>{PRODUCT_NAMES[product]} API</h1>
        <p className="hero-lead">{facts.apiLead}</p>
        <p className="actions">
          <Link className="button primary" to="/signup">
            Get your free API key
          </Link>
          <Link className="button" to={`/docs#${first?.operationId ?? ''}`}>
            Read the docs
          </Link>
          <Link className="button" to="/pricing">
            See pricing
          </Link>
        </p>
      </header>

      <section className="product-section" aria-labelledby="answers-title">
        <h2 id="answers-title">What it answers</h2>
        <FieldTable caption="Members of the answer" fields={facts.answers} />
      </section>

      <section className="product-section" aria-labelledby="calls-title">
        <h2 id="calls-title">Calls</h2>
        <ul className="endpoints">
          {facts.endpoints.map((endpoint) => (
            <li key={endpoint.operationId}>
              <code>
                {endpoint.method} {endpoint.path}
              </code>
              <span>{endpoint.text}</span>
              <Link to={`/docs#${endpoint.operationId}`} aria-label={`${endpoint.method} ${endpoint.path} in the docs`}>
                Docs
              </Link>
            </li>
          ))}
        </ul>
        <p>
          Send your key as <code>Authorization: Bearer &lt;key&gt;</code> (or <code>X-API-Key</code>). Answers are JSON, or CSV
          with <code>format=csv</code>; <code>fields</code> picks the members you need.
        </p>
      </section>

      <LiveExample facts={facts} endpointPath={first?.path ?? '/v1/ip/{ip}'} />

      <section className="product-section next-steps" aria-labelledby="next-title">
        <h2 id="next-title">Next steps</h2>
        <ul>
          <li>
            <Link to="/pricing">Pricing</Link>: the free plan answers {freeLookupsPerMonth.toLocaleString('en-US')} lookups a
            month; paid plans answer more, with a price per extra 1k requests.
          </li>
          <li>
            <Link to={`/docs#${first?.operationId ?? ''}`}>Documentation</Link>: every call with curl, JavaScript and Python
            examples, and a box to try it.
          </li>
          <li>
            <Link to={`/databases/${product}`}>{PRODUCT_NAMES[product]} database</Link>: the same data as a file, for lookups on
            your own servers.
          </li>
        </ul>
      </section>
    </article>
  );
}

/** The route table's page for one API product. */
export function apiProductPage(product: Product): ComponentType {
  return pageForProduct(ApiProductPage, product, 'ApiProductPage');
}
