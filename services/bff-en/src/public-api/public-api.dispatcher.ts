import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, Logger } from '@ipdata/common';
import { failEdge, newRequestId, routeMethod } from '@ipdata/common/http-edge';
import type { ResolvedApiKey } from '@ipdata/auth/client';
import { ApiCall, PUBLIC_CORS } from './api-call.js';
import { ApiError, apiErrorOf } from './api-error.js';
import { apiKeyOf } from './api-key.js';
import type { Accounting, Caller } from './accounting.js';
import type { PublicOperation, PublicRoute } from './public-route.js';
import { operationsOf } from './public-routes.js';
import { BadPathEncodingError, RouteTable } from '../routing/route-table.js';

export interface PublicApiDispatcherDeps {
  routes: readonly PublicRoute[];
  keys: { resolve(key: string): Promise<ResolvedApiKey> };
  accounting: Accounting;
  clock: Clock;
  logger: Logger;
}

/**
 * The public API's own router, in front of everything else on bff-en's HTTP server (common's
 * HttpServer `firstHandler`): it owns `/v1` and `/v1/...`, matches a short route table segment by
 * segment (no regular expressions, no middleware chain) and answers every error in the API's one
 * shape with the common headers. Everything else (the web API, the web app, health) falls through.
 */
export class PublicApiDispatcher {
  private readonly table: RouteTable<PublicRoute>;

  constructor(private readonly deps: PublicApiDispatcherDeps) {
    this.table = new RouteTable(deps.routes);
  }

  /** The operations served, as the OpenAPI document names them. */
  operations(): PublicOperation[] {
    return operationsOf(this.deps.routes);
  }

  /** For HttpServer's firstHandler: undefined when the path is not the public API's. */
  readonly handle = (request: IncomingMessage, response: ServerResponse): Promise<void> | undefined => {
    const url = request.url ?? '/';
    if (!url.startsWith('/v1/') && url !== '/v1' && !url.startsWith('/v1?')) return undefined;
    return this.dispatch(request, response, url);
  };

  private async dispatch(request: IncomingMessage, response: ServerResponse, url: string): Promise<void> {
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const call = new ApiCall(
      newRequestId(),
      request,
      response,
      path,
      queryAt < 0 ? '' : url.slice(queryAt + 1),
      performance.now(),
      this.deps.clock.now().getTime(),
    );
    let caller: Caller | undefined;
    try {
      if (PUBLIC_CORS.isPreflight(request)) {
        PUBLIC_CORS.answerPreflight(response);
        return;
      }
      const { route, params } = this.match(call);
      if (route.auth) caller = await this.caller(call);
      await route.handle(call, params, caller);
    } catch (error) {
      // Every answer carries the caller's quota: an error before the route reserved anything
      // (a bad parameter) asks for the state with a zero reservation.
      if (caller !== undefined && call.quota === undefined) {
        await this.deps.accounting.reserveDecision(call, caller, 0, false).catch(() => undefined);
      }
      this.fail(call, error);
    }
  }

  private match(call: ApiCall): { route: PublicRoute; params: string[] } {
    let found;
    try {
      found = this.table.match(routeMethod(call.request), call.path);
    } catch (error) {
      if (!(error instanceof BadPathEncodingError)) throw error;
      throw new ApiError(
        400,
        'invalid_path',
        'The path is not valid percent-encoding.',
        'Encode path segments with encodeURIComponent.',
      );
    }
    if (found.kind === 'route') return found;
    if (found.kind === 'method') {
      throw new ApiError(
        405,
        'method_not_allowed',
        `${call.request.method ?? ''} is not allowed on ${call.path}.`,
        `Use ${found.allowed.join(' or ')}.`,
        { Allow: PUBLIC_CORS.allow(found.allowed) },
      );
    }
    throw new ApiError(404, 'not_found', `There is no API route ${call.path}.`, 'See the routes in /v1/openapi.json.');
  }

  private async caller(call: ApiCall): Promise<Caller> {
    const key = await this.deps.keys.resolve(apiKeyOf(call));
    return this.deps.accounting.caller(key);
  }

  private fail(call: ApiCall, error: unknown): void {
    const apiError = apiErrorOf(error);
    const log = { logger: this.deps.logger, fields: { requestId: call.requestId, path: call.path }, what: 'public API request' };
    if (failEdge(call.response, error, apiError.status >= 500, log)) call.sendError(apiError);
  }
}
