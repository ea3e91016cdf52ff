import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { toHttpError, type HttpErrorBody } from '../errors/http-status.js';
import { failEdge } from '../http-edge/edge-error.js';
import type { Component, Lifecycle } from '../lifecycle/lifecycle.js';
import { httpRouteMetrics, taggedHttpRoute, UNMATCHED_ROUTE, type HttpRouteMetrics } from '../metrics/http-metrics.js';
import { serveMetrics, setMetricsServiceName } from '../metrics/metrics-registry.js';
import { startRuntimeMetrics } from '../metrics/runtime-metrics.js';
import { BodyTooLargeError, DEFAULT_BODY_LIMIT_BYTES, sendJson, setBodyLimit } from './http-body.js';

/** Captures of a RegExp path: named groups by name, every group by position ('1', '2', ...). */
export type RouteParams = Readonly<Record<string, string>>;

/**
 * One route module entry: a plain object, so route files need no framework. A string path
 * matches exactly; a RegExp is tested against the path without the query string (anchor it).
 */
export interface HttpRoute {
  method: string | readonly string[];
  path: string | RegExp;
  /** The route template in metrics (`http.route`) for a RegExp path, e.g. '/webhooks/{provider}'; default: the RegExp's source. */
  template?: string;
  handle(request: IncomingMessage, response: ServerResponse, params: RouteParams): Promise<void> | void;
}

export interface HttpServerConfig {
  /** Interface to bind: '127.0.0.1' locally, '0.0.0.0' in a pod. */
  host: string;
  /** 0 = any free port (tests); see `boundPort`. */
  port: number;
  /** Default limit of `readBody`/`readJson` in this server's routes (64 KiB). */
  bodyLimitBytes?: number;
  routes?: readonly HttpRoute[];
  /**
   * Tried before the route list, for hot paths that route themselves (bff-en's public API):
   * returns undefined when the request is not its own, else a promise settled when it answered.
   * It renders its own errors; what it throws still gets the server's JSON 500.
   */
  firstHandler?: (request: IncomingMessage, response: ServerResponse) => Promise<void> | undefined;
  /** Component name (logs, readiness checks); default 'http-server'. */
  name?: string;
  /**
   * Serve `/metrics` (Prometheus text, every metric of the process) and start the runtime
   * metrics. Only on a listener the ingress does not route: a service's health port, a BFF's
   * ops port (common README, "Metrics"). Off by default.
   */
  metrics?: boolean;
  /** How long shutdown waits for requests in flight before closing their connections (10 s). */
  drainTimeoutMs?: number;
}

/**
 * The one HTTP server component: `/healthz` (200 while the process runs) and `/readyz` (200 only
 * while the lifecycle runs and every dependency answers, 503 with the checks otherwise) built in,
 * route modules as plain objects, thrown DomainErrors mapped by `toHttpError` to a JSON body
 * (anything else: 500 `internal error`, details only in the log; the edge kit's `failEdge` logs
 * and cuts an answer already under way), a body limit (413), JSON 404
 * and 405, and a graceful close: stop accepting, close idle keep-alive connections, let requests
 * in flight finish, then cut what is left after `drainTimeoutMs`.
 */
export class HttpServer implements Component {
  readonly name: string;
  private server: Server | undefined;
  private readonly routes: readonly HttpRoute[];
  /** Per route (same index), its metric series per method. */
  private readonly routeMetrics: ReadonlyArray<ReadonlyMap<string, HttpRouteMetrics>>;
  private inFlight = 0;
  private drained: (() => void) | undefined;
  private closing = false;

  private constructor(
    private readonly config: HttpServerConfig,
    private readonly lifecycle: Lifecycle,
    private readonly logger: Logger,
  ) {
    this.name = config.name ?? 'http-server';
    this.routes = [...healthRoutes(lifecycle), ...(config.metrics === true ? [metricsRoute] : []), ...(config.routes ?? [])];
    this.routeMetrics = this.routes.map((route) => {
      const template = typeof route.path === 'string' ? route.path : (route.template ?? route.path.source);
      const methods = typeof route.method === 'string' ? [route.method] : route.method;
      return new Map(methods.map((method) => [method, httpRouteMetrics(method, template)]));
    });
  }

  static fromConfig(config: HttpServerConfig, lifecycle: Lifecycle, logger: Logger): HttpServer {
    return new HttpServer(config, lifecycle, logger);
  }

  /** The bound port (useful when configured with port 0). */
  get boundPort(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.port : this.config.port;
  }

  /** The interface actually listened on, for checks that nothing listens on all of them. */
  get boundHost(): string {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.address : this.config.host;
  }

