import { edgeErrorOf } from '@ipdata/common/http-edge';

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
  tooLarge: 'The form is too large',
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

/** Statuses answered with a standard text whatever the error said. */
const STANDARD_MSG: Readonly<Record<number, string>> = {
  413: WEB_MSG.tooLarge,
  503: WEB_MSG.unavailable,
  504: WEB_MSG.timeout,
};

/**
 * The answer for a thrown error, by common's edge classification (edgeErrorOf). Our services' 4xx
 * messages are written for users (auth's texts are the spec's, word for word), so they are
 * shown; 5xx get a standard text and the details stay in the log, whatever failed (a DomainError
 * of kind unavailable, a gRPC transport failure, our own identity refused by a back end:
 * `caller_*`, anything that is not a DomainError). auth's "unauthenticated" is a session that
 * ended: code 506. A body over the limit is 413 and closes the connection.
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
  const edge = edgeErrorOf(error);
  if (edge.kind === 'internal') {
    return { status: 500, envelope: { code: 500, msg: WEB_MSG.internal, data: null }, headers: {}, fault: true };
  }
  if (edge.kind === 'unauthenticated' && edge.reason !== 'login_failed') return webFailureOf(sessionInvalid());
  const { status, reason } = edge;
  const headers: Record<string, string> = {};
  if (edge.retryAfterSeconds !== undefined) headers['retry-after'] = edge.retryAfterSeconds;
  if (edge.closeConnection) headers['connection'] = 'close';
  const msg = STANDARD_MSG[status] ?? edge.message ?? WEB_MSG.internal;
  const field = edge.details['field'];
  return {
    status,
    envelope: { code: status, msg, data: null, ...(reason ? { reason } : {}), ...(field ? { field } : {}) },
    headers,
    fault: edge.fault,
  };
}
