import { randomBytes } from 'node:crypto';

/** Opaque ids with a type prefix (ord_, sub_, inv_, chg_), readable in logs and support tickets. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
