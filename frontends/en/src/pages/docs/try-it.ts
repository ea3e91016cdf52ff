// "Try it": one operation sent from the browser to the public API (same origin: bff-en serves
// both the app and /v1), and its answer read for the page: status, the quota headers and the body.

import { TIMEOUT_MSG } from '../../api/base-query.js';
import { TRY_KEY_STORAGE } from '../../store/try-key.js';
import { requestUrl } from './code-examples.js';
import type { DocOperation } from './openapi-model.js';

/** Where the API keys page leaves a key created in this browser session (store/try-key.ts). */
export { TRY_KEY_STORAGE };

/** The key created in this browser session, if any (storage can be off or throw). */
export function storedTryKey(storage: Pick<Storage, 'getItem'> | undefined): string {
  try {
    return storage?.getItem(TRY_KEY_STORAGE) ?? '';
  } catch {
    return '';
  }
}

/** The answer headers the box shows, in this order, when present. */
export const SHOWN_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Content-Type',
] as const;

/** A header's value for people: X-RateLimit-Reset (Unix seconds) also as a UTC time. */
export function headerText(name: string, value: string): string {
  if (name.toLowerCase() !== 'x-ratelimit-reset' || !/^\d+$/.test(value) || value === '0') return value;
  const when = new Date(Number(value) * 1000).toISOString().slice(0, 16).replace('T', ' ');
  return `${value} (${when} UTC)`;
}

/** Bodies longer than this are cut (a bulk result or a CSV can be large). */
const MAX_BODY_CHARS = 20_000;
export const TRY_TIMEOUT_MS = 10_000;

export interface TryAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  /** What the page could not show and why (a redirect's target, a cut body). */
  note: string;
  ms: number;
}

export interface TryRequest {
  operation: DocOperation;
  values: Readonly<Record<string, string>>;
  body?: string;
  key: string;
}

/** The fetch options of a try: the key in the Authorization header, the body with its media type. */
export function tryInit(request: TryRequest): RequestInit {
  const headers = new Headers({ accept: request.operation.answer === 'text' ? '*/*' : 'application/json' });
  const key = request.key.trim();
  if (key && request.operation.needsKey) headers.set('authorization', `Bearer ${key}`);
  const init: RequestInit = {
    method: request.operation.method,
    headers,
    // The app's session cookie is not part of an API call: the key alone identifies the caller.
    credentials: 'omit',
    // A redirect leads to a file on another host: the page reports the 302 rather than download.
    redirect: request.operation.redirects ? 'manual' : 'follow',
    cache: 'no-store',
  };
  if (request.operation.body && request.body !== undefined && request.body.trim() !== '') {
    headers.set('content-type', request.operation.body.contentTypes[0] ?? 'application/json');
    init.body = request.body;
  }
  return init;
}

async function readBody(response: Response): Promise<{ body: string; note: string }> {
  const type = response.headers.get('content-type') ?? '';
  const raw = await response.text();
  let body = raw;
  if (/json/.test(type) && !/ndjson/.test(type)) {
    try {
      body = JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      body = raw;
    }
  }
  if (body.length > MAX_BODY_CHARS)
    return {
      body: body.slice(0, MAX_BODY_CHARS),
      note: `The body is ${body.length.toLocaleString('en-US')} characters long; the first ${MAX_BODY_CHARS.toLocaleString('en-US')} are shown.`,
    };
  return { body, note: '' };
}

/** Sends the try and reads the answer; a failure before any answer is thrown as an Error with a message for people. */
export async function sendTry(
  request: TryRequest,
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
): Promise<TryAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TRY_TIMEOUT_MS);
  const started = performance.now();
  try {
    const response = await fetchFn(requestUrl({ ...request, baseUrl: '' }), { ...tryInit(request), signal: controller.signal });
    if (response.type === 'opaqueredirect') {
      return {
        status: 302,
        statusText: 'Found',
        headers: [],
        body: '',
        note: 'The API answered with a redirect to the file. A browser page cannot read where a redirect leads; the curl, JavaScript and Python examples follow it and save the file.',
        ms: Math.round(performance.now() - started),
      };
    }
    const headers = SHOWN_HEADERS.flatMap((name): [string, string][] => {
      const value = response.headers.get(name);
      return value === null ? [] : [[name, value]];
    });
    const { body, note } = await readBody(response);
    return {
      status: response.status,
      statusText: response.statusText,
      headers,
      body,
      note,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    throw new Error(
      controller.signal.aborted
        ? TIMEOUT_MSG
        : `The request could not be sent (${error instanceof Error ? error.message : 'network error'})`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The starting values of an operation's "Try it" box: path and required parameters from their examples, optional ones empty. */
export function initialValues(operation: DocOperation): Record<string, string> {
  return Object.fromEntries(
    operation.parameters.map((parameter) => [
      parameter.name,
      parameter.in === 'path' || parameter.required ? parameter.example : '',
    ]),
  );
}
