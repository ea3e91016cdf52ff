import { describe, expect, it } from 'vitest';
import {
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  SECURITY_HEADERS,
  acceptsGzip,
  cacheControlOf,
  contentTypeOf,
  etagMatches,
  fallsBackToIndex,
  isApiPrefix,
  isReservedPath,
  webPathOf,
} from './web-paths.js';

describe('webPathOf', () => {
  it('maps request paths to names relative to the dist dir', () => {
    expect(webPathOf('/')).toEqual({ kind: 'file', name: '' });
    expect(webPathOf('/index.html')).toEqual({ kind: 'file', name: 'index.html' });
    expect(webPathOf('/assets/index-B1a2C3d4.js')).toEqual({ kind: 'file', name: 'assets/index-B1a2C3d4.js' });
    expect(webPathOf('/ipv4calculator')).toEqual({ kind: 'file', name: 'ipv4calculator' });
    expect(webPathOf('/datasupport/chinaip/')).toEqual({ kind: 'file', name: 'datasupport/chinaip/' });
    // Percent-encoded Chinese (a client route) decodes.
    expect(webPathOf('/%E6%9F%A5%E8%AF%A2')).toEqual({ kind: 'file', name: '查询' });
  });

  it.each([
    ['/../package.json', 'dot segment'],
    ['/assets/../../etc/passwd', 'dot segment'],
    ['/assets/%2e%2e/%2e%2e/etc/passwd', 'dot segment'],
    ['/%2E%2E/secret', 'dot segment'],
    ['/./index.html', 'dot segment'],
    ['/assets/..', 'dot segment'],
    ['/assets%2f..%2f..%2fetc/passwd', 'encoded separator or NUL'],
    ['/assets%2F..', 'encoded separator or NUL'],
    ['/assets%5c..%5cconfig', 'encoded separator or NUL'],
    ['/index.html%00.js', 'encoded separator or NUL'],
    ['/assets/\\..\\x', 'backslash'],
    ['/bad%E6%9F', 'bad percent-encoding'],
    ['/%zz', 'bad percent-encoding'],
    ['assets/x.js', 'not an absolute path'],
  ])('refuses %s (%s)', (path, reason) => {
    expect(webPathOf(path)).toEqual({ kind: 'refused', reason });
  });

  it('allows dots inside names', () => {
    expect(webPathOf('/assets/a..b.js')).toEqual({ kind: 'file', name: 'assets/a..b.js' });
    expect(webPathOf('/.well-known/x')).toEqual({ kind: 'file', name: '.well-known/x' });
  });
});

describe('reserved paths and the fallback', () => {
  it("leaves face A's calls and the health routes to bff-cn", () => {
    const faceA = ['/v1', '/v2'];
    for (const path of ['/v1/web_init', '/v2/query', '/v1', '/v2', '/healthz', '/readyz'])
      expect(isReservedPath(path, faceA)).toBe(true);
    for (const path of ['/', '/v1x', '/v3/x', '/healthzz', '/ip', '/assets/v1/x.js', '/api/session'])
      expect(isReservedPath(path, faceA)).toBe(false);
  });

  it("leaves face B's public API, web API and the health routes to bff-en", () => {
    const faceB = ['/v1', '/api'];
    for (const path of ['/v1/ip/8.8.8.8', '/v1', '/api', '/api/', '/api/profile', '/healthz', '/readyz'])
      expect(isReservedPath(path, faceB)).toBe(true);
    for (const path of ['/', '/apis', '/pricing', '/console/keys', '/docs', '/v2/query', '/assets/api/x.js'])
      expect(isReservedPath(path, faceB)).toBe(false);
  });

  it('takes API prefixes as plain absolute segments only', () => {
    for (const prefix of ['/v1', '/api', '/a/b']) expect(isApiPrefix(prefix)).toBe(true);
    for (const prefix of ['', '/', 'v1', '/v1/', '/v1*', '/a//b']) expect(isApiPrefix(prefix)).toBe(false);
  });

  it('serves index.html for client routes but not for missing assets', () => {
    expect(fallsBackToIndex('ipv4calculator')).toBe(true);
    expect(fallsBackToIndex('datasupport/chinaip')).toBe(true);
    expect(fallsBackToIndex('favicon.ico')).toBe(true);
    expect(fallsBackToIndex('assets/index-gone.js')).toBe(false);
  });
});

describe('caching and types', () => {
  it('caches hashed assets for a year and revalidates everything else', () => {
    expect(cacheControlOf('assets/index-B1a2C3d4.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('assets/fonts/noto-sans-sc-0.woff2')).toBe(CACHE_IMMUTABLE);
    expect(cacheControlOf('index.html')).toBe('no-cache');
    expect(cacheControlOf('favicon.svg')).toBe(CACHE_REVALIDATE);
    // Only the top-level assets folder is hashed output.
    expect(cacheControlOf('docs/assets/x.js')).toBe(CACHE_REVALIDATE);
  });

  it('names content types by extension, octet-stream when unknown', () => {
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('assets/a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('assets/a.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('assets/a.woff2')).toBe('font/woff2');
    expect(contentTypeOf('logo.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('README')).toBe('application/octet-stream');
  });

  it('reads Accept-Encoding and If-None-Match', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });

  it('allows only the site itself in the Content-Security-Policy', () => {
    const csp = SECURITY_HEADERS['content-security-policy']!;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
  });
});
