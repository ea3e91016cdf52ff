import { Metadata, type CallOptions, type Client, type ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '../errors/grpc-status.js';

/** The shape of one method of a generated (ts-proto, grpc-js) service definition. */
interface MethodDefinition<Req, Res> {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestDeserialize(value: Buffer): Req;
  responseDeserialize(value: Buffer): Res;
}

type RequestOf<M> = M extends MethodDefinition<infer Req, unknown> ? Req : never;
type ResponseOf<M> = M extends MethodDefinition<unknown, infer Res> ? Res : never;
type UnaryKeys<S> = {
  [K in keyof S]: S[K] extends { requestStream: false; responseStream: false } ? K : never;
}[keyof S];

/**
 * Every unary method of a service as `(request, metadata?, options?) => Promise<response>`. The
 * request may leave fields out: proto3 defaults are filled in as a caller's generated code would.
 */
export type GrpcCaller<S> = {
  [K in UnaryKeys<S>]: (
    request?: Partial<RequestOf<S[K]>>,
    metadata?: Metadata,
    options?: Partial<CallOptions>,
  ) => Promise<ResponseOf<S[K]>>;
};

type Codecs = Record<string, unknown>;

/**
 * Turns a generated client into promise methods for tests:
 * `const auth = grpcCaller(client, AuthServiceService, { codecs: api })`, then
 * `await auth.login({ email, password })`. Failures reject with the server's DomainError
 * (`fromGrpcError`), as `callUnary` does. Without `codecs` (the generated module,
 * `import * as api`), missing top-level fields get their proto3 defaults (decoded from an empty
 * message) and nested messages must be complete; with it, `<Method>Request.fromPartial` fills
 * nested ones too.
 */
export function grpcCaller<S extends Record<string, unknown>>(
  client: Client,
  service: S,
  options: { codecs?: Codecs } = {},
): GrpcCaller<S> {
  const caller: Record<string, unknown> = {};
  for (const [key, definition] of Object.entries(service)) {
    const method = definition as MethodDefinition<unknown, unknown>;
    if (method.requestStream || method.responseStream) continue;
    const fill = requestFiller(method, options.codecs);
    const call = (client as unknown as Record<string, UnaryCall>)[key];
    if (typeof call !== 'function') throw new Error(`the client has no method ${key} (${method.path})`);
    caller[key] = (request: unknown = {}, metadata = new Metadata(), callOptions: Partial<CallOptions> = {}) =>
      new Promise((resolve, reject) => {
        call.call(client, fill(request), metadata, callOptions, (error, response) => {
          if (error) reject(fromGrpcError(error));
          else resolve(response);
        });
      });
  }
  return caller as GrpcCaller<S>;
}

type UnaryCall = (
  request: unknown,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: unknown) => void,
) => unknown;

function requestFiller(method: MethodDefinition<unknown, unknown>, codecs: Codecs | undefined): (request: unknown) => unknown {
  const name = `${method.path.slice(method.path.lastIndexOf('/') + 1)}Request`;
  const codec = codecs?.[name] as { fromPartial?: (value: unknown) => unknown } | undefined;
  if (typeof codec?.fromPartial === 'function') return (request) => codec.fromPartial!(request);
  return (request) => ({ ...(method.requestDeserialize(Buffer.alloc(0)) as object), ...(request as object) });
}
