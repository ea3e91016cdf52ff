import type { Connection } from 'mongoose';
import type { RollupCollections } from '../../counters/rollup-generation.js';
import type { RollupIndexes } from './rollup-collections.admin.js';

/** The indexes of the rollup collections: the queries read by account or kind, granularity and period. */
export const ROLLUP_INDEXES: RollupIndexes = {
  usage: [
    { accountId: 1, g: 1, periodStart: 1 },
    { g: 1, periodStart: 1 },
  ],
  trends: [{ kind: 1, g: 1, periodStart: 1 }],
};

/** visit_rollups: read by site and day. */
export const VISIT_INDEXES = [{ site: 1, periodStart: 1 }] as const;

/** Creates the indexes of a generation's collections (idempotent: existing ones stay). */
export async function ensureRollupIndexes(connection: Connection, collections: RollupCollections): Promise<void> {
  for (const spec of ROLLUP_INDEXES.usage) await connection.collection(collections.usage).createIndex({ ...spec });
  for (const spec of ROLLUP_INDEXES.trends) await connection.collection(collections.trends).createIndex({ ...spec });
}
