import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE, SeedFileError, loadSeedFile, parseSeedContent } from './seed-file.js';

const article = (overrides: Record<string, unknown> = {}) => ({
  id: 'sample-ip-9',
  product: 'ip',
  title: '【示例】标题',
  summary: '摘要',
  author: '示例编辑部',
  published_at: '2026-01-01T00:00:00Z',
  is_sample: true,
  tags: ['示例'],
  body_html: '<p>正文</p>',
  ...overrides,
});

function problemsOf(document: unknown): readonly string[] {
  try {
    parseSeedContent(document, 'seed.json');
  } catch (error) {
    if (error instanceof SeedFileError) return error.problems;
    throw error;
  }
  return [];
}

describe('seed file', () => {
  it('loads the shipped samples: three per product, all marked, clean bodies', () => {
    const seed = loadSeedFile(DEFAULT_SEED_FILE);
    for (const product of ['ip', 'asn', 'report', 'industry']) {
      expect(seed.news.filter((item) => item.product === product)).toHaveLength(3);
    }
    expect(seed.news.every((item) => item.isSample && item.title.includes('示例') && item.published)).toBe(true);
    expect(seed.notices.map((notice) => notice.id)).toEqual(['sample-notice-1', 'sample-notice-2']);
  });

  it('names every problem: unmarked samples, unsafe HTML, duplicate ids, bad dates and URLs', () => {
    const problems = problemsOf({
      news: [
        article({ title: '真实新闻' }),
        article({ is_sample: false, body_html: '<p onclick="x()">a</p><script>alert(1)</script>' }),
        article({ id: 'bad id', product: 'IP', published_at: 'yesterday', cover_url: 'javascript:alert(1)', tags: 'x' }),
      ],
      notices: [
        { id: 'sample-ip-9', title: '【示例】通知', body: '内容', published_at: '2026-01-01T00:00:00Z', is_sample: true },
      ],
    });
    expect(problems).toEqual([
      'news[0]: title must contain 示例 (a sample, not real news)',
      'news[1]: id sample-ip-9 is used twice',
      'news[1]: body_html is not clean HTML (<p> attribute onclick; <script>)',
      'news[1]: is_sample is false, expected true',
      expect.stringMatching(/^news\[2\]: id is "bad id", expected a string matching/),
      'news[2]: tags is "x", expected a list of at most 10 strings of at most 20 characters',
      expect.stringMatching(/^news\[2\]: product is "IP", expected a string matching/),
      expect.stringMatching(/^news\[2\]: cover_url is "javascript:alert\(1\)"/),
      'news[2]: published_at is "yesterday", expected an ISO 8601 date-time such as 2026-01-05T08:00:00Z',
      'notices[0]: id sample-ip-9 is used twice',
    ]);
    expect(problemsOf({})).toEqual(['top-level "news" must be a list', 'top-level "notices" must be a list']);
  });
});
