import type { ServerResponse } from 'node:http';
import type { Attributes } from '@opentelemetry/api';
import { durationHistogram } from './metrics-registry.js';

/** Semantic conventions' advice (5 ms … 10 s) with 1 and 2.5 ms in front: the public API answers in about a millisecond. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const httpServerDuration = durationHistogram({
  name: 'http.server.request.duration',
  unit: 's',
  description: 'Duration of HTTP server requests, per method, route template and status code.',
  boundaries: HTTP_DURATION_BUCKETS,
});

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label of requests no route matched (404, 405) and of first-handler answers that named none. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The series of one method and route template (never a raw path: labels stay bounded), one
 * per status code seen. Made once per route at start-up; the attributes of a status code are
 * made once too.
 */
export class HttpRouteMetrics {
  private readonly byStatus = new Map<number, Attributes>();
  private readonly method: string;

  constructor(
    method: string,
    readonly route: string,
  ) {
    this.method = KNOWN_METHODS.has(method) ? method : '_OTHER';
  }

  record(statusCode: number, seconds: number): void {
    let attributes = this.byStatus.get(statusCode);
    if (attributes === undefined) {
      attributes = Object.freeze({
        'http.request.method': this.method,
        'http.route': this.route,
        'http.response.status_code': statusCode,
      });
      this.byStatus.set(statusCode, attributes);
    }
    httpServerDuration.record(seconds, attributes);
  }
}

const byMethodAndRoute = new Map<string, Map<string, HttpRouteMetrics>>();

/** The shared series of a method and a route template (a route module may be mounted twice). */
export function httpRouteMetrics(method: string, route: string): HttpRouteMetrics {
  const normalized = KNOWN_METHODS.has(method) ? method : '_OTHER';
  let routes = byMethodAndRoute.get(normalized);
  if (routes === undefined) byMethodAndRoute.set(normalized, (routes = new Map<string, HttpRouteMetrics>()));
  let metrics = routes.get(route);
  if (metrics === undefined) routes.set(route, (metrics = new HttpRouteMetrics(normalized, route)));
  return metrics;
}

const ROUTE = Symbol('ipdata.httpRoute');
type TaggedResponse = ServerResponse & { [ROUTE]?: HttpRouteMetrics | undefined };

/**
 * For handlers that route themselves (HttpServer's `firstHandler`): names the route template
 * this answer is counted under. Pass a `httpRouteMetrics()` made at start-up, not per request.
 */
export function setHttpRoute(response: ServerResponse, metrics: HttpRouteMetrics): void {
  (response as TaggedResponse)[ROUTE] = metrics;
}

export function taggedHttpRoute(response: ServerResponse): HttpRouteMetrics | undefined {
  return (response as TaggedResponse)[ROUTE];
}
