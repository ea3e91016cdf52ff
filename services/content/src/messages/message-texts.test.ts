import { describe, expect, it } from 'vitest';
import { chinaDate, vipMessage, welcomeMessage } from './message-texts.js';

describe('message texts', () => {
  it('shows dates in China time', () => {
    expect(chinaDate(new Date('2026-01-31T15:59:59Z'))).toBe('2026-01-31');
    expect(chinaDate(new Date('2026-01-31T16:00:00Z'))).toBe('2026-02-01');
  });

  it('starts the new year in China at 16:00 UTC on 31 December', () => {
    expect(chinaDate(new Date('2026-12-31T15:59:59.999Z'))).toBe('2026-12-31');
    expect(chinaDate(new Date('2026-12-31T16:00:00.000Z'))).toBe('2027-01-01');
    expect(chinaDate(new Date('2026-12-31T23:59:59.999Z'))).toBe('2027-01-01');
    expect(chinaDate(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01-01');
  });

  it('has 29 February in China time in a leap year only', () => {
    expect(chinaDate(new Date('2028-02-28T15:59:59.999Z'))).toBe('2028-02-28');
    expect(chinaDate(new Date('2028-02-28T16:00:00.000Z'))).toBe('2028-02-29');
    expect(chinaDate(new Date('2028-02-29T15:59:59.999Z'))).toBe('2028-02-29');
    expect(chinaDate(new Date('2028-02-29T16:00:00.000Z'))).toBe('2028-03-01');
    expect(chinaDate(new Date('2027-02-28T16:00:00.000Z'))).toBe('2027-03-01');
  });

  it('writes one text per VIP change', () => {
    expect(vipMessage('created', new Date('2026-03-01T00:00:00Z'))).toEqual({
      kind: 'vip',
      title: 'VIP 会员已开通',
      body: '您的 VIP 会员已开通，有效期至 2026-03-01。感谢您的支持！',
    });
    expect(vipMessage('renewed', undefined).body).toBe('您的 VIP 会员已续费。感谢您的支持！');
    expect(vipMessage('canceled', new Date('2026-03-01T00:00:00Z')).title).toBe('VIP 会员已取消');
    expect(welcomeMessage().kind).toBe('welcome');
  });

  it('dates a VIP period ending around new year and the leap day in China time, whatever the process time zone', () => {
    // A period ending at 00:00 UTC on 1 January ends at 08:00 on 1 January in China.
    expect(vipMessage('renewed', new Date('2027-01-01T00:00:00.000Z')).body).toBe(
      '您的 VIP 会员已续费，有效期至 2027-01-01。感谢您的支持！',
    );
    // One ending at 23:59:59.999 UTC on 31 December ends on 1 January in China too.
    expect(vipMessage('created', new Date('2026-12-31T23:59:59.999Z')).body).toContain('有效期至 2027-01-01');
    // One ending at 15:59:59.999 UTC on 31 December still ends on 31 December in China.
    expect(vipMessage('created', new Date('2026-12-31T15:59:59.999Z')).body).toContain('有效期至 2026-12-31');
    expect(vipMessage('created', new Date('2028-02-28T20:00:00.000Z')).body).toContain('有效期至 2028-02-29');
  });
});
