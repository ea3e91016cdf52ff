import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffCnHarness } from './fixtures/bff-cn-harness.js';
import { writeWebDist, type WebDist } from './fixtures/web-dist.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * node:http, not fetch: the path goes out exactly as written (fetch would resolve `..`), and the
 * body comes back as sent (fetch would gunzip it).
 */
function raw(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('bff-cn serves the built face A app', () => {
  const dist: WebDist = writeWebDist();
  // The fixture app instead of the harness default (no app).
  const h = new BffCnHarness({ WEB_APP_ENABLED: 'true', WEB_DIST_DIR: dist.dir });
  let base = '';

  beforeAll(async () => {
    await h.start();
    base = h.base;
  });
  afterAll(() => h.stop());

  it('serves index.html at / revalidated on every use, with the security headers', async () => {
    const answer = await raw(base, '/');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(dist.indexHtml);
    expect(answer.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    const csp = String(answer.headers['content-security-policy']);
    for (const directive of ["script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'"])
      expect(csp).toContain(directive);
    expect(answer.headers['etag']).toMatch(/^"[\w-]+"$/);
  });

  it('answers index.html for client routes (GET and HEAD), so deep links work', async () => {
    for (const path of ['/ipv4calculator', '/datasupport/chinaip?page=2', '/ip/8.8.8.8', '/%E6%9F%A5%E8%AF%A2', '/.env']) {
      const answer = await raw(base, path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['cache-control'], path).toBe('no-cache');
      // Also for /.env: dotfiles are not served, the fallback answers instead.
      expect(answer.body.toString(), path).toBe(dist.indexHtml);
    }
    const head = await raw(base, '/ipv4calculator', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(dist.indexHtml));
  });

  it('caches hashed assets for a year, gzips them when asked, and answers 304 to a matching ETag', async () => {
    const plain = await raw(base, dist.scriptPath);
    expect(plain.status).toBe(200);
    expect(plain.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(dist.script);

    const zipped = await raw(base, dist.scriptPath, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(zipped.body).toString()).toBe(dist.script);

    const css = await raw(base, dist.stylePath);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await raw(base, '/favicon.svg');
    expect(icon.headers).toMatchObject({ 'content-type': 'image/svg+xml', 'cache-control': 'no-cache' });

    const etag = String(plain.headers['etag']);
    const again = await raw(base, dist.scriptPath, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect((await raw(base, dist.scriptPath, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('answers a real 404 for a missing file under assets/', async () => {
    const answer = await raw(base, '/assets/app-00000000.js');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.body.toString()).toBe('not found');
  });

  it('refuses traversal, encoded separators and NUL without reading outside the dist dir', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2E%2E/%2E%2E/secret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/index.html%00.js',
      '/%E6%9F',
    ]) {
      const answer = await raw(base, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.toString(), path).toBe('bad path');
      expect(answer.body.toString(), path).not.toContain(dist.secret);
    }
  });

  it('leaves the /v1 and /v2 calls, their 404 envelope and the health routes as they were', async () => {
    const lookup = await h.call('/v2/query?ip=8.8.8.8');
    expect(lookup.body).toMatchObject({ code: 200, data: { ip: '8.8.8.8' } });
    for (const method of ['GET', 'POST']) {
      const unknown = await h.call('/v1/no_such_call', { method });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 404, msg: '接口不存在', data: null });
    }
    const document = await raw(base, '/v1/openapi.json');
    expect(document.headers['content-type']).toBe('application/json; charset=utf-8');
    const health = await raw(base, '/healthz');
    expect(JSON.parse(health.body.toString())).toEqual({ status: 'ok' });
    expect((await raw(base, '/readyz')).status).toBe(200);
    // Other methods are not the app's: the server's JSON 404, never index.html.
    const post = await raw(base, '/ipv4calculator', { method: 'POST' });
    expect(post.status).toBe(404);
    expect(post.headers['content-type']).toMatch(/^application\/json/);
    // /v1 itself is not a client route either.
    expect((await raw(base, '/v1')).status).toBe(404);
  });
});
