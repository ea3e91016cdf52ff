import { describe, expect, it } from 'vitest';
import { chinaDate, vipMessage, welcomeMessage } from './message-texts.js';

describe('message texts', () => {
  it('shows dates in China time', () => {
    expect(chinaDate(new Date('2026-01-31T15:59:59Z'))).toBe('2026-01-31');
    expect(chinaDate(new Date('2026-01-31T16:00:00Z'))).toBe('2026-02-01');
  });

  it('writes one text per VIP change', () => {
    expect(vipMessage('created', new Date('2026-03-01T00:00:00Z'))).toEqual({
      kind: 'vip',
      title: 'VIP 会员已开通',
      body: '您的 VIP 会员已开通，有效期至 2026-03-01。感谢您的支持！',
    });
    expect(vipMessage('renewed', undefined).body).toBe('您的 VIP 会员已续费。感谢您的支持！');
    expect(vipMessage('canceled', new Date()).title).toBe('VIP 会员已取消');
    expect(welcomeMessage().kind).toBe('welcome');
  });
});
