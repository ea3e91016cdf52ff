/** What a route table needs of a route: its method and its OpenAPI path template ('/v1/ip/{ip}'). */
export interface TemplatedRoute {
  method: string;
  path: string;
}

interface CompiledRoute<R> {
  route: R;
  /** Literal segments; undefined where the template has a parameter. */
  segments: ReadonlyArray<string | undefined>;
  /**
   * Per parameter segment, the literal text before the parameter: '' for '{id}', 'sample.' for
   * 'sample.{format}' (OpenAPI allows a parameter inside a segment); '' for literal segments.
   */
  prefixes: readonly string[];
}

export type RouteMatch<R> =
  | { kind: 'route'; route: R; params: string[] }
  /** The path exists with other methods (405 with `Allow`). */
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** A path segment that is not valid percent-encoding (each API answers it in its own shape). */
export class BadPathEncodingError extends Error {}

/**
 * Both of bff-en's APIs route with this: a short table matched segment by segment, no regular
 * expressions and no middleware chain (the public API's hot path pays a few string compares).
 * Parameters come URL-decoded, in template order. Earlier routes win where two templates match
 * one path (list `sample.{format}` before `{format}`).
 */
export class RouteTable<R extends TemplatedRoute> {
  private readonly compiled: CompiledRoute<R>[];

  constructor(readonly routes: readonly R[]) {
    this.compiled = routes.map((route) => {
      const templates = route.path.split('/').slice(1);
      const paramAt = (segment: string) => (segment.endsWith('}') ? segment.indexOf('{') : -1);
      return {
        route,
        segments: templates.map((segment) => (paramAt(segment) < 0 ? segment : undefined)),
        prefixes: templates.map((segment) => (paramAt(segment) < 0 ? '' : segment.slice(0, paramAt(segment)))),
      };
    });
  }

  /** `method` already upper case, HEAD given as GET; throws BadPathEncodingError. */
  match(method: string, path: string): RouteMatch<R> {
    const parts = path.split('/');
    const allowed: string[] = [];
    for (const { route, segments, prefixes } of this.compiled) {
      if (segments.length !== parts.length - 1) continue;
      const params: string[] = [];
      let matches = true;
      for (let i = 0; i < segments.length; i++) {
        const literal = segments[i];
        const part = parts[i + 1] as string;
        if (literal === undefined) {
          const prefix = prefixes[i] as string;
          if (part.length <= prefix.length || (prefix.length > 0 && !part.startsWith(prefix))) {
            matches = false;
            break;
          }
          params.push(decodeSegment(prefix.length === 0 ? part : part.slice(prefix.length)));
        } else if (literal !== part) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      if (route.method === method) return { kind: 'route', route, params };
      // Two templates can match one path (sample.{format} and {format}): name each method once.
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  }
}

function decodeSegment(segment: string): string {
  if (segment.indexOf('%') < 0) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadPathEncodingError(segment);
  }
}
