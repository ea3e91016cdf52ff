import { describe, expect, it } from 'vitest';
import { ResourceExhaustedError, VisitorIds, type LimitedCounter } from '@ipdata/common';
import { VisitorLimit } from '@ipdata/common/http-edge';
import { webFailureOf } from '../web-envelope.js';
import type { ContactMessage } from '../web-api.ports.js';
import type { WebContext } from '../web-route.js';
import { CONTACT_SUBMITTED, TOO_MANY_MESSAGES, contactRoutes } from './contact.routes.js';

/** A limiter that allows `allowed` increments per key. */
function limiter(allowed: number): LimitedCounter & { keys: string[] } {
  const counts = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    increment: async (key: string) => {
      keys.push(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { allowed: (counts.get(key) ?? 0) <= allowed, count: counts.get(key) ?? 0, resetInMs: 1_500 };
    },
  } as unknown as LimitedCounter & { keys: string[] };
}

function context(token?: string): WebContext {
  return {
    requestId: 'r-1',
    clientIp: '203.0.113.9',
    userAgent: 'test',
    token,
    csrfToken: 'csrf',
    accountId: undefined,
    optionalAccount: async () => (token === 'good' ? 'acc-1' : ''),
    now: new Date(),
    startedAt: 0,
  };
}

const form = { name: 'Ada', email: 'ada@example.com', description: 'Hello', category: 'Support' };

function setup(allowed = 10) {
  const sent: ContactMessage[] = [];
  const counter = limiter(allowed);
  const [route] = contactRoutes({
    contact: {
      submit: async (message) => {
        sent.push(message);
        return { id: 'sub-1', receivedAt: new Date('2030-01-02T03:04:05Z') };
      },
    },
    visitorIds: new VisitorIds('test-visitor-id-secret-0123456789abcdef'),
    visitorLimit: new VisitorLimit(counter, {
      prefix: 'bff-en:contact-form:',
      limit: allowed,
      windowSeconds: 3600,
      refusal: TOO_MANY_MESSAGES,
    }),
  });
  return { route: route!, sent, counter };
}

describe('POST /api/contact', () => {
  it('sends the form with the visitor, and the account when logged in; answers 201 with the spec message', async () => {
    const { route, sent } = setup();
    const anonymous = await route.handle(context(), form);
    expect(anonymous).toEqual({
      status: 201,
      msg: CONTACT_SUBMITTED,
      data: { id: 'sub-1', received_at: '2030-01-02T03:04:05.000Z' },
    });
    await route.handle(context('good'), form);
    await route.handle(context('ended'), form);
    expect(sent.map((message) => message.accountId)).toEqual(['', 'acc-1', '']);
    expect(sent[0]).toMatchObject({ ...form, clientIp: '203.0.113.9', visitorId: expect.stringMatching(/^v-/) as unknown });
  });

  it('limits messages per visitor address before content is asked', async () => {
    const { route, sent, counter } = setup(2);
    await route.handle(context(), form);
    await route.handle(context(), form);
    const refused: unknown = await route.handle(context(), form).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ResourceExhaustedError);
    // As the web API answers it.
    expect(webFailureOf(refused)).toMatchObject({
      status: 429,
      envelope: { code: 429, msg: TOO_MANY_MESSAGES, reason: 'rate_limited' },
      headers: { 'retry-after': '2' },
    });
    expect(sent).toHaveLength(2);
    expect(counter.keys[0]).toBe('bff-en:contact-form:203.0.113.9');
  });
});
