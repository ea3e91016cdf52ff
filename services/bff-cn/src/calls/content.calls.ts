import type { Logger } from '@ipdata/common';
import type { Sender } from '@ipdata/proto/content/v1/content';
import {
  NEWS_PRODUCTS,
  contactsView,
  encodedContactsView,
  newsDetailView,
  newsSummaryView,
  noticeView,
  submissionView,
  type NewsProduct,
} from '../content/content-views.js';
import type { SiteContent } from '../content/site-content.ports.js';
import { CODE, FaceAError, badInput } from '../face-a/envelope.js';
import { defineCall, type CallContext, type FaceACall } from '../face-a/face-a-call.js';
import type { SessionResolver } from '../face-a/face-a.dispatcher.js';
import type { FieldSpec } from '../face-a/input-schema.js';
import { optionalAccount } from '../visits/optional-account.js';
import { lastDays } from '../visits/site-visit.js';
import type { VisitCounts } from '../visits/visit.ports.js';

export interface ContentCallsDeps {
  content: SiteContent;
  visitCounts: VisitCounts;
  sessions: SessionResolver;
  siteName: string;
  logger: Logger;
}

const PAGE = { kind: 'int', label: '页码', required: false, min: 1, max: 1000, default: 1 } as const satisfies FieldSpec;
const ARTICLE_ID = {
  kind: 'string',
  label: '文章编号',
  required: true,
  maxLength: 64,
  pattern: /^[A-Za-z0-9_-]+$/,
  patternMsg: '文章编号不正确',
} as const satisfies FieldSpec;
const text = (label: string, maxLength: number) => ({ kind: 'string', label, required: false, maxLength }) as const;
const IP = { kind: 'ip', label: 'IP 地址', required: true } as const satisfies FieldSpec;
/** A decimal degree or metre value; the range is checked by the call (and again by content). */
const DECIMAL = /^-?\d{1,9}(\.\d{1,15})?$/;
const decimal = (label: string, required: boolean) =>
  ({ kind: 'string', label, required, maxLength: 30, pattern: DECIMAL, patternMsg: `${label}应为数字` }) as const;

/** How many items web_init and find_index show. */
const HOME_NOTICES = 5;
const HOME_NEWS_PER_PRODUCT = 3;

/**
 * Face A's site content (the content service): start-up data, the home page, notices, contacts,
 * news per product, and what visitors send (cooperation, feedback, IP-error and position reports).
 */
