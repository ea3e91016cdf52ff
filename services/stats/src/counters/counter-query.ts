/**
 * Reading counter documents (counter-delta.ts) without building database filters in domain code:
 * the queries, closing and reconciliation say which dimension values they want and which period
 * range; the adapter (adapters/mongo/counter.store.ts) turns that into its own query.
 */

export interface CounterQuery {
  /** Dimension fields that must be equal (accountId, apiKeyId, channel, g, kind, ...). */
  equals: Readonly<Record<string, string | number>>;
  /** periodStart ≥ from. */
  from: Date;
  /** periodStart < to. */
  to: Date;
}

/** One counter document as read back: its dimensions and counters. */
export interface CounterDoc {
  id: string;
  /** The source partition that writes it. */
  partition: number;
  periodStart: Date;
  /** Every other field but the counters and the watermark (accountId, g, channel, ...). */
  dims: Readonly<Record<string, string | number | Date>>;
  /** Counter name → value. */
  c: Readonly<Record<string, number>>;
}

/** Port: reads one collection of counter documents (the collection may change with a replay). */
export interface CounterReader {
  find(query: CounterQuery): Promise<CounterDoc[]>;
}

/** Σ of each counter over documents (e.g. one bucket's documents of every partition). */
export function sumCounters(docs: Iterable<Pick<CounterDoc, 'c'>>, into: Record<string, number> = {}): Record<string, number> {
  for (const doc of docs) {
    for (const [name, value] of Object.entries(doc.c)) into[name] = (into[name] ?? 0) + value;
  }
  return into;
}
