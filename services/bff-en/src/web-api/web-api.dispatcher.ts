import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, type ClientAddressResolver, type Clock, type Logger } from '@ipdata/common';
import { JSON_CONTENT_TYPE, OpenApiDocument, REQUEST_ID_HEADER, failEdge, routeMethod } from '@ipdata/common/http-edge';
import { BadPathEncodingError, RouteTable } from '../routing/route-table.js';
import { CSRF_COOKIE, SESSION_COOKIE, cookiesOf, csrfProblem } from './session-cookie.js';
import { WEB_MSG, WebApiError, badRequest, sessionInvalid, webFailureOf, type WebEnvelope } from './web-envelope.js';
import type { WebContext, WebRoute } from './web-route.js';

/** Token → account (auth's ResolveSession); rejects with UnauthenticatedError when it ended. */
export interface WebSessions {
  resolve(token: string): Promise<{ accountId: string }>;
}

export interface WebApiDispatcherDeps {
  routes: readonly WebRoute[];
  sessions: WebSessions;
  clientAddress: ClientAddressResolver;
  /** Origins a state-changing request may come from besides the one it was sent to (SITE_ORIGIN). */
  allowedOrigins: readonly string[];
  /** The web API's OpenAPI document, served at /api/openapi.json. */
  openApiJson: string;
  clock: Clock;
  logger: Logger;
  /** JSON body limit (16 KiB: the largest form is the contact form). */
  bodyLimitBytes?: number;
}

