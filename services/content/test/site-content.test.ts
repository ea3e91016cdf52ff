import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError } from '@ipdata/common';
import { listServicesByReflection, testGrpcTls } from '@ipdata/common/testing';
import { ContentHarness } from './fixtures/content-harness.js';

/**
 * News, notices and contacts on the real stack (FerretDB, Kafka): the seeded samples, paging,
 * previous/next, recommendations, input errors with their Chinese messages, seeding again on a
 * restart, health, and who may call what (mutual TLS identities).
 */

const harness = new ContentHarness();

beforeAll(() => harness.start(), 120_000);
afterAll(() => harness.stop());

const PRODUCTS = ['ip', 'asn', 'report', 'industry'];

describe('news', () => {
  it('seeds sample articles per product, marked is_sample with 示例 in the title, newest first', async () => {
    for (const product of PRODUCTS) {
      const page = await harness.api.listNews({ product });
      expect(page.total, product).toBe(3);
      expect(page.items.map((item) => item.id)).toEqual([`sample-${product}-3`, `sample-${product}-2`, `sample-${product}-1`]);
      for (const item of page.items) {
        expect(item).toMatchObject({ product, isSample: true });
        expect(item.title).toContain('示例');
        expect(item.tags).toContain('示例');
      }
      const dates = page.items.map((item) => item.publishedAt!.getTime());
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    }
    expect(await harness.api.listNews({ product: 'weather' })).toEqual({ items: [], total: 0 });
  });

  it('pages with page and page_size, and caps the page size', async () => {
    const first = await harness.api.listNews({ product: 'ip', page: 1, pageSize: 2 });
    const second = await harness.api.listNews({ product: 'ip', page: 2, pageSize: 2 });
    const third = await harness.api.listNews({ product: 'ip', page: 3, pageSize: 2 });
    expect(first.items.map((item) => item.id)).toEqual(['sample-ip-3', 'sample-ip-2']);
    expect(second.items.map((item) => item.id)).toEqual(['sample-ip-1']);
    expect(third).toEqual({ items: [], total: 3 });
    await expect(harness.api.listNews({ product: 'ip', pageSize: 51 })).rejects.toThrow('每页条数须在 1 到 50 之间');
    await expect(harness.api.listNews({ product: 'ip', pageSize: 50 })).resolves.toMatchObject({ total: 3 });
  });

  it('answers a detail with its sanitised body, author, a counted view and previous/next', async () => {
    const middle = await harness.api.getNews({ id: 'sample-asn-2' });
    expect(middle.summary).toMatchObject({ id: 'sample-asn-2', product: 'asn', isSample: true });
    expect(middle.bodyHtml).toContain('<p><strong>这是一篇示例文章，不是真实资讯。</strong></p>');
    expect(middle.bodyHtml).not.toMatch(/<script|on\w+=/i);
    expect(middle.author).toBe('示例编辑部');
    // Newest first: "previous" is the newer neighbour, "next" the older one.
    expect(middle.previous?.id).toBe('sample-asn-3');
    expect(middle.next?.id).toBe('sample-asn-1');
    const newest = await harness.api.getNews({ id: 'sample-asn-3' });
    expect(newest.previous).toBeUndefined();
    expect(newest.next?.id).toBe('sample-asn-2');
    const oldest = await harness.api.getNews({ id: 'sample-asn-1' });
    expect(oldest.previous?.id).toBe('sample-asn-2');
    expect(oldest.next).toBeUndefined();
    const again = await harness.api.getNews({ id: 'sample-asn-2' });
    expect(again.summary!.views).toBe(middle.summary!.views + 1);
  });

  it('answers NOT_FOUND for an unknown article and INVALID_ARGUMENT for bad ids and products', async () => {
    const missing = harness.api.getNews({ id: 'no-such-article' });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('文章不存在或已下线');
    await expect(harness.api.getNews({ id: '' })).rejects.toThrow('请指定文章');
    await expect(harness.api.getNews({ id: '../etc/passwd' })).rejects.toThrow('文章编号不正确');
    const badProduct = harness.api.listNews({ product: 'IP; drop' });
    await expect(badProduct).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(badProduct).rejects.toThrow('资讯栏目名称不正确');
    await expect(harness.api.listNews({})).rejects.toThrow('请指定资讯栏目');
  });

  it('recommends other articles of the product, never the one being read', async () => {
    for (const current of ['sample-report-1', 'sample-report-2', 'sample-report-3']) {
      const { items } = await harness.api.recommendNews({ product: 'report', excludeId: current });
      expect(items.map((item) => item.id).sort()).toEqual(
        ['sample-report-1', 'sample-report-2', 'sample-report-3'].filter((id) => id !== current),
      );
    }
    const limited = await harness.api.recommendNews({ product: 'industry', excludeId: 'sample-industry-3', limit: 1 });
    expect(limited.items.map((item) => item.id)).toEqual(['sample-industry-2']);
    expect((await harness.api.recommendNews({ product: 'industry' })).items).toHaveLength(3);
    await expect(harness.api.recommendNews({ product: 'industry', limit: 21 })).rejects.toThrow('数量须在 1 到 20 之间');
  });
});

