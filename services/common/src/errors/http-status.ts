import { isDomainError, type DomainErrorKind } from './domain-errors.js';
import { fromGrpcError, isGrpcStatusError } from './grpc-status.js';

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

/** The kinds that are our side's failure: their messages name our dependencies unless exposed. */
const OUR_SIDE: ReadonlySet<DomainErrorKind> = new Set(['unavailable', 'deadline_exceeded', 'internal']);

/** Connection-level failures of a socket to a dependency (Redis, a gRPC or HTTP peer, DNS). */
const TRANSPORT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * What a thrown value means for an HTTP answer, before a face words it. `message` is set only
 * when it may reach the caller: a DomainError of the caller's own making (4xx), or one of our
 * side (5xx) whose domain code exposed it; never for a transport failure (gRPC UNAVAILABLE or
 * DEADLINE_EXCEEDED, whose texts carry `remote_addr=` and addresses; ECONNREFUSED and its
 * kind), nor for a refusal of our own identity by a back end's access policy (reasons
 * `caller_*`: a deployment fault, whose text names the gRPC method), which is internal.
 */
export interface HttpFailure {
  status: number;
  kind: DomainErrorKind;
  reason: string | undefined;
  message: string | undefined;
  details: Readonly<Record<string, string>>;
}

/** A failure of ours said by its kind alone (its text stays in the log). */
function unsaid(kind: DomainErrorKind): HttpFailure {
  return Object.freeze({
    status: HTTP_STATUS_BY_KIND[kind],
    kind,
    reason: undefined,
    message: undefined,
    details: Object.freeze({}),
  });
}

const INTERNAL = unsaid('internal');
const TRANSPORT = unsaid('unavailable');

export function httpFailureOf(thrown: unknown): HttpFailure {
  // A gRPC failure that did not go through callUnary (a stream's, a raw client's).
  const error = isGrpcStatusError(thrown) ? fromGrpcError(thrown) : thrown;
  if (!isDomainError(error)) return isTransportError(error) ? TRANSPORT : INTERNAL;
  if (error.kind === 'internal' || error.reason?.startsWith('caller_') === true) return INTERNAL;
  const shown = error.exposed || !OUR_SIDE.has(error.kind);
  return {
    status: HTTP_STATUS_BY_KIND[error.kind],
    kind: error.kind,
    reason: error.reason,
    message: shown ? error.message : undefined,
    details: error.details,
  };
}

function isTransportError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && TRANSPORT_CODES.has(code);
}

export interface HttpErrorBody {
  status: number;
  error: string;
  message: string;
  reason?: string;
  details?: Record<string, string>;
}

const STANDARD_MESSAGE: Partial<Record<DomainErrorKind, string>> = {
  unavailable: 'service unavailable',
  deadline_exceeded: 'deadline exceeded',
};

/** Maps any thrown value to an HTTP status and a body that never leaks internals (httpFailureOf). */
export function toHttpError(error: unknown): HttpErrorBody {
  const failure = httpFailureOf(error);
  if (failure.kind === 'internal') return { status: 500, error: 'internal', message: 'internal error' };
  const body: HttpErrorBody = {
    status: failure.status,
    error: failure.kind,
    message: failure.message ?? STANDARD_MESSAGE[failure.kind] ?? failure.kind,
  };
  if (failure.reason !== undefined) body.reason = failure.reason;
  if (Object.keys(failure.details).length > 0) body.details = { ...failure.details };
  return body;
}
