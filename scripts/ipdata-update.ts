/**
 * ipdata-update: keeps local copies of IP Data's downloadable databases current, like MaxMind's
 * geoipupdate. Meant for a cron job on the customer's side, so it uses nothing but Node itself.
 *
 *   IPDATA_API_KEY=... node --import tsx scripts/ipdata-update.ts --dir /var/lib/ipdata
 *   node --import tsx scripts/ipdata-update.ts --key ... --db complete/mmdb --db asn/csv --dir data
 *   make db-update DIR=var/databases DB="complete/mmdb asn/csv"
 *
 * Per database/format: reads GET /v1/databases for the file's sha256; a local file with that
 * sha256 is "up to date" and nothing is downloaded. Otherwise it asks
 * GET /v1/databases/{database}/{format} for a signed link (a 302 it follows itself), downloads to
 * `<dir>/.<file>.part` (resuming with a Range request when a partial file is there, from an
 * earlier cut run or a cut within this one), checks the sha256, fsyncs and renames the file over
 * the old one (readers see the old or the new file, never half of one), then writes the sidecar
 * `<file>.sha256` (sha256sum format). The sidecar spares hashing a large file on every run; it is
 * believed only when it is newer than the file and the size matches the catalogue.
 *
 * Exit codes: 0 all current, 1 bad usage, 2 key refused or unknown database/format, 3 the plan
 * does not include the file (the message names the plans that do), 4 daily download limit,
 * 5 server unavailable or the download failed, 6 the downloaded file's sha256 is wrong (the old
 * file is kept).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export const EXIT = { ok: 0, usage: 1, refused: 2, plan: 3, limit: 4, failed: 5, checksum: 6 } as const;

export class UpdateError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'UpdateError';
  }
}

export interface UpdateOptions {
  apiKey: string;
  baseUrl: string;
  /** "database/format" each, e.g. "complete/mmdb". */
  databases: readonly string[];
  dir: string;
  /** Download attempts per file (a cut download resumes on the next attempt). */
  attempts?: number;
  log?: (line: string) => void;
}

export interface UpdateResult {
  database: string;
  format: string;
  file: string;
  state: 'up_to_date' | 'updated' | 'failed';
  message: string;
  exitCode: number;
}

interface CatalogueFile {
  database: string;
  format: string;
  file_name: string;
  version: string;
  size_bytes: number;
  sha256: string;
  entitled: boolean;
}

interface Catalogue {
  version: string | null;
  databases: CatalogueFile[];
}

/** Updates every requested file; one failing file does not stop the others. */
export async function updateDatabases(options: UpdateOptions): Promise<UpdateResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const catalogue = await readCatalogue(options);
  const results: UpdateResult[] = [];
  for (const wanted of options.databases) {
    const [database = '', format = ''] = wanted.split('/');
    try {
      const entry = catalogue.databases.find((file) => file.database === database && file.format === format);
      if (!entry) {
        const available = catalogue.databases.map((file) => `${file.database}/${file.format}`).join(', ');
        throw new UpdateError(`${wanted} is not in the catalogue. Available: ${available || 'none yet'}.`, EXIT.refused);
      }
      const result = await updateOne(options, entry, log);
      results.push(result);
      log(`${wanted}: ${result.message}`);
    } catch (error) {
      const exitCode = error instanceof UpdateError ? error.exitCode : EXIT.failed;
      const message = error instanceof Error ? error.message : String(error);
      results.push({ database, format, file: '', state: 'failed', message, exitCode });
      log(`${wanted}: ERROR ${message}`);
    }
  }
  return results;
}

