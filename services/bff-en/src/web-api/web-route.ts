import type { z } from 'zod';

/** What a web route knows about the request besides its input. */
export interface WebContext {
  requestId: string;
  /** The caller's canonical address (trusted proxies only); '' when unknown. */
  clientIp: string;
  userAgent: string | undefined;
  /** The session token from the `token` cookie, when sent. */
  token: string | undefined;
  /** The browser's CSRF value (csrf_token cookie), when it has one. */
  csrfToken: string | undefined;
  /** The logged-in account: set on routes with `login: true`. */
  accountId: string | undefined;
  /** On routes without `login`: the session's account when there is a valid one, else ''. */
  optionalAccount(): Promise<string>;
  now: Date;
  /** performance.now() when the request arrived (latency of usage events). */
  startedAt: number;
}

export interface WebAnswer {
  data: unknown;
  /** Default "OK". */
  msg?: string;
  /** Set-Cookie values (login, logout). */
  cookies?: string[];
  /** Default 200. */
  status?: number;
}

export type WebMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One web API route as plain data: the dispatcher matches it, checks the session and CSRF,
 * parses and validates the input (query for GET/DELETE, JSON body otherwise, path parameters by
 * name) and renders the envelope; `handle` does only the route's own work.
 */
export interface WebRoute<S extends z.ZodType = z.ZodType> {
  /** The OpenAPI operationId. */
  name: string;
  method: WebMethod;
  /** OpenAPI template: '/api/keys/{id}/rotate'. */
  path: string;
  /** Without a valid session the route answers 401 / code 506 before its input is read. */
  login: boolean;
  input: S;
  handle(context: WebContext, input: z.infer<S>): Promise<WebAnswer>;
}

/** Keeps `handle`'s input type tied to `input` where the route is written, then erases it for the table. */
export function defineWebRoute<S extends z.ZodType>(route: WebRoute<S>): WebRoute {
  return route;
}
