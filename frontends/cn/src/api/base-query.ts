import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { fetchWithPolicy } from '@ipdata/web-kit/fetch-policy';
import { showToast } from '@ipdata/web-kit/toast';
import { silentLogout } from '../store/user.slice.js';
import { isDownloadCall, isGetCall, isSilentCall } from './call-rules.js';
import { readEnvelope } from './envelope.js';
import { platOf } from './platform.js';
import { saveFile as saveFileInBrowser, downloadFilename } from './save-file.js';

/** Code 506: the login is invalid (spec section 8). */
export const CODE_LOGIN_INVALID = 506;
export const EXPORT_DONE = '导出成功';
export const TIMEOUT_MSG = '请求超时，请稍后再试';
export const NETWORK_MSG = '网络异常，请检查网络后重试';
export const BAD_ANSWER_MSG = '服务器繁忙，请稍后再试';

export type FieldValue = string | number | boolean | null | undefined;

export interface FaceACall {
  /** The call's path, e.g. `/v1/web_init`. */
  url: string;
  /** Fields: query parameters for a GET call, form-data fields (and files) for a POST call. */
  fields?: Record<string, FieldValue | Blob>;
  /** Overrides REQUEST_TIMEOUT_MS (file downloads of large batches). */
  timeoutMs?: number;
}

/** A failed call: error is face A's code (506, 400, ...) or what went wrong before an answer. */
export interface FaceAError {
  error: number | 'TIMEOUT' | 'NETWORK' | 'ABORTED' | 'BAD_ANSWER';
  msg: string;
  data: unknown;
}

export interface DownloadedFile {
  filename: string;
  size: number;
}

export interface BaseQueryOptions {
  /** The API root: '' is the app's own origin (bff-cn serves the app; Vite proxies in dev). */
  apiRoot?: string;
  timeoutMs?: number;
  fetchFn?: typeof fetch;
  userAgent?: () => string;
  saveFile?: (blob: Blob, filename: string) => void;
}

interface StateWithToken {
  user: { token: string };
}

/**
 * Face A's base query (spec section 7): every call to the API root; GET calls with query
 * parameters, the others POST with a form-data body; `token` header when logged in; `plat`
 * header; answers read as {data, error, msg}; a non-200 code shows a warning toast unless the
 * call is silent; 506 logs out silently; a 10-second timeout; GET calls retried on the spec's
 * retryable statuses (POST calls never); file calls save the file.
 */
export function createFaceABaseQuery(
  options: BaseQueryOptions = {},
): BaseQueryFn<FaceACall, unknown, FaceAError, object, { msg: string }> {
  const apiRoot = options.apiRoot ?? '';
  const fetchFn = options.fetchFn ?? ((input, init) => fetch(input, init));
  const userAgent = options.userAgent ?? (() => navigator.userAgent);
  const save = options.saveFile ?? saveFileInBrowser;

  return async (call, api) => {
    const path = call.url;
    const silent = isSilentCall(path);
    const fail = (error: FaceAError): { error: FaceAError } => {
      if (error.error === CODE_LOGIN_INVALID) {
        api.dispatch(silentLogout());
      } else if (!silent && error.error !== 'ABORTED') {
        api.dispatch(showToast('warning', error.msg || BAD_ANSWER_MSG));
      }
      return { error };
    };

    const headers = new Headers({ plat: platOf(userAgent()) });
    const token = (api.getState() as StateWithToken).user.token;
    if (token) headers.set('token', token);

    let url = `${apiRoot}${path}`;
    const init: RequestInit = { headers };
    if (isGetCall(path)) {
      init.method = 'GET';
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(call.fields ?? {})) {
        if (value !== undefined && value !== null && !(value instanceof Blob)) query.append(name, String(value));
      }
      if (query.size > 0) url += `?${query.toString()}`;
    } else {
      init.method = 'POST';
      const form = new FormData();
      for (const [name, value] of Object.entries(call.fields ?? {})) {
        if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
        else if (value !== undefined && value !== null) form.append(name, String(value));
      }
      init.body = form;
    }

    const outcome = await fetchWithPolicy(fetchFn, url, init, {
      ...((call.timeoutMs ?? options.timeoutMs) ? { timeoutMs: call.timeoutMs ?? options.timeoutMs } : {}),
      signal: api.signal,
    });
    if ('failure' in outcome) {
      if (outcome.failure === 'TIMEOUT') return fail({ error: 'TIMEOUT', msg: TIMEOUT_MSG, data: null });
      if (outcome.failure === 'ABORTED') return fail({ error: 'ABORTED', msg: '', data: null });
      return fail({ error: 'NETWORK', msg: NETWORK_MSG, data: null });
    }
    const { response } = outcome;
    try {
      const isJson = (response.headers.get('content-type') ?? '').includes('json');
      if (isDownloadCall(path) && response.ok && !isJson) {
        const blob = await response.blob();
        const filename = downloadFilename(response.headers.get('content-disposition'), `${path.slice(4)}-${Date.now()}`);
        save(blob, filename);
        api.dispatch(showToast('success', EXPORT_DONE));
        return { data: { filename, size: blob.size } satisfies DownloadedFile, meta: { msg: EXPORT_DONE } };
      }
      const body: unknown = isJson ? await response.json().catch(() => null) : null;
      const result = readEnvelope(body);
      if (!result) return fail({ error: 'BAD_ANSWER', msg: BAD_ANSWER_MSG, data: null });
      // A file call that answers JSON did not produce its file, whatever the code says.
      if (result.error === '' && isDownloadCall(path)) {
        return fail({ error: 'BAD_ANSWER', msg: result.msg || BAD_ANSWER_MSG, data: result.data });
      }
      if (result.error !== '') return fail({ error: result.error, msg: result.msg, data: result.data });
      return { data: result.data, meta: { msg: result.msg } };
    } catch {
      // The body broke off mid-way.
      return fail({ error: 'NETWORK', msg: NETWORK_MSG, data: null });
    }
  };
}
