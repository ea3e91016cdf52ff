/**
 * The one write primitive of stats: counter documents, each written by exactly one source
 * partition, that remember the highest source offset applied to them (the watermark `wm`).
 *
 * Why: FerretDB has no multi-document transactions, and a crash can fall between "counted" and
 * "offset committed". Every counter document is keyed by the source partition (its id starts with
 * `<partition>|`), so only that partition's consumer writes it, in offset order. A record's
 * increments go to a document only when the record's offset is above the document's `wm`, and
 * the increments and the new `wm` are one single-document update guarded by the old `wm`
 * (optimistic concurrency: a second writer, e.g. a zombie after a rebalance, matches nothing and
 * re-reads). A re-delivered record is therefore a no-op, whatever the batch boundaries were the
 * first time. Readers sum a bucket's documents over partitions.
 */

/** The increments one source record makes to one counter document. */
export interface CounterIncrement {
  /** Offset of the source record in its partition. */
  offset: number;
  /** Counter name (already encoded with counterKey where it holds data) → amount. */
  inc: Readonly<Record<string, number>>;
}

/** Everything a batch adds to one counter document. */
export interface CounterDocDelta {
  /** Document id; starts with `<partition>|` so exactly one partition writes it. */
  id: string;
  /** Fields set when the document is created (dimensions: account, period, ...). */
  dims: Readonly<Record<string, string | number | Date>>;
  /** In offset order. */
  increments: readonly CounterIncrement[];
}

export interface ApplyResult {
  /** Documents written. */
  written: number;
  /** Increments skipped because the document had already seen the record (re-delivery). */
  skippedIncrements: number;
}

/** Port: one collection of counter documents (adapters/mongo/counter.store.ts). */
export interface CounterStore {
  readonly collectionName: string;
  /** Applies each increment at most once per document; safe to call again with the same records. */
  apply(partition: number, deltas: readonly CounterDocDelta[]): Promise<ApplyResult>;
}

/**
 * Makes a data value (endpoint, country, province, page path) usable as a counter field name:
 * MongoDB field names must not contain '.' or start with '$'. Reversible with decodeCounterKey.
 */
export function counterKey(prefix: string, value: string): string {
  return prefix + value.replace(/%/g, '%25').replace(/\./g, '%2E').replace(/\$/g, '%24');
}

/** The value of a counter field named by counterKey(prefix, value), or null for another prefix. */
export function decodeCounterKey(prefix: string, field: string): string | null {
  if (!field.startsWith(prefix)) return null;
  return field.slice(prefix.length).replace(/%2E/g, '.').replace(/%24/g, '$').replace(/%25/g, '%');
}

/** Start of the UTC hour / day / month containing `at`. */
export function hourStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}
export function dayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}
export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
