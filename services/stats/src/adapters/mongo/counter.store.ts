import type { Collection, Connection } from 'mongoose';
import { UnavailableError, isDuplicateKeyError, type Logger } from '@ipdata/common';
import type { ApplyResult, CounterDocDelta, CounterIncrement, CounterStore } from '../../counters/counter-delta.js';
import type { CounterDoc, CounterQuery, CounterReader } from '../../counters/counter-query.js';

/** A counter document as stored: `{ _id, p, wm, ...dims, c }` (DESIGN-12). */
interface StoredCounterDoc {
  _id: string;
  p: number;
  wm: number;
  c: Record<string, number>;
  [dim: string]: unknown;
}

/** The driver's bulk operation type, as mongoose's collection takes it. */
type CounterWrite = Parameters<Collection<StoredCounterDoc>['bulkWrite']>[0][number];

/** Conflicting writers (a zombie consumer after a rebalance, a replay swap) settle within a few rounds. */
const MAX_WRITE_ROUNDS = 5;

/** Σ of the increments above the watermark, and the highest such offset (undefined: nothing new). */
function incrementsAbove(
  increments: readonly CounterIncrement[],
  wm: number,
): { inc: Record<string, number>; top?: number; skipped: number } {
  const inc: Record<string, number> = {};
  let top: number | undefined;
  let skipped = 0;
  for (const increment of increments) {
    if (increment.offset <= wm) {
      skipped++;
      continue;
    }
    for (const [name, amount] of Object.entries(increment.inc)) inc[name] = (inc[name] ?? 0) + amount;
    if (top === undefined || increment.offset > top) top = increment.offset;
  }
  return top === undefined ? { inc, skipped } : { inc, top, skipped };
}

function prefixed(inc: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, amount] of Object.entries(inc)) out[`c.${name}`] = amount;
  return out;
}

/**
 * FerretDB 1.24 keeps one pooled SQLite connection (of 100 per database) per statement of an
 * `update` command until the command ends: ~100 statements in one command hang the database.
 * So updates go in small commands, one after another (inserts are not affected).
 */
const UPDATES_PER_COMMAND = 20;

/** How many operations took effect, and whether some lost to another writer. */
async function bulkApply(
  collection: Collection<StoredCounterDoc>,
  inserts: CounterWrite[],
  updates: CounterWrite[],
): Promise<{ done: number; conflicts: boolean }> {
  let done = 0;
  let conflicts = false;
  const commands = [inserts];
  for (let i = 0; i < updates.length; i += UPDATES_PER_COMMAND) commands.push(updates.slice(i, i + UPDATES_PER_COMMAND));
  for (const ops of commands) {
    if (ops.length === 0) continue;
    try {
      const result = await collection.bulkWrite(ops, { ordered: false });
      const applied = result.matchedCount + result.insertedCount;
      done += applied;
      if (applied < ops.length) conflicts = true;
    } catch (error) {
      // ordered:false: the other operations were applied; a duplicate _id means another writer created the document first.
      const bulk = error as { writeErrors?: unknown[]; result?: { matchedCount: number; insertedCount: number } };
      const writeErrors = Array.isArray(bulk.writeErrors) ? bulk.writeErrors : [];
      if (writeErrors.length === 0 || !writeErrors.every(isDuplicateKeyError) || !bulk.result) throw error;
      done += bulk.result.matchedCount + bulk.result.insertedCount;
      conflicts = true;
    }
  }
  return { done, conflicts };
}

/**
 * One collection of counter documents written with per-document watermarks (counter-delta.ts).
 * A round: read the `wm` of every touched document in one find, keep per document the increments
 * above it, then one unordered bulk write — an update guarded by the old `wm` for documents that
 * exist, an insert for new ones. An update that matched nothing or an insert that hit an
 * existing `_id` means someone else wrote the document meanwhile: read again and redo (the
 * watermarks make the redo skip what did land). Updates go in commands of at most
 * UPDATES_PER_COMMAND statements (FerretDB, see there). One writer per document (the partition's
 * consumer) is also what FerretDB needs: it loses concurrent updates to one document.
 */
