import type { Collection, Connection } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { AccountPlan, AccountPlans } from '../../usage/account-plan.js';

type PlanDoc = Omit<AccountPlan, 'accountId'> & { _id: string };

/** `account_plans`: one document per account, the latest API plan change billing announced. */
export class MongoAccountPlans implements AccountPlans {
  private readonly collection: Collection<PlanDoc>;

  constructor(connection: Connection) {
    this.collection = connection.collection<PlanDoc>('account_plans');
  }

  async record(plan: AccountPlan): Promise<void> {
    const { accountId, ...fields } = plan;
    try {
      // Guarded by the change time: a re-delivered or older event changes nothing. When the stored
      // change is newer, the filter misses and the upsert's insert collides with _id: ignored.
      await this.collection.updateOne(
        { _id: accountId, $or: [{ changedAt: { $lte: plan.changedAt } }, { changedAt: { $exists: false } }] },
        { $set: fields },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async get(accountId: string): Promise<AccountPlan | null> {
    const doc = await this.collection.findOne({ _id: accountId });
    if (!doc) return null;
    const { _id, ...fields } = doc;
    return { accountId: _id, ...fields };
  }
}
