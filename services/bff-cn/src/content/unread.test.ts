import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { SiteContent } from './site-content.ports.js';
import { unreadCounter } from './unread.js';

const logger = pino({ level: 'silent' });

describe('unreadCounter', () => {
  it('is content’s count, and null (not a failure) when content cannot answer', async () => {
    const up = { unreadCount: (id: string) => Promise.resolve(id === 'acc-1' ? 2 : 0) } as unknown as SiteContent;
    const down = { unreadCount: () => Promise.reject(new Error('unavailable')) } as unknown as SiteContent;
    expect(await unreadCounter(up, logger)('acc-1')).toBe(2);
    expect(await unreadCounter(down, logger)('acc-1')).toBeNull();
  });
});
