import { describe, expect, it } from 'vitest';
import { ConflictError } from '../errors/domain-errors.js';
import { duplicateKeyFields, translateDuplicateKey } from './duplicate-key.js';

describe('duplicate key errors', () => {
  it('reads the fields from MongoDB keyPattern', () => {
    expect(duplicateKeyFields({ code: 11000, keyPattern: { email: 1 } })).toEqual(['email']);
  });

  it('reads the fields from the index name when only the message names it (FerretDB)', () => {
    expect(duplicateKeyFields({ code: 11000, message: 'E11000 duplicate key error collection: t.users index: email_1' })).toEqual(
      ['email'],
    );
    expect(duplicateKeyFields({ code: 11000, message: 'E11000 ... index: phone_1_channel_-1 dup key' })).toEqual([
      'phone',
      'channel',
    ]);
  });

  it('turns a duplicate into a ConflictError and lets other errors through', async () => {
    const serverError = Object.assign(new Error('E11000 duplicate key error'), { code: 11000, keyValue: { email: 'a@b.c' } });
    const duplicate = translateDuplicateKey(() => Promise.reject(serverError));
    await expect(duplicate).rejects.toBeInstanceOf(ConflictError);
    await expect(duplicate).rejects.toMatchObject({
      message: 'already exists: email',
      reason: 'duplicate',
      details: { fields: 'email' },
    });
    const other = new Error('network');
    await expect(translateDuplicateKey(() => Promise.reject(other))).rejects.toBe(other);
  });
});
