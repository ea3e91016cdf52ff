import { useEffect, useState } from 'react';
import { fetchWithPolicy } from '@ipdata/web-kit/fetch-policy';
import { isObject, type Json } from './openapi-model.js';

/** Where bff-en serves the public API's OpenAPI document (services/bff-en/openapi/public-api.yaml). */
export const PUBLIC_OPENAPI_URL = '/v1/openapi.json';

export const DOCUMENT_FAILED = 'The API reference could not be loaded, please try again later';

let pending: Promise<Json> | undefined;

/**
 * The document, fetched once per page load under the client's rules (10-second timeout, retries
 * on the spec's statuses) and kept: it changes only with a deployment, which reloads the app.
 */
export function loadPublicApiDocument(fetchFn: typeof fetch = (input, init) => fetch(input, init)): Promise<Json> {
  pending ??= fetchWithPolicy(fetchFn, PUBLIC_OPENAPI_URL, { headers: { accept: 'application/json' } })
    .then(async (outcome) => {
      if ('failure' in outcome || !outcome.response.ok) throw new Error(DOCUMENT_FAILED);
      const doc: unknown = await outcome.response.json();
      if (!isObject(doc) || !isObject(doc['paths'])) throw new Error(DOCUMENT_FAILED);
      return doc;
    })
    .catch((error: unknown) => {
      pending = undefined; // the next visit tries again
      throw error;
    });
  return pending;
}

export type DocumentState = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; doc: Json };

export function usePublicApiDocument(): DocumentState {
  const [result, setResult] = useState<DocumentState>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    loadPublicApiDocument().then(
      (doc) => live && setResult({ state: 'ready', doc }),
      () => live && setResult({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, []);
  return result;
}
