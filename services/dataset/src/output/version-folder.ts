import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WrittenFile } from './hashed-file.js';

export const MANIFEST = 'manifest.json';
export const CURRENT = 'current';

/** True when `folder` holds a manifest and every file it lists, at the listed size. */
export function isCompleteVersion(folder: string): boolean {
  const manifestPath = join(folder, MANIFEST);
  if (!existsSync(manifestPath)) return false;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files?: WrittenFile[] };
    if (!Array.isArray(manifest.files) || manifest.files.length === 0) return false;
    return manifest.files.every((file) => {
      const path = join(folder, file.name);
      return existsSync(path) && statSync(path).size === file.size;
    });
  } catch {
    return false;
  }
}

/** A fresh temporary folder beside the final one (same file system, so rename is atomic). */
export function temporaryFolder(root: string, version: string): string {
  mkdirSync(root, { recursive: true });
  const folder = join(root, `.tmp-${version}-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  return folder;
}

/** Moves the finished temporary folder into place; an existing version folder (--force) is replaced. */
export function publishFolder(temporary: string, final: string): void {
  if (existsSync(final)) {
    const old = `${final}.old-${process.pid}`;
    renameSync(final, old);
    renameSync(temporary, final);
    rmSync(old, { recursive: true, force: true });
  } else {
    renameSync(temporary, final);
  }
}

/** Points `<root>/current` at a version: a one-line file, replaced atomically. */
export function writeCurrent(root: string, version: string): void {
  const temporary = join(root, `.${CURRENT}-${process.pid}`);
  writeFileSync(temporary, `${version}\n`);
  renameSync(temporary, join(root, CURRENT));
}

export function readCurrent(root: string): string | null {
  try {
    return readFileSync(join(root, CURRENT), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
