import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError } from '@ipdata/common';

const LOCK_FILE = 'ledger.lock';

/** Directories this process holds: a pid file naming our own pid is ours only if we wrote it. */
const heldHere = new Set<string>();

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One process per journal directory: two writers would interleave segment numbers and each
 * would delete segments the other has not sent. A pid file (`ledger.lock`, created exclusively)
 * marks the owner; a file left by a process that no longer runs (SIGKILL, power cut) is stale
 * and taken over. A pid equal to ours that this process did not write is stale too: in a
 * container every restart is pid 1 again.
 */
export class DirectoryLock {
  private released = false;

  private constructor(readonly path: string) {}

  static acquire(dir: string): DirectoryLock {
    const path = join(dir, LOCK_FILE);
    if (heldHere.has(path)) throw new ConflictError(`usage ledger directory ${dir} is already in use by this process`);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        heldHere.add(path);
        return new DirectoryLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = Number.parseInt(readPid(path), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processIsAlive(owner)) {
        throw new ConflictError(`usage ledger directory ${dir} is in use by process ${owner} (${path})`);
      }
      // Stale: remove it and race for it again with O_EXCL, so of two starting processes one wins.
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    throw new ConflictError(`usage ledger directory ${dir}: could not take ${path}`);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.path);
    try {
      if (readPid(this.path).trim() === String(process.pid)) unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function readPid(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
