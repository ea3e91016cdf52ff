import { InvalidArgumentError } from '@ipdata/common';
import { INPUT_LIMITS, requireAtMost } from './input-limits.js';

export interface Page {
  offset: number;
  limit: number;
}

/** page_token is an opaque offset; page_size 1-100, default 20. */
export function readPage(pageSize: number, pageToken: string): Page {
  const limit = pageSize === 0 ? 20 : pageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidArgumentError('page_size must be between 1 and 100');
  requireAtMost('page_token', pageToken, INPUT_LIMITS.pageToken);
  if (pageToken === '') return { offset: 0, limit };
  const offset = Number(Buffer.from(pageToken, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(offset) || offset < 0) throw new InvalidArgumentError('invalid page_token');
  return { offset, limit };
}

export function nextPageToken(page: Page, returned: number, hasMore: boolean): string {
  return hasMore ? Buffer.from(String(page.offset + returned), 'utf8').toString('base64url') : '';
}
