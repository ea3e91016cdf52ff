import { checkLimit } from '../shared/input.js';

export interface Notice {
  id: string;
  title: string;
  body: string;
  link: string;
  publishedAt: Date;
  isSample: boolean;
}

export interface NoticeStore {
  /** Newest first. */
  latest(limit: number): Promise<Notice[]>;
}

export const NOTICE_LIMIT = { default: 5, max: 50 } as const;

export class Notices {
  constructor(private readonly store: NoticeStore) {}

  list(request: { limit?: number }): Promise<Notice[]> {
    return this.store.latest(checkLimit('limit', request.limit, NOTICE_LIMIT));
  }
}
