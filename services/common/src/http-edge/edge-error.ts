import type { ServerResponse } from 'node:http';
import { BatchQueueFullError } from '../batching/turn-batcher.js';
import { httpFailureOf, type HttpFailure } from '../errors/http-status.js';
import { BodyTooLargeError } from '../http/http-body.js';
import type { Logger } from '../logger/logger.js';

/**
 * A thrown value as every edge sees it before its own mapper words it in the face's shape: the
 * status and kind, the reason, the message only where it may be shown (httpFailureOf: never a
 * transport failure's or a `caller_*` refusal's text), plus what the framework adds.
 */
export interface EdgeError extends HttpFailure {
  /** Our side failed (5xx): logged with the error; the caller gets a standard text. */
  fault: boolean;
  /** When the caller should come back (429, an overloaded queue), in seconds. */
  retryAfterSeconds: string | undefined;
  /** The request body was not read to its end: the connection cannot carry another request. */
  closeConnection: boolean;
}

/**
 * The one classification of the edges (bff-en's public API and web API, face A): besides
 * httpFailureOf's rules, a body over the limit is 413 `body_too_large` (its limit in
 * `details.limitBytes`) and a full batching queue is 503 `overloaded`, retry after a second.
 */
export function edgeErrorOf(error: unknown): EdgeError {
  if (error instanceof BodyTooLargeError) {
    return {
      status: 413,
      kind: 'invalid_argument',
      reason: 'body_too_large',
      message: error.message,
      details: { limitBytes: String(error.limitBytes) },
      fault: false,
      retryAfterSeconds: undefined,
      closeConnection: true,
    };
  }
  if (error instanceof BatchQueueFullError) {
    return {
      status: 503,
      kind: 'unavailable',
      reason: 'overloaded',
      message: undefined,
      details: { retryAfterSeconds: '1' },
      fault: true,
      retryAfterSeconds: '1',
      closeConnection: false,
    };
  }
  // One literal, no leading spread: the object keeps one hidden class (eslint's no-spread-then-members).
  const { status, kind, reason, message, details } = httpFailureOf(error);
  return {
    status,
    kind,
    reason,
    message,
    details,
    fault: status >= 500,
    retryAfterSeconds: details['retryAfterSeconds'],
    closeConnection: false,
  };
}

export interface EdgeLog {
  logger: Logger;
  /** The log line's fields: request id, route or call, status. */
  fields: Readonly<Record<string, unknown>>;
  /** What failed, e.g. 'web API call': logged as "<what> failed" (a fault) or "<what> refused". */
  what: string;
}

/**
 * The catch of every edge: a fault is logged at error with the thrown value (the only place its
 * details go), a refusal at debug; an answer already under way is cut (its head is out, nothing
 * can be said any more). True when the face's error answer is to be written now.
 */
export function failEdge(response: ServerResponse, error: unknown, fault: boolean, log: EdgeLog): boolean {
  if (fault) log.logger.error(Object.assign({}, log.fields, { err: error }), `${log.what} failed`);
  else log.logger.debug(log.fields, `${log.what} refused`);
  if (!response.headersSent) return true;
  response.destroy();
  return false;
}
