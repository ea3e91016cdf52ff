import { describe, expect, it } from 'vitest';
import { contactsView, encodedContactsView, newsDetailView, newsSummaryView, submissionView } from './content-views.js';

const summary = {
  id: 'a1',
  product: 'ip',
  title: '示例：IP 数据更新',
  summary: '摘要',
  coverUrl: '',
  publishedAt: new Date('2026-11-01T08:00:00Z'),
  isSample: true,
  views: 3,
  tags: ['IP'],
};

describe('content views', () => {
  it('news summaries are snake_case with ISO times and keep the sample mark', () => {
    expect(newsSummaryView(summary)).toEqual({
      id: 'a1',
      product: 'ip',
      title: '示例：IP 数据更新',
      summary: '摘要',
      cover_url: '',
      published_at: '2026-11-01T08:00:00.000Z',
      is_sample: true,
      views: 3,
      tags: ['IP'],
    });
  });

  it('a detail has body, author and neighbour links, null where there is no neighbour', () => {
    const detail = newsDetailView({
      summary,
      bodyHtml: '<p>正文</p>',
      author: '编辑部',
      previous: undefined,
      next: { ...summary, id: 'a2', title: '下一篇' },
    });
    expect(detail).toMatchObject({
      id: 'a1',
      body_html: '<p>正文</p>',
      author: '编辑部',
      previous: null,
      next: { id: 'a2', title: '下一篇' },
    });
    expect(() =>
      newsDetailView({ summary: undefined, bodyHtml: '', author: '', previous: undefined, next: undefined }),
    ).toThrow();
  });

  it('web_init encodes each contact kind as a JSON string of {name, value}; customer_service_list keeps lists', () => {
    const contacts = {
      phone: [{ name: '客服电话', value: '400-000-0000' }],
      email: [],
      qq: [{ name: '客服 QQ', value: '10000' }],
      qqCode: [{ name: 'QQ 群', value: '123456' }],
      wxCode: [{ name: '微信', value: 'ipdata' }],
    };
    const encoded = encodedContactsView(contacts);
    expect(Object.keys(encoded)).toEqual(['phone', 'email', 'qq', 'qq_code', 'wx_code']);
    expect(JSON.parse(encoded.phone)).toEqual([{ name: '客服电话', value: '400-000-0000' }]);
    expect(encoded.email).toBe('[]');
    expect(JSON.parse(encoded.qq_code)).toEqual([{ name: 'QQ 群', value: '123456' }]);
    expect(contactsView(contacts).wx_code).toEqual([{ name: '微信', value: 'ipdata' }]);
  });

  it('a submission answers its id and time; a missing one is a fault', () => {
    expect(submissionView({ id: 's1', receivedAt: new Date('2026-11-02T00:00:00Z') })).toEqual({
      id: 's1',
      received_at: '2026-11-02T00:00:00.000Z',
    });
    expect(() => submissionView(undefined)).toThrow();
  });
});
