import type { Logger } from '@ipdata/common';
import type { SiteContent } from './site-content.ports.js';

/**
 * user_info's unread count: null when content cannot answer (logged), so that a content outage
 * leaves the user logged in and the page working rather than failing the silent user_info call.
 */
export function unreadCounter(content: SiteContent, logger: Logger) {
  return async (accountId: string): Promise<number | null> => {
    try {
      return await content.unreadCount(accountId);
    } catch (error) {
      logger.warn({ err: error }, 'user_info without unread: content failed');
      return null;
    }
  };
}
