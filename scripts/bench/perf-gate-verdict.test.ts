import { describe, expect, it } from 'vitest';
import { judge, summaryOf } from './perf-gate-verdict.js';

const check = { metric: 'record_ratio', committed: 4, what: 'record() against kafkajs records' };

describe('perf gate verdict', () => {
  it('passes a ratio down to 25% below its committed value and fails one below that', () => {
    expect(judge([check], { record_ratio: 3 }, 0.25)[0]).toMatchObject({ floor: 3, pass: true });
    expect(judge([check], { record_ratio: 2.99 }, 0.25)[0]).toMatchObject({ measured: 2.99, pass: false });
    expect(judge([check], { record_ratio: 9 }, 0.25)[0]?.pass).toBe(true);
  });

  it('fails a ratio the summary lacks or that is not a number', () => {
    expect(judge([check], { relay_ratio: 5 }, 0.25)[0]).toMatchObject({ measured: undefined, pass: false });
    expect(judge([check], { record_ratio: Number.NaN }, 0.25)[0]?.pass).toBe(false);
    expect(judge([check], { record_ratio: '5' }, 0.25)[0]?.pass).toBe(false);
  });

  it('reads the last summary line among run lines and other output', () => {
    const output = [
      'warming up',
      '{"bench":"usage_ledger","run":1,"record_ratio":1}',
      '{"bench":"summary","record_ratio":2}',
      '{"bench":"summary","record_ratio":4.5}',
      '',
    ].join('\n');
    expect(summaryOf(output)).toMatchObject({ record_ratio: 4.5 });
    expect(summaryOf('{"bench":"usage_ledger","run":1}\n')).toBeUndefined();
  });
});
