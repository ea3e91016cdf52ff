import { isDomainError, toHttpError } from '@ipdata/common';

/**
 * Every answer of the web API is `{code, msg, data}` (the spec's generic response). The HTTP
 * status says the same as `code` (so the web client's retry rule works on statuses), except a
 * session that is missing or no longer valid: HTTP 401 with code 506, on which the app logs out
 * silently.
 */
export interface WebEnvelope {
  code: number;
  msg: string;
  data: unknown;
  /** Machine-readable reason of a failure ("email_taken"); the form field it concerns, when one. */
  reason?: string;
  field?: string;
}

export const SESSION_INVALID_CODE = 506;

export const WEB_MSG = {
  ok: 'OK',
  sessionInvalid: 'Your login has expired, please log in again',
  internal: 'Something went wrong on our side, please try again later',
  unavailable: 'The service is temporarily unavailable, please try again in a moment',
  timeout: 'The service took too long to answer, please try again',
  notFound: 'Not found',
  csrf: 'This page is out of date, please reload it and try again',
} as const;

/** A failure a web route answers on purpose, with the text the user sees. */
export class WebApiError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly options: { reason?: string; field?: string; code?: number; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.name = 'WebApiError';
  }
}

export const badRequest = (msg: string, field?: string, reason = 'invalid_input'): WebApiError =>
  new WebApiError(400, msg, { reason, ...(field === undefined ? {} : { field }) });

export const sessionInvalid = (): WebApiError =>
  new WebApiError(401, WEB_MSG.sessionInvalid, { code: SESSION_INVALID_CODE, reason: 'session_invalid' });

export interface WebFailure {
  status: number;
  envelope: WebEnvelope;
  headers: Record<string, string>;
  /** 5xx: logged with the error; the user sees only a standard text. */
  fault: boolean;
}

/**
 * The answer for a thrown error. Our services' 4xx messages are written for users (auth's texts
 * are the spec's, word for word), so they are shown; 5xx and anything that is not a DomainError
 * get a standard text and the details stay in the log. auth's "unauthenticated" is a session
 * that ended: code 506.
 */
export function webFailureOf(error: unknown): WebFailure {
  if (error instanceof WebApiError) {
    const { code, reason, field, headers } = error.options;
    return {
      status: error.status,
      envelope: {
        code: code ?? error.status,
        msg: error.msg,
        data: null,
        ...(reason ? { reason } : {}),
        ...(field ? { field } : {}),
      },
      headers: headers ?? {},
      fault: error.status >= 500,
    };
  }
  if (!isDomainError(error) || error.kind === 'internal') {
    return { status: 500, envelope: { code: 500, msg: WEB_MSG.internal, data: null }, headers: {}, fault: true };
  }
  const { status } = toHttpError(error);
  const headers: Record<string, string> = {};
  const retryAfter = error.details['retryAfterSeconds'];
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  if (error.kind === 'unauthenticated' && error.reason !== 'login_failed') return webFailureOf(sessionInvalid());
  const msg = status === 503 ? WEB_MSG.unavailable : status === 504 ? WEB_MSG.timeout : error.message;
  const field = error.details['field'];
  return {
    status,
    envelope: { code: status, msg, data: null, ...(error.reason ? { reason: error.reason } : {}), ...(field ? { field } : {}) },
    headers,
    fault: status >= 500,
  };
}
