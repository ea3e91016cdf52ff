import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyFor } from './head.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Documents change with a deployment only: five minutes in caches. */
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300';

/**
 * An edge's OpenAPI document (the contract kept in the repo, converted to JSON once at start),
 * served as bytes made once: GET and HEAD of its path, no key, no session, cacheable.
 */
export class OpenApiDocument {
  readonly body: Buffer;
  private readonly headers: string[];

  constructor(
    readonly path: string,
    json: string,
  ) {
    this.body = Buffer.from(json, 'utf8');
    this.headers = [
      'Content-Type',
      JSON_CONTENT_TYPE,
      'Cache-Control',
      OPENAPI_CACHE_CONTROL,
      'Content-Length',
      String(this.body.length),
    ];
  }

  /** `method` as routeMethod gives it (HEAD is GET). */
  matches(method: string, path: string): boolean {
    return method === 'GET' && path === this.path;
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, this.headers);
    response.end(bodyFor(request, this.body));
  }
}
