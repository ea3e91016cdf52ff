import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

export interface WrittenFile {
  /** Path relative to the version folder. */
  name: string;
  size: number;
  sha256: string;
  /** Data rows (CSV/NDJSON files), absent for other files. */
  rows?: number;
}

const CHUNK = 1 << 20;

/** Buffered synchronous file writer that hashes and counts what it writes. */
export class HashedFile {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  private parts: string[] = [];
  private pending = 0;
  private size = 0;

  constructor(
    path: string,
    private readonly name: string,
  ) {
    this.fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= CHUNK) this.flush();
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush();
    this.hash.update(bytes);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset);
    this.size += bytes.length;
  }

  close(rows?: number): WrittenFile {
    this.flush();
    closeSync(this.fd);
    return { name: this.name, size: this.size, sha256: this.hash.digest('hex'), ...(rows === undefined ? {} : { rows }) };
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    const bytes = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.pending = 0;
    this.hash.update(bytes);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset);
    this.size += bytes.length;
  }
}
