import { open, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { NotFoundError, UnavailableError, errorText, sendJson } from '@ipdata/common';
import { ifRangeMatches, resolveRange } from '../../files/byte-range.js';
import type { ServableFile } from '../../files/file-access.js';
import type { OpenStreams } from '../../files/open-streams.js';

export interface SendOptions {
  cacheControl: string;
  /** Runs before the first byte of a GET is sent (recording the download); a throw sends nothing. */
  beforeBody?: () => Promise<void>;
}

/**
 * Sends one file of a version folder with the headers a resuming client needs (Content-Length,
 * ETag = "sha256", Last-Modified, Accept-Ranges) and one byte range when asked (206), streamed
 * from an open file handle: the size checked is the size sent, and the descriptor closes when the
 * stream ends or the client goes away. Each stream counts as open on its version (pruning).
 */
export class FileSender {
  constructor(
    private readonly deps: { datasetsDir: string; streams: OpenStreams },
    private readonly logger: Logger,
  ) {}

  async send(request: IncomingMessage, response: ServerResponse, servable: ServableFile, options: SendOptions): Promise<void> {
    const release = this.deps.streams.open(servable.version);
    if (!release) throw new NotFoundError(`dataset ${servable.version} is no longer available`, { reason: 'version_pruned' });
    let handle: FileHandle | undefined;
    let streaming = false;
    try {
      handle = await openFile(join(this.deps.datasetsDir, servable.version, servable.file.name));
      const stat = await handle.stat();
      if (stat.size !== servable.file.sizeBytes) {
        this.logger.error(
          { version: servable.version, file: servable.file.name, onDisk: stat.size, manifest: servable.file.sizeBytes },
          'file size differs from its manifest; not served',
        );
        throw new UnavailableError('the file is not available right now', { reason: 'file_mismatch' });
      }
      const size = stat.size;
      const etag = `"${servable.file.sha256}"`;
      const lastModified = stat.mtime.toUTCString();
      response.setHeader('accept-ranges', 'bytes');
      response.setHeader('etag', etag);
      response.setHeader('last-modified', lastModified);
      response.setHeader('content-type', servable.entry.contentType);
      response.setHeader('content-disposition', `attachment; filename="${servable.file.name}"`);
      response.setHeader('cache-control', options.cacheControl);
      const header = request.headers.range;
      const range =
        header !== undefined && ifRangeMatches(headerText(request, 'if-range'), etag, lastModified)
          ? resolveRange(header, size)
          : { kind: 'full' as const };
      if (range.kind === 'unsatisfiable') {
        response.setHeader('content-range', `bytes */${size}`);
        sendJson(response, 416, {
          status: 416,
          error: 'range_not_satisfiable',
          message: `the requested range is not satisfiable for a file of ${size} bytes`,
        });
        return;
      }
      const start = range.kind === 'partial' ? range.start : 0;
      const end = range.kind === 'partial' ? range.end : size - 1;
      const status = range.kind === 'partial' ? 206 : 200;
      if (range.kind === 'partial') response.setHeader('content-range', `bytes ${start}-${end}/${size}`);
      response.setHeader('content-length', String(end - start + 1));
      if (request.method === 'HEAD') {
        response.writeHead(status);
        response.end();
        return;
      }
      await options.beforeBody?.();
      response.writeHead(status);
      if (size === 0) {
        response.end();
        return;
      }
      // The stream owns the handle from here: it closes the descriptor when it ends or is destroyed.
      const stream = handle.createReadStream({ start, end, autoClose: true });
      streaming = true;
      stream.once('close', release);
      try {
        await pipeline(stream, response);
      } catch (error) {
        // The client went away (or the disk failed): the pipeline destroyed the stream, which closed the file.
        this.logger.debug({ version: servable.version, file: servable.file.name, reason: errorText(error) }, 'download cut');
        if (!response.destroyed) response.destroy();
      }
    } finally {
      if (!streaming) {
        release();
        await handle?.close();
      }
    }
  }
}

async function openFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new NotFoundError('file not found', { reason: 'file_not_found' });
    throw error;
  }
}

function headerText(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
