import { translateDuplicateKey } from '@ipdata/common';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Account, AccountChanges, AccountRepository } from '../../accounts/account.js';
import { MESSAGES } from '../../shared/messages.js';

interface AccountDoc extends Omit<Account, 'id' | 'partner' | 'emailConfirmedAt' | 'passwordChangedAt'> {
  _id: string;
  partner?: { companyName: string; contactName: string; email: string } | null;
  emailConfirmedAt?: Date | null;
  passwordChangedAt?: Date | null;
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
  },
  { collection: 'accounts', versionKey: false },
);

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

export class MongoAccountRepository implements AccountRepository {
  private readonly model: Model<AccountDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<AccountDoc>('Account', accountSchema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async insert(account: Account): Promise<void> {
    const { id, partner, emailConfirmedAt, passwordChangedAt, ...rest } = account;
    const email = account.loginId.startsWith('email:');
    await translateDuplicateKey(
      () =>
        this.model.create({
          ...rest,
          _id: id,
          partner: partner ?? null,
          emailConfirmedAt: emailConfirmedAt ?? null,
          passwordChangedAt: passwordChangedAt ?? null,
        }),
      {
        uniqueFields: ['loginId'],
        describe: () =>
          email
            ? { message: MESSAGES.emailTaken, reason: 'email_taken' }
            : { message: MESSAGES.phoneTaken, reason: 'phone_taken' },
      },
    );
  }

  async findById(id: string): Promise<Account | undefined> {
    const doc = await this.model.findById(id).lean<AccountDoc>().exec();
    return doc ? toAccount(doc) : undefined;
  }

  async findByLoginId(loginId: string): Promise<Account | undefined> {
    const doc = await this.model.findOne({ loginId }).lean<AccountDoc>().exec();
    return doc ? toAccount(doc) : undefined;
  }

  async remove(id: string): Promise<void> {
    await this.model.deleteOne({ _id: id }).exec();
  }

  async update(id: string, changes: AccountChanges): Promise<Account | undefined> {
    const doc = await this.model.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after' }).lean<AccountDoc>().exec();
    return doc ? toAccount(doc) : undefined;
  }
}
