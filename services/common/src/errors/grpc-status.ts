import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import {
  ConflictError,
  DeadlineExceededError,
  type DomainError,
  FailedPreconditionError,
  InternalError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
  isDomainError,
  type DomainErrorKind,
} from './domain-errors.js';

const GRPC_CODE_BY_KIND: Record<DomainErrorKind, GrpcStatus> = {
  invalid_argument: GrpcStatus.INVALID_ARGUMENT,
  not_found: GrpcStatus.NOT_FOUND,
  conflict: GrpcStatus.ALREADY_EXISTS,
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  permission_denied: GrpcStatus.PERMISSION_DENIED,
  resource_exhausted: GrpcStatus.RESOURCE_EXHAUSTED,
  failed_precondition: GrpcStatus.FAILED_PRECONDITION,
  unavailable: GrpcStatus.UNAVAILABLE,
  deadline_exceeded: GrpcStatus.DEADLINE_EXCEEDED,
  internal: GrpcStatus.INTERNAL,
};

type DomainErrorClass = new (message: string, options?: { reason?: string; details?: Record<string, string> }) => DomainError;

const ERROR_CLASS_BY_CODE: Partial<Record<GrpcStatus, DomainErrorClass>> = {
  [GrpcStatus.INVALID_ARGUMENT]: InvalidArgumentError,
  [GrpcStatus.OUT_OF_RANGE]: InvalidArgumentError,
  [GrpcStatus.NOT_FOUND]: NotFoundError,
  [GrpcStatus.ALREADY_EXISTS]: ConflictError,
  [GrpcStatus.UNAUTHENTICATED]: UnauthenticatedError,
  [GrpcStatus.PERMISSION_DENIED]: PermissionDeniedError,
  [GrpcStatus.RESOURCE_EXHAUSTED]: ResourceExhaustedError,
  [GrpcStatus.FAILED_PRECONDITION]: FailedPreconditionError,
  [GrpcStatus.UNAVAILABLE]: UnavailableError,
  [GrpcStatus.DEADLINE_EXCEEDED]: DeadlineExceededError,
  [GrpcStatus.CANCELLED]: UnavailableError,
};

// Reason and details travel as trailing metadata so the client can rebuild the same error.
const REASON_KEY = 'x-error-reason';
const DETAILS_KEY = 'x-error-details';

/** Server side: a thrown value becomes a gRPC status; internal errors get a generic message. */
export function toGrpcStatus(error: unknown): Partial<StatusObject> {
  const metadata = new Metadata();
  if (!isDomainError(error) || error.kind === 'internal') {
    return { code: GrpcStatus.INTERNAL, details: 'internal error', metadata };
  }
  if (error.reason !== undefined) metadata.set(REASON_KEY, error.reason);
  if (Object.keys(error.details).length > 0) metadata.set(DETAILS_KEY, JSON.stringify(error.details));
  return { code: GRPC_CODE_BY_KIND[error.kind], details: error.message, metadata };
}

/** A grpc-js call failure (a status with metadata), as a client receives it. */
export function isGrpcStatusError(error: unknown): error is ServiceError {
  return typeof error === 'object' && error !== null && 'code' in error && 'metadata' in error;
}

/** Client side: a failed call becomes the DomainError the server threw. */
export function fromGrpcError(error: unknown): DomainError {
  if (!isGrpcStatusError(error)) {
    return new InternalError('unexpected gRPC client failure', { cause: error });
  }
  const ErrorClass = ERROR_CLASS_BY_CODE[error.code] ?? InternalError;
  const [reason] = error.metadata.get(REASON_KEY);
  const [details] = error.metadata.get(DETAILS_KEY);
  return new ErrorClass(error.details || error.message, {
    ...(reason === undefined ? {} : { reason: String(reason) }),
    details: parseDetails(details),
  });
}

function parseDetails(raw: unknown): Record<string, string> {
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
  } catch {
    return {};
  }
}
