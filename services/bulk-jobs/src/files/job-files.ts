import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ResultFormat } from '../jobs/bulk-job.js';
import { splitLines } from '../input/line-splitter.js';

/** Where a job's files live: `<directory>/<jobId>/input` and `<directory>/<jobId>/result.<format>`. */
export class JobFiles {
  constructor(readonly directory: string) {}

  async ensureDirectory(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
  }

  jobDirectory(jobId: string): string {
    return join(this.directory, jobId);
  }

  inputPath(jobId: string): string {
    return join(this.directory, jobId, 'input');
  }

  resultPath(jobId: string, format: ResultFormat): string {
    return join(this.directory, jobId, `result.${format}`);
  }

  async createJobDirectory(jobId: string): Promise<void> {
    await mkdir(this.jobDirectory(jobId), { recursive: true });
  }

  async remove(jobId: string): Promise<void> {
    await rm(this.jobDirectory(jobId), { recursive: true, force: true });
  }

  /** Job directories last changed before `before` (orphans of a submit that died before its job was stored). */
  async directoriesOlderThan(before: Date): Promise<string[]> {
    const entries = await readdir(this.directory, { withFileTypes: true }).catch(() => []);
    const old: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const info = await stat(join(this.directory, entry.name)).catch(() => undefined);
      if (info && info.mtime < before) old.push(entry.name);
    }
    return old;
  }

  async sizeOf(path: string): Promise<number | undefined> {
    const info = await stat(path).catch(() => undefined);
    return info?.size;
  }

  openRead(path: string, end: number): Readable {
    // `end` is inclusive; an empty file needs a range that reads nothing.
    return end === 0 ? createReadStream(path, { start: 1, end: 0 }) : createReadStream(path, { start: 0, end: end - 1 });
  }
}

/** A write stream that respects back-pressure, so a fast upload never piles up in memory. */
export class TextFileWriter {
  private readonly stream: WriteStream;
  private pending = '';
  bytes = 0;

  constructor(private readonly path: string) {
    this.stream = createWriteStream(path, { flags: 'w' });
  }

  async writeLine(text: string): Promise<void> {
    this.pending += text + '\n';
    if (this.pending.length >= 64 * 1024) await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }

  /**
   * Stops writing and removes the partial file. Waits for the stream to close first: the file is
   * opened on libuv's thread pool, so an open still under way would otherwise create the file
   * after the caller has moved on (and, say, removed its directory).
   */
  async discard(): Promise<void> {
    if (!this.stream.closed) {
      const closed = once(this.stream, 'close').catch(() => undefined);
      this.stream.destroy();
      await closed;
    }
    await rm(this.path, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.pending === '') return;
    const chunk = Buffer.from(this.pending);
    this.pending = '';
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}

export interface InputChunk {
  index: number;
  lines: string[];
  /** Byte offset in the input file right after this chunk's last line. */
  endOffset: number;
}

/**
 * Reads the job's input file from a checkpointed byte offset in chunks of `chunkSize` lines. The
 * file was written by the engine (one value per line, LF, valid UTF-8), so the byte length of a
 * line is the UTF-8 length of its text plus one.
 */
export async function* readInputChunks(
  path: string,
  fromOffset: number,
  firstIndex: number,
  chunkSize: number,
): AsyncGenerator<InputChunk> {
  const stream = createReadStream(path, { start: fromOffset, highWaterMark: 256 * 1024 });
  let offset = fromOffset;
  let index = firstIndex;
  let lines: string[] = [];
  try {
    for await (const batch of splitLines(stream as AsyncIterable<Buffer>, Number.MAX_SAFE_INTEGER)) {
      for (const line of batch) {
        lines.push(line);
        offset += Buffer.byteLength(line) + 1;
        if (lines.length === chunkSize) {
          yield { index, lines, endOffset: offset };
          index++;
          lines = [];
        }
      }
    }
    if (lines.length > 0) yield { index, lines, endOffset: offset };
  } finally {
    stream.destroy();
  }
}

/** The result file, written at explicit positions so a resumed job overwrites what its checkpoint does not cover. */
export class ResultFile {
  private constructor(
    private readonly handle: FileHandle,
    private position: number,
  ) {}

  /** Opens (creating it) and cuts it back to `length`, the last checkpoint's byte count. */
  static async openAt(path: string, length: number): Promise<ResultFile> {
    const handle = await open(path, 'a+').then(async (h) => {
      await h.close();
      return open(path, 'r+');
    });
    await handle.truncate(length);
    return new ResultFile(handle, length);
  }

  get bytes(): number {
    return this.position;
  }

  async appendLines(lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    const data = Buffer.from(lines.join('\n') + '\n');
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written, this.position + written);
      written += bytesWritten;
    }
    this.position += data.length;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
