import type { ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo } from 'node:net';
import { Client, Metadata, Server, ServerCredentials, credentials, status, type ServiceError } from '@grpc/grpc-js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchQueueFullError } from '../batching/turn-batcher.js';
import {
  DeadlineExceededError,
  InternalError,
  NotFoundError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
} from '../errors/domain-errors.js';
import { fromGrpcError } from '../errors/grpc-status.js';
import { toHttpError } from '../errors/http-status.js';
import { BodyTooLargeError } from '../http/http-body.js';
import { edgeErrorOf, failEdge } from './edge-error.js';

const METHOD = '/ipdata.auth.v1.Auth/ResolveApiKey';
const identity = (value: Buffer) => value;

/**
 * Real grpc-js failures, as a BFF's client meets them: a closed port (UNAVAILABLE, ECONNREFUSED
 * and the address in the text), a server that never answers (DEADLINE_EXCEEDED with
 * `remote_addr=`), and a server refusing our identity as the access policy does (`caller_*`).
 */
let server: Server;
let serverAddress = '';
let closedAddress = '';

beforeAll(async () => {
  server = new Server();
  server.register(`${METHOD}`, () => undefined, identity, identity, 'unary');
  server.register(
    '/ipdata.auth.v1.Auth/GetUser',
    (_call: unknown, callback: (error: Partial<ServiceError>) => void) => {
      const trailers = new Metadata();
      trailers.set('x-error-reason', 'caller_not_allowed');
      callback({ code: status.PERMISSION_DENIED, details: `caller "bff-en" may not call ${METHOD}`, metadata: trailers });
    },
    identity,
    identity,
    'unary',
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  serverAddress = `127.0.0.1:${port}`;
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedAddress = `127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(() => new Promise<void>((resolve) => server.tryShutdown(() => resolve())));

async function grpcFailure(address: string, method: string, deadlineMs: number): Promise<ServiceError> {
  const client = new Client(address, credentials.createInsecure());
  try {
    return await new Promise<ServiceError>((resolve, reject) => {
      client.makeUnaryRequest(
        method,
        identity,
        identity,
        Buffer.alloc(0),
        new Metadata(),
        { deadline: Date.now() + deadlineMs },
        (error) => (error ? resolve(error) : reject(new Error('the call succeeded'))),
      );
    });
  } finally {
    client.close();
  }
}

async function refusedConnection(address: string): Promise<Error> {
  const [host, port] = address.split(':');
  return new Promise<Error>((resolve) => connect(Number(port), host).on('error', resolve));
}

/** Nothing of the transport in what a caller may see: no address, no port, no gRPC method. */
function expectNoInternals(shown: unknown): void {
  const text = JSON.stringify(shown);
  for (const leak of ['127.0.0.1', 'remote_addr', 'ECONNREFUSED', 'ipdata.auth', 'Deadline exceeded', 'No connection']) {
    expect(text, leak).not.toContain(leak);
  }
}

describe('edgeErrorOf: transport failures are our fault, said without their text', () => {
  it('gRPC UNAVAILABLE (connection refused): 503, raw or through fromGrpcError', async () => {
    const failure = await grpcFailure(closedAddress, METHOD, 2_000);
    expect(failure.code).toBe(status.UNAVAILABLE);
    expect(failure.details).toContain('127.0.0.1');
    for (const thrown of [failure, fromGrpcError(failure)]) {
      const edge = edgeErrorOf(thrown);
      expect(edge).toMatchObject({ status: 503, kind: 'unavailable', message: undefined, fault: true });
      expectNoInternals(edge);
      expect(toHttpError(thrown)).toEqual({ status: 503, error: 'unavailable', message: 'service unavailable' });
    }
  });

  it('gRPC DEADLINE_EXCEEDED (remote_addr in the text): 504', async () => {
    const failure = await grpcFailure(serverAddress, METHOD, 300);
    expect(failure.code).toBe(status.DEADLINE_EXCEEDED);
    for (const thrown of [failure, fromGrpcError(failure)]) {
      const edge = edgeErrorOf(thrown);
      expect(edge).toMatchObject({ status: 504, kind: 'deadline_exceeded', message: undefined, fault: true });
      expectNoInternals(edge);
      expectNoInternals(toHttpError(thrown));
    }
  });

  it('our identity refused by the access policy (caller_*): 500 internal, the method not named', async () => {
    const failure = await grpcFailure(serverAddress, '/ipdata.auth.v1.Auth/GetUser', 2_000);
    const rebuilt = fromGrpcError(failure);
    expect(rebuilt).toMatchObject({ kind: 'permission_denied', reason: 'caller_not_allowed' });
    expect(rebuilt.message).toContain(METHOD);
    for (const thrown of [failure, rebuilt]) {
      expect(edgeErrorOf(thrown)).toMatchObject({
        status: 500,
        kind: 'internal',
        reason: undefined,
        message: undefined,
        fault: true,
      });
      expect(toHttpError(thrown)).toEqual({ status: 500, error: 'internal', message: 'internal error' });
    }
    // A certificate without a caller name: not the visitor's session, ours.
    const unknownCaller = new UnauthenticatedError('the client certificate names no caller (Subject CN)', {
      reason: 'caller_unknown',
    });
    expect(edgeErrorOf(unknownCaller)).toMatchObject({ status: 500, kind: 'internal', message: undefined });
  });

  it('a refused socket (ECONNREFUSED from Redis, a peer): 503', async () => {
    const refused = await refusedConnection(closedAddress);
    expect((refused as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    const edge = edgeErrorOf(refused);
    expect(edge).toMatchObject({ status: 503, kind: 'unavailable', message: undefined, fault: true });
    expectNoInternals(edge);
  });

  it('a DomainError of kind unavailable keeps its text in the log unless domain code exposed it', () => {
    expect(edgeErrorOf(new UnavailableError('billing: connect ECONNREFUSED 10.0.0.7:50053'))).toMatchObject({
      status: 503,
      message: undefined,
    });
    expect(edgeErrorOf(new DeadlineExceededError('the DNS servers did not answer in time', { expose: true }))).toMatchObject({
      status: 504,
      message: 'the DNS servers did not answer in time',
      fault: true,
    });
    // Never an internal error's, exposed or not.
    expect(edgeErrorOf(new InternalError('stack details', { expose: true }))).toMatchObject({ status: 500, message: undefined });
  });
});

describe('edgeErrorOf: everything else', () => {
  it("shows the caller's own mistakes with reason, details and a retry hint", () => {
    expect(edgeErrorOf(new NotFoundError('no such key', { reason: 'key_not_found' }))).toEqual({
      status: 404,
      kind: 'not_found',
      reason: 'key_not_found',
      message: 'no such key',
      details: {},
      fault: false,
      retryAfterSeconds: undefined,
      closeConnection: false,
    });
    expect(edgeErrorOf(new ResourceExhaustedError('slow down', { details: { retryAfterSeconds: '7' } }))).toMatchObject({
      status: 429,
      retryAfterSeconds: '7',
      fault: false,
    });
  });

  it('answers a body over the limit 413 and closes the connection; a full queue 503 overloaded', () => {
    expect(edgeErrorOf(new BodyTooLargeError(16_384))).toMatchObject({
      status: 413,
      reason: 'body_too_large',
      details: { limitBytes: '16384' },
      fault: false,
      closeConnection: true,
    });
    expect(edgeErrorOf(new BatchQueueFullError(20_000))).toMatchObject({
      status: 503,
      reason: 'overloaded',
      message: undefined,
      retryAfterSeconds: '1',
      fault: true,
    });
  });

  it('answers anything that is not a DomainError 500 without a word of it', () => {
    for (const thrown of [new TypeError('Cannot read x of undefined at /srv/app.js:12'), 'a string', undefined, { code: 42 }]) {
      const edge = edgeErrorOf(thrown);
      expect(edge).toMatchObject({ status: 500, kind: 'internal', message: undefined, fault: true });
      expect(JSON.stringify(edge)).not.toMatch(/srv|string|42/);
    }
  });
});

describe('failEdge', () => {
  function response(headersSent: boolean) {
    const calls: string[] = [];
    return { calls, response: { headersSent, destroy: () => calls.push('destroy') } as unknown as ServerResponse };
  }

  function logger() {
    const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => void line });
    const capture = (level: string) => (fields: Record<string, unknown>, message: string) =>
      lines.push({ level, fields, message });
    return { lines, logger: Object.assign(log, { error: capture('error'), debug: capture('debug') }) };
  }

  it('logs a fault with the error, a refusal at debug without it, and lets the face answer', () => {
    const { lines, logger: log } = logger();
    const fault = response(false);
    const error = new Error('secret');
    expect(failEdge(fault.response, error, true, { logger: log, fields: { requestId: 'r-1' }, what: 'web API call' })).toBe(true);
    expect(failEdge(fault.response, error, false, { logger: log, fields: { requestId: 'r-2' }, what: 'web API call' })).toBe(
      true,
    );
    expect(fault.calls).toEqual([]);
    expect(lines).toEqual([
      { level: 'error', fields: { requestId: 'r-1', err: error }, message: 'web API call failed' },
      { level: 'debug', fields: { requestId: 'r-2' }, message: 'web API call refused' },
    ]);
  });

  it('cuts an answer already under way: the face writes no second head', () => {
    const { logger: log } = logger();
    const started = response(true);
    expect(failEdge(started.response, new Error('late'), true, { logger: log, fields: {}, what: 'x' })).toBe(false);
    expect(started.calls).toEqual(['destroy']);
  });
});