export class MongoCounterStore implements CounterStore {
  private ferretDb: Promise<boolean> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly collectionNameOf: () => string,
    private readonly logger: Logger,
  ) {}

  get collectionName(): string {
    return this.collectionNameOf();
  }

  async createIndexes(specs: ReadonlyArray<Readonly<Record<string, 1 | -1>>>): Promise<void> {
    const collection = this.connection.collection(this.collectionName);
    for (const spec of specs) await collection.createIndex({ ...spec });
  }

  async apply(partition: number, deltas: readonly CounterDocDelta[]): Promise<ApplyResult> {
    if (deltas.length === 0) return { written: 0, skippedIncrements: 0 };
    // Resolved once: a whole round goes to one generation even if a swap happens meanwhile.
    const name = this.collectionName;
    const collection = this.connection.collection<StoredCounterDoc>(name);
    const guarded = !(await this.isFerretDb());
    let written = 0;
    let skippedIncrements = 0;
    for (let round = 1; round <= MAX_WRITE_ROUNDS; round++) {
      const watermarks = await this.readWatermarks(collection, deltas);
      const inserts: CounterWrite[] = [];
      const updates: CounterWrite[] = [];
      for (const delta of deltas) {
        const wm = watermarks.get(delta.id);
        const { inc, top, skipped } = incrementsAbove(delta.increments, wm ?? -1);
        // Later rounds skip what the earlier rounds of this call wrote: not re-deliveries.
        if (round === 1) skippedIncrements += skipped;
        if (top === undefined) continue;
        if (wm === undefined) {
          inserts.push({ insertOne: { document: { ...delta.dims, _id: delta.id, p: partition, wm: top, c: inc } } });
        } else {
          // $inc must not be empty (a fold may emit an increment without counters).
          const update = Object.keys(inc).length > 0 ? { $inc: prefixed(inc), $set: { wm: top } } : { $set: { wm: top } };
          updates.push({
            updateOne: { filter: guarded ? { _id: delta.id, wm } : { _id: delta.id }, update: update as Record<string, unknown> },
          });
        }
      }
      if (inserts.length + updates.length === 0) return { written, skippedIncrements };
      const { done, conflicts } = await bulkApply(collection, inserts, updates);
      written += done;
      if (!conflicts) return { written, skippedIncrements };
      this.logger.warn(
        { collection: name, partition, round, ops: inserts.length + updates.length, done },
        'counter documents changed meanwhile, re-reading',
      );
    }
    throw new UnavailableError(
      `counter documents of ${name} (partition ${partition}) kept changing under ${MAX_WRITE_ROUNDS} write rounds`,
    );
  }

  /**
   * FerretDB 1.24 pushes a filter down to SQLite only when it is exactly `{_id}`: the `wm` guard
   * would make every update decode the whole collection. Its updates are not atomic either, so
   * the guard could not stop a second writer there anyway; one writer per partition is what
   * keeps the counts right on FerretDB. Real MongoDB keeps the guard (a zombie consumer after a
   * rebalance matches nothing and re-reads).
   */
  private isFerretDb(): Promise<boolean> {
    this.ferretDb ??= (async () => {
      try {
        const info = await this.connection.db!.admin().command({ buildInfo: 1 });
        return typeof info['ferretdbVersion'] === 'string';
      } catch {
        return false;
      }
    })();
    return this.ferretDb;
  }

  private async readWatermarks(
    collection: Collection<StoredCounterDoc>,
    deltas: readonly CounterDocDelta[],
  ): Promise<Map<string, number>> {
    const docs = await collection
      .find({ _id: { $in: deltas.map((delta) => delta.id) } }, { projection: { _id: 1, wm: 1 } })
      .toArray();
    return new Map(docs.map((doc) => [doc._id, doc.wm]));
  }
}

/** Reads counter documents of a collection resolved per call (a replay swap needs no restart). */
export class MongoCounterReader implements CounterReader {
  constructor(
    private readonly connection: Connection,
    private readonly collectionNameOf: () => string,
  ) {}

  async find(query: CounterQuery): Promise<CounterDoc[]> {
    const collection = this.connection.collection<StoredCounterDoc>(this.collectionNameOf());
    const docs = await collection.find({ ...query.equals, periodStart: { $gte: query.from, $lt: query.to } }).toArray();
    return docs.map((doc) => {
      const { _id, p, wm, c, periodStart, ...dims } = doc;
      void wm;
      return {
        id: _id,
        partition: p,
        periodStart: periodStart as Date,
        dims: dims as Record<string, string | number | Date>,
        c: c ?? {},
      };
    });
  }
}