  async start(): Promise<void> {
    if (this.config.metrics === true) {
      setMetricsServiceName(serviceBinding(this.logger));
      startRuntimeMetrics();
    }
    const server = createServer((request, response) => void this.dispatch(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(new Error(`${this.name}: cannot listen on ${this.config.host}:${this.config.port}: ${error.message}`)),
      );
      server.listen(this.config.port, this.config.host, () => resolve());
    });
    this.server = server;
    this.logger.info({ host: this.boundHost, port: this.boundPort }, `${this.name} listening`);
  }

  async shutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (this.inFlight > 0) {
      const drained = new Promise<void>((resolve) => (this.drained = resolve));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.config.drainTimeoutMs ?? 10_000);
      });
      const late = await Promise.race([drained.then(() => false), timedOut]);
      clearTimeout(timer);
      if (late)
        this.logger.warn({ inFlight: this.inFlight }, `${this.name}: requests still running at the drain timeout, closing them`);
    }
    server.closeAllConnections();
    await closed;
  }

  private async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    let metrics: HttpRouteMetrics | undefined;
    this.inFlight++;
    // While draining, answers ask the client not to reuse the connection.
    if (this.closing) response.setHeader('connection', 'close');
    setBodyLimit(request, this.config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
    try {
      const handled = this.config.firstHandler?.(request, response);
      if (handled !== undefined) {
        await handled;
        metrics = taggedHttpRoute(response);
      } else metrics = await this.route(request, response);
    } catch (error) {
      this.fail(request, response, error);
    } finally {
      (metrics ?? httpRouteMetrics(request.method ?? 'GET', UNMATCHED_ROUTE)).record(
        response.statusCode,
        (performance.now() - startedAt) / 1000,
      );
      this.inFlight--;
      if (this.inFlight === 0) this.drained?.();
    }
  }

  /** Answers the request; returns the metric series of the route that answered (undefined: none). */
  private async route(request: IncomingMessage, response: ServerResponse): Promise<HttpRouteMetrics | undefined> {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const method = request.method ?? 'GET';
    const allowed = new Set<string>();
    for (let index = 0; index < this.routes.length; index++) {
      const route = this.routes[index] as HttpRoute;
      const params = matchPath(route.path, path);
      if (params === undefined) continue;
      const methods = typeof route.method === 'string' ? [route.method] : route.method;
      if (methods.includes(method)) {
        const metrics = this.routeMetrics[index]?.get(method);
        await route.handle(request, response, params);
        return metrics;
      }
      for (const candidate of methods) allowed.add(candidate);
    }
    if (allowed.size > 0) {
      response.setHeader('allow', [...allowed].join(', '));
      sendJson(response, 405, { status: 405, error: 'method_not_allowed', message: `method ${method} not allowed` });
      return undefined;
    }
    sendJson(response, 404, { status: 404, error: 'not_found', message: 'not found' });
    return undefined;
  }

  private fail(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    const tooLarge = error instanceof BodyTooLargeError;
    const body: HttpErrorBody = tooLarge
      ? { status: 413, error: 'payload_too_large', message: error.message, reason: 'body_too_large' }
      : toHttpError(error);
    const log = { logger: this.logger, fields: { method: request.method, status: body.status }, what: `${this.name}: request` };
    if (!failEdge(response, error, body.status >= 500, log)) return;
    // The rest of the body is not read; the connection cannot be reused.
    if (tooLarge) response.setHeader('connection', 'close');
    sendJson(response, body.status, body);
  }
}

function matchPath(pattern: string | RegExp, path: string): RouteParams | undefined {
  if (typeof pattern === 'string') return pattern === path ? {} : undefined;
  // A /g or /y pattern keeps state between exec calls; every request starts from the beginning.
  pattern.lastIndex = 0;
  const match = pattern.exec(path);
  if (match === null) return undefined;
  const params: Record<string, string> = {};
  match.slice(1).forEach((value, index) => {
    if (value !== undefined) params[String(index + 1)] = value;
  });
  for (const [name, value] of Object.entries(match.groups ?? {})) if (value !== undefined) params[name] = value;
  return params;
}

const metricsRoute: HttpRoute = { method: ['GET', 'HEAD'], path: '/metrics', handle: serveMetrics };

/** The `service` binding of a service's logger (createLogger), the metrics resource's service.name. */
function serviceBinding(logger: Logger): string | undefined {
  const service = (logger.bindings() as Record<string, unknown>)['service'];
  return typeof service === 'string' ? service : undefined;
}

function healthRoutes(lifecycle: Lifecycle): HttpRoute[] {
  return [
    { method: ['GET', 'HEAD'], path: '/healthz', handle: (_request, response) => sendJson(response, 200, { status: 'ok' }) },
    {
      method: ['GET', 'HEAD'],
      path: '/readyz',
      handle: async (_request, response) => {
        const report = await lifecycle.readiness();
        sendJson(response, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'not ready', checks: report.checks });
      },
    },
  ];
}
