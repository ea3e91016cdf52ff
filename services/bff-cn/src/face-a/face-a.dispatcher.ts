import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientAddressResolver, Logger, VisitorIds } from '@ipdata/common';
import { JSON_CONTENT_TYPE, OpenApiDocument, REQUEST_ID_HEADER, failEdge, routeMethod } from '@ipdata/common/http-edge';
import { CODE, FaceAError, MSG, envelopeOfError, failure, success, type Envelope } from './envelope.js';
import type { CallContext, FaceACall } from './face-a-call.js';
import { sendFile } from './file-answer.js';
import { UnreadBodyError, readForm, type FormLimits } from './form-body.js';
import { validateInput } from './input-schema.js';
import { platOf } from './plat.js';

/** Token → account (auth's ResolveSession); rejects with UnauthenticatedError when invalid. */
export interface SessionResolver {
  resolve(token: string): Promise<{ accountId: string }>;
}

export interface FaceADispatcherDeps {
  calls: readonly FaceACall[];
  /** Non-envelope GET documents by path: the OpenAPI document's JSON at /v1/openapi.json. */
  documents: ReadonlyMap<string, string>;
  sessions: SessionResolver;
  clientAddress: ClientAddressResolver;
  visitorIds: VisitorIds;
  limits: Omit<FormLimits, 'maxFiles'>;
  logger: Logger;
}

const JSON_HEADERS = { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' };

/**
 * Face A's router in front of common's HttpServer (`firstHandler`): it owns `/v1/...` and
 * `/v2/...`, looks the path up in the call table and answers every outcome as `{code, msg, data}`.
 * A call it understood answers HTTP 200 whatever the code (the web client reads `code`); an
 * unknown path is HTTP 404 and a wrong method HTTP 405, still in the envelope.
 */
export class FaceADispatcher {
  private readonly byPath: ReadonlyMap<string, FaceACall>;
  private readonly documents: ReadonlyMap<string, OpenApiDocument>;

  constructor(private readonly deps: FaceADispatcherDeps) {
    this.documents = new Map([...deps.documents].map(([path, json]) => [path, new OpenApiDocument(path, json)]));
    const byPath = new Map<string, FaceACall>();
    for (const call of deps.calls) {
      if (byPath.has(call.path)) throw new Error(`two face A calls on ${call.path}`);
      byPath.set(call.path, call);
    }
    this.byPath = byPath;
  }

  readonly handle = (request: IncomingMessage, response: ServerResponse): Promise<void> | undefined => {
    const url = request.url ?? '/';
    if (!url.startsWith('/v1/') && !url.startsWith('/v2/')) return undefined;
    return this.dispatch(request, response, url);
  };

  private async dispatch(request: IncomingMessage, response: ServerResponse, url: string): Promise<void> {
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const method = routeMethod(request);
    const document = this.documents.get(path);
    if (document?.matches(method, path) === true) {
      document.serve(request, response);
      return;
    }
    const call = this.byPath.get(path);
    if (call === undefined) return send(response, 404, failure(CODE.notFound, '接口不存在'));
    if (!call.methods.includes(method as 'GET' | 'POST')) {
      response.setHeader('allow', call.methods.join(', '));
      return send(response, 405, failure(CODE.badInput, `请求方法不正确，请使用 ${call.methods.join(' 或 ')}`));
    }
    const context = this.context(request);
    try {
      if (call.needsLogin) context.accountId = await this.login(context.token);
      const hasFile = Object.values(call.input).some((spec) => spec.kind === 'file');
      const form = await readForm(request, queryAt < 0 ? '' : url.slice(queryAt + 1), {
        ...this.deps.limits,
        maxFieldBytes: call.maxFieldBytes ?? this.deps.limits.maxFieldBytes,
        maxFiles: hasFile ? 1 : 0,
      });
      const answer = await call.handle(context, validateInput(call.input, form));
      response.setHeader(REQUEST_ID_HEADER, context.requestId);
      if (answer.file !== undefined) sendFile(response, answer.file);
      else send(response, 200, success(answer.data, answer.msg));
    } catch (error) {
      this.fail(response, call, context, error);
    }
  }

  private context(request: IncomingMessage): CallContext {
    const clientIp = this.deps.clientAddress.clientIp(request);
    const token = request.headers['token'];
    const tokenText = (Array.isArray(token) ? token[0] : token)?.trim();
    return {
      requestId: randomUUID(),
      clientIp,
      visitorId: this.deps.visitorIds.of(clientIp, request.headers['user-agent']),
      plat: platOf(request.headers['plat']),
      token: tokenText === '' ? undefined : tokenText,
      accountId: undefined,
      startedAt: performance.now(),
    };
  }

  private async login(token: string | undefined): Promise<string> {
    // Tokens are 43 characters (auth.proto): anything far off is not worth a gRPC call.
    if (token === undefined || token.length > 200) throw new FaceAError(CODE.loginInvalid, MSG.loginInvalid);
    return (await this.deps.sessions.resolve(token)).accountId;
  }

  private fail(response: ServerResponse, call: FaceACall, context: CallContext, error: unknown): void {
    const { envelope, fault } = envelopeOfError(error);
    const fields = { call: call.name, requestId: context.requestId, code: envelope.code, answer: envelope.msg };
    if (!failEdge(response, error, fault, { logger: this.deps.logger, fields, what: 'face A call' })) return;
    // The rest of the body was not read: the connection cannot carry another request.
    if (error instanceof UnreadBodyError) response.setHeader('connection', 'close');
    // The id the log line carries: support can find the failure from the client's answer.
    response.setHeader(REQUEST_ID_HEADER, context.requestId);
    send(response, 200, envelope);
  }
}

function send(response: ServerResponse, status: number, envelope: Envelope): void {
  response.writeHead(status, JSON_HEADERS);
  response.end(JSON.stringify(envelope));
}