describe('notices and contacts', () => {
  it('lists the seeded sample notices newest first, limited', async () => {
    const { notices } = await harness.api.listNotices({});
    expect(notices.map((notice) => notice.id)).toEqual(['sample-notice-2', 'sample-notice-1']);
    for (const notice of notices) expect(notice.title).toContain('示例');
    expect(notices[0]).toMatchObject({ link: '/news', publishedAt: new Date('2026-01-12T02:00:00Z') });
    expect((await harness.api.listNotices({ limit: 1 })).notices).toHaveLength(1);
    await expect(harness.api.listNotices({ limit: 51 })).rejects.toThrow('数量须在 1 到 50 之间');
  });

  it('answers the contacts of config/contacts.yaml, list by list', async () => {
    const contacts = await harness.api.getContacts({});
    expect(contacts.phone).toEqual([
      { name: '示例-销售热线', value: '400-000-0000' },
      { name: '示例-技术支持', value: '010-00000000' },
    ]);
    expect(contacts.email.map((contact) => contact.value)).toEqual(['sales@example.com', 'support@example.com']);
    expect(contacts.qq).toEqual([{ name: '示例-客服QQ', value: '10000' }]);
    expect(contacts.qqCode).toEqual([{ name: '示例-用户交流群', value: '100000000' }]);
    expect(contacts.wxCode).toEqual([{ name: '示例-微信客服', value: '/images/sample-wechat-qr.png' }]);
  });
});

describe('seeding and health', () => {
  it('seeds again on a restart without duplicates and keeps the view counts', async () => {
    const viewed = await harness.api.getNews({ id: 'sample-ip-1' });
    const news = harness.mongo.connection.collection('news');
    const before = await news.countDocuments({});
    expect(before).toBe(12);
    await harness.restart();
    expect(await news.countDocuments({})).toBe(before);
    expect(await harness.mongo.connection.collection('notices').countDocuments({})).toBe(2);
    const after = await harness.api.getNews({ id: 'sample-ip-1' });
    expect(after.summary!.views).toBe(viewed.summary!.views + 1);
    expect((await harness.api.listNews({ product: 'ip' })).total).toBe(3);
  }, 120_000);

  it('answers /healthz and /readyz on the HTTP port', async () => {
    const base = `http://127.0.0.1:${harness.service.ports().http}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});

describe('access policy (mutual TLS)', () => {
  it('lets operator read and list services by reflection', async () => {
    const address = `127.0.0.1:${harness.service.ports().grpc}`;
    expect(await listServicesByReflection(address, testGrpcTls('operator'))).toEqual([
      'grpc.health.v1.Health',
      'ipdata.content.v1.ContentService',
    ]);
    const operator = harness.callerAs('operator');
    expect((await operator.listNews({ product: 'ip' })).total).toBe(3);
    expect((await operator.getContacts({})).phone.length).toBeGreaterThan(0);
    expect((await operator.getUnreadCount({ accountId: '00000000-0000-4000-8000-000000000001' })).unread).toBe(0);
  });

  it('refuses writes to operator and every call to other services', async () => {
    const operator = harness.callerAs('operator');
    const feedback = operator.submitFeedback({ content: '运营人员不能提交' });
    await expect(feedback).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(feedback).rejects.toThrow('caller "operator" may not call /ipdata.content.v1.ContentService/SubmitFeedback');
    await expect(operator.markMessagesRead({ accountId: '00000000-0000-4000-8000-000000000001' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    for (const identity of ['stats', 'auth', 'probe'] as const) {
      const other = harness.callerAs(identity);
      await expect(other.listNews({ product: 'ip' })).rejects.toThrow(
        `caller "${identity}" may not call /ipdata.content.v1.ContentService/ListNews`,
      );
      await expect(other.reportIpError({ ip: '1.2.3.4', province: '广东' })).rejects.toBeInstanceOf(PermissionDeniedError);
    }
    // Nothing reached the domain.
    expect(await harness.mongo.connection.collection('submissions').countDocuments({})).toBe(0);
  });

  it('answers both BFFs', async () => {
    for (const identity of ['bff-cn', 'bff-en'] as const) {
      expect((await harness.callerAs(identity).listNotices({})).notices.length).toBe(2);
    }
  });
});
