import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { contactDraft, cooperationDraft, feedbackDraft, ipErrorDraft, positionDraft } from './submission.js';

describe('submission drafts', () => {
  it('trims texts, canonicalises addresses, leaves empty fields out, defaults plat to pc', () => {
    expect(
      ipErrorDraft({ ip: '2001:0DB8::0001', province: ' 广东 ', comment: '', sender: { clientIp: '::ffff:1.2.3.4' } }),
    ).toEqual({
      kind: 'ip_error',
      sender: { accountId: '', visitorId: '', clientIp: '1.2.3.4', plat: 'pc' },
      ip: '2001:db8::1',
      text: '',
      fields: { province: '广东' },
    });
    expect(positionDraft({ ip: '1.2.3.4', latitude: -33.5, longitude: 151 }).fields).toEqual({
      latitude: '-33.5',
      longitude: '151',
    });
    expect(feedbackDraft({ content: '好用' }).fields).toEqual({});
    expect(cooperationDraft({ name: '李四', company: '公司', email: 'a@b.cn' }).fields).toEqual({
      name: '李四',
      company: '公司',
      email: 'a@b.cn',
    });
  });

  it('counts characters, not UTF-16 units, against the limits', () => {
    expect(feedbackDraft({ content: '😀'.repeat(2000) }).text).toHaveLength(4000);
    expect(() => feedbackDraft({ content: '😀'.repeat(2001) })).toThrow('反馈内容不能超过 2000 个字符');
  });

  it('accepts the edges of the coordinate ranges and refuses beyond them', () => {
    expect(positionDraft({ ip: '1.1.1.1', latitude: 90, longitude: -180 }).fields['latitude']).toBe('90');
    expect(() => positionDraft({ ip: '1.1.1.1', latitude: 90.0001, longitude: 0 })).toThrow(InvalidArgumentError);
    expect(() => positionDraft({ ip: '1.1.1.1', latitude: 0, longitude: Number.POSITIVE_INFINITY })).toThrow(
      '经度须在 -180 到 180 之间',
    );
  });

  it('names the field in the error details', () => {
    try {
      ipErrorDraft({ ip: '300.1.1.1', city: '北京' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).details).toEqual({ field: 'ip' });
      expect((error as InvalidArgumentError).reason).toBe('invalid_input');
    }
  });

  it('checks the contact form in English: every field required, the category one of the three', () => {
    const form = { name: ' Ada ', email: 'ada@example.com', description: 'Line one\nline two', category: 'Support' };
    expect(contactDraft(form)).toEqual({
      kind: 'contact',
      sender: { accountId: '', visitorId: '', clientIp: '', plat: 'pc' },
      ip: '',
      text: 'Line one\nline two',
      fields: { name: 'Ada', email: 'ada@example.com', category: 'Support' },
    });
    for (const category of ['Custom plans', 'Feedback'])
      expect(contactDraft({ ...form, category }).fields['category']).toBe(category);
    const refusals: Array<[Partial<typeof form>, string, string]> = [
      [{ name: '  ' }, 'Please enter your name', 'name'],
      [{ name: 'x'.repeat(101) }, 'Your name must be at most 100 characters long', 'name'],
      [{ name: 'a\nb' }, 'Your name contains characters that are not allowed', 'name'],
      [{ email: '' }, 'Please enter your email address', 'email'],
      [{ email: 'ada@' }, 'Please enter the correct email address', 'email'],
      [{ email: 'a b@example.com' }, 'Please enter the correct email address', 'email'],
      [{ email: `${'a'.repeat(250)}@example.com` }, 'Your email address must be at most 254 characters long', 'email'],
      [{ description: '' }, 'Please enter the description', 'description'],
      [{ description: '😀'.repeat(2001) }, 'The description must be at most 2000 characters long', 'description'],
      [{ category: '' }, 'Please choose a category: Custom plans, Support, Feedback', 'category'],
      [{ category: 'support' }, 'Please choose a category: Custom plans, Support, Feedback', 'category'],
    ];
    for (const [change, message, field] of refusals) {
      try {
        contactDraft({ ...form, ...change });
        expect.unreachable(`${JSON.stringify(change)} was accepted`);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidArgumentError);
        expect((error as InvalidArgumentError).message).toBe(message);
        expect((error as InvalidArgumentError).details).toEqual({ field });
      }
    }
    expect(contactDraft({ ...form, description: '😀'.repeat(2000) }).text).toHaveLength(4000);
  });
});
