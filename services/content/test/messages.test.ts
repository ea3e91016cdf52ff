import { randomUUID } from 'node:crypto';
import { SubscriptionChange, SubscriptionChanged, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { UserEvent, UserEventKind } from '@ipdata/proto/events/v1/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, TOPICS } from '@ipdata/common';
import { waitFor } from '@ipdata/common/testing';
import { ContentHarness } from './fixtures/content-harness.js';

/**
 * Per-account messages made from real events on auth.user.v1 and billing.subscription.v1:
 * welcome and VIP messages, no duplicate on re-delivery of the same event, paging newest first,
 * unread counts and marking read.
 */

const harness = new ContentHarness();

beforeAll(() => harness.start(), 120_000);
afterAll(() => harness.stop());

async function registered(accountId: string, eventId = randomUUID(), time = new Date()) {
  await harness.producer.send(
    TOPICS.authUser,
    UserEvent.fromPartial({ meta: { id: eventId, time }, kind: UserEventKind.USER_EVENT_KIND_REGISTERED, accountId }),
    { key: accountId },
  );
  return eventId;
}

async function vip(
  accountId: string,
  change: SubscriptionChange,
  options: { kind?: SubscriptionKind; time?: Date; periodEnd?: Date } = {},
) {
  const eventId = randomUUID();
  await harness.producer.send(
    TOPICS.billingSubscription,
    SubscriptionChanged.fromPartial({
      meta: { id: eventId, time: options.time ?? new Date() },
      accountId,
      subscriptionId: randomUUID(),
      kind: options.kind ?? SubscriptionKind.SUBSCRIPTION_KIND_VIP,
      change,
      planId: 'vip-monthly',
      ...(options.periodEnd ? { periodEnd: options.periodEnd } : {}),
    }),
    { key: accountId },
  );
  return eventId;
}

const waitForTotal = (accountId: string, total: number) =>
  waitFor(async () => (await harness.api.listMessages({ accountId })).total >= total, {
    timeoutMs: 45_000,
    what: `${total} messages for ${accountId}`,
  });

describe('messages from events', () => {
  it('REGISTERED → a welcome message; the same event again adds nothing', async () => {
    const accountId = randomUUID();
    const eventId = await registered(accountId);
    await waitForTotal(accountId, 1);
    // Re-delivery of the same event (same id), then a new one for the same account: same key,
    // same partition, handled in order, so once the second message is there the duplicate was handled.
    await registered(accountId, eventId);
    const laterId = await registered(accountId);
    await waitForTotal(accountId, 2);
    const list = await harness.api.listMessages({ accountId });
    expect(list.total).toBe(2);
    expect(list.unread).toBe(2);
    expect(list.messages.map((message) => message.id).sort()).toEqual([`welcome-${eventId}`, `welcome-${laterId}`].sort());
    const first = list.messages.find((message) => message.id === `welcome-${eventId}`);
    expect(first).toMatchObject({ kind: 'welcome', title: '欢迎注册', read: false });
    expect(first!.body).toContain('感谢您注册');
    expect(await harness.mongo.connection.collection('account_messages').countDocuments({ accountId })).toBe(2);
  }, 90_000);

  it('VIP created, renewed and canceled → a message each; other kinds and changes → none', async () => {
    const accountId = randomUUID();
    const base = Date.now();
    await vip(accountId, SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED, {
      time: new Date(base),
      periodEnd: new Date('2026-02-28T20:00:00Z'),
    });
    await vip(accountId, SubscriptionChange.SUBSCRIPTION_CHANGE_UPGRADED, { time: new Date(base + 1) });
    await vip(accountId, SubscriptionChange.SUBSCRIPTION_CHANGE_CREATED, {
      kind: SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS,
      time: new Date(base + 2),
    });
    await vip(accountId, SubscriptionChange.SUBSCRIPTION_CHANGE_RENEWED, { time: new Date(base + 3) });
    await vip(accountId, SubscriptionChange.SUBSCRIPTION_CHANGE_CANCELED, { time: new Date(base + 4) });
    await waitForTotal(accountId, 3);
    const list = await harness.api.listMessages({ accountId });
    expect(list.total).toBe(3);
    // Newest first.
    expect(list.messages.map((message) => message.title)).toEqual(['VIP 会员已取消', 'VIP 会员已续费', 'VIP 会员已开通']);
    // The period end in China time (UTC+8): 2026-02-28 20:00 UTC is 2026-03-01.
    expect(list.messages[2]!.body).toContain('有效期至 2026-03-01');
    expect(list.messages.every((message) => message.kind === 'vip')).toBe(true);
  }, 90_000);
});

describe('listing, unread counts, marking read', () => {
  const accountId = randomUUID();
  const other = randomUUID();

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await registered(accountId, randomUUID(), new Date(Date.UTC(2026, 0, 1 + i)));
    await registered(other);
    await waitForTotal(accountId, 5);
    await waitForTotal(other, 1);
  }, 90_000);

  it('pages newest first with total and unread', async () => {
    const first = await harness.api.listMessages({ accountId, page: 1, pageSize: 2 });
    const third = await harness.api.listMessages({ accountId, page: 3, pageSize: 2 });
    expect(first).toMatchObject({ total: 5, unread: 5 });
    expect(first.messages.map((message) => message.createdAt!.toISOString())).toEqual([
      '2026-01-05T00:00:00.000Z',
      '2026-01-04T00:00:00.000Z',
    ]);
    expect(third.messages.map((message) => message.createdAt!.toISOString())).toEqual(['2026-01-01T00:00:00.000Z']);
    expect((await harness.api.getUnreadCount({ accountId })).unread).toBe(5);
  });

  it('marks the given messages read, ignores other accounts’ ids, then all', async () => {
    const { messages } = await harness.api.listMessages({ accountId, pageSize: 2 });
    const otherMessage = (await harness.api.listMessages({ accountId: other })).messages[0]!;
    const after = await harness.api.markMessagesRead({ accountId, ids: [messages[0]!.id, messages[1]!.id, otherMessage.id] });
    expect(after.unread).toBe(3);
    const list = await harness.api.listMessages({ accountId });
    expect(list.messages.map((message) => message.read)).toEqual([true, true, false, false, false]);
    // The other account's message was not touched.
    expect((await harness.api.getUnreadCount({ accountId: other })).unread).toBe(1);
    // Marking again changes nothing.
    expect((await harness.api.markMessagesRead({ accountId, ids: [messages[0]!.id] })).unread).toBe(3);
    expect((await harness.api.markMessagesRead({ accountId })).unread).toBe(0);
    expect((await harness.api.getUnreadCount({ accountId })).unread).toBe(0);
    expect((await harness.api.getUnreadCount({ accountId: other })).unread).toBe(1);
  });

  it('answers INVALID_ARGUMENT with a Chinese message for bad input', async () => {
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => harness.api.listMessages({}), '缺少账号标识'],
      [() => harness.api.listMessages({ accountId: 'someone' }), '账号标识格式不正确'],
      [() => harness.api.listMessages({ accountId, pageSize: 51 }), '每页条数须在 1 到 50 之间'],
      [() => harness.api.getUnreadCount({ accountId: 'x' }), '账号标识格式不正确'],
      [() => harness.api.markMessagesRead({ accountId, ids: ['not an id'] }), '消息编号不正确'],
      [
        () => harness.api.markMessagesRead({ accountId, ids: Array.from({ length: 101 }, (_, i) => `welcome-${i}`) }),
        '一次最多标记 100 条消息',
      ],
    ];
    for (const [call, message] of cases) {
      const result = call();
      await expect(result).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(result).rejects.toThrow(message);
    }
  });
});
