import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Component } from '../lifecycle/lifecycle.js';
import type { Logger } from '../logger/logger.js';
import {
  SECURITY_HEADERS,
  acceptsGzip,
  cacheControlOf,
  contentTypeOf,
  etagMatches,
  fallsBackToIndex,
  isCompressible,
  isApiPrefix,
  isReservedPath,
  webPathOf,
} from './web-paths.js';

/** services/common holds src/web/ and dist/web/ at the same depth, so both resolve the same repo root. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A relative WEB_DIST_DIR is taken from the repo root: services run in their own data dir. */
export function resolveDistDir(dir: string): string {
  return isAbsolute(dir) ? dir : resolve(REPO_ROOT, dir);
}

interface WebFile {
  body: Buffer;
  /** Only when smaller than the body. */
  gzip: Buffer | undefined;
  etag: string;
  headers: Readonly<Record<string, string>>;
}

/** Files above this are not read into memory (a build has none; a stray video would be one). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** What a BFF serving a built app configures (its config.ts: WEB_APP_ENABLED, WEB_DIST_DIR). */
export interface WebAppConfig {
  /** The built app (Vite's output dir); relative dirs are taken from the repo root. */
  WEB_DIST_DIR: string;
}

export interface WebAppOptions {
  /**
   * Path prefixes of the BFF's own calls ('/v1', '/api', ...): never the app's, so a mistyped call
   * gets the API's 404, not the page. The health routes are always left to the server.
   */
  apiPrefixes: readonly string[];
}

/**
 * A built web app (face A's frontends/cn/dist in bff-cn, face B's frontends/en/dist in bff-en),
 * served from memory: every regular file under the dist dir is read once at start with its gzip,
 * ETag and headers, so a request is a table lookup (no path ever reaches the disk: traversal has
 * nothing to open). A new build shows after a restart. Answers GET and HEAD of any path outside
 * the API prefixes and the health routes: a file, or index.html for a client route (a missing
 * file under assets/ is a real 404). Hashed assets are cached for a year, everything else
 * (index.html, build.json of the new-build detection) is revalidated on every use.
 *
 * Ask it after the BFF's own dispatchers (HttpServer's firstHandler): API calls never wait for it.
 */
export class WebApp implements Component {
  readonly name = 'web-app';
  private files = new Map<string, WebFile>();

  private constructor(
    private readonly dir: string,
    private readonly apiPrefixes: readonly string[],
    private readonly logger: Logger,
  ) {}

  static fromConfig(config: WebAppConfig, options: WebAppOptions, logger: Logger): WebApp {
    const bad = options.apiPrefixes.filter((prefix) => !isApiPrefix(prefix));
    if (bad.length > 0) throw new Error(`web app: API prefixes must look like '/v1' (got ${bad.join(', ')})`);
    return new WebApp(resolveDistDir(config.WEB_DIST_DIR), [...options.apiPrefixes], logger);
  }

  /** Whether an app was found at start (a dist dir with index.html). */
  get serving(): boolean {
    return this.files.has('index.html');
  }

  async start(): Promise<void> {
    const files = new Map<string, WebFile>();
    let bytes = 0;
    for (const name of await listFiles(this.dir, '')) {
      const body = await readFile(join(this.dir, name));
      if (body.length > MAX_FILE_BYTES) {
        this.logger.warn({ file: name, bytes: body.length }, 'web app: file too large to serve, skipped');
        continue;
      }
      files.set(name, webFile(name, body));
      bytes += body.length;
    }
    if (!files.has('index.html')) {
      // Not fatal: the API works without the app (a checkout where the front end is not built yet).
      this.logger.warn({ dir: this.dir }, 'web app: no index.html in the dist dir; serving the API only');
      return;
    }
    this.files = files;
    this.logger.info({ dir: this.dir, files: files.size, bytes }, 'web app loaded');
  }

  shutdown(): Promise<void> {
    this.files = new Map();
    return Promise.resolve();
  }

  /** Part of HttpServer's first handler (after the BFF's dispatchers): undefined when the request is not the app's. */
  readonly handle = (request: IncomingMessage, response: ServerResponse): Promise<void> | undefined => {
    if (!this.serving || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (isReservedPath(path, this.apiPrefixes)) return undefined;
    this.answer(request, response, path);
    return Promise.resolve();
  };

  private answer(request: IncomingMessage, response: ServerResponse, path: string): void {
    const webPath = webPathOf(path);
    if (webPath.kind === 'refused') return sendText(response, 400, 'bad path');
    const name = webPath.name === '' ? 'index.html' : webPath.name;
    const file = this.files.get(name) ?? (fallsBackToIndex(name) ? this.files.get('index.html') : undefined);
    if (file === undefined) return sendText(response, 404, 'not found');
    if (etagMatches(header(request, 'if-none-match'), file.etag)) {
      response.writeHead(304, { ...file.headers, etag: file.etag });
      response.end();
      return;
    }
    const gzip = file.gzip !== undefined && acceptsGzip(header(request, 'accept-encoding'));
    const body = gzip ? file.gzip! : file.body;
    response.writeHead(200, {
      ...file.headers,
      etag: file.etag,
      'content-length': String(body.length),
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }
}

function webFile(name: string, body: Buffer): WebFile {
  const contentType = contentTypeOf(name);
  const zipped = isCompressible(contentType) && body.length > 512 ? gzipSync(body, { level: 9 }) : undefined;
  const gzip = zipped !== undefined && zipped.length < body.length ? zipped : undefined;
  return {
    body,
    gzip,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': contentType,
      'cache-control': cacheControlOf(name),
      // Caches keep the gzip and the plain answer apart.
      ...(gzip !== undefined ? { vary: 'accept-encoding' } : {}),
    },
  };
}

/** Regular files under dir, as names relative to it; dotfiles and symlinks are left out. */
async function listFiles(dir: string, prefix: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(dir, prefix), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) names.push(...(await listFiles(dir, name)));
    // Dirents describe the entry itself: a symlink is neither a file nor a directory here.
    else if (entry.isFile()) names.push(name);
  }
  return names;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}
