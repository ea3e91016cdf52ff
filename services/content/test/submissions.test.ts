import { randomUUID } from 'node:crypto';
import { FeedbackKind, type FeedbackReceived } from '@ipdata/proto/events/v1/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, PermissionDeniedError, TOPICS } from '@ipdata/common';
import { TopicRecorder } from '@ipdata/common/testing';
import { ContentHarness } from './fixtures/content-harness.js';

/**
 * Cooperation, feedback, IP-error and position reports on the real stack: each is stored in
 * FerretDB and its FeedbackReceived read back from the real content.feedback.v1 topic with its
 * fields; bad input answers INVALID_ARGUMENT with the Chinese message and stores nothing.
 */

const harness = new ContentHarness();
let recorder: TopicRecorder<FeedbackReceived>;
const accountId = randomUUID();
const sender = { accountId, visitorId: 'visitor-h4', clientIp: '::ffff:203.0.113.7', plat: 'wap' };
/** A Sender with the fields not given empty (proto3 defaults). */
const from = (fields: Partial<Record<keyof typeof sender, string>>) => ({
  accountId: '',
  visitorId: '',
  clientIp: '',
  plat: '',
  ...fields,
});

beforeAll(async () => {
  await harness.start();
  recorder = await TopicRecorder.start(TOPICS.contentFeedback);
}, 120_000);

afterAll(async () => {
  await recorder?.stop();
  await harness.stop();
});

async function published(submissionId: string) {
  const record = await recorder.waitForRecord((r) => r.event.submissionId === submissionId, {
    what: `FeedbackReceived ${submissionId}`,
  });
  expect(record.key).toBe(submissionId);
  expect(record.headers['ce_type']).toBe('ipdata.events.v1.FeedbackReceived');
  expect(record.headers['ce_source']).toBe('content');
  return record.event;
}

const stored = (id: string) => harness.mongo.connection.collection('submissions').findOne({ _id: id as never });

describe('submissions are stored and published', () => {
  it('feedback', async () => {
    const before = Date.now();
    const { submission } = await harness.api.submitFeedback({
      sender,
      category: '建议',
      content: '  希望增加 IPv6 批量查询。\n谢谢！  ',
      contact: 'qq 10000',
      page: '/ip',
    });
    const after = Date.now();
    expect(submission!.id).toMatch(/^[0-9a-f-]{36}$/);
    // Stamped by the service's clock (the real one here) while the call was in progress.
    const receivedAt = submission!.receivedAt!.getTime();
    expect(receivedAt).toBeGreaterThanOrEqual(before);
    expect(receivedAt).toBeLessThanOrEqual(after);
    const event = await published(submission!.id);
    // The event's time is the same instant.
    expect(event.meta?.time?.getTime()).toBe(receivedAt);
    expect(event).toMatchObject({
      kind: FeedbackKind.FEEDBACK_KIND_FEEDBACK,
      accountId,
      visitorId: 'visitor-h4',
      ip: '',
      text: '希望增加 IPv6 批量查询。\n谢谢！',
      fields: { category: '建议', contact: 'qq 10000', page: '/ip' },
      plat: 'wap',
    });
    expect(event.meta?.id).toBeTruthy();
    const doc = await stored(submission!.id);
    expect(doc).toMatchObject({
      kind: 'feedback',
      text: '希望增加 IPv6 批量查询。\n谢谢！',
      // The IPv4-mapped address is stored as the IPv4 address it carries.
      sender: { accountId, visitorId: 'visitor-h4', clientIp: '203.0.113.7', plat: 'wap' },
    });
    // The relay removed the event once Kafka acknowledged it.
    await expect.poll(async () => (await stored(submission!.id))?.['pendingEvents'] as unknown, { timeout: 15_000 }).toEqual([]);
  });

  it('an IP-error report, with the address in canonical form', async () => {
    const { submission } = await harness.api.reportIpError({
      sender: from({ visitorId: 'v2' }),
      ip: '2001:DB8:0:0::1',
      country: '中国',
      province: '广东',
      city: '深圳',
      isp: '电信',
      comment: '实际在深圳',
      contact: '13800000000',
    });
    const event = await published(submission!.id);
    expect(event).toMatchObject({
      kind: FeedbackKind.FEEDBACK_KIND_IP_ERROR,
      accountId: '',
      visitorId: 'v2',
      ip: '2001:db8::1',
      text: '实际在深圳',
      fields: { country: '中国', province: '广东', city: '深圳', isp: '电信', contact: '13800000000' },
      plat: 'pc',
    });
    expect(await stored(submission!.id)).toMatchObject({ kind: 'ip_error', ip: '2001:db8::1' });
  });

  it('a position report', async () => {
    const { submission } = await harness.api.reportPosition({
      sender,
      ip: '8.8.8.8',
      latitude: 23.125,
      longitude: 113.25,
      accuracyM: 30,
      address: '广州市天河区',
    });
    const event = await published(submission!.id);
    expect(event).toMatchObject({
      kind: FeedbackKind.FEEDBACK_KIND_POSITION,
      ip: '8.8.8.8',
      text: '广州市天河区',
      fields: { latitude: '23.125', longitude: '113.25', accuracy_m: '30', address: '广州市天河区' },
    });
  });

  it('a cooperation request', async () => {
    const { submission } = await harness.api.submitCooperation({
      sender,
      name: '张三',
      company: '示例科技有限公司',
      phone: '13800000000',
      email: 'zhangsan@example.com',
      message: '希望采购离线数据库。',
    });
    const event = await published(submission!.id);
    expect(event).toMatchObject({
      kind: FeedbackKind.FEEDBACK_KIND_COOPERATION,
      accountId,
      text: '希望采购离线数据库。',
      fields: { name: '张三', company: '示例科技有限公司', phone: '13800000000', email: 'zhangsan@example.com' },
    });
  });
});

