import type { Collection, Connection } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { Entitlement, EntitlementStore } from '../../entitlements/entitlement.js';

type EntitlementDoc = Omit<Entitlement, 'accountId'> & { _id: string };

/** `download_entitlements`: one document per account (its latest data-download plan change), read by _id. */
export class MongoEntitlementStore implements EntitlementStore {
  private readonly collection: Collection<EntitlementDoc>;

  constructor(connection: Connection) {
    this.collection = connection.collection<EntitlementDoc>('download_entitlements');
  }

  async record(entitlement: Entitlement): Promise<void> {
    const { accountId, ...fields } = entitlement;
    try {
      // Guarded by the change time: a re-delivered or older event changes nothing (then the
      // filter misses and the upsert's insert collides on _id, which is ignored).
      await this.collection.updateOne(
        { _id: accountId, changedAt: { $lte: entitlement.changedAt } },
        { $set: fields },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async get(accountId: string): Promise<Entitlement | null> {
    const doc = await this.collection.findOne({ _id: accountId });
    if (!doc) return null;
    return { accountId: doc._id, planId: doc.planId, datasets: doc.datasets, changedAt: doc.changedAt };
  }
}