const JSON_HEADERS = { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' };
const OPENAPI_PATH = '/api/openapi.json';
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/**
 * The web app's API (`/api/...`) on bff-en's server, after the public API's dispatcher: JSON in,
 * `{code, msg, data}` out, sessions from the `token` cookie, CSRF double-submit on every method
 * that changes something. Not on the public API's hot path, but built the same way (a route table,
 * no middleware chain).
 */
export class WebApiDispatcher {
  private readonly table: RouteTable<WebRoute>;
  private readonly paramNames: ReadonlyMap<WebRoute, string[]>;
  private readonly allowedOrigins: ReadonlySet<string>;
  private readonly document: OpenApiDocument;

  constructor(private readonly deps: WebApiDispatcherDeps) {
    this.table = new RouteTable(deps.routes);
    this.document = new OpenApiDocument(OPENAPI_PATH, deps.openApiJson);
    this.paramNames = new Map(deps.routes.map((route) => [route, [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)]));
    this.allowedOrigins = new Set(deps.allowedOrigins.map((origin) => new URL(origin).origin));
  }

  /** The routes as the OpenAPI document names them (the contract test compares both). */
  operations(): { method: string; path: string; name: string }[] {
    return this.deps.routes.map((route) => ({ method: route.method.toLowerCase(), path: route.path, name: route.name }));
  }

  /** For HttpServer's firstHandler: undefined when the path is not the web API's. */
  readonly handle = (request: IncomingMessage, response: ServerResponse): Promise<void> | undefined => {
    const url = request.url ?? '/';
    if (!url.startsWith('/api/')) return undefined;
    return this.dispatch(request, response, url);
  };

  private async dispatch(request: IncomingMessage, response: ServerResponse, url: string): Promise<void> {
    const requestId = randomUUID();
    response.setHeader(REQUEST_ID_HEADER, requestId);
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const method = routeMethod(request);
    let route: WebRoute | undefined;
    try {
      if (this.document.matches(method, path)) {
        this.document.serve(request, response);
        return;
      }
      const found = this.match(method, path);
      route = found.route;
      const cookies = cookiesOf(request);
      if (route.method !== 'GET') {
        const problem = csrfProblem(request, cookies, this.allowedOrigins);
        if (problem !== undefined) throw new WebApiError(403, WEB_MSG.csrf, { reason: `csrf_${problem}` });
      }
      const token = cookies.get(SESSION_COOKIE) || undefined;
      const context: WebContext = {
        requestId,
        clientIp: this.deps.clientAddress.clientIp(request),
        userAgent: request.headers['user-agent'],
        token,
        csrfToken: cookies.get(CSRF_COOKIE) || undefined,
        accountId: undefined,
        optionalAccount: () => this.login(token).catch(() => ''),
        now: this.deps.clock.now(),
        startedAt: performance.now(),
      };
      if (route.login) context.accountId = await this.login(token);
      const raw = await this.rawInput(request, route, found.params, queryAt < 0 ? '' : url.slice(queryAt + 1));
      const parsed = route.input.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw badRequest(issue?.message ?? 'Invalid input', issue?.path.map(String).join('.') || undefined);
      }
      const answer = await route.handle(context, parsed.data);
      if (answer.cookies !== undefined) response.setHeader('set-cookie', answer.cookies);
      send(response, answer.status ?? 200, { code: 200, msg: answer.msg ?? WEB_MSG.ok, data: answer.data ?? null });
    } catch (error) {
      this.fail(request, response, route, requestId, error);
    }
  }

  private match(method: string, path: string): { route: WebRoute; params: string[] } {
    let found;
    try {
      found = this.table.match(method, path);
    } catch (error) {
      if (error instanceof BadPathEncodingError) throw badRequest('The address is not valid', undefined, 'invalid_path');
      throw error;
    }
    if (found.kind === 'route') return found;
    if (found.kind === 'method') {
      throw new WebApiError(405, `Use ${found.allowed.join(' or ')}`, {
        reason: 'method_not_allowed',
        headers: { allow: found.allowed.join(', ') },
      });
    }
    throw new WebApiError(404, WEB_MSG.notFound, { reason: 'not_found' });
  }

  private async login(token: string | undefined): Promise<string> {
    // Tokens are 43 characters (auth.proto): anything far off is not worth a gRPC call.
    if (token === undefined || token.length > 200) throw sessionInvalid();
    return (await this.deps.sessions.resolve(token)).accountId;
  }

  private async rawInput(
    request: IncomingMessage,
    route: WebRoute,
    params: string[],
    query: string,
  ): Promise<Record<string, unknown>> {
    const input: Record<string, unknown> = {};
    if (BODY_METHODS.has(route.method)) {
      const type = request.headers['content-type'] ?? '';
      const declared = Number(request.headers['content-length'] ?? '0');
      const chunked = request.headers['transfer-encoding'] !== undefined;
      if (declared > 0 || chunked) {
        if (!type.toLowerCase().startsWith('application/json')) {
          throw new WebApiError(415, 'Send the form as JSON (Content-Type: application/json)', {
            reason: 'unsupported_media_type',
          });
        }
        const body = await readJson(request, this.deps.bodyLimitBytes ?? 16 * 1024);
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw badRequest('The request body must be a JSON object');
        Object.assign(input, body);
      }
    } else {
      for (const [name, value] of new URLSearchParams(query)) input[name] = value;
    }
    const names = this.paramNames.get(route) ?? [];
    names.forEach((name, index) => (input[name] = params[index]));
    return input;
  }

  private fail(
    request: IncomingMessage,
    response: ServerResponse,
    route: WebRoute | undefined,
    requestId: string,
    error: unknown,
  ): void {
    const failure = webFailureOf(error);
    const fields = {
      route: route?.name,
      requestId,
      status: failure.status,
      reason: failure.envelope.reason,
      method: request.method,
    };
    if (!failEdge(response, error, failure.fault, { logger: this.deps.logger, fields, what: 'web API call' })) return;
    for (const [name, value] of Object.entries(failure.headers)) response.setHeader(name, value);
    send(response, failure.status, failure.envelope);
  }
}

function send(response: ServerResponse, status: number, envelope: WebEnvelope): void {
  response.writeHead(status, JSON_HEADERS);
  response.end(JSON.stringify(envelope));
}
