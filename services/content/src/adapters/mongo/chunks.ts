/**
 * FerretDB hangs on update commands with ~100+ statements: bulk writes go in chunks of this size.
 */
export const BULK_CHUNK = 20;

export function chunks<T>(items: readonly T[], size = BULK_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
