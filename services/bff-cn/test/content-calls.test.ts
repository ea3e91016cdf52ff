import { TOPICS } from '@ipdata/common';
import { TopicRecorder, uniqueName, waitFor } from '@ipdata/common/testing';
import { FeedbackKind, type FeedbackReceived } from '@ipdata/proto/events/v1/content';
import { VisitSite, type SiteVisit } from '@ipdata/proto/events/v1/visit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPhone } from '../../auth/test/fixtures/auth-harness.js';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// bff-cn's content and visit calls against the real content service and stats (in-process, on
// FerretDB, Redis and Kafka of the test stack), auth for logged-in senders, and the real topics.

const h = new BffCnHarness({}, { content: true, stats: true });
let feedback: TopicRecorder<FeedbackReceived>;
let visits: TopicRecorder<SiteVisit>;
let token = '';
let accountId = '';

beforeAll(async () => {
  await h.start();
  feedback = await TopicRecorder.start(TOPICS.contentFeedback);
  visits = await TopicRecorder.start(TOPICS.siteVisit);
  const phone = randomPhone();
  await h.call('/v1/send_sms_code', { form: { phone, type: 'register' } });
  const registered = await h.call('/v1/user_regis', {
    form: { phone, code: h.auth.sms.lastCode(phone), password: 'secret-1234' },
  });
  const data = registered.body.data as { token: string; user: { id: string } };
  token = data.token;
  accountId = data.user.id;
}, 120_000);
afterAll(async () => {
  await feedback?.stop();
  await visits?.stop();
  await h.stop();
});

const ok = async <T = Record<string, unknown>>(path: string, options: Parameters<BffCnHarness['call']>[1] = {}) => {
  const answer = await h.call(path, options);
  expect([answer.status, answer.body.code], answer.text).toEqual([200, 200]);
  return answer.body.data as T;
};

describe('start-up and site data', () => {
  it('web_init: site name, each contact kind a JSON string of {name, value}, notices, news products', async () => {
    const data = await ok('/v1/web_init', { headers: { plat: 'wap' } });
    expect(data).toMatchObject({ site_name: 'IP 地址查询', plat: 'wap', news_products: ['ip', 'asn', 'report', 'industry'] });
    for (const kind of ['phone', 'email', 'qq', 'qq_code', 'wx_code']) {
      expect(typeof data[kind], kind).toBe('string');
      const list = JSON.parse(data[kind] as string) as { name: string; value: string }[];
      expect(list.length, kind).toBeGreaterThan(0);
      for (const entry of list) expect(Object.keys(entry).sort()).toEqual(['name', 'value']);
    }
    expect((JSON.parse(data['phone'] as string) as unknown[])[0]).toEqual({ name: '示例-销售热线', value: '400-000-0000' });
    expect((data['notices'] as { id: string }[]).map((notice) => notice.id)).toContain('sample-notice-1');
  });

  it('customer_service_list answers real lists; get_notice honours page_size', async () => {
    const contacts = await ok<Record<string, { name: string; value: string }[]>>('/v1/customer_service_list');
    expect(contacts['email']).toContainEqual({ name: '示例-商务合作', value: 'sales@example.com' });
    const notices = await ok<{ list: { id: string; title: string; published_at: string }[] }>('/v1/get_notice', {
      form: { page_size: '1' },
    });
    expect(notices.list).toHaveLength(1);
    expect(notices.list[0]?.title).toContain('示例');
    expect((await h.call('/v1/get_notice', { form: { page_size: '0' } })).body).toEqual({
      code: 400,
      msg: '条数应为 1 到 50 之间的整数',
      data: null,
    });
  });

  it('find_index (GET): notices, the latest news per product, news totals and today’s page views', async () => {
    const data = await ok<{
      notices: unknown[];
      news: Record<string, { product: string; is_sample: boolean }[]>;
      counts: { news: Record<string, number>; today: { pv: number; uv: number } | null };
    }>('/v1/find_index', { method: 'GET' });
    expect(data.notices.length).toBeGreaterThan(0);
    for (const product of ['ip', 'asn', 'report', 'industry']) {
      expect(data.news[product]?.length, product).toBeGreaterThan(0);
      expect(data.news[product]?.every((item) => item.product === product && item.is_sample)).toBe(true);
      expect(data.counts.news[product]).toBeGreaterThanOrEqual(data.news[product]?.length ?? 0);
    }
    expect(data.counts.today).not.toBeNull();
    expect(Number.isInteger(data.counts.today?.pv) && Number.isInteger(data.counts.today?.uv)).toBe(true);
    expect((await h.call('/v1/find_index', { method: 'POST' })).status).toBe(405);
  });
});

describe('news per product', () => {
  it('list, detail with neighbours, recommend without the article read', async () => {
    const list = await ok<{ list: { id: string; product: string }[]; total: number; page: number; page_size: number }>(
      '/v1/news_ip_list',
      { form: { page: '1', page_size: '2' } },
    );
    expect(list).toMatchObject({ page: 1, page_size: 2 });
    expect(list.list).toHaveLength(2);
    expect(list.total).toBeGreaterThanOrEqual(3);
    const id = list.list[0]?.id ?? '';
    const detail = await ok<{ id: string; body_html: string; author: string; next: { id: string } | null }>(
      '/v1/news_ip_detail',
      {
        form: { id },
      },
    );
    expect(detail).toMatchObject({ id, product: 'ip', is_sample: true });
    expect(detail.body_html).toContain('<p>');
    const recommended = await ok<{ list: { id: string; product: string }[] }>('/v1/news_ip_recommend', { form: { id } });
    expect(recommended.list.length).toBeGreaterThan(0);
    expect(recommended.list.map((item) => item.id)).not.toContain(id);
    expect(recommended.list.every((item) => item.product === 'ip')).toBe(true);
  });

  it('an article of another product, an unknown id and a malformed id are refused', async () => {
    const asn = await ok<{ list: { id: string }[] }>('/v1/news_asn_list');
    expect((await h.call('/v1/news_ip_detail', { form: { id: asn.list[0]?.id ?? '' } })).body).toEqual({
      code: 404,
      msg: '文章不存在或已下线',
      data: null,
    });
    expect((await h.call('/v1/news_industry_detail', { form: { id: 'no-such-article' } })).body.code).toBe(404);
    expect((await h.call('/v1/news_report_detail', { form: { id: '../x' } })).body).toEqual({
      code: 400,
      msg: '文章编号不正确',
      data: null,
    });
    expect((await h.call('/v1/news_report_list', { form: { page_size: '51' } })).body.code).toBe(400);
  });
});

describe('what visitors send', () => {
  it('feedback_add is stored and published on content.feedback.v1 with the sender (account when logged in)', async () => {
    const from = randomVisitor();
    const text = `反馈 ${uniqueName('fb')}`;
    const data = await ok<{ id: string; received_at: string }>('/v1/feedback_add', {
      from,
      headers: { token, plat: 'wap' },
      form: { content: text, category: '建议', contact: 'qq 10000', page: '/ipv6' },
    });
    const event = await feedback.waitFor((record) => record.submissionId === data.id);
    expect(event).toMatchObject({ kind: FeedbackKind.FEEDBACK_KIND_FEEDBACK, text, accountId, plat: 'wap' });
    expect(event.visitorId).toMatch(/^v-[0-9a-f]{32}$/);
    expect((await h.call('/v1/feedback_add', { form: { category: '建议' } })).body).toEqual({
      code: 400,
      msg: '请输入反馈内容',
      data: null,
    });
  });

  it('ip_error_add and position_add report an address; content’s Chinese refusals are shown', async () => {
    const report = await ok<{ id: string }>('/v1/ip_error_add', {
      form: { ip: '114.114.114.114', province: '广东', city: '深圳', comment: '实际在深圳' },
    });
    const reported = await feedback.waitFor((record) => record.submissionId === report.id);
    expect(reported).toMatchObject({ kind: FeedbackKind.FEEDBACK_KIND_IP_ERROR, ip: '114.114.114.114', accountId: '' });
    // Nothing to correct: content's own message.
    expect((await h.call('/v1/ip_error_add', { form: { ip: '8.8.8.8' } })).body).toEqual({
      code: 400,
      msg: '请至少填写一项正确的位置信息或补充说明',
      data: null,
    });
    expect((await h.call('/v1/ip_error_add', { form: { ip: '8.8.8.x' } })).body.msg).toBe('请输入正确的IP 地址');
    const position = await ok<{ id: string }>('/v1/position_add', {
      form: { ip: '1.0.0.1', latitude: '22.5431', longitude: '114.0579', accuracy: '30', address: '深圳市南山区' },
    });
    expect((await feedback.waitFor((record) => record.submissionId === position.id)).fields).toMatchObject({
      address: '深圳市南山区',
    });
    expect((await h.call('/v1/position_add', { form: { ip: '1.0.0.1', latitude: '91', longitude: '0' } })).body.msg).toBe(
      '纬度须在 -90 到 90 之间',
    );
    expect((await h.call('/v1/position_add', { form: { ip: '1.0.0.1', latitude: 'north', longitude: '0' } })).body.msg).toBe(
      '纬度应为数字',
    );
  });

  it('regist_cooperation signs a partner up through auth and keeps the note in content', async () => {
    const phone = randomPhone();
    await ok('/v1/send_sms_code', { form: { phone, type: 'cooperation' } });
    const data = await ok<{ token: string; user: { id: string; phone: string; partner: boolean; company_name: string } }>(
      '/v1/regist_cooperation',
      {
        form: {
          phone,
          code: h.auth.sms.lastCode(phone),
          password: 'secret-1234',
          name: '张三',
          company: '示例科技有限公司',
          email: 'zs@example.com',
          message: '希望合作',
        },
      },
    );
    expect(data.user).toMatchObject({ phone, partner: true, company_name: '示例科技有限公司' });
    // The token is a real session.
    expect((await h.call('/v1/user_info', { headers: { token: data.token } })).body.code).toBe(200);
    expect(
      await feedback.waitFor(
        (record) => record.kind === FeedbackKind.FEEDBACK_KIND_COOPERATION && record.accountId === data.user.id,
      ),
    ).toMatchObject({ text: '希望合作' });
    // A wrong code creates nothing; missing fields are named.
    const wrong = await h.call('/v1/regist_cooperation', {
      form: { phone: randomPhone(), code: '000000', password: 'secret-1234', name: '李四', company: '某公司' },
    });
    expect(wrong.body.code).toBe(400);
    expect(
      (await h.call('/v1/regist_cooperation', { form: { phone, code: '123456', password: 'secret-1234', name: '张三' } })).body
        .msg,
    ).toBe('请输入公司名称');
  });
});

describe('user_info unread', () => {
  it('is the account’s unread messages in content (the welcome message after sign-up)', async () => {
    await waitFor(
      async () => ((await h.call('/v1/user_info', { headers: { token } })).body.data as { unread: number }).unread === 1,
      { timeoutMs: 30_000, what: 'the welcome message counted' },
    );
  });
});

describe('visits', () => {
  it('get_into_add, visit_history_add and cl_access_callback each publish one SiteVisit; pc_uv_pv counts them', async () => {
    const page = `/h9-test/${uniqueName('page')}`;
    const first = randomVisitor();
    const second = randomVisitor();
    await ok('/v1/get_into_add', {
      from: first,
      headers: { plat: 'wap', token },
      form: { page, referrer: 'https://www.baidu.com/' },
    });
    await ok('/v1/visit_history_add', { from: first, headers: { plat: 'wap' }, form: { page } });
    await ok('/v1/cl_access_callback', { from: second, form: { page } });
    await visits.waitFor((visit) => visit.page === page && visit.referrer !== '');
    await waitFor(() => visits.events.filter((visit) => visit.page === page).length === 3, { what: 'three visits' });
    const sent = visits.events.filter((visit) => visit.page === page);
    // Keyed by visitor: one visitor's visits keep their order; the two visitors' may interleave.
    const entry = sent.find((visit) => visit.referrer !== '');
    expect(entry).toMatchObject({ site: VisitSite.VISIT_SITE_CN, plat: 'wap', referrer: 'https://www.baidu.com/', accountId });
    const firstVisitor = sent.filter((visit) => visit.visitorId === entry?.visitorId);
    expect(firstVisitor[1]).toMatchObject({ plat: 'wap', referrer: '', accountId: '' });
    const secondVisitor = sent.filter((visit) => visit.visitorId !== entry?.visitorId);
    expect(secondVisitor).toHaveLength(1);
    expect(secondVisitor[0]).toMatchObject({ plat: 'pc' });
    expect(new Set(sent.map((visit) => visit.meta?.id)).size).toBe(3);

    let counted: { pv: number; uv: number; days: { day: string; pv: number; uv: number }[] } | undefined;
    await waitFor(
      async () => {
        const answer = await ok<NonNullable<typeof counted>>('/v1/pc_uv_pv', { form: { days: '2', page } });
        counted = answer;
        // Page views (Mongo) and unique visitors (Redis HyperLogLog) are written in two steps.
        return answer.pv === 3 && answer.uv === 2;
      },
      { timeoutMs: 30_000, what: 'stats counted the three page views of two visitors' },
    );
    expect(counted).toMatchObject({ pv: 3, uv: 2 });
    // Each view counts on the UTC day of its event's time (a run across midnight splits them).
    const byDay = new Map<string, { pv: number; visitors: Set<string> }>();
    for (const visit of sent) {
      const day = visit.meta?.time?.toISOString().slice(0, 10) ?? '';
      const entry = byDay.get(day) ?? { pv: 0, visitors: new Set<string>() };
      entry.pv++;
      entry.visitors.add(visit.visitorId);
      byDay.set(day, entry);
    }
    for (const [day, { pv, visitors }] of byDay) {
      expect(counted?.days.find((row) => row.day === day)).toEqual({ day, pv, uv: visitors.size });
    }
  });

  it('refuses a page that is not a path, and bad days', async () => {
    expect((await h.call('/v1/get_into_add', { form: { page: 'ipv6' } })).body).toEqual({
      code: 400,
      msg: '页面路径应以 / 开头，且不含查询参数',
      data: null,
    });
    expect((await h.call('/v1/visit_history_add', { form: {} })).body.msg).toBe('请输入页面路径');
    expect((await h.call('/v1/pc_uv_pv', { form: { days: '91' } })).body.msg).toBe('天数应为 1 到 90 之间的整数');
  });
});
