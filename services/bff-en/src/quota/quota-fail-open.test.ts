import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FailOpenRule } from './quota-fail-open.js';
import { QuotaJournal } from './quota-journal.js';
import { periodOf } from './quota-period.js';
import { QuotaUnavailableError, type QuotaSubject } from './quota.types.js';

const logger = pino({ level: 'silent' });
const now = new Date('2030-05-15T12:00:00Z');
const paid: QuotaSubject = {
  accountId: 'paid',
  keyId: 'k',
  paid: true,
  includedPerMonth: 10,
  maxPerMonth: 12,
  overageAllowed: true,
  burstPerSecond: 5,
};
const free: QuotaSubject = { ...paid, accountId: 'free', paid: false, maxPerMonth: undefined, overageAllowed: false };
const pending = (subject: QuotaSubject, requestId: string, count: number, partial = false) => ({
  request: { requestId, subject, count, partial },
  now,
  period: periodOf(now),
});

describe('FailOpenRule (Redis did not answer)', () => {
  it('refuses free keys, grants paid keys within the last known cap and journals each grant before answering', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quota-fail-open-'));
    const rule = new FailOpenRule(new QuotaJournal(dir, logger), logger);
    rule.remember('paid', '2030-05', 9);
    const settled = await rule.apply(
      [pending(free, 'f', 1), pending(paid, 'p1', 2), pending(paid, 'p2', 5, true), pending(paid, 'p3', 1)],
      new Error('down'),
    );
    expect((settled[0] as { error: Error }).error).toBeInstanceOf(QuotaUnavailableError);
    expect(settled.slice(1)).toMatchObject([
      { decision: { granted: 2, used: 11, degraded: true } },
      { decision: { granted: 1, used: 12, degraded: true } },
      { decision: { granted: 0, denied: 'quota_exceeded', degraded: true } },
    ]);
    const [file] = readdirSync(dir);
    const lines = readFileSync(join(dir, file as string), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId)).toEqual(['p1', 'p2']);
    expect({ journalled: rule.journalled, refused: rule.refused }).toEqual({ journalled: 2, refused: 1 });
  });

  it('refuses paid keys too when the journal cannot be written (a grant that could never be counted)', async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'quota-fail-open-')), 'a-file');
    writeFileSync(blocker, '');
    const rule = new FailOpenRule(new QuotaJournal(join(blocker, 'journal'), logger), logger);
    const [settled] = await rule.apply([pending(paid, 'p1', 1)], new Error('down'));
    expect((settled as { error: Error }).error).toBeInstanceOf(QuotaUnavailableError);
    // Not remembered as granted: a retry is judged again, not answered from memory.
    const [again] = await rule.apply([pending(paid, 'p1', 1)], new Error('down'));
    expect('error' in (again as object)).toBe(true);
  });
});
