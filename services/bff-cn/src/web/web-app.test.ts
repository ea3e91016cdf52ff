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
    expect(resolveDistDir('frontends/cn/dist')).not.toContain('services/bff-cn');
    expect(resolveDistDir('/srv/www')).toBe('/srv/www');
  });

  it('serves nothing (leaves every request to the server) without index.html', async () => {
    for (const dir of [join(tmpdir(), 'no-such-dist-dir-bff-cn'), mkdtempSync(join(tmpdir(), 'bff-cn-empty-'))]) {
      const app = WebApp.fromConfig({ WEB_DIST_DIR: dir }, logger);
      await app.start();
      expect(app.serving).toBe(false);
      expect(get(app, '/').handled).toBe(false);
    }
  });

  it('serves regular files only: symlinks and dotfiles fall back to index.html', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bff-cn-web-unit-'));
    const dir = join(root, 'dist');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'assets', 'a-1.js'), 'export {};');
    writeFileSync(join(root, 'secret.txt'), 'secret');
    symlinkSync(join(root, 'secret.txt'), join(dir, 'linked.txt'));
    symlinkSync(join(root, 'secret.txt'), join(dir, 'assets', 'linked.js'));
    writeFileSync(join(dir, '.htpasswd'), 'secret');
    const app = WebApp.fromConfig({ WEB_DIST_DIR: dir }, logger);
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
});
