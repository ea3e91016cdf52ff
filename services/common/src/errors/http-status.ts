import { isDomainError, type DomainErrorKind } from './domain-errors.js';

const HTTP_STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  failed_precondition: 412,
  resource_exhausted: 429,
  internal: 500,
  unavailable: 503,
  deadline_exceeded: 504,
};

export interface HttpErrorBody {
  status: number;
  error: string;
  message: string;
  reason?: string;
  details?: Record<string, string>;
}

/** Maps any thrown value to an HTTP status and a body that never leaks internals. */
export function toHttpError(error: unknown): HttpErrorBody {
  if (isDomainError(error) && error.kind !== 'internal') {
    const body: HttpErrorBody = {
      status: HTTP_STATUS_BY_KIND[error.kind],
      error: error.kind,
      message: error.message,
    };
    if (error.reason !== undefined) body.reason = error.reason;
    if (Object.keys(error.details).length > 0) body.details = { ...error.details };
    return body;
  }
  return { status: 500, error: 'internal', message: 'internal error' };
}
