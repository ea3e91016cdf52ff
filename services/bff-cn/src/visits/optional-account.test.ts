import { UnauthenticatedError } from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../face-a/face-a-call.js';
import { optionalAccount } from './optional-account.js';

const context = (token: string | undefined): CallContext => ({
  requestId: 'r',
  clientIp: '45.1.2.3',
  visitorId: 'v-1',
  plat: 'pc',
  token,
  accountId: undefined,
  startedAt: 0,
});

describe('optionalAccount', () => {
  const resolved: string[] = [];
  const sessions = {
    resolve: (token: string) => {
      resolved.push(token);
      if (token === 'good') return Promise.resolve({ accountId: 'acc-1' });
      if (token === 'down') return Promise.reject(new Error('auth unavailable'));
      return Promise.reject(new UnauthenticatedError('session invalid'));
    },
  };

  it('is the account of a valid token and anonymous without one (no auth call)', async () => {
    expect(await optionalAccount(context('good'), sessions)).toBe('acc-1');
    expect(await optionalAccount(context(undefined), sessions)).toBe('');
    expect(resolved).toEqual(['good']);
  });

  it('counts an invalid token or auth being down as anonymous, never failing the call', async () => {
    expect(await optionalAccount(context('stale'), sessions)).toBe('');
    expect(await optionalAccount(context('down'), sessions)).toBe('');
    expect(await optionalAccount(context('x'.repeat(201)), sessions)).toBe('');
  });
});
