import { describe, expect, it } from 'vitest';

import { checkOutcome, maskNumber } from './check-outcome.js';

describe('checkOutcome', () => {
  it('is valid without problems and joins the messages otherwise', () => {
    expect(checkOutcome([])).toEqual({ valid: true, problems: [] });
    const problems = [
      { code: 'a', message: '甲' },
      { code: 'b', message: '乙' },
    ];
    expect(checkOutcome(problems)).toEqual({ valid: false, reason: '甲；乙', problems });
  });
});

describe('maskNumber', () => {
  it('keeps the ends only', () => {
    expect(maskNumber('6222 0200 0000 0000 005')).toBe('622*************005');
    expect(maskNumber('11010519491231002X', 4)).toBe('1101**********002X');
    expect(maskNumber('12345')).toBe('*****');
  });
});
