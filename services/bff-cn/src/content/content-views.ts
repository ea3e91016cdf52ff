import { InternalError } from '@ipdata/common';
import type {
  Contact,
  GetContactsResponse,
  GetNewsResponse,
  Notice,
  NewsSummary,
  Submission,
} from '@ipdata/proto/content/v1/content';

/**
 * The news products face A shows (content seeds these; the `{product}` of news_{product}_list,
 * _detail and _recommend). A new product is one more entry here and three paths in face-a.yaml.
 */
export const NEWS_PRODUCTS = ['ip', 'asn', 'report', 'industry'] as const;
export type NewsProduct = (typeof NEWS_PRODUCTS)[number];

/** The five contact kinds, in the order the site shows them. */
export const CONTACT_KINDS = ['phone', 'email', 'qq', 'qq_code', 'wx_code'] as const;

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

export function newsSummaryView(summary: NewsSummary) {
  return {
    id: summary.id,
    product: summary.product,
    title: summary.title,
    summary: summary.summary,
    cover_url: summary.coverUrl,
    published_at: iso(summary.publishedAt),
    // Seeded sample articles are marked so the page never presents them as real news.
    is_sample: summary.isSample,
    views: summary.views,
    tags: [...summary.tags],
  };
}

/** A neighbour link: only what a "previous/next" link needs; null when there is none. */
function neighbourView(summary: NewsSummary | undefined) {
  return summary === undefined || summary.id === '' ? null : { id: summary.id, title: summary.title };
}

export function newsDetailView(news: GetNewsResponse) {
  if (news.summary === undefined) throw new InternalError('content answered an article without its summary');
  return {
    ...newsSummaryView(news.summary),
    body_html: news.bodyHtml,
    author: news.author,
    previous: neighbourView(news.previous),
    next: neighbourView(news.next),
  };
}

export function noticeView(notice: Notice) {
  return { id: notice.id, title: notice.title, body: notice.body, link: notice.link, published_at: iso(notice.publishedAt) };
}

const contactList = (contacts: readonly Contact[]) => contacts.map(({ name, value }) => ({ name, value }));

/** customer_service_list: each kind a real list of {name, value}. */
export function contactsView(contacts: GetContactsResponse) {
  return {
    phone: contactList(contacts.phone),
    email: contactList(contacts.email),
    qq: contactList(contacts.qq),
    qq_code: contactList(contacts.qqCode),
    wx_code: contactList(contacts.wxCode),
  };
}

/**
 * web_init's contacts: the spec's client reads each kind as a JSON-encoded string of a list of
 * {name, value} (it JSON.parses them), so they are encoded here, unlike customer_service_list.
 */
export function encodedContactsView(contacts: GetContactsResponse): Record<(typeof CONTACT_KINDS)[number], string> {
  const view = contactsView(contacts);
  return {
    phone: JSON.stringify(view.phone),
    email: JSON.stringify(view.email),
    qq: JSON.stringify(view.qq),
    qq_code: JSON.stringify(view.qq_code),
    wx_code: JSON.stringify(view.wx_code),
  };
}

export function submissionView(submission: Submission | undefined) {
  if (submission === undefined) throw new InternalError('content answered a submission without its id');
  return { id: submission.id, received_at: iso(submission.receivedAt) };
}
