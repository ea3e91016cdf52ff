/**
 * A source file is missing or malformed. The CLI prints it as one line,
 * `dataset: <path>: <problem>`, and exits 1.
 */
export class SourceError extends Error {
  override name = 'SourceError';

  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

/** The usual file-system errors as a short problem text for a SourceError. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'not found';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a folder, expected a file';
  if (code === 'ENOTDIR') return 'is a file, expected a folder';
  return error instanceof Error ? error.message : String(error);
}
