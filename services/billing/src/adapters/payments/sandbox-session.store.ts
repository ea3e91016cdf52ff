import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';

export type SandboxSessionStatus = 'open' | 'paying' | 'paid' | 'canceled';

/** What the sandbox "provider" remembers about one hosted checkout. */
export interface SandboxSession {
  providerRef: string;
  orderId: string;
  description: string;
  amountMinor: number;
  currency: string;
  returnUrl: string;
  expiresAt: Date;
  status: SandboxSessionStatus;
  createdAt: Date;
}

type SessionDoc = Omit<SandboxSession, 'providerRef'> & { _id: string };

const schema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    orderId: { type: String, required: true },
    description: String,
    amountMinor: Number,
    currency: String,
    returnUrl: String,
    expiresAt: Date,
    status: { type: String, required: true },
    createdAt: Date,
  },
  { collection: 'sandbox_checkouts', versionKey: false },
);

interface ClaimDoc {
  _id: string;
  claimedAt: Date;
}

const claimSchema = new Schema<ClaimDoc>(
  { _id: { type: String, required: true }, claimedAt: { type: Date, required: true } },
  { collection: 'sandbox_checkout_claims', versionKey: false },
);

/** The sandbox provider's own storage (it plays an outside party, so it keeps its own records). */
export class SandboxSessionStore {
  private readonly model: Model<SessionDoc>;
  private readonly claims: Model<ClaimDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<SessionDoc>('SandboxCheckout', schema);
    this.claims = connection.model<ClaimDoc>('SandboxCheckoutClaim', claimSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
    await this.claims.createIndexes();
  }

  /**
   * Takes the one right to complete a checkout: an insert keyed by the session, so of two
   * concurrent Pay clicks exactly one wins. A primary key is atomic on MongoDB and FerretDB
   * alike; a conditional status update is not on FerretDB (it loses concurrent updates).
   */
  async claim(providerRef: string, at: Date): Promise<boolean> {
    try {
      await this.claims.collection.insertOne({ _id: providerRef, claimedAt: at } as never);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Gives the claim back (the merchant did not confirm; the buyer may try again). */
  async release(providerRef: string): Promise<void> {
    await this.claims.collection.deleteOne({ _id: providerRef } as never);
  }

  async insert(session: SandboxSession): Promise<void> {
    const { providerRef, ...rest } = session;
    await this.model.collection.insertOne({ _id: providerRef, ...rest } as never);
  }

  async get(providerRef: string): Promise<SandboxSession | null> {
    const doc = await this.model.findById(providerRef).lean<SessionDoc>();
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return { providerRef: _id, ...rest };
  }

  /** Atomic status change; false when the session was not in `from` (double click, second tab). */
  async transition(providerRef: string, from: SandboxSessionStatus, to: SandboxSessionStatus): Promise<boolean> {
    const result = await this.model.updateOne({ _id: providerRef, status: from }, { $set: { status: to } });
    return result.modifiedCount === 1;
  }
}
