import { NotFoundError } from '@ipdata/common';
import { checkLimit, checkPaging, invalid } from '../shared/input.js';
import { sanitiseHtml } from './html-sanitiser.js';

export interface NewsSummary {
  id: string;
  product: string;
  title: string;
  summary: string;
  coverUrl: string;
  publishedAt: Date;
  isSample: boolean;
  views: number;
  tags: string[];
}

export interface NewsArticle extends NewsSummary {
  bodyHtml: string;
  author: string;
  published: boolean;
}

/** What the news domain needs of storage (adapters/mongo/news.store.ts). Only published articles are returned. */
export interface NewsStore {
  list(product: string, page: { skip: number; limit: number }): Promise<{ items: NewsSummary[]; total: number }>;
  /** The published article with its views counted up by one, or null. */
  getAndCountView(id: string): Promise<NewsArticle | null>;
  /** The neighbours in the product's newest-first order: `newer` comes before it, `older` after it. */
  neighbours(article: NewsSummary): Promise<{ newer: NewsSummary | null; older: NewsSummary | null }>;
  recommend(product: string, excludeId: string, limit: number): Promise<NewsSummary[]>;
}

/** A product is a short lower-case word ("ip", "asn", "report", "industry"), the `{product}` of news_{product}_list. */
const PRODUCT = /^[a-z][a-z0-9_]{0,31}$/;
const ARTICLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function checkProduct(value: string | undefined): string {
  const product = value ?? '';
  if (product === '') throw invalid('请指定资讯栏目', 'product');
  if (!PRODUCT.test(product)) throw invalid('资讯栏目名称不正确', 'product');
  return product;
}

function checkArticleId(field: string, value: string | undefined, required: boolean): string {
  const id = value ?? '';
  if (id === '' && !required) return '';
  if (id === '') throw invalid('请指定文章', field);
  if (!ARTICLE_ID.test(id)) throw invalid('文章编号不正确', field);
  return id;
}

export const NEWS_PAGE = { default: 10, max: 50 } as const;
export const RECOMMEND_LIMIT = { default: 5, max: 20 } as const;

export class News {
  constructor(private readonly store: NewsStore) {}

  async list(request: { product?: string; page?: number; pageSize?: number }) {
    const product = checkProduct(request.product);
    const paging = checkPaging(request.page, request.pageSize, NEWS_PAGE);
    return this.store.list(product, { skip: paging.skip, limit: paging.pageSize });
  }

  async get(request: { id?: string }) {
    const id = checkArticleId('id', request.id, true);
    const article = await this.store.getAndCountView(id);
    if (!article) throw new NotFoundError('文章不存在或已下线', { reason: 'news_not_found', details: { id } });
    const { newer, older } = await this.store.neighbours(article);
    // Sanitised on the way out too: a body edited in the database never reaches a page unchecked.
    return { article: { ...article, bodyHtml: sanitiseHtml(article.bodyHtml).html }, previous: newer, next: older };
  }

  async recommend(request: { product?: string; excludeId?: string; limit?: number }) {
    const product = checkProduct(request.product);
    const excludeId = checkArticleId('exclude_id', request.excludeId, false);
    const limit = checkLimit('limit', request.limit, RECOMMEND_LIMIT);
    return this.store.recommend(product, excludeId, limit);
  }
}

/** Bounded like every other input, for the seed file. */
export const NEWS_LIMITS = { title: 120, summary: 500, author: 60, tag: 20, tags: 10, body: 100_000, url: 500 } as const;
