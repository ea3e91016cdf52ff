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
const pending = (subject: QuotaSubject, requestId: string, count: number, partial = false, at: Date = now) => ({
  request: { requestId, subject, count, partial },
  now: at,
  period: periodOf(at),
});

const journalLines = (dir: string) =>
  readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { requestId: string; count: number; at: string }),
  );

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

  it("counts against the month of each grant: December's cap until its last millisecond, January from zero", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quota-fail-open-'));
    const rule = new FailOpenRule(new QuotaJournal(dir, logger), logger);
    const lastMs = new Date('2030-12-31T23:59:59.999Z');
    const newYear = new Date('2031-01-01T00:00:00.000Z');
    rule.remember('paid', '2030-12', 11); // the cap is 12
    const settled = await rule.apply(
      // In the order they were made, as a batch holds them: the year turns between the second and the third.
      [
        pending(paid, 'dec', 3, true, lastMs),
        pending(paid, 'dec-full', 1, false, lastMs),
        pending(paid, 'jan', 3, false, newYear),
      ],
      new Error('down'),
    );
    expect(settled).toMatchObject([
      { decision: { granted: 1, used: 12, overage: 2, resetAt: new Date('2031-01-01T00:00:00Z'), degraded: true } },
      // Refused until the reset, a millisecond away: Retry-After is never 0.
      { decision: { granted: 0, denied: 'quota_exceeded', retryAfterSeconds: 1 } },
      { decision: { granted: 3, used: 3, overage: 0, remaining: 7, resetAt: new Date('2031-02-01T00:00:00Z'), degraded: true } },
    ]);
    // Journalled with the instant of each grant: the replay counts them in December and January.
    expect(journalLines(dir)).toEqual([
      expect.objectContaining({ requestId: 'dec', count: 1, at: '2030-12-31T23:59:59.999Z' }),
      expect.objectContaining({ requestId: 'jan', count: 3, at: '2031-01-01T00:00:00.000Z' }),
    ]);
  });

  it('a leap day is its own: a refusal on 29 February waits until 1 March', async () => {
    const rule = new FailOpenRule(new QuotaJournal(mkdtempSync(join(tmpdir(), 'quota-fail-open-')), logger), logger);
    const leapNight = new Date('2028-02-29T23:59:40Z');
    rule.remember('paid', '2028-02', 12);
    const [refused] = await rule.apply([pending(paid, 'leap', 1, false, leapNight)], new Error('down'));
    expect(refused).toMatchObject({
      decision: { granted: 0, denied: 'quota_exceeded', resetAt: new Date('2028-03-01T00:00:00Z'), retryAfterSeconds: 20 },
    });
  });
});