async function updateOne(options: UpdateOptions, entry: CatalogueFile, log: (line: string) => void): Promise<UpdateResult> {
  const name = basename(entry.file_name);
  const target = join(options.dir, name);
  const base = { database: entry.database, format: entry.format, file: target };
  if ((await localSha256(target, entry.size_bytes)) === entry.sha256) {
    return { ...base, state: 'up_to_date', message: `up to date (${name}, version ${entry.version})`, exitCode: EXIT.ok };
  }
  const part = join(options.dir, `.${name}.part`);
  const attempts = Math.max(1, options.attempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    try {
      // A fresh link per attempt: links expire after 10 minutes, a resumed download needs a live one.
      const link = await downloadLink(options, entry);
      await download(link, part, entry);
      break;
    } catch (error) {
      if (!(error instanceof DownloadCut) || attempt >= attempts) {
        throw error instanceof DownloadCut
          ? new UpdateError(`${error.message}; run again to resume (${part} is kept)`, EXIT.failed)
          : error;
      }
      log(`${entry.database}/${entry.format}: ${error.message}; resuming (attempt ${attempt + 1} of ${attempts})`);
    }
  }
  const actual = await sha256Of(part);
  if (actual !== entry.sha256) {
    await rm(part, { force: true });
    throw new UpdateError(
      `the downloaded ${name} has sha256 ${actual}, the catalogue says ${entry.sha256}; ${target} is unchanged`,
      EXIT.checksum,
    );
  }
  await fsyncFile(part);
  await rename(part, target);
  await fsyncDir(options.dir);
  await writeSidecar(target, entry.sha256);
  return {
    ...base,
    state: 'updated',
    message: `updated ${name} (version ${entry.version}, ${entry.size_bytes} bytes, sha256 ${entry.sha256})`,
    exitCode: EXIT.ok,
  };
}

async function api(options: UpdateOptions, path: string): Promise<Response> {
  try {
    return await fetch(new URL(path, options.baseUrl), {
      headers: { authorization: `Bearer ${options.apiKey}`, 'user-agent': 'ipdata-update/1' },
      redirect: 'manual',
    });
  } catch (error) {
    throw new UpdateError(`cannot reach ${options.baseUrl}: ${causeText(error)}`, EXIT.failed);
  }
}

/** The API's error message (`{"error": {"message", "resolution"}}`) with the exit code its status means. */
async function apiFailure(response: Response, what: string): Promise<UpdateError> {
  const text = await response.text();
  let message = `${what}: HTTP ${response.status}`;
  try {
    const body = JSON.parse(text) as { error?: { message?: string; resolution?: string } };
    if (body.error?.message) message = [body.error.message, body.error.resolution].filter(Boolean).join(' ');
  } catch {
    // Not the API's error shape (a proxy's page): the status says enough.
  }
  const retryAfter = response.headers.get('retry-after');
  if (response.status === 429 && retryAfter) message += ` (retry after ${retryAfter} s)`;
  const code =
    response.status === 401 || response.status === 404
      ? EXIT.refused
      : response.status === 403
        ? keyRefusal(text)
          ? EXIT.refused
          : EXIT.plan
        : response.status === 429
          ? EXIT.limit
          : EXIT.failed;
  return new UpdateError(message, code);
}

/** A 403 for the key itself (revoked) rather than the plan. */
function keyRefusal(text: string): boolean {
  return /"code"\s*:\s*"api_key_/.test(text);
}

async function readCatalogue(options: UpdateOptions): Promise<Catalogue> {
  const response = await api(options, '/v1/databases');
  if (response.status !== 200) throw await apiFailure(response, 'GET /v1/databases');
  return (await response.json()) as Catalogue;
}

async function downloadLink(options: UpdateOptions, entry: CatalogueFile): Promise<string> {
  const path = `/v1/databases/${encodeURIComponent(entry.database)}/${encodeURIComponent(entry.format)}`;
  const response = await api(options, path);
  const location = response.headers.get('location');
  if (response.status === 302 && location) {
    await response.body?.cancel();
    return new URL(location, options.baseUrl).toString();
  }
  throw await apiFailure(response, `GET ${path}`);
}

/** The connection broke before the whole file arrived: the next attempt resumes. */
class DownloadCut extends Error {}

/**
 * Downloads into `part`, resuming from its size with `Range` (and `If-Range` with the expected
 * ETag, so a partial file of another version is never completed with this one's bytes).
 */