export function contentCalls(deps: ContentCallsDeps): FaceACall[] {
  const { content } = deps;
  const sender = async (context: CallContext): Promise<Sender> => ({
    accountId: await optionalAccount(context, deps.sessions),
    visitorId: context.visitorId,
    clientIp: context.clientIp,
    plat: context.plat,
  });
  return [
    defineCall({
      name: 'web_init',
      path: '/v1/web_init',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {},
      handle: async (context) => {
        const [contacts, notices] = await Promise.all([content.getContacts(), content.listNotices(HOME_NOTICES)]);
        return {
          data: {
            site_name: deps.siteName,
            ...encodedContactsView(contacts),
            notices: notices.map(noticeView),
            news_products: [...NEWS_PRODUCTS],
            plat: context.plat,
            server_time: new Date().toISOString(),
          },
        };
      },
    }),
    defineCall({
      name: 'find_index',
      path: '/v1/find_index',
      methods: ['GET'],
      needsLogin: false,
      silent: false,
      input: {},
      handle: async () => {
        const [notices, lists, today] = await Promise.all([
          content.listNotices(HOME_NOTICES),
          Promise.all(NEWS_PRODUCTS.map((product) => content.listNews(product, 1, HOME_NEWS_PER_PRODUCT))),
          todayVisits(deps),
        ]);
        const news: Record<string, unknown> = {};
        const newsTotals: Record<string, number> = {};
        NEWS_PRODUCTS.forEach((product, index) => {
          const list = lists[index];
          news[product] = list?.items.map(newsSummaryView) ?? [];
          newsTotals[product] = list?.total ?? 0;
        });
        return { data: { notices: notices.map(noticeView), news, counts: { news: newsTotals, today } } };
      },
    }),
    defineCall({
      name: 'get_notice',
      path: '/v1/get_notice',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { page_size: { kind: 'int', label: '条数', required: false, min: 1, max: 50, default: 10 } },
      handle: async (_context, { page_size }) => ({ data: { list: (await content.listNotices(page_size)).map(noticeView) } }),
    }),
    defineCall({
      name: 'customer_service_list',
      path: '/v1/customer_service_list',
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: {},
      handle: async () => ({ data: contactsView(await content.getContacts()) }),
    }),
    ...NEWS_PRODUCTS.flatMap((product) => newsCalls(content, product)),
    defineCall({
      name: 'feedback_add',
      path: '/v1/feedback_add',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        content: { kind: 'string', label: '反馈内容', required: true, maxLength: 2000 },
        category: text('反馈类型', 20),
        contact: text('联系方式', 100),
        page: text('页面地址', 500),
      },
      handle: async (context, form) => {
        const submission = await content.submitFeedback(await sender(context), {
          content: form.content,
          category: form.category ?? '',
          contact: form.contact ?? '',
          page: form.page ?? '',
        });
        return { data: submissionView(submission), msg: '提交成功，感谢您的反馈' };
      },
    }),
    defineCall({
      name: 'ip_error_add',
      path: '/v1/ip_error_add',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        ip: IP,
        country: text('国家', 50),
        province: text('省份', 50),
        city: text('城市', 50),
        isp: text('运营商', 50),
        comment: text('补充说明', 1000),
        contact: text('联系方式', 100),
      },
      handle: async (context, form) => {
        const submission = await content.reportIpError(await sender(context), {
          ip: form.ip.text,
          country: form.country ?? '',
          province: form.province ?? '',
          city: form.city ?? '',
          isp: form.isp ?? '',
          comment: form.comment ?? '',
          contact: form.contact ?? '',
        });
        return { data: submissionView(submission), msg: '提交成功，感谢您的纠错' };
      },
    }),
    defineCall({
      name: 'position_add',
      path: '/v1/position_add',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        ip: IP,
        latitude: decimal('纬度', true),
        longitude: decimal('经度', true),
        accuracy: decimal('定位精度', false),
        address: text('详细地址', 200),
      },
      handle: async (context, form) => {
        const latitude = Number(form.latitude);
        const longitude = Number(form.longitude);
        const accuracyM = form.accuracy === undefined ? 0 : Number(form.accuracy);
        if (latitude < -90 || latitude > 90) throw badInput('纬度须在 -90 到 90 之间');
        if (longitude < -180 || longitude > 180) throw badInput('经度须在 -180 到 180 之间');
        if (accuracyM < 0) throw badInput('定位精度不能为负数');
        const submission = await content.reportPosition(await sender(context), {
          ip: form.ip.text,
          latitude,
          longitude,
          accuracyM,
          address: form.address ?? '',
        });
        return { data: submissionView(submission), msg: '提交成功，感谢您的反馈' };
      },
    }),
  ];
}

/** news_{product}_list, _detail and _recommend of one product. */
function newsCalls(content: SiteContent, product: NewsProduct): FaceACall[] {
  return [
    defineCall({
      name: `news_${product}_list`,
      path: `/v1/news_${product}_list`,
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { page: PAGE, page_size: { kind: 'int', label: '每页条数', required: false, min: 1, max: 50, default: 10 } },
      handle: async (_context, { page, page_size }) => {
        const list = await content.listNews(product, page, page_size);
        return { data: { list: list.items.map(newsSummaryView), total: list.total, page, page_size } };
      },
    }),
    defineCall({
      name: `news_${product}_detail`,
      path: `/v1/news_${product}_detail`,
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: { id: ARTICLE_ID },
      handle: async (_context, { id }) => {
        const news = await content.getNews(id);
        // An article of another product is not found under this product's page.
        if (news.summary?.product !== product) throw new FaceAError(CODE.notFound, '文章不存在或已下线');
        return { data: newsDetailView(news) };
      },
    }),
    defineCall({
      name: `news_${product}_recommend`,
      path: `/v1/news_${product}_recommend`,
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: {
        id: { ...ARTICLE_ID, required: false },
        page_size: { kind: 'int', label: '条数', required: false, min: 1, max: 20, default: 5 },
      },
      handle: async (_context, { id, page_size }) => ({
        data: { list: (await content.recommendNews(product, id ?? '', page_size)).map(newsSummaryView) },
      }),
    }),
  ];
}

/**
 * Today's (UTC) page views and unique visitors for the home page's counters. Advisory: when stats
 * is down the home page still shows, with `today` null (logged).
 */
async function todayVisits(deps: ContentCallsDeps): Promise<{ pv: number; uv: number } | null> {
  try {
    const counts = await deps.visitCounts.visits({ ...lastDays(1), page: '' });
    return { pv: counts.pv, uv: counts.uv };
  } catch (error) {
    deps.logger.warn({ err: error }, 'find_index without visit counts: stats failed');
    return null;
  }
}