describe('face B contact form (SubmitContact, bff-en only)', () => {
  it('is stored and published as CONTACT with name, email and category; the account when logged in', async () => {
    const faceB = harness.callerAs('bff-en');
    const { submission } = await faceB.submitContact({
      sender: from({ accountId, visitorId: 'v-contact', clientIp: '198.51.100.20' }),
      name: ' Ada Lovelace ',
      email: 'ada@example.com',
      description: 'We need 10 million lookups a month.\nWhat would that cost?',
      category: 'Custom plans',
    });
    const event = await published(submission!.id);
    expect(event).toMatchObject({
      kind: FeedbackKind.FEEDBACK_KIND_CONTACT,
      accountId,
      visitorId: 'v-contact',
      ip: '',
      text: 'We need 10 million lookups a month.\nWhat would that cost?',
      fields: { name: 'Ada Lovelace', email: 'ada@example.com', category: 'Custom plans' },
      plat: 'pc',
    });
    expect(await stored(submission!.id)).toMatchObject({
      kind: 'contact',
      fields: { name: 'Ada Lovelace', email: 'ada@example.com', category: 'Custom plans' },
      sender: { accountId, clientIp: '198.51.100.20' },
    });
    // Through the same outbox as feedback: the relay emptied it once Kafka acknowledged.
    await expect.poll(async () => (await stored(submission!.id))?.['pendingEvents'] as unknown, { timeout: 15_000 }).toEqual([]);

    const anonymous = await faceB.submitContact({
      name: 'Bob',
      email: 'bob@example.com',
      description: 'Hi',
      category: 'Feedback',
    });
    expect((await published(anonymous.submission!.id)).accountId).toBe('');
  });

  it('answers bad input with an English message naming the field, stores nothing; bff-cn may not call it', async () => {
    const faceB = harness.callerAs('bff-en');
    const form = { name: 'Ada', email: 'ada@example.com', description: 'Hello', category: 'Support' };
    const before = await harness.mongo.connection.collection('submissions').countDocuments({});
    const cases: Array<[Partial<typeof form>, string, string]> = [
      [{ category: 'Sales' }, 'Please choose a category: Custom plans, Support, Feedback', 'category'],
      [{ email: 'ada.example.com' }, 'Please enter the correct email address', 'email'],
      [{ name: '' }, 'Please enter your name', 'name'],
      [{ description: 'x'.repeat(2001) }, 'The description must be at most 2000 characters long', 'description'],
    ];
    for (const [change, message, field] of cases) {
      const call = faceB.submitContact({ ...form, ...change });
      await expect(call).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(call).rejects.toMatchObject({ message, details: { field } });
    }
    await expect(harness.api.submitContact(form)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(await harness.mongo.connection.collection('submissions').countDocuments({})).toBe(before);
  });
});

describe('bad input', () => {
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    ['empty feedback', () => harness.api.submitFeedback({ content: '   ' }), '请填写反馈内容'],
    ['feedback too long', () => harness.api.submitFeedback({ content: '字'.repeat(2001) }), '反馈内容不能超过 2000 个字符'],
    ['control characters', () => harness.api.submitFeedback({ content: 'a\u0000b' }), '反馈内容包含不允许的字符'],
    [
      'line break in a short field',
      () => harness.api.submitFeedback({ content: 'x', contact: 'a\nb' }),
      '联系方式包含不允许的字符',
    ],
    [
      'bad sender address',
      () => harness.api.submitFeedback({ content: 'x', sender: from({ clientIp: '1.2.3' }) }),
      '访问者地址格式不正确',
    ],
    ['bad plat', () => harness.api.submitFeedback({ content: 'x', sender: from({ plat: 'ios' }) }), '平台标识只能是 pc 或 wap'],
    [
      'bad account id',
      () => harness.api.submitFeedback({ content: 'x', sender: from({ accountId: 'admin' }) }),
      '账号标识格式不正确',
    ],
    ['missing ip', () => harness.api.reportIpError({ province: '广东' }), '请填写 IP 地址'],
    ['invalid ip', () => harness.api.reportIpError({ ip: '010.1.1.1', province: '广东' }), 'IP 地址格式不正确'],
    ['ip with a zone', () => harness.api.reportIpError({ ip: 'fe80::1%eth0', province: '广东' }), 'IP 地址格式不正确'],
    ['nothing corrected', () => harness.api.reportIpError({ ip: '1.1.1.1' }), '请至少填写一项正确的位置信息或补充说明'],
    [
      'latitude out of range',
      () => harness.api.reportPosition({ ip: '1.1.1.1', latitude: 91, longitude: 1 }),
      '纬度须在 -90 到 90 之间',
    ],
    [
      'longitude out of range',
      () => harness.api.reportPosition({ ip: '1.1.1.1', latitude: 1, longitude: -180.5 }),
      '经度须在 -180 到 180 之间',
    ],
    ['no coordinates', () => harness.api.reportPosition({ ip: '1.1.1.1' }), '请提供位置坐标'],
    [
      'NaN latitude',
      () => harness.api.reportPosition({ ip: '1.1.1.1', latitude: Number.NaN, longitude: 1 }),
      '纬度须在 -90 到 90 之间',
    ],
    [
      'negative accuracy',
      () => harness.api.reportPosition({ ip: '1.1.1.1', latitude: 1, longitude: 1, accuracyM: -1 }),
      '定位精度须在 0 到 1000000 米之间',
    ],
    [
      'cooperation without a name',
      () => harness.api.submitCooperation({ company: 'c', phone: '13800000000' }),
      '请填写联系人姓名',
    ],
    [
      'cooperation without phone or e-mail',
      () => harness.api.submitCooperation({ name: 'n', company: 'c' }),
      '请至少填写联系电话或电子邮箱',
    ],
    [
      'cooperation with a bad e-mail',
      () => harness.api.submitCooperation({ name: 'n', company: 'c', email: 'x@' }),
      '电子邮箱格式不正确',
    ],
    [
      'cooperation with a bad phone',
      () => harness.api.submitCooperation({ name: 'n', company: 'c', phone: 'call me' }),
      '联系电话格式不正确',
    ],
  ];

  it.each(cases)('%s → INVALID_ARGUMENT "%s"', async (_name, call, message) => {
    const before = await harness.mongo.connection.collection('submissions').countDocuments({});
    const result = call();
    await expect(result).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(result).rejects.toThrow(message);
    expect(await harness.mongo.connection.collection('submissions').countDocuments({})).toBe(before);
  });
});
