import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, exitCodeOf, main, updateDatabases, type UpdateOptions } from './ipdata-update.js';

/**
 * The updater against a real local HTTP server that plays bff-en (catalogue, 302 to a link, the
 * API's errors) and the downloads file server (Range, If-Range, ETag): what it asks for and
 * what ends up on disk.
 */
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Seen {
  path: string;
  range?: string;
  ifRange?: string;
}

const state = {
  content: Buffer.alloc(0) as Buffer,
  /** What the catalogue says the sha256 is (a wrong one: the download must be refused). */
  catalogueSha: '',
  /** Cut the next N file answers after this many bytes. */
  cutAfter: 0,
  cuts: 0,
  linkAnswer: undefined as undefined | { status: number; body: object; headers?: Record<string, string> },
  seen: [] as Seen[],
};

function serveFile(request: IncomingMessage, response: ServerResponse): void {
  const { content } = state;
  const etag = `"${sha256(content)}"`;
  const headers = { 'content-type': 'application/octet-stream', etag, 'accept-ranges': 'bytes' };
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  const ifRange = request.headers['if-range'];
  let start = 0;
  if (range && (ifRange === undefined || ifRange === etag)) {
    start = Number(range[1]);
    if (start >= content.length) {
      response.writeHead(416, { 'content-range': `bytes */${content.length}` }).end();
      return;
    }
    response.writeHead(206, {
      ...headers,
      'content-length': content.length - start,
      'content-range': `bytes ${start}-${content.length - 1}/${content.length}`,
    });
  } else {
    response.writeHead(200, { ...headers, 'content-length': content.length });
  }
  const body = content.subarray(start);
  if (state.cuts > 0) {
    state.cuts--;
    // Part of the body, a stall, then the connection drops: what a flaky network does to a long
    // download (the stall lets the client take in what arrived, as it would over minutes).
    response.write(body.subarray(0, state.cutAfter), () => setTimeout(() => response.socket?.destroy(), 150));
    return;
  }
  response.end(body);
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? '/';
  state.seen.push({
    path,
    ...(request.headers.range ? { range: request.headers.range } : {}),
    ...(typeof request.headers['if-range'] === 'string' ? { ifRange: request.headers['if-range'] } : {}),
  });
  if (path.startsWith('/files/')) return serveFile(request, response);
  if (request.headers.authorization !== 'Bearer good-key') {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { code: 'api_key_invalid', message: 'Invalid API key', resolution: 'Send a valid key.' } }),
    );
    return;
  }
  if (path === '/v1/databases') {
    const file = {
      database: 'complete',
      format: 'mmdb',
      file_name: 'ipdata-city.mmdb',
      version: 'v2',
      size_bytes: state.content.length,
      sha256: state.catalogueSha,
      entitled: true,
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: 'v2', databases: [file] }));
    return;
  }
  if (path === '/v1/databases/complete/mmdb') {
    const answer = state.linkAnswer;
    if (answer) {
      response
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(JSON.stringify(answer.body));
      return;
    }
    response.writeHead(302, {
      location: `/files/${state.seen.length}/ipdata-city.mmdb?signature=x`,
      'cache-control': 'no-store',
    });
    response.end('{}');
    return;
  }
  response.writeHead(404).end();
}

let server: Server;
let baseUrl: string;
let dir: string;
const lines: string[] = [];

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ipdata-update-'));
  publish(Buffer.from('new database '.repeat(5_000)));
  state.cuts = 0;
  state.linkAnswer = undefined;
  state.seen = [];
  lines.length = 0;
});

afterEach(() => rm(dir, { recursive: true, force: true }));

function publish(content: Buffer): void {
  state.content = content;
  state.catalogueSha = sha256(content);
}

const options = (): UpdateOptions => ({
  apiKey: 'good-key',
  baseUrl,
  databases: ['complete/mmdb'],
  dir,
  log: (line) => lines.push(line),
});
const fileRequests = () => state.seen.filter((seen) => seen.path.startsWith('/files/'));
const target = () => join(dir, 'ipdata-city.mmdb');

