import { describe, expect, it, vi } from 'vitest';
import { FIXTURE } from './openapi.fixture.js';
import { readOperations } from './openapi-model.js';
import { headerText, initialValues, sendTry, storedTryKey, tryInit, TRY_KEY_STORAGE } from './try-it.js';

const operations = readOperations(FIXTURE);
const op = (id: string) => operations.find((operation) => operation.id === id)!;

describe('try it', () => {
  it('starts from the path examples with optional query values empty', () => {
    expect(initialValues(op('getIp'))).toEqual({ ip: '8.8.8.8', fields: '' });
  });

  it('sends the key as a Bearer token, never the app session cookie', () => {
    const init = tryInit({ operation: op('getIp'), values: { ip: '1.1.1.1' }, key: ' k_123 ' });
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer k_123');
    expect(init.credentials).toBe('omit');
    const noKey = tryInit({ operation: op('getIp'), values: {}, key: '' });
    expect(new Headers(noKey.headers).has('authorization')).toBe(false);
  });

  it('sends a body with its media type, and does not follow a redirect to a file', () => {
    const bulk = tryInit({ operation: op('postBulk'), values: {}, body: '8.8.8.8\n', key: 'k' });
    expect(new Headers(bulk.headers).get('content-type')).toBe('text/plain');
    expect(bulk.body).toBe('8.8.8.8\n');
    expect(tryInit({ operation: op('getDatabaseSample'), values: {}, key: 'k' }).redirect).toBe('manual');
  });

  it('reads status, the quota headers and the body (JSON indented)', async () => {
    const fetchFn = vi.fn(
      async () =>
        new Response('{"error":{"code":"quota_exceeded","message":"m","resolution":"r"}}', {
          status: 429,
          statusText: 'Too Many Requests',
          headers: {
            'content-type': 'application/json',
            'x-ratelimit-limit': '50000',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': '1767225600',
            'retry-after': '60',
            'x-request-id': 'req-12345678',
          },
        }),
    );
    const answer = await sendTry({ operation: op('getIp'), values: { ip: '2001:db8::1', fields: 'ip' }, key: 'k' }, fetchFn);
    expect(fetchFn).toHaveBeenCalledWith('/v1/ip/2001:db8::1?fields=ip', expect.objectContaining({ method: 'GET' }));
    expect(answer.status).toBe(429);
    expect(answer.headers).toEqual([
      ['X-RateLimit-Limit', '50000'],
      ['X-RateLimit-Remaining', '0'],
      ['X-RateLimit-Reset', '1767225600'],
      ['Retry-After', '60'],
      ['X-Request-Id', 'req-12345678'],
      ['Content-Type', 'application/json'],
    ]);
    expect(answer.body).toContain('\n  "error": {');
  });

  it('turns a network failure into a message', async () => {
    const fetchFn = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(sendTry({ operation: op('getIp'), values: {}, key: '' }, fetchFn)).rejects.toThrow(
      'The request could not be sent (Failed to fetch)',
    );
  });

  it('reads the key the API keys page left for this browser session', () => {
    const storage = { getItem: (name: string) => (name === TRY_KEY_STORAGE ? 'k_session' : null) };
    expect(storedTryKey(storage)).toBe('k_session');
    expect(
      storedTryKey({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe('');
    expect(storedTryKey(undefined)).toBe('');
  });

  it('shows the quota reset time in UTC beside its Unix seconds', () => {
    expect(headerText('X-RateLimit-Reset', '1767225600')).toBe('1767225600 (2026-01-01 00:00 UTC)');
    expect(headerText('X-RateLimit-Reset', '0')).toBe('0');
    expect(headerText('X-RateLimit-Limit', '50000')).toBe('50000');
  });
});
