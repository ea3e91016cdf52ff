import { Schema } from 'mongoose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, MongoConnection, translateDuplicateKey, UnavailableError } from '@ipdata/common';
import { mongoUrlWithDatabase, stackAddresses, uniqueName } from '@ipdata/common/testing';

const logger = pino({ level: 'silent' });

interface Account {
  email: string;
  name: string;
  plan: string;
}

const accountSchema = new Schema<Account>({
  email: { type: String, required: true, unique: true },
  name: { type: String, required: true },
  plan: { type: String, required: true, default: 'FREE' },
});

describe('MongoConnection with mongoose (real MongoDB-protocol server)', () => {
  const mongo = MongoConnection.fromConfig(
    { url: mongoUrlWithDatabase(stackAddresses().mongoUrl, uniqueName('common_test').replace(/-/g, '_')) },
    logger,
  );

  beforeAll(() => mongo.start());
  afterAll(async () => {
    await mongo.connection.dropDatabase();
    await mongo.shutdown();
  });

  it('creates, reads and updates documents and enforces a unique index with a clear domain error', async () => {
    const Accounts = mongo.connection.model<Account>('Account', accountSchema);
    await Accounts.createIndexes();
    expect(await mongo.isReady()).toBe(true);

    const created = await Accounts.create({ email: 'ada@example.com', name: 'Ada' });
    const read = await Accounts.findById(created._id).lean();
    expect(read).toMatchObject({ email: 'ada@example.com', name: 'Ada', plan: 'FREE' });

    await Accounts.updateOne({ _id: created._id }, { $set: { plan: 'Business' } });
    expect((await Accounts.findOne({ email: 'ada@example.com' }).lean())?.plan).toBe('Business');

    const duplicate = translateDuplicateKey(() => Accounts.create({ email: 'ada@example.com', name: 'Another Ada' }), {
      uniqueFields: ['email'],
    });
    await expect(duplicate).rejects.toBeInstanceOf(ConflictError);
    await expect(duplicate).rejects.toMatchObject({ message: 'already exists: email', details: { fields: 'email' } });
    expect(await Accounts.countDocuments({ email: 'ada@example.com' })).toBe(1);
  });

  it('fails to start with one clear error when the server cannot be reached', async () => {
    const unreachable = MongoConnection.fromConfig(
      { url: 'mongodb://user:pw@127.0.0.1:1/nothing', connectAttempts: 2, serverSelectionTimeoutMs: 300 },
      logger,
    );
    const start = unreachable.start();
    await expect(start).rejects.toBeInstanceOf(UnavailableError);
    await expect(start).rejects.toThrow(
      /^cannot reach MongoDB at mongodb:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:1\/nothing after 2 attempts/,
    );
    await unreachable.shutdown();
  });
});
