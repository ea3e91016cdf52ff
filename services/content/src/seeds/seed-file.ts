import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigFileError } from '@ipdata/common';
import { sanitiseHtml } from '../news/html-sanitiser.js';
import type { NewsArticle } from '../news/news.js';
import type { Notice } from '../notices/notices.js';

/** config/sample-content.json beside src/ and dist/ alike. */
export const DEFAULT_SEED_FILE = fileURLToPath(new URL('../../config/sample-content.json', import.meta.url));

/** The seed file is wrong: the message names the file and every problem at once. */
export class SeedFileError extends ConfigFileError {
  constructor(source: string, problems: readonly string[]) {
    super('seed file', source, problems);
    this.name = 'SeedFileError';
  }
}

export type SeedArticle = Omit<NewsArticle, 'views'>;

export interface SeedContent {
  news: SeedArticle[];
  notices: Notice[];
}

type Raw = Record<string, unknown>;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const PRODUCT = /^[a-z][a-z0-9_]{0,31}$/;
const URL_OR_EMPTY = /^(?:|https?:\/\/[^\s"'<>`]{1,490}|\/(?!\/)[^\s"'<>`]{0,490})$/i;
const SAMPLE_MARK = '示例';

/**
 * Sample news and notices seeded at start. Strict: every article is a sample (is_sample true,
 * title containing 示例, so nothing seeded is ever presented as real news), ids are fixed (the
 * seed is an upsert by id, idempotent across restarts), and a body must already be clean HTML
 * (sanitiseHtml would change nothing).
 */
export function loadSeedFile(path: string): SeedContent {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SeedFileError(path, [`cannot read it as JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return parseSeedContent(document, path);
}

export function parseSeedContent(document: unknown, source = '(inline)'): SeedContent {
  const problems: string[] = [];
  const root = (typeof document === 'object' && document !== null ? document : {}) as Raw;
  const list = (key: string) => {
    const value = root[key];
    if (!Array.isArray(value)) {
      problems.push(`top-level "${key}" must be a list`);
      return [];
    }
    return value as unknown[];
  };
  const ids = new Set<string>();
  const news = list('news').map((raw, index) => article(raw, `news[${index}]`, problems, ids));
  const notices = list('notices').map((raw, index) => notice(raw, `notices[${index}]`, problems, ids));
  if (problems.length > 0) throw new SeedFileError(source, problems);
  return { news, notices };
}

function fields(raw: unknown, where: string, problems: string[]) {
  const record = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Raw;
  const problem = (field: string, expected: string) =>
    problems.push(
      `${where}: ${field} ${record[field] === undefined ? 'is missing' : `is ${JSON.stringify(record[field]).slice(0, 80)}`}, expected ${expected}`,
    );
  const text = (field: string, max: number, options: { pattern?: RegExp; optional?: boolean } = {}) => {
    const value = record[field] ?? (options.optional ? '' : undefined);
    if (typeof value !== 'string' || (!options.optional && value.trim() === '') || [...value].length > max) {
      problem(field, `a ${options.optional ? '' : 'non-empty '}string of at most ${max} characters`);
      return '';
    }
    if (options.pattern && !options.pattern.test(value)) {
      problem(field, `a string matching ${String(options.pattern)}`);
      return '';
    }
    return value;
  };
  const date = (field: string) => {
    const value = record[field];
    const parsed = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(parsed.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(String(value))) {
      problem(field, 'an ISO 8601 date-time such as 2026-01-05T08:00:00Z');
    }
    return parsed;
  };
  const flag = (field: string, expected: boolean) => {
    if (record[field] !== expected) problem(field, String(expected));
    return expected;
  };
  return { record, problem, text, date, flag };
}

function uniqueId(id: string, where: string, problems: string[], ids: Set<string>): void {
  if (id === '') return;
  if (ids.has(id)) problems.push(`${where}: id ${id} is used twice`);
  ids.add(id);
}

function sampleTitle(title: string, where: string, problems: string[]): void {
  if (title !== '' && !title.includes(SAMPLE_MARK))
    problems.push(`${where}: title must contain ${SAMPLE_MARK} (a sample, not real news)`);
}

function article(raw: unknown, where: string, problems: string[], ids: Set<string>): SeedArticle {
  const { record, problem, text, date, flag } = fields(raw, where, problems);
  const id = text('id', 64, { pattern: ID });
  uniqueId(id, where, problems, ids);
  const title = text('title', 120);
  sampleTitle(title, where, problems);
  const bodyHtml = text('body_html', 100_000);
  const clean = sanitiseHtml(bodyHtml);
  if (clean.removed.length > 0 || clean.html !== bodyHtml) {
    problems.push(`${where}: body_html is not clean HTML (${clean.removed.join('; ') || 'escaping changes it'})`);
  }
  const tags = record['tags'] ?? [];
  if (
    !Array.isArray(tags) ||
    tags.length > 10 ||
    tags.some((tag) => typeof tag !== 'string' || tag === '' || [...tag].length > 20)
  ) {
    problem('tags', 'a list of at most 10 strings of at most 20 characters');
  }
  return {
    id,
    product: text('product', 32, { pattern: PRODUCT }),
    title,
    summary: text('summary', 500),
    coverUrl: text('cover_url', 500, { pattern: URL_OR_EMPTY, optional: true }),
    author: text('author', 60),
    publishedAt: date('published_at'),
    isSample: flag('is_sample', true),
    published: record['published'] === undefined ? true : flag('published', record['published'] === true),
    tags: Array.isArray(tags) ? tags.map(String) : [],
    bodyHtml,
  };
}

function notice(raw: unknown, where: string, problems: string[], ids: Set<string>): Notice {
  const { text, date, flag } = fields(raw, where, problems);
  const id = text('id', 64, { pattern: ID });
  uniqueId(id, where, problems, ids);
  const title = text('title', 120);
  sampleTitle(title, where, problems);
  return {
    id,
    title,
    body: text('body', 2000),
    link: text('link', 500, { pattern: URL_OR_EMPTY, optional: true }),
    publishedAt: date('published_at'),
    isSample: flag('is_sample', true),
  };
}
