import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { VersionSource } from '../../catalogue/catalogue.js';
import { isVersionName, parseManifest, type DatasetVersion } from '../../catalogue/dataset-version.js';
import type { VersionFolders } from '../../pruning/version-pruner.js';

/**
 * DATASETS_DIR as the dataset job leaves it: `<root>/current` (one line naming the version) and
 * `<root>/<version>/manifest.json` beside the files. Version names are checked before they become
 * paths, and deletion refuses anything that is not a real folder directly under the root.
 */
export class DatasetFolders implements VersionSource, VersionFolders {
  readonly root: string;

  constructor(datasetsDir: string) {
    this.root = resolve(datasetsDir);
  }

  /** The folder of a version (the name must have passed isVersionName). */
  folderOf(version: string): string {
    if (!isVersionName(version)) throw new Error(`not a dataset version name: ${JSON.stringify(version)}`);
    return join(this.root, version);
  }

  async currentPointer(): Promise<string | null> {
    let text: string;
    try {
      text = await readFile(join(this.root, 'current'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const version = text.trim();
    if (version === '') return null;
    if (!isVersionName(version)) throw new Error(`${join(this.root, 'current')} does not name a version`);
    return version;
  }

  async readVersion(version: string, publishedAt: Date): Promise<DatasetVersion> {
    const text = await readFile(join(this.folderOf(version), 'manifest.json'), 'utf8');
    return parseManifest(text, version, publishedAt);
  }

  async list(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && isVersionName(entry.name)).map((entry) => entry.name);
  }

  async remove(version: string): Promise<void> {
    const folder = this.folderOf(version);
    if (dirname(folder) !== this.root) throw new Error(`refusing to delete ${folder}: not directly under ${this.root}`);
    const info = await lstat(folder);
    // A symlink would make rm delete what it points to elsewhere.
    if (!info.isDirectory() || info.isSymbolicLink()) throw new Error(`refusing to delete ${folder}: not a folder`);
    await rm(folder, { recursive: true, force: false });
  }
}
