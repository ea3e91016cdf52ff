import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CorsOptions {
  /** `*` for an API called from any site with a key (never with cookies). */
  allowOrigin: string;
  /** Methods a preflight allows; OPTIONS is added. */
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  /** Response headers a browser script may read (X-Request-Id, rate limits, ...). */
  exposeHeaders: readonly string[];
  /** How long a browser may cache a preflight answer. */
  maxAgeSeconds: number;
}

/**
 * An edge's CORS answers, computed once: the preflight (204 with the Access-Control-Allow-*
 * headers, for OPTIONS on any of the edge's paths, before routing or keys) and the two headers
 * every other answer carries, read as fields so a hot path writes them into its header list
 * without building anything. Edges that grant no cross-site access (bff-en's web API, face A)
 * have no CorsPolicy: their OPTIONS is a 405 like any unrouted method.
 */
export class CorsPolicy {
  readonly allowOrigin: string;
  /** The value of Access-Control-Expose-Headers. */
  readonly exposeHeaders: string;
  private readonly preflight: string[];

  constructor(options: CorsOptions) {
    this.allowOrigin = options.allowOrigin;
    this.exposeHeaders = options.exposeHeaders.join(', ');
    this.preflight = [
      'Access-Control-Allow-Origin',
      options.allowOrigin,
      'Access-Control-Allow-Methods',
      [...options.allowMethods.filter((method) => method !== 'OPTIONS'), 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers',
      options.allowHeaders.join(', '),
      'Access-Control-Max-Age',
      String(options.maxAgeSeconds),
    ];
  }

  isPreflight(request: IncomingMessage): boolean {
    return request.method === 'OPTIONS';
  }

  answerPreflight(response: ServerResponse): void {
    response.writeHead(204, this.preflight);
    response.end();
  }

  /** `Allow` of a 405: the path's methods and OPTIONS, which the preflight answers everywhere. */
  allow(methods: readonly string[]): string {
    return [...methods, 'OPTIONS'].join(', ');
  }
}
