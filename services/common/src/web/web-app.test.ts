import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { WebApp, resolveDistDir } from './web-app.js';

const logger = pino({ level: 'silent' });

/** The smallest request/response pair the handler uses: method, url, headers; writeHead and end. */
function get(app: WebApp, url: string, method = 'GET'): { handled: boolean; status: number; body: string } {
  const seen = { status: 0, body: '' };
  const response = {
    writeHead(status: number) {
      seen.status = status;
      return this;
    },
    end(body?: Buffer | string) {
      seen.body = body === undefined ? '' : body.toString();
    },
  } as unknown as ServerResponse;
  const handled = app.handle({ method, url, headers: {} } as IncomingMessage, response) !== undefined;
  return { handled, ...seen };
}

describe('WebApp', () => {
  it('takes a relative dist dir from the repo root, not the working directory', () => {
    expect(resolveDistDir('frontends/cn/dist')).toMatch(/^\/.+\/frontends\/cn\/dist$/);
    expect(resolveDistDir('frontends/en/dist')).toBe(resolveDistDir('frontends/cn/dist').replace(/cn\/dist$/, 'en/dist'));
    expect(resolveDistDir('frontends/cn/dist')).not.toContain('services/');
    expect(resolveDistDir('/srv/www')).toBe('/srv/www');
  });

  it('serves nothing (leaves every request to the server) without index.html', async () => {
    for (const dir of [join(tmpdir(), 'no-such-dist-dir-web-app'), mkdtempSync(join(tmpdir(), 'web-app-empty-'))]) {
      const app = WebApp.fromConfig({ WEB_DIST_DIR: dir }, { apiPrefixes: ['/v1', '/v2'] }, logger);
      await app.start();
      expect(app.serving).toBe(false);
      expect(get(app, '/').handled).toBe(false);
    }
  });

  it('serves regular files only: symlinks and dotfiles fall back to index.html', async () => {
    const root = mkdtempSync(join(tmpdir(), 'web-app-unit-'));
    const dir = join(root, 'dist');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'assets', 'a-1.js'), 'export {};');
    writeFileSync(join(root, 'secret.txt'), 'secret');
    symlinkSync(join(root, 'secret.txt'), join(dir, 'linked.txt'));
    symlinkSync(join(root, 'secret.txt'), join(dir, 'assets', 'linked.js'));
    writeFileSync(join(dir, '.htpasswd'), 'secret');
    const app = WebApp.fromConfig({ WEB_DIST_DIR: dir }, { apiPrefixes: ['/v1', '/v2'] }, logger);
    await app.start();
    expect(get(app, '/assets/a-1.js')).toEqual({ handled: true, status: 200, body: 'export {};' });
    expect(get(app, '/linked.txt').body).toBe('<!doctype html><title>x</title>');
    expect(get(app, '/.htpasswd').body).toBe('<!doctype html><title>x</title>');
    expect(get(app, '/assets/linked.js')).toMatchObject({ status: 404, body: 'not found' });
    // Not the app's: other methods, the calls and the health routes.
    expect(get(app, '/', 'POST').handled).toBe(false);
    expect(get(app, '/v1/web_init').handled).toBe(false);
    expect(get(app, '/healthz').handled).toBe(false);
    await app.shutdown();
    expect(app.serving).toBe(false);
  });

  it("leaves the API prefixes it is given to the server, and serves the rest (bff-en: '/v1', '/api')", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-app-face-b-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>b</title>');
    writeFileSync(join(dir, 'build.json'), '{"id":"b1"}\n');
    const app = WebApp.fromConfig({ WEB_DIST_DIR: dir }, { apiPrefixes: ['/v1', '/api'] }, logger);
    await app.start();
    for (const path of ['/v1/ip/8.8.8.8', '/api', '/api/profile', '/readyz']) expect(get(app, path).handled, path).toBe(false);
    expect(get(app, '/console/keys?tab=1')).toEqual({ handled: true, status: 200, body: '<!doctype html><title>b</title>' });
    expect(get(app, '/build.json').body).toBe('{"id":"b1"}\n');
    // '/v2' is face A's: on bff-en it is a client route like any other.
    expect(get(app, '/v2/query').body).toBe('<!doctype html><title>b</title>');
  });

  it('refuses API prefixes that would not match what the dispatchers answer', () => {
    expect(() => WebApp.fromConfig({ WEB_DIST_DIR: 'x' }, { apiPrefixes: ['/api/'] }, logger)).toThrow(/API prefixes/);
  });
});
