import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InternalError,
  InvalidArgumentError,
  ResourceExhaustedError,
  UnauthenticatedError,
} from './domain-errors.js';
import { fromGrpcError, toGrpcStatus } from './grpc-status.js';
import { toHttpError } from './http-status.js';

/** What a grpc-js client receives for a status the server sent. */
function asServiceError(sent: ReturnType<typeof toGrpcStatus>) {
  return Object.assign(new Error(sent.details), {
    code: sent.code,
    details: sent.details ?? '',
    metadata: sent.metadata ?? new Metadata(),
  });
}

describe('error mapping', () => {
  it('round-trips a domain error through a gRPC status with its reason and details', () => {
    const original = new ResourceExhaustedError('too many SMS codes', {
      reason: 'sms_rate_limited',
      details: { retryAfterSeconds: '42' },
    });
    const sent = toGrpcStatus(original);
    expect(sent.code).toBe(status.RESOURCE_EXHAUSTED);
    const received = fromGrpcError(asServiceError(sent));
    expect(received).toBeInstanceOf(ResourceExhaustedError);
    expect(received.message).toBe('too many SMS codes');
    expect(received.reason).toBe('sms_rate_limited');
    expect((received as ResourceExhaustedError).retryAfterSeconds).toBe(42);
  });

  it('maps each kind to its gRPC code', () => {
    expect(toGrpcStatus(new InvalidArgumentError('x')).code).toBe(status.INVALID_ARGUMENT);
    expect(toGrpcStatus(new ConflictError('x')).code).toBe(status.ALREADY_EXISTS);
    expect(toGrpcStatus(new UnauthenticatedError('x')).code).toBe(status.UNAUTHENTICATED);
  });

  it('never leaks the message of an unexpected error', () => {
    const leaky = new Error('connection to mongodb://admin:secret@10.0.0.5 refused');
    expect(toGrpcStatus(leaky)).toMatchObject({ code: status.INTERNAL, details: 'internal error' });
    expect(toGrpcStatus(new InternalError('stack details'))).toMatchObject({ details: 'internal error' });
    expect(toHttpError(leaky)).toEqual({ status: 500, error: 'internal', message: 'internal error' });
  });

  it('gives HTTP statuses and bodies for domain errors', () => {
    expect(toHttpError(new ConflictError('already exists: email', { reason: 'duplicate' }))).toEqual({
      status: 409,
      error: 'conflict',
      message: 'already exists: email',
      reason: 'duplicate',
    });
    expect(toHttpError(new ResourceExhaustedError('slow down', { details: { retryAfterSeconds: '5' } })).status).toBe(429);
  });
});
