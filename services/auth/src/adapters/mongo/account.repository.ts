import {
  outboxEvent,
  outboxUpdate,
  PENDING_EVENTS_INDEX,
  pendingEventsField,
  TOPICS,
  translateDuplicateKey,
  type Clock,
  type OutboxEvent,
} from '@ipdata/common';
import { UserEvent } from '@ipdata/proto/events/v1/user';
import { Schema, type Collection, type Connection, type Model } from 'mongoose';
import type { Account, AccountChanges, AccountRepository, UserEventInput } from '../../accounts/account.js';
import { MESSAGES } from '../../shared/messages.js';

/** Encodes auth.user.v1 events for a document's outbox (key = account id, event time from the domain clock). */
export function userOutboxEvents(events: readonly UserEventInput[], now: Date): OutboxEvent[] {
  return events.map((input) =>
    outboxEvent(
      TOPICS.authUser,
      UserEvent.fromPartial({
        kind: input.kind,
        accountId: input.account.id,
        channel: input.account.channel,
        email: input.account.email,
        apiKeyId: input.apiKeyId ?? '',
      }),
      { key: input.account.id, now },
    ),
  );
}

interface AccountDoc extends Omit<Account, 'id' | 'partner' | 'emailConfirmedAt' | 'passwordChangedAt'> {
  _id: string;
  partner?: { companyName: string; contactName: string; email: string } | null;
  emailConfirmedAt?: Date | null;
  passwordChangedAt?: Date | null;
  pendingEvents?: OutboxEvent[];
}

const accountSchema = new Schema<AccountDoc>(
  {
    _id: { type: String, required: true },
    channel: { type: Number, required: true },
    // One unique sign-in identity per account ("phone:…" / "email:…"): a plain unique index that
    // FerretDB enforces too (no sparse or partial index needed for two optional fields).
    loginId: { type: String, required: true, unique: true },
    phone: { type: String, default: '' },
    email: { type: String, default: '' },
    name: { type: String, default: '' },
    companyName: { type: String, default: '' },
    passwordHash: { type: String, required: true },
    status: { type: String, required: true },
    partner: { type: { companyName: String, contactName: String, email: String, _id: false }, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    emailConfirmedAt: { type: Date, default: null },
    passwordChangedAt: { type: Date, default: null },
    ...pendingEventsField,
  },
  { collection: 'accounts', versionKey: false },
);
accountSchema.index(PENDING_EVENTS_INDEX);
// The pending-sign-up sweep.
accountSchema.index({ status: 1, createdAt: 1 });

function toAccount(doc: AccountDoc): Account {
  return {
    id: doc._id,
    channel: doc.channel,
    loginId: doc.loginId,
    phone: doc.phone ?? '',
    email: doc.email ?? '',
    name: doc.name ?? '',
    companyName: doc.companyName ?? '',
    passwordHash: doc.passwordHash,
    status: doc.status,
    partner: doc.partner
      ? { companyName: doc.partner.companyName, contactName: doc.partner.contactName, email: doc.partner.email ?? '' }
      : undefined,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    emailConfirmedAt: doc.emailConfirmedAt ?? undefined,
    passwordChangedAt: doc.passwordChangedAt ?? undefined,
  };
}

/**
 * Accounts with their events in the same document (`pendingEvents`, common's outbox). After each
 * write `published(id)` sends them at once (OutboxRelay.publishPending, never throws); the relay
 * sends whatever that could not.
 */
export class MongoAccountRepository implements AccountRepository {
  private readonly model: Model<AccountDoc>;

  constructor(
    connection: Connection,
    private readonly clock: Clock,
    private readonly published: (id: string) => Promise<unknown>,
  ) {
    this.model = connection.model<AccountDoc>('Account', accountSchema);
  }

  /** For the OutboxRelay. */
  get collection(): Collection {
    return this.model.collection;
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async insert(account: Account, events: readonly UserEventInput[]): Promise<void> {
    const { id, partner, emailConfirmedAt, passwordChangedAt, ...rest } = account;
    const pendingEvents = userOutboxEvents(events, this.clock.now());
    const email = account.loginId.startsWith('email:');
    await translateDuplicateKey(
      () =>
        this.model.create({
          ...rest,
          _id: id,
          partner: partner ?? null,
          emailConfirmedAt: emailConfirmedAt ?? null,
          passwordChangedAt: passwordChangedAt ?? null,
          pendingEvents,
        }),
      {
        uniqueFields: ['loginId'],
        describe: () =>
          email
            ? { message: MESSAGES.emailTaken, reason: 'email_taken' }
            : { message: MESSAGES.phoneTaken, reason: 'phone_taken' },
      },
    );
    if (pendingEvents.length > 0) await this.published(id);
  }

  async findById(id: string): Promise<Account | undefined> {
    const doc = await this.model.findById(id, { pendingEvents: 0 }).lean<AccountDoc>().exec();
    return doc ? toAccount(doc) : undefined;
  }

  async findByLoginId(loginId: string): Promise<Account | undefined> {
    const doc = await this.model.findOne({ loginId }, { pendingEvents: 0 }).lean<AccountDoc>().exec();
    return doc ? toAccount(doc) : undefined;
  }

  async removePending(id: string): Promise<void> {
    await this.model.deleteOne({ _id: id, status: 'pending' }).exec();
  }

  async deletePendingCreatedBefore(createdBefore: Date): Promise<number> {
    const result = await this.model.deleteMany({ status: 'pending', createdAt: { $lt: createdBefore } }).exec();
    return result.deletedCount;
  }

  async update(id: string, changes: AccountChanges, events: readonly UserEventInput[] = []): Promise<Account | undefined> {
    const pendingEvents = userOutboxEvents(events, this.clock.now());
    const update = pendingEvents.length > 0 ? { $set: changes, ...outboxUpdate(pendingEvents) } : { $set: changes };
    const doc = await this.model
      // No projection: FerretDB's findAndModify does not support one.
      .findByIdAndUpdate(id, update, { returnDocument: 'after' })
      .lean<AccountDoc>()
      .exec();
    if (doc && pendingEvents.length > 0) await this.published(id);
    return doc ? toAccount(doc) : undefined;
  }
}
