import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@ipdata/common';

/** One fail-open grant: enough to count it later, in the month and day it was given. */
export interface JournalEntry {
  requestId: string;
  accountId: string;
  keyId: string;
  count: number;
  /** ISO time of the grant. */
  at: string;
  /** An API request's grant: the store call that timed out and the request's place in it. */
  call?: string;
  index?: number;
}

const ACTIVE = '.active.ndjson';
const PENDING = '.pending.ndjson';

/**
 * Append-only files of the grants given while Redis did not answer. Each QuotaService instance
 * writes its own `<host>~<pid>~<random>.active.ndjson`, so processes sharing the directory never
 * write one file. To replay, the owner closes its active file into a numbered `.pending` segment
 * (new grants go to a fresh active file) and also claims, by an atomic rename, the files of
 * processes on this host that are gone (killed mid-outage). A segment is deleted only after
 * Redis counted all of it; counting is idempotent by request id, so a crash between the two
 * makes a second replay harmless. Appends go through the kernel before the grant is answered, so
 * a SIGKILL loses nothing answered (a power cut may lose the page cache: no fsync per grant).
 */
export class QuotaJournal {
  readonly instanceId: string;
  private readonly host: string;
  private chain: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | undefined;
  private seq = 0;
  /** The active file has grants not yet moved into a segment. */
  private activeHasData = false;
  /** Segments handed out by `segments()` and not removed yet. */
  private readonly segmentsLeft = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {
    this.host = hostname().replace(/[^A-Za-z0-9-]/g, '-');
    this.instanceId = `${this.host}~${process.pid}~${randomUUID().slice(0, 8)}`;
  }

  /** Something written or claimed may not be in Redis yet. */
  get pending(): boolean {
    return this.activeHasData || this.segmentsLeft.size > 0;
  }

  /** Resolves once the entries are in the file; rejects if they cannot be written. */
  append(entries: readonly JournalEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const text = entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n';
    return this.serialized(async () => {
      await this.ensureDir();
      await appendFile(join(this.dir, this.instanceId + ACTIVE), text, { mode: 0o600 });
      this.activeHasData = true;
    });
  }

  /** Closes the active file and claims orphaned ones; answers this instance's segments to replay, oldest first. */
  segments(): Promise<string[]> {
    return this.serialized(async () => {
      await this.ensureDir();
      await this.moveIfPresent(join(this.dir, this.instanceId + ACTIVE), this.nextSegment());
      this.activeHasData = false;
      for (const name of await readdir(this.dir)) {
        if (!name.endsWith(ACTIVE) && !name.endsWith(PENDING)) continue;
        const owner = name.split('.')[0] ?? '';
        if (owner === this.instanceId || !this.isOrphan(owner)) continue;
        if (await this.moveIfPresent(join(this.dir, name), this.nextSegment())) {
          this.logger.warn({ file: name }, 'claimed the quota journal of a process that is gone');
        }
      }
      const mine = (await readdir(this.dir)).filter((name) => name.startsWith(this.instanceId + '.') && name.endsWith(PENDING));
      // Same prefix and fixed-width numbers: name order is write order.
      mine.sort();
      const files = mine.map((name) => join(this.dir, name));
      for (const file of files) this.segmentsLeft.add(file);
      return files;
    });
  }

  async read(file: string): Promise<JournalEntry[]> {
    const entries: JournalEntry[] = [];
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        const callOk = entry.call === undefined || (typeof entry.call === 'string' && Number.isSafeInteger(entry.index));
        if (
          typeof entry.requestId === 'string' &&
          Number.isSafeInteger(entry.count) &&
          !Number.isNaN(Date.parse(entry.at)) &&
          callOk
        ) {
          entries.push(entry);
          continue;
        }
      } catch {
        // falls through: a line cut short by a crash mid-write
      }
      this.logger.warn({ file }, 'skipped an unreadable quota journal line');
    }
    return entries;
  }

  async remove(file: string): Promise<void> {
    await rm(file, { force: true });
    this.segmentsLeft.delete(file);
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const result = this.chain.then(task);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private ensureDir(): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    );
    return this.ready;
  }

  private nextSegment(): string {
    this.seq++;
    return join(this.dir, `${this.instanceId}.${Date.now()}${String(this.seq).padStart(6, '0')}${PENDING}`);
  }

  private async moveIfPresent(from: string, to: string): Promise<boolean> {
    try {
      await rename(from, to);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Only files of this host can be judged: another host's process may still be writing. */
  private isOrphan(owner: string): boolean {
    const [host, pidText] = owner.split('~');
    const pid = Number(pidText);
    if (host !== this.host || !Number.isSafeInteger(pid) || pid <= 0) return false;
    if (pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
}
