import { InvalidArgumentError } from '@ipdata/common';
import type { DownloadRecord, LinkStore } from '../links/download-link.js';
import type { DownloadLinks } from '../links/download-links.js';
import { checkAccountId } from '../links/request-checks.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface HistoryPage {
  downloads: DownloadRecord[];
  total: number;
  remainingToday: number;
  dailyLimit: number;
}

/** ListDownloadHistory: an account's served links, newest first, with what is left of today's limit. */
export class DownloadHistory {
  constructor(private readonly deps: { links: LinkStore; downloadLinks: DownloadLinks; dailyLimit: number }) {}

  async list(request: { accountId: string; page: number; pageSize: number }): Promise<HistoryPage> {
    const accountId = checkAccountId(request.accountId);
    const page = request.page === 0 ? 1 : request.page;
    const pageSize = request.pageSize === 0 ? DEFAULT_PAGE_SIZE : request.pageSize;
    if (pageSize > MAX_PAGE_SIZE) {
      throw new InvalidArgumentError(`page_size must be at most ${MAX_PAGE_SIZE}`, { reason: 'invalid_page_size' });
    }
    if (page > 10_000) throw new InvalidArgumentError('page must be at most 10000', { reason: 'invalid_page' });
    const [{ records, total }, remainingToday] = await Promise.all([
      this.deps.links.history(accountId, { skip: (page - 1) * pageSize, limit: pageSize }),
      this.deps.downloadLinks.remainingToday(accountId),
    ]);
    return { downloads: records, total, remainingToday, dailyLimit: this.deps.dailyLimit };
  }
}
