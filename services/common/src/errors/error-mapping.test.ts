import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InternalError,
  InvalidArgumentError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
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

  it("keeps the text of our side's failures and of refusals of our own identity out of HTTP bodies", () => {
    expect(toHttpError(new UnavailableError('14 UNAVAILABLE: connect ECONNREFUSED 127.0.0.1:50052', { reason: 'x' }))).toEqual({
      status: 503,
      error: 'unavailable',
      message: 'service unavailable',
      reason: 'x',
    });
    // Domain code that words a 503 for the caller says so.
    expect(toHttpError(new UnavailableError('no dataset is loaded yet', { expose: true })).message).toBe(
      'no dataset is loaded yet',
    );
    const refused = new PermissionDeniedError('caller "bff-en" may not call /ipdata.auth.v1.Auth/ResolveApiKey', {
      reason: 'caller_not_allowed',
    });
    expect(toHttpError(refused)).toEqual({ status: 500, error: 'internal', message: 'internal error' });
    // The flag is not sent over gRPC: a rebuilt error is never exposed this way.
    const rebuilt = fromGrpcError(asServiceError(toGrpcStatus(new UnavailableError('internal detail', { expose: true }))));
    expect(toHttpError(rebuilt).message).toBe('service unavailable');
  });
});
