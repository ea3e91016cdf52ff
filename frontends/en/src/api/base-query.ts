import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { fetchWithPolicy } from '@ipdata/web-kit/fetch-policy';
import { showToast } from '@ipdata/web-kit/toast';
import { silentLogout } from '../store/session.slice.js';

/** Code 506: the login is no longer valid; the app logs out without a word (spec section 8). */
export const CODE_LOGIN_INVALID = 506;
export const TIMEOUT_MSG = 'The request took too long, please try again';
export const NETWORK_MSG = 'Network error, please check your connection and try again';
export const BAD_ANSWER_MSG = 'Something went wrong on our side, please try again later';
/** bff-en's double-submit CSRF cookie (readable by scripts, unlike `token`). */
export const CSRF_COOKIE = 'csrf_token';

export type WebMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface WebCall {
  url: string;
  method?: WebMethod;
  /** Query parameters (dropped when undefined or empty). */
  params?: Record<string, string | number | undefined>;
  /** JSON body (POST, PATCH, PUT, DELETE). */
  body?: unknown;
  /** No toast on failure (the start-up calls, and calls whose page shows the error itself). */
  silent?: boolean;
  /**
   * The call checks credentials (login): its 401 means a wrong password, not an ended session,
   * so it does not log out.
   */
  credentials?: boolean;
}

/** A failed call: the answer's code (400, 401, 506, ...) or what went wrong before an answer. */
export interface WebError {
  error: number | 'TIMEOUT' | 'NETWORK' | 'ABORTED' | 'BAD_ANSWER';
  msg: string;
  /** The form field the failure concerns, when the server named one. */
  field?: string;
  reason?: string;
}

interface StateWithCsrf {
  session: { csrf: string };
}

export interface BaseQueryOptions {
  /** '' = the app's own origin (bff-en serves the app; Vite proxies in dev). */
  apiRoot?: string;
  timeoutMs?: number;
  fetchFn?: typeof fetch;
}

/** The CSRF cookie's current value (another tab may have renewed it), else the one /api/init gave. */
function csrfValue(state: StateWithCsrf): string {
  const cookie = typeof document === 'undefined' ? '' : document.cookie;
  for (const part of cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSRF_COOKIE && value.length > 0) return value.join('=');
  }
  return state.session.csrf;
}

/**
 * Face B's client (spec section 7, "generic client behaviour"): JSON bodies for PATCH, POST,
 * PUT and DELETE; a 10-second timeout; retries only for idempotent methods and only on 408, 409,
 * 425, 429, 500, 502, 503, 504 (@ipdata/web-kit/fetch-policy); the CSRF value in X-CSRF-Token on
 * every method that changes something; answers read as {code, msg, data}; a failure shows a
 * warning toast with the server's msg unless the call is silent. An ended session — code 506, or
 * HTTP 401 on any call but a credentials check — logs out silently (spec section 8).
 */
export function createWebBaseQuery(
  options: BaseQueryOptions = {},
): BaseQueryFn<WebCall, unknown, WebError, object, { msg: string }> {
  const apiRoot = options.apiRoot ?? '';
  const fetchFn = options.fetchFn ?? ((input, init) => fetch(input, init));
  return async (call, api) => {
    const fail = (error: WebError, status?: number): { error: WebError } => {
      const sessionEnded = error.error === CODE_LOGIN_INVALID || (status === 401 && !call.credentials);
      if (sessionEnded) api.dispatch(silentLogout());
      else if (!call.silent && error.error !== 'ABORTED') api.dispatch(showToast('warning', error.msg || BAD_ANSWER_MSG));
      return { error };
    };
    const method = call.method ?? 'GET';
    const headers = new Headers({ accept: 'application/json' });
    if (method !== 'GET') headers.set('x-csrf-token', csrfValue(api.getState() as StateWithCsrf));
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(call.params ?? {}))
      if (value !== undefined && value !== '') query.append(name, String(value));
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (method !== 'GET' && call.body !== undefined) {
      headers.set('content-type', 'application/json');
      init.body = JSON.stringify(call.body);
    }
    const url = `${apiRoot}${call.url}${query.size > 0 ? `?${query.toString()}` : ''}`;
    const outcome = await fetchWithPolicy(fetchFn, url, init, {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      signal: api.signal,
    });
    if ('failure' in outcome) {
      if (outcome.failure === 'TIMEOUT') return fail({ error: 'TIMEOUT', msg: TIMEOUT_MSG });
      if (outcome.failure === 'ABORTED') return fail({ error: 'ABORTED', msg: '' });
      return fail({ error: 'NETWORK', msg: NETWORK_MSG });
    }
    const { status } = outcome.response;
    const body = (await outcome.response.json().catch(() => null)) as {
      code?: unknown;
      msg?: unknown;
      data?: unknown;
      field?: unknown;
      reason?: unknown;
    } | null;
    if (body === null || typeof body.code !== 'number')
      return fail({ error: status >= 400 ? status : 'BAD_ANSWER', msg: BAD_ANSWER_MSG }, status);
    const msg = typeof body.msg === 'string' ? body.msg : '';
    if (body.code !== 200 || status >= 400) {
      return fail(
        {
          error: body.code === 200 ? status : body.code,
          msg,
          ...(typeof body.field === 'string' ? { field: body.field } : {}),
          ...(typeof body.reason === 'string' ? { reason: body.reason } : {}),
        },
        status,
      );
    }
    return { data: body.data ?? null, meta: { msg } };
  };
}
