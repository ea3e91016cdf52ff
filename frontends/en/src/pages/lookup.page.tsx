import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BAD_ANSWER_MSG, type WebError } from '../api/base-query.js';
import { webApi } from '../api/web.api.js';
import { IpCard, RawJson } from './lookup/ip-card.js';
import { pinOf, type IpInfoView } from './lookup/ip-info.js';
import { LocationMap } from './lookup/location-map.js';
import './lookup.css';

/** The search field's prompt (spec section 2), also the message for input that is not an address. */
export const PROMPT = 'Please enter any IPv4 or IPv6 address';

/** One address's answer: a region named "Result for <ip>" with the card, the map and the raw JSON. */
function Answer({ info, heading }: { info: IpInfoView; heading: string }) {
  const pin = pinOf(info);
  return (
    <section className="lookup-answer" aria-label={`Result for ${info.ip}`}>
      <h2>{heading}</h2>
      <IpCard info={info} map={pin ? <LocationMap pin={pin} /> : undefined} />
      <RawJson value={info} />
    </section>
  );
}

/** The form keeps its own text; it starts from the URL's query (remounted when Back changes it). */
function SearchForm({ initial, error, onSearch }: { initial: string; error: string; onSearch: (query: string) => void }) {
  const [text, setText] = useState(initial);
  const [empty, setEmpty] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    setEmpty(query === '');
    if (query !== '') onSearch(query);
  };
  const message = empty ? PROMPT : error;
  return (
    <form className="search lookup-search" role="search" onSubmit={submit} noValidate>
      <label htmlFor="lookup-query" className="visually-hidden">
        IP address or domain
      </label>
      <input
        id="lookup-query"
        name="q"
        type="search"
        value={text}
        placeholder={PROMPT}
        autoComplete="off"
        spellCheck={false}
        maxLength={253}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? 'lookup-error' : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="button primary">
        Look up
      </button>
      {message && (
        <p id="lookup-error" role="alert" className="error lookup-error">
          {message}
        </p>
      )}
    </form>
  );
}

/**
 * The IP lookup tool (bff-en's anonymous GET /api/lookup): the visitor's own address on arrival,
 * any IPv4 or IPv6 address or domain after. The query lives in the URL (?q=) so a result can be
 * shared and Back returns to the previous one. Invalid input, a domain without addresses and the
 * per-visitor limit (429) come back as the server's message, shown next to the field.
 */
export function LookupPage() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q')?.trim() ?? '';
  // The call is silent (no toast): the page shows its failure itself.
  const lookup = webApi.useLookUpQuery(query);
  const data = lookup.currentData;
  const error = lookup.isError && !lookup.isFetching ? (lookup.error as WebError).msg || BAD_ANSWER_MSG : '';
  const results = (data?.results ?? []) as unknown as IpInfoView[];
  const more = data?.more_addresses ?? [];
  return (
    <div className="lookup-page">
      <h1>IP lookup</h1>
      <p className="lead">
        Location, network owner (ASN), time zone, currency and privacy flags of any IPv4 or IPv6 address, or of the addresses of a
        domain.
      </p>
      <SearchForm key={query} initial={query} error={error} onSearch={(q) => setParams({ q })} />
      <p role="status" className="loading">
        {lookup.isFetching ? 'Looking up…' : ''}
      </p>
      {data && data.kind === 'domain' && (
        <p className="domain-summary">
          <strong>{data.query}</strong> has {results.length + more.length}{' '}
          {results.length + more.length === 1 ? 'address' : 'addresses'}
          {more.length > 0 && `; the first ${results.length} are shown`}.
        </p>
      )}
      {results.map((info) => (
        <Answer
          key={info.ip}
          info={info}
          heading={query === '' ? `Your IP address: ${info.ip}` : data?.kind === 'domain' ? `${data.query}: ${info.ip}` : info.ip}
        />
      ))}
      {more.length > 0 && (
        <section className="more-addresses" aria-labelledby="more-addresses">
          <h2 id="more-addresses">More addresses of {data?.query}</h2>
          <ul>
            {more.map((ip) => (
              <li key={ip}>
                <Link to={`?q=${encodeURIComponent(ip)}`}>{ip}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