describe('ipdata-update', () => {
  it('downloads nothing when the local file already has the catalogue sha256', async () => {
    await writeFile(target(), state.content);
    const results = await updateDatabases(options());
    expect(results[0]).toMatchObject({ state: 'up_to_date', exitCode: EXIT.ok });
    expect(state.seen.map((seen) => seen.path)).toEqual(['/v1/databases']);
    expect(lines).toEqual(['complete/mmdb: up to date (ipdata-city.mmdb, version v2)']);
  });

  it('replaces a changed file atomically (a new inode by rename), verified, with a sidecar', async () => {
    await writeFile(target(), 'old database');
    const oldInode = (await stat(target())).ino;
    const results = await updateDatabases(options());
    expect(results[0]).toMatchObject({ state: 'updated', exitCode: EXIT.ok });
    expect(await readFile(target())).toEqual(state.content);
    expect((await stat(target())).ino).not.toBe(oldInode);
    expect(await readFile(`${target()}.sha256`, 'utf8')).toBe(`${state.catalogueSha}  ipdata-city.mmdb\n`);
    expect((await readdir(dir)).sort()).toEqual(['ipdata-city.mmdb', 'ipdata-city.mmdb.sha256']);
    expect(fileRequests()).toHaveLength(1);
    // Next run: up to date (from the sidecar), no download.
    state.seen = [];
    expect((await updateDatabases(options()))[0]?.state).toBe('up_to_date');
    expect(fileRequests()).toEqual([]);
  });

  it('resumes a cut download with a Range request on a fresh link', async () => {
    state.cuts = 1;
    state.cutAfter = 20_000;
    const results = await updateDatabases(options());
    expect(results[0]).toMatchObject({ state: 'updated' });
    expect(await readFile(target())).toEqual(state.content);
    const requests = fileRequests();
    expect(requests).toHaveLength(2);
    expect(requests[0]?.range).toBeUndefined();
    expect(requests[1]).toMatchObject({ range: 'bytes=20000-', ifRange: `"${state.catalogueSha}"` });
    // Two links: the second attempt asked the API again.
    expect(state.seen.filter((seen) => seen.path === '/v1/databases/complete/mmdb')).toHaveLength(2);
    expect(lines.some((line) => line.includes('resuming'))).toBe(true);
  });

  it('resumes the partial file an earlier, interrupted run left behind', async () => {
    await writeFile(join(dir, '.ipdata-city.mmdb.part'), state.content.subarray(0, 12_345));
    expect((await updateDatabases(options()))[0]?.state).toBe('updated');
    expect(fileRequests().map((seen) => seen.range)).toEqual(['bytes=12345-']);
    expect(await readFile(target())).toEqual(state.content);
  });

  it('gives up after its attempts, keeping the partial file for the next run', async () => {
    state.cuts = 5;
    state.cutAfter = 1_000;
    const results = await updateDatabases({ ...options(), attempts: 2 });
    expect(results[0]).toMatchObject({ state: 'failed', exitCode: EXIT.failed });
    expect(results[0]?.message).toMatch(/run again to resume/);
    expect((await stat(join(dir, '.ipdata-city.mmdb.part'))).size).toBe(2_000);
  });

  it('refuses a file whose sha256 is not the catalogue one and keeps the old file', async () => {
    await writeFile(target(), 'old database');
    state.catalogueSha = 'f'.repeat(64);
    const results = await updateDatabases(options());
    expect(results[0]).toMatchObject({ state: 'failed', exitCode: EXIT.checksum });
    expect(results[0]?.message).toContain('is unchanged');
    expect(await readFile(target(), 'utf8')).toBe('old database');
    expect(await readdir(dir)).toEqual(['ipdata-city.mmdb']);
  });

  it("passes on the API's plan and limit messages with their own exit codes", async () => {
    state.linkAnswer = {
      status: 403,
      body: {
        error: {
          code: 'plan_excludes_database',
          message: 'Your plan (Free) does not include the complete database. It is included in: Business, Enterprise.',
          resolution: 'Upgrade.',
        },
      },
    };
    const refused = await updateDatabases(options());
    expect(refused[0]).toMatchObject({ exitCode: EXIT.plan });
    expect(refused[0]?.message).toContain('It is included in: Business, Enterprise.');
    state.linkAnswer = {
      status: 429,
      headers: { 'retry-after': '3600' },
      body: {
        error: { code: 'download_limit_reached', message: 'Daily download limit reached (20 per day).', resolution: 'Wait.' },
      },
    };
    const limited = await updateDatabases(options());
    expect(limited[0]).toMatchObject({ exitCode: EXIT.limit });
    expect(limited[0]?.message).toContain('Daily download limit reached (20 per day). Wait. (retry after 3600 s)');
    expect(fileRequests()).toEqual([]);
    expect(exitCodeOf([...refused, ...limited])).toBe(EXIT.limit);
  });

  it('exits 2 for a refused key or a file not in the catalogue, 1 for bad usage', async () => {
    const quiet = { IPDATA_BASE_URL: baseUrl, IPDATA_DIR: dir };
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      expect(await main(['--key', 'wrong'], quiet)).toBe(EXIT.refused);
      expect(await main([], quiet)).toBe(EXIT.usage);
      expect(await main(['--key', 'good-key', '--db', 'nonsense'], quiet)).toBe(EXIT.usage);
    } finally {
      console.error = original;
    }
    expect(errors[0]).toContain('Invalid API key');
    const missing = await updateDatabases({ ...options(), databases: ['weather/csv'] });
    expect(missing[0]).toMatchObject({
      exitCode: EXIT.refused,
      message: 'weather/csv is not in the catalogue. Available: complete/mmdb.',
    });
  });
});
