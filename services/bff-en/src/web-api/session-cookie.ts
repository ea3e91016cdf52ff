import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The spec's cookie: the session token lives in `token` (HttpOnly: scripts never read it). */
export const SESSION_COOKIE = 'token';
/** The CSRF double-submit value: readable by the app, which echoes it in X-CSRF-Token. */
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

export interface CookiePolicy {
  /** The configured site domain ('' = host-only cookies, as in development). */
  domain: string;
  /** Secure outside development and tests (plain-HTTP loopback there). */
  secure: boolean;
}

/** The request's cookies by name (first one wins; values are not decoded: ours are base64url). */
export function cookiesOf(request: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  const header = request.headers.cookie;
  if (header === undefined) return cookies;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

function cookie(
  name: string,
  value: string,
  policy: CookiePolicy,
  options: { maxAgeSeconds: number; httpOnly: boolean },
): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${options.maxAgeSeconds}`,
    ...(policy.domain === '' ? [] : [`Domain=${policy.domain}`]),
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(policy.secure ? ['Secure'] : []),
    'SameSite=Lax',
  ].join('; ');
}

/** The session cookie for a login: it lives as long as auth's session (7 days, 30 with remember-me). */
export function sessionCookie(token: string, expiresAt: Date | undefined, now: Date, policy: CookiePolicy): string {
  const seconds = expiresAt === undefined ? 7 * 24 * 3600 : Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return cookie(SESSION_COOKIE, token, policy, { maxAgeSeconds: seconds, httpOnly: true });
}

export function clearedSessionCookie(policy: CookiePolicy): string {
  return cookie(SESSION_COOKIE, '', policy, { maxAgeSeconds: 0, httpOnly: true });
}

/** A new CSRF value (256 random bits) and its cookie, kept for a year; it protects, it does not identify. */
export function newCsrfCookie(policy: CookiePolicy): { value: string; cookie: string } {
  const value = randomBytes(32).toString('base64url');
  return { value, cookie: cookie(CSRF_COOKIE, value, policy, { maxAgeSeconds: 365 * 24 * 3600, httpOnly: false }) };
}

/**
 * CSRF check of a state-changing request (double submit): the X-CSRF-Token header must equal the
 * csrf_token cookie. Another site can make the browser send our cookies (GET navigations only,
 * with SameSite=Lax) but can neither read the cookie nor set the header without a CORS preflight,
 * which this API never grants. An Origin header, when present, must be one of ours too.
 */
export function csrfProblem(
  request: IncomingMessage,
  cookies: Map<string, string>,
  allowedOrigins: ReadonlySet<string>,
): string | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && !allowedOrigins.has(origin) && origin !== ownOrigin(request)) return 'origin';
  const expected = cookies.get(CSRF_COOKIE);
  const sent = request.headers[CSRF_HEADER];
  if (expected === undefined || typeof sent !== 'string' || sent.length !== expected.length) return 'token';
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected)) ? undefined : 'token';
}

/** The origin the request was addressed to (same-origin requests through any host name we answer on). */
function ownOrigin(request: IncomingMessage): string | undefined {
  const host = request.headers.host;
  if (host === undefined) return undefined;
  const secure = (request.socket as { encrypted?: boolean }).encrypted === true;
  return `${secure ? 'https' : 'http'}://${host}`;
}
