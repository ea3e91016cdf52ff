import type { IncomingMessage, ServerResponse } from 'node:http';
import { CorsPolicy, JSON_CONTENT_TYPE, REQUEST_ID_HEADER, bodyFor } from '@ipdata/common/http-edge';
import type { ApiError } from './api-error.js';
import { appendRateLimitHeaders, noQuota, type QuotaHeaderValues } from './rate-limit-headers.js';

export const JSON_TYPE = JSON_CONTENT_TYPE;

/** Open to any site: keys, not cookies, authenticate the public API; scripts may read every header it documents. */
export const PUBLIC_CORS = new CorsPolicy({
  allowOrigin: '*',
  allowMethods: ['GET', 'POST'],
  allowHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'Accept'],
  exposeHeaders: [
    REQUEST_ID_HEADER,
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'RateLimit-Policy',
    'RateLimit',
    'Retry-After',
    'Location',
  ],
  maxAgeSeconds: 86_400,
});

/**
 * One public API request: its id (also the usage event id), timing, query and the quota state the
 * answer reports. Answers go out through `send`, which adds what every answer carries: the request
 * id, CORS, and the monthly quota headers (zeros when the caller has no valid key).
 */
export class ApiCall {
  /** Set by the quota reservation (or the key's status); undefined until then. */
  quota: QuotaHeaderValues | undefined;
  private parsedQuery: URLSearchParams | undefined;

  constructor(
    readonly requestId: string,
    readonly request: IncomingMessage,
    readonly response: ServerResponse,
    readonly path: string,
    private readonly rawQuery: string,
    readonly startedAt: number,
    readonly nowMs: number,
  ) {}

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }

  /** A query parameter, or null; cheap when the URL has no query at all (the hot path). */
  param(name: string): string | null {
    return this.rawQuery.length === 0 ? null : this.query.get(name);
  }

  send(status: number, contentType: string, body: string | Buffer, extraHeaders?: readonly string[]): void {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    this.writeHead(status, contentType, ['Content-Length', String(length), ...(extraHeaders ?? [])]);
    this.response.end(bodyFor(this.request, body));
  }

  sendJsonText(status: number, json: string, extraHeaders?: readonly string[]): void {
    this.send(status, JSON_TYPE, json, extraHeaders);
  }

  sendError(error: ApiError): void {
    const extra: string[] = [];
    for (const [name, value] of Object.entries(error.headers)) extra.push(name, value);
    this.sendJsonText(error.status, JSON.stringify(error.toJSON()), extra);
  }

  /** Headers for a streamed answer (bulk results): the same common headers, no length. */
  streamHeaders(status: number, contentType: string, extraHeaders: readonly string[] = []): void {
    this.writeHead(status, contentType, extraHeaders);
  }

  /** What every answer carries: type, request id, CORS, the quota; then the answer's own headers. */
  private writeHead(status: number, contentType: string, extraHeaders: readonly string[]): void {
    const headers = [
      'Content-Type',
      contentType,
      REQUEST_ID_HEADER,
      this.requestId,
      'Access-Control-Allow-Origin',
      PUBLIC_CORS.allowOrigin,
      'Access-Control-Expose-Headers',
      PUBLIC_CORS.exposeHeaders,
      ...extraHeaders,
    ];
    appendRateLimitHeaders(headers, this.quota ?? noQuota(this.nowMs), this.nowMs);
    this.response.writeHead(status, headers);
  }

  /** Milliseconds since the request arrived. */
  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }
}
