import { ConflictError } from '../errors/domain-errors.js';

interface MongoServerErrorLike {
  code?: unknown;
  keyValue?: Record<string, unknown>;
  keyPattern?: Record<string, unknown>;
  message?: unknown;
}

export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as MongoServerErrorLike).code === 11000;
}

/**
 * Which fields collided. MongoDB reports keyPattern/keyValue; FerretDB only the message, which
 * names the index ("index: email_1"), so both are read.
 */
export function duplicateKeyFields(error: unknown): string[] {
  const e = error as MongoServerErrorLike;
  const fromPattern = Object.keys(e.keyPattern ?? e.keyValue ?? {});
  if (fromPattern.length > 0) return fromPattern;
  const message = typeof e.message === 'string' ? e.message : '';
  const index = /index: ([A-Za-z0-9_.-]+)/.exec(message)?.[1];
  if (index === undefined) return [];
  // Default index names are field_direction pairs joined by underscores: "email_1", "a_1_b_-1".
  return index.split(/_-?1(?:_|$)/).filter((part) => part.length > 0);
}

export interface DuplicateKeyOptions {
  /**
   * The unique fields the write can collide on. Used when the server does not say which index
   * was violated (FerretDB's E11000 names only the collection).
   */
  uniqueFields?: readonly string[];
  /** Builds the caller-facing message; default `already exists: <fields>`. */
  describe?: (fields: readonly string[]) => { message: string; reason: string };
}

/**
 * Runs a write and turns a unique-index violation into a ConflictError naming the fields, e.g.
 * `already exists: email`. Other errors pass through unchanged.
 */
export async function translateDuplicateKey<T>(write: () => Promise<T>, options: DuplicateKeyOptions = {}): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const reported = duplicateKeyFields(error);
    const fields = reported.length > 0 ? reported : [...(options.uniqueFields ?? [])];
    const { message, reason } = (options.describe ?? defaultDescription)(fields);
    throw new ConflictError(message, { reason, details: { fields: fields.join(',') }, cause: error });
  }
}

function defaultDescription(fields: readonly string[]) {
  return { message: `already exists: ${fields.join(' or ') || 'unique value'}`, reason: 'duplicate' };
}
