import { BatchQueueFullError, BodyTooLargeError, toHttpError } from '@ipdata/common';

/**
 * The public API's one error shape: `{"error": {"code", "message", "resolution"}}`. Routes throw
 * ApiError (or a common DomainError, mapped by `apiErrorOf`); the dispatcher renders it with the
 * same headers every answer carries (request id, rate limits, CORS).
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

/**
 * Any thrown value as the public error shape: ApiError as it is, a common DomainError (from our
 * gRPC dependencies or the domain modules) by its status and reason, anything else a 500 that
 * says nothing about internals (the caller logs the real error).
 */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof BatchQueueFullError) {
    return new ApiError(503, 'overloaded', 'The service is overloaded.', 'Retry in a few seconds.', { 'Retry-After': '1' });
  }
  if (error instanceof BodyTooLargeError) {
    // The rest of the body is not read: the connection cannot be reused.
    return new ApiError(
      413,
      'payload_too_large',
      `The request body is larger than ${error.limitBytes} bytes.`,
      'Send fewer items per request (POST /v1/bulk takes large lists).',
      { Connection: 'close' },
    );
  }
  const http = toHttpError(error);
  if (http.status === 500) {
    return new ApiError(
      500,
      'internal_error',
      'The server failed to answer this request.',
      'Retry later; if it persists, contact support with the X-Request-Id.',
    );
  }
  const code = http.reason ?? http.error;
  return new ApiError(http.status, code, http.message, RESOLUTION_BY_STATUS[http.status] ?? 'Retry later.');
}
