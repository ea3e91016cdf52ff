import { edgeErrorOf } from '@ipdata/common/http-edge';
import { DOMAIN_ERRORS } from '../domain-lookup/domain-resolver.js';

/**
 * The public API's one error shape: `{"error": {"code", "message", "resolution"}}`. Routes throw
 * ApiError, domain modules a common DomainError (mapped by `apiErrorOf`, the public API's one
 * mapper); the dispatcher renders it with the same headers every answer carries (request id,
 * rate limits, CORS).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Stable machine-readable code, snake_case (documented in the OpenAPI document). */
    readonly code: string,
    message: string,
    /** What the caller can do about it, one sentence. */
    readonly resolution: string,
    /** Extra headers (Retry-After, Allow, ...). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toJSON(): { error: { code: string; message: string; resolution: string } } {
    return { error: { code: this.code, message: this.message, resolution: this.resolution } };
  }
}

export function badRequest(code: string, message: string, resolution: string): ApiError {
  return new ApiError(400, code, message, resolution);
}

const RESOLUTION_BY_STATUS: Record<number, string> = {
  400: 'Correct the request as the message says and send it again.',
  401: 'Send a valid API key in the Authorization header (Bearer), X-API-Key or the key query parameter.',
  403: 'Use an active key of a plan that includes this product, or upgrade the plan.',
  404: 'Check the path and the identifier.',
  409: 'Reload the resource and retry.',
  412: 'Wait until the resource is ready, then retry.',
  429: 'Wait for the time given in Retry-After, or upgrade the plan.',
  503: 'Retry in a few seconds.',
  504: 'Retry in a few seconds.',
};

/** Reasons of the domain modules the public API words itself: a status other than the kind's, and what to do. */
const BY_REASON: Record<string, { status?: number; resolution: string }> = {
  [DOMAIN_ERRORS.invalidDomain]: {
    resolution:
      'Send a fully qualified domain name such as example.com (internationalised names are accepted); for an IP address use /v1/ip/{ip}.',
  },
  [DOMAIN_ERRORS.notFound]: {
    resolution: 'Check the spelling of the domain name; only names with A or AAAA records in public DNS can be looked up.',
  },
  [DOMAIN_ERRORS.timeout]: { resolution: "Try again later; if it persists, the domain's name servers are not answering." },
  [DOMAIN_ERRORS.failed]: { status: 502, resolution: "Try again later; if it persists, the domain's DNS is misconfigured." },
};

/** What a dependency's failure says instead of its own text (which names addresses and gRPC methods). */
const DEPENDENCY_MESSAGE: Record<string, string> = {
  unavailable: 'A service this request needs is unavailable.',
  deadline_exceeded: 'A service this request needs did not answer in time.',
};

/**
 * Any thrown value as the public error shape: ApiError as it is, anything else by common's edge
 * classification (edgeErrorOf): a DomainError by its status and reason; a body over the limit
 * 413; a full queue 503 `overloaded`; a dependency that failed (gRPC UNAVAILABLE or
 * DEADLINE_EXCEEDED, a refused connection) 503/504 by its kind with a standard text; our own
 * identity refused by a back end (`caller_*`) and anything else a 500 that says nothing about
 * internals (the caller logs the real error).
 */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const edge = edgeErrorOf(error);
  if (edge.status === 413) {
    // The rest of the body is not read: the connection cannot be reused.
    return new ApiError(
      413,
      'payload_too_large',
      `The request body is larger than ${edge.details['limitBytes']} bytes.`,
      'Send fewer items per request (POST /v1/bulk takes large lists).',
      { Connection: 'close' },
    );
  }
  if (edge.reason === 'overloaded') {
    return new ApiError(503, 'overloaded', 'The service is overloaded.', 'Retry in a few seconds.', { 'Retry-After': '1' });
  }
  if (edge.kind === 'internal') {
    return new ApiError(
      500,
      'internal_error',
      'The server failed to answer this request.',
      'Retry later; if it persists, contact support with the X-Request-Id.',
    );
  }
  if (edge.message === undefined) {
    const message = DEPENDENCY_MESSAGE[edge.kind] ?? 'A service this request needs failed.';
    return new ApiError(edge.status, edge.kind, message, RESOLUTION_BY_STATUS[edge.status] ?? 'Retry later.');
  }
  const worded = edge.reason === undefined ? undefined : BY_REASON[edge.reason];
  const status = worded?.status ?? edge.status;
  const resolution = worded?.resolution ?? RESOLUTION_BY_STATUS[status] ?? 'Retry later.';
  return new ApiError(status, edge.reason ?? edge.kind, edge.message, resolution);
}