async function download(url: string, part: string, entry: CatalogueFile): Promise<void> {
  let have = (await stat(part).catch(() => undefined))?.size ?? 0;
  if (have > entry.size_bytes) {
    await rm(part, { force: true });
    have = 0;
  }
  if (have === entry.size_bytes && have > 0) return; // complete from an earlier run; the sha256 decides
  const headers: Record<string, string> = { 'user-agent': 'ipdata-update/1' };
  if (have > 0) {
    headers['range'] = `bytes=${have}-`;
    headers['if-range'] = `"${entry.sha256}"`;
  }
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch (error) {
    throw new DownloadCut(`download failed: ${causeText(error)}`);
  }
  if (response.status === 416) {
    // The partial file does not fit the server's file: start over on the next attempt.
    await response.body?.cancel();
    await rm(part, { force: true });
    throw new DownloadCut('the partial file does not match the server (416)');
  }
  if (response.status !== 200 && response.status !== 206) {
    throw await apiFailure(response, 'download');
  }
  const append = response.status === 206 && have > 0;
  if (!response.body) throw new DownloadCut('empty answer');
  // Chunk by chunk onto the file: whatever arrived before a cut is on disk for the resume.
  const handle = await open(part, append ? 'a' : 'w');
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) await handle.write(chunk);
  } catch (error) {
    throw new DownloadCut(`download cut: ${causeText(error)}`);
  } finally {
    await handle.close();
  }
  const size = (await stat(part)).size;
  if (size !== entry.size_bytes) throw new DownloadCut(`download cut at ${size} of ${entry.size_bytes} bytes`);
}

/** The local file's sha256: from the sidecar when it is newer than the file and the size fits, else computed. */
async function localSha256(file: string, expectedSize: number): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const sidecar = await stat(`${file}.sha256`).catch(() => undefined);
  if (sidecar && sidecar.mtimeMs >= info.mtimeMs && info.size === expectedSize) {
    const recorded = /^([0-9a-f]{64})\b/.exec(await readFile(`${file}.sha256`, 'utf8'))?.[1];
    if (recorded) return recorded;
  }
  return sha256Of(file);
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function writeSidecar(target: string, sha256: string): Promise<void> {
  const temporary = `${target}.sha256.tmp`;
  await writeFile(temporary, `${sha256}  ${basename(target)}\n`);
  await rename(temporary, `${target}.sha256`);
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The rename is durable only once the directory entry is on disk too. */
async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the file itself is synced.
  } finally {
    await handle.close();
  }
}

function causeText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text = error instanceof Error ? error.message : String(error);
  return cause?.code ?? cause?.message ?? text;
}

/** The worst exit code of the results (a failure beats success). */
export function exitCodeOf(results: readonly UpdateResult[]): number {
  return results.reduce<number>((code, result) => Math.max(code, result.exitCode), EXIT.ok);
}

const USAGE = `usage: ipdata-update [--key KEY] [--base-url URL] [--db DATABASE/FORMAT ...] [--dir DIR]
  --key       API key (or IPDATA_API_KEY)
  --base-url  public API (or IPDATA_BASE_URL; default http://127.0.0.1:8082)
  --db        database/format, repeatable (or IPDATA_DATABASES, space-separated; default complete/mmdb)
              also --database NAME --format FORMAT for one file
  --dir       target directory (or IPDATA_DIR; default .)`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        key: { type: 'string' },
        'base-url': { type: 'string' },
        db: { type: 'string', multiple: true },
        database: { type: 'string' },
        format: { type: 'string' },
        dir: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return EXIT.usage;
  }
  if (values.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  const apiKey = values.key ?? env['IPDATA_API_KEY'] ?? '';
  if (apiKey === '') {
    console.error(`no API key: pass --key or set IPDATA_API_KEY\n${USAGE}`);
    return EXIT.usage;
  }
  const single = values.database || values.format ? [`${values.database ?? 'complete'}/${values.format ?? 'mmdb'}`] : [];
  const listed = values.db ?? (env['IPDATA_DATABASES'] ?? '').split(/[\s,]+/).filter((item) => item.length > 0);
  const databases = [...single, ...listed];
  if (databases.length === 0) databases.push('complete/mmdb');
  const malformed = databases.filter((item) => !/^[a-z0-9_-]+\/[a-z0-9_-]+$/.test(item));
  if (malformed.length > 0) {
    console.error(`not database/format: ${malformed.join(', ')}\n${USAGE}`);
    return EXIT.usage;
  }
  const dir = resolve(values.dir ?? env['IPDATA_DIR'] ?? '.');
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) {
    console.error(`${dir} is not a directory`);
    return EXIT.usage;
  }
  try {
    const results = await updateDatabases({
      apiKey,
      baseUrl: values['base-url'] ?? env['IPDATA_BASE_URL'] ?? 'http://127.0.0.1:8082',
      databases,
      dir,
    });
    return exitCodeOf(results);
  } catch (error) {
    console.error(`ERROR ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof UpdateError ? error.exitCode : EXIT.failed;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
