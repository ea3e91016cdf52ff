/** One file of a version folder, as its manifest.json describes it. */
export interface VersionFile {
  /** Path relative to the version folder. */
  name: string;
  sizeBytes: number;
  sha256: string;
  /** Data rows, ranges (binary format) or networks (MMDB); 0 when unknown. */
  rows: number;
}

/** A dataset version downloads knows about (published by event or found at start-up). */
export interface DatasetVersion {
  version: string;
  builtAt: Date;
  /** When downloads learned about it (pruning keeps the newest known). */
  publishedAt: Date;
  files: VersionFile[];
}

/**
 * Version names are folder names under DATASETS_DIR (`2026.09.16-f64a5fa7`): letters, digits,
 * dots, dashes and underscores, never `.` or `..`, so a name can never leave the folder.
 */
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function isVersionName(name: string): boolean {
  return VERSION_NAME.test(name) && !name.includes('..');
}

const SHA256 = /^[0-9a-f]{64}$/;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

/**
 * Parses manifest.json of a version folder (services/dataset, `Manifest`). Throws a plain Error
 * naming the first problem; what is not needed here (sources, rule counts) is ignored. The binary
 * format's row count is its range count (IPv4 + IPv6), which the manifest keeps under `counts`.
 */
export function parseManifest(text: string, folderName: string, publishedAt: Date): DatasetVersion {
  const manifest = JSON.parse(text) as unknown;
  if (typeof manifest !== 'object' || manifest === null) throw new Error('manifest.json is not an object');
  const record = manifest as Record<string, unknown>;
  const version = record['datasetVersion'];
  if (typeof version !== 'string' || version !== folderName) {
    throw new Error(`manifest.json names version ${String(version)}, the folder is ${folderName}`);
  }
  const builtAt = new Date(String(record['builtAt']));
  if (Number.isNaN(builtAt.getTime())) throw new Error('manifest.json: builtAt is not a date');
  const counts = (record['counts'] ?? {}) as Record<string, unknown>;
  const ranges = Number(counts['ipv4Ranges'] ?? 0) + Number(counts['ipv6Ranges'] ?? 0);
  const formatFile = (record['format'] as Record<string, unknown> | undefined)?.['file'];
  if (!Array.isArray(record['files'])) throw new Error('manifest.json: files is not a list');
  const files = record['files'].map((raw: unknown, index): VersionFile => {
    const file = (raw ?? {}) as Record<string, unknown>;
    const name = file['name'];
    const size = file['size'];
    const sha256 = file['sha256'];
    if (typeof name !== 'string' || !FILE_NAME.test(name) || name.split('/').includes('..')) {
      throw new Error(`manifest.json: files[${index}].name is not a file name`);
    }
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      throw new Error(`manifest.json: files[${index}].size is not a size`);
    }
    if (typeof sha256 !== 'string' || !SHA256.test(sha256))
      throw new Error(`manifest.json: files[${index}].sha256 is not a sha256`);
    const rows = typeof file['rows'] === 'number' ? file['rows'] : name === formatFile ? ranges : 0;
    return { name, sizeBytes: size, sha256, rows: Number.isSafeInteger(rows) && rows >= 0 ? rows : 0 };
  });
  return { version, builtAt, publishedAt, files };
}
