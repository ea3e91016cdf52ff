/**
 * Typed errors thrown by domain code. Each transport has one mapper that turns them into its
 * own status (gRPC status, HTTP code, face A's {code, msg}); anything that is not a DomainError
 * is treated as an internal error whose details never leave the process.
 */
export type DomainErrorKind =
  | 'invalid_argument'
  | 'not_found'
  | 'conflict'
  | 'unauthenticated'
  | 'permission_denied'
  | 'resource_exhausted'
  | 'failed_precondition'
  | 'unavailable'
  | 'deadline_exceeded'
  | 'internal';

export interface DomainErrorOptions {
  reason?: string;
  details?: Record<string, string>;
  cause?: unknown;
  /**
   * The message is written for the caller even though the kind is our side's (unavailable,
   * deadline_exceeded): "the DNS servers did not answer in time for x", "no probe site is alive".
   * Without it such messages stay in the log, since they usually name a dependency. Never sent
   * over gRPC: an error rebuilt from a status (`fromGrpcError`) is never exposed this way.
   */
  expose?: boolean;
}

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  /** Machine-readable reason, stable across releases (e.g. "email_taken", "token_expired"). */
  readonly reason: string | undefined;
  /** Extra fields safe to show to the caller (field names, limits, retry hints). */
  readonly details: Readonly<Record<string, string>>;
  /** See DomainErrorOptions.expose; an InternalError's message is never shown. */
  readonly exposed: boolean;

  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.reason = options.reason;
    this.details = Object.freeze({ ...(options.details ?? {}) });
    this.exposed = options.expose === true;
  }
}

export class InvalidArgumentError extends DomainError {
  readonly kind = 'invalid_argument';
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
}

/** A unique value is already taken (duplicate sign-up, duplicate key). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** Missing, invalid or expired credentials (face A turns this into code 506). */
export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
}

export class PermissionDeniedError extends DomainError {
  readonly kind = 'permission_denied';
}

/** A rate limit or quota was hit; `retryAfterSeconds` tells the caller when to come back. */
export class ResourceExhaustedError extends DomainError {
  readonly kind = 'resource_exhausted';

  get retryAfterSeconds(): number | undefined {
    const value = this.details['retryAfterSeconds'];
    return value === undefined ? undefined : Number(value);
  }
}

export class FailedPreconditionError extends DomainError {
  readonly kind = 'failed_precondition';
}

/** A dependency cannot be reached right now; retrying later may succeed. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
}

export class DeadlineExceededError extends DomainError {
  readonly kind = 'deadline_exceeded';
}

/** An unexpected failure; its message is for logs, callers only see a generic text. */
export class InternalError extends DomainError {
  readonly kind = 'internal';
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** Errors worth retrying: the same call may succeed once the dependency is back. */
export function isTransientError(error: unknown): boolean {
  return error instanceof UnavailableError || error instanceof DeadlineExceededError;
}
