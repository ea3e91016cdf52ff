import { extname } from 'node:path';

/**
 * Which requests the web app answers and how they map onto the built files. Pure: no I/O, so the
 * safety rules are tested on their own (web-paths.test.ts).
 */

/** The server's own routes (HttpServer's health routes): never the app's, whatever the BFF reserves. */
const HEALTH_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/**
 * Paths the web app never answers: the health routes and every path under one of the server's
 * API prefixes (`/v1` reserves `/v1` and `/v1/...`, not `/v1x`), which its own handlers answer
 * (404 in their shape included), so a mistyped call never gets the page.
 */
export function isReservedPath(path: string, apiPrefixes: readonly string[]): boolean {
  if (HEALTH_PATHS.has(path)) return true;
  return apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** An API prefix as isReservedPath takes it: '/' and one or more plain segments, no trailing slash. */
export function isApiPrefix(prefix: string): boolean {
  return /^(\/[A-Za-z0-9._~-]+)+$/.test(prefix);
}

/** Hashed build output (Vite's `assets/<name>-<hash>.<ext>`): cached for a year, never revalidated. */
export const ASSETS_PREFIX = 'assets/';

export type WebPath =
  /** A file name relative to the dist dir ('' for the root). */
  | { kind: 'file'; name: string }
  /** Never a file: `..`, `.` segments, encoded slashes or backslashes, NUL, bad encoding. */
  | { kind: 'refused'; reason: string };

/**
 * The request path (without its query) as a name relative to the dist dir. Names are only ever
 * looked up in the table of files read at start (web-app.ts), never joined onto the disk path;
 * refusing traversal here as well keeps a bad request from reaching the SPA fallback.
 */
export function webPathOf(path: string): WebPath {
  if (!path.startsWith('/')) return { kind: 'refused', reason: 'not an absolute path' };
  // Encoded separators would let one segment smuggle a path past the checks below.
  if (/%2f|%5c|%00/i.test(path)) return { kind: 'refused', reason: 'encoded separator or NUL' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return { kind: 'refused', reason: 'bad percent-encoding' };
  }
  if (decoded.includes('\0')) return { kind: 'refused', reason: 'NUL' };
  if (decoded.includes('\\')) return { kind: 'refused', reason: 'backslash' };
  const segments = decoded.slice(1).split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) return { kind: 'refused', reason: 'dot segment' };
  return { kind: 'file', name: segments.join('/') };
}

/** Whether a name that is no file gets index.html (a client route) or a real 404 (a missing asset). */
export function fallsBackToIndex(name: string): boolean {
  return !name.startsWith(ASSETS_PREFIX);
}

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** Stored but revalidated on every use (ETag → 304): a new build shows at once. */
export const CACHE_REVALIDATE = 'no-cache';

/** Cache-Control of a served file: hashed assets for a year, everything else revalidated. */
export function cacheControlOf(name: string): string {
  return name.startsWith(ASSETS_PREFIX) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** Worth gzipping: text formats (fonts, images and archives are compressed already). */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml)/.test(contentType);
}

/**
 * Whether the client takes gzip: `gzip` or `*` listed without `q=0`. No negotiation beyond that:
 * the only encodings served are gzip and identity.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.find((param) => param.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/** Whether If-None-Match names this ETag (a list, `*`, or weak forms of the same tag). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/**
 * Headers of every web answer, the same for both faces. The apps load nothing from outside (fonts,
 * icons and maps come from npm packages in the build), so every source is 'self'; data: only for
 * images and fonts (Vite inlines small ones into the CSS). No inline scripts or styles: Vite's
 * build emits none, and the apps use classes, not style attributes (charts set styles through the
 * CSSOM, which style-src does not govern, and draw on canvas). Calls go to the same origin
 * (connect-src 'self'). Leaving for a payment provider's checkout (billing's sandbox on another
 * loopback port, a real provider elsewhere) and for a signed download link is a top-level
 * navigation (location.assign, a link), which no directive restricts; form-action stays 'self'
 * because no page posts a form across origins.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};
