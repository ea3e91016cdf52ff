import { InvalidArgumentError } from '@ipdata/common';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { type DivisionCatalogue, loadDivisionCatalogue } from './division.catalogue.js';
import { checkIdCard, convertLegacyIdCard, idCardCheckCharacter } from './id-card.checker.js';

let divisions: DivisionCatalogue;
beforeAll(async () => {
  divisions = await loadDivisionCatalogue();
});

/** Noon in Beijing on the given day, the "today" of most tests. */
const TODAY = new Date('2024-06-01T04:00:00Z');

/** An 18-digit number with its correct check character. */
function idNumber(region: string, birth: string, sequence: string): string {
  const first17 = region + birth + sequence;
  return first17 + idCardCheckCharacter(first17);
}

function check(text: string, now: Date = TODAY) {
  return checkIdCard(divisions, text, now);
}

function reasonOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as InvalidArgumentError).reason;
  }
  return undefined;
}

describe('checkIdCard: checksum', () => {
  it('accepts the standard example 11010519491231002X (check character X) and decodes it', () => {
    expect(check('11010519491231002X')).toEqual({
      valid: true,
      problems: [],
      number: '11010519491231002X',
      legacy15: false,
      birthDate: '1949-12-31',
      age: 74,
      sex: 'female',
      sexName: '女',
      region: { code: '110105', province: '北京市', city: '北京市', county: '朝阳区', current: true },
    });
  });

  it('accepts a lower-case x and spaces, and answers the normalised number', () => {
    const result = check(' 110105 19491231 002x ');
    expect(result.valid).toBe(true);
    expect(result.number).toBe('11010519491231002X');
  });

  it('computes the ISO 7064 MOD 11-2 character of numbers generated here', () => {
    expect(idCardCheckCharacter('44030419900307123')).toBe(idNumber('440304', '19900307', '123').at(-1));
    // Sum of weights x digits for 1101051949123100 + 2 ≡ 2 (mod 11) gives X; a 0-check example:
    expect(idNumber('110101', '20000101', '000')).toMatch(/^11010120000101000[0-9X]$/);
    expect(check(idNumber('440304', '19900307', '123')).valid).toBe(true);
  });

  it('reports 校验码错误 for a wrong check character but still decodes the rest', () => {
    const good = idNumber('440304', '19900307', '123');
    const wrong = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    const result = check(wrong);
    expect(result.valid).toBe(false);
    expect(result.reason).toBe('校验码错误');
    expect(result.problems).toEqual([{ code: 'checksum_mismatch', message: '校验码错误' }]);
    expect(result.birthDate).toBe('1990-03-07');
    expect(result.sex).toBe('male');
    expect(result.region).toMatchObject({ province: '广东省', city: '深圳市', county: '福田区' });
  });

  it('property: agrees with ISO 7064 MOD 11-2 as defined (sum of digit x 2^(17-i) plus check ≡ 1 mod 11)', () => {
    const reference = (first17: string): string => {
      let sum = 0;
      for (let i = 0; i < 17; i += 1) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
      const check = (12 - (sum % 11)) % 11;
      expect((sum + check) % 11).toBe(1);
      return check === 10 ? 'X' : String(check);
    };
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{17}$/), (first17) => {
        const character = idCardCheckCharacter(first17);
        seen.add(character);
        expect(character).toBe(reference(first17));
      }),
      { numRuns: 2000 },
    );
    // Every one of the 11 check characters was exercised.
    expect(seen.size).toBe(11);
  });

  it('property: the computed character passes, and any single changed digit is caught', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{17}$/), fc.nat(16), fc.integer({ min: 1, max: 9 }), (first17, position, delta) => {
        const number = first17 + idCardCheckCharacter(first17);
        const changedDigit = String((Number(first17[position]) + delta) % 10);
        const changed = first17.slice(0, position) + changedDigit + first17.slice(position + 1);
        expect(idCardCheckCharacter(changed)).not.toBe(number[17]);
      }),
    );
  });
});

describe('checkIdCard: legacy 15-digit numbers', () => {
  it('converts 110105491231002 to 11010519491231002X and says it did', () => {
    expect(convertLegacyIdCard('110105491231002')).toBe('11010519491231002X');
    const result = check('110105491231002');
    expect(result).toMatchObject({
      valid: true,
      legacy15: true,
      number: '11010519491231002X',
      birthDate: '1949-12-31',
      sex: 'female',
    });
  });

  it('checks the birth date of a 15-digit number (no check character to fail)', () => {
    const result = check('110105490230001');
    expect(result.valid).toBe(false);
    expect(result.problems.map((problem) => problem.code)).toEqual(['birth_date_invalid']);
    expect(result.legacy15).toBe(true);
  });
});

describe('checkIdCard: birth date and age', () => {
  it.each([
    ['20000229', '2000-02-29'], // divisible by 400: leap
    ['20240229', '2024-02-29'],
    ['19000101', '1900-01-01'], // the earliest accepted year
  ])('accepts %s', (birth, iso) => {
    const result = check(idNumber('110105', birth, '001'));
    expect(result.valid).toBe(true);
    expect(result.birthDate).toBe(iso);
  });

  it.each([
    ['19000229', 'not a leap year (divisible by 100)'],
    ['20230229', 'not a leap year'],
    ['19900431', 'April has 30 days'],
    ['19901301', 'month 13'],
    ['19900001', 'month 0'],
    ['19900100', 'day 0'],
    ['18991231', 'before 1900'],
    ['20240602', 'in the future'],
  ])('refuses %s (%s) with 出生日期无效 and gives no age', (birth) => {
    const result = check(idNumber('110105', birth, '001'));
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([{ code: 'birth_date_invalid', message: '出生日期无效' }]);
    expect(result.birthDate).toBeUndefined();
    expect(result.age).toBeUndefined();
  });

  it('takes "today" in China (UTC+8): born today in Beijing is valid before midnight UTC', () => {
    const number = idNumber('110105', '20240602', '001');
    // 2024-06-01 16:30 UTC is 2024-06-02 00:30 in Beijing.
    expect(check(number, new Date('2024-06-01T16:30:00Z'))).toMatchObject({ valid: true, age: 0 });
    expect(check(number, new Date('2024-06-01T15:30:00Z')).valid).toBe(false);
  });

  it('turns the year at midnight in China: 31 Dec 23:59:59.999 → 1 Jan (UTC+8)', () => {
    const newYear = idNumber('110105', '20270101', '001');
    // 2026-12-31 16:00 UTC is 2027-01-01 00:00 in Beijing.
    expect(check(newYear, new Date('2026-12-31T15:59:59.999Z')).valid).toBe(false);
    expect(check(newYear, new Date('2026-12-31T16:00:00.000Z'))).toMatchObject({ valid: true, age: 0, birthDate: '2027-01-01' });
    const newYearsEve = idNumber('110105', '19991231', '001');
    expect(check(newYearsEve, new Date('2026-12-30T15:59:59.999Z')).age).toBe(26);
    expect(check(newYearsEve, new Date('2026-12-30T16:00:00.000Z')).age).toBe(27);
    expect(check(newYearsEve, new Date('2026-12-31T23:59:59.999Z')).age).toBe(27);
  });

  it('knows 29 February only in leap years, and reaches it at midnight in China', () => {
    const leapDay = idNumber('110105', '20280229', '001');
    expect(check(leapDay, new Date('2028-02-28T15:59:59.999Z')).valid).toBe(false);
    expect(check(leapDay, new Date('2028-02-28T16:00:00.000Z'))).toMatchObject({ valid: true, age: 0, birthDate: '2028-02-29' });
    expect(check(idNumber('110105', '20270229', '001'), new Date('2028-06-01T04:00:00Z')).problems).toEqual([
      { code: 'birth_date_invalid', message: '出生日期无效' },
    ]);
  });

  it('counts full years; a 29 February birthday comes on 1 March in common years', () => {
    const number = idNumber('110105', '20000229', '001');
    expect(check(number, new Date('2025-02-28T04:00:00Z')).age).toBe(24);
    expect(check(number, new Date('2025-03-01T04:00:00Z')).age).toBe(25);
    expect(check(number, new Date('2024-02-29T04:00:00Z')).age).toBe(24);
    expect(check(idNumber('110105', '19900602', '001')).age).toBe(33);
    expect(check(idNumber('110105', '19900601', '001')).age).toBe(34);
  });
});

describe('checkIdCard: sex', () => {
  it.each([
    ['001', 'male', '男'],
    ['009', 'male', '男'],
    ['002', 'female', '女'],
    ['990', 'female', '女'],
  ])('sequence %s is %s', (sequence, sex, sexName) => {
    expect(check(idNumber('110105', '19900101', sequence))).toMatchObject({ sex, sexName });
  });
});

describe('checkIdCard: region', () => {
  it('names province, prefecture and county of a current code', () => {
    expect(check(idNumber('440304', '19900101', '001')).region).toEqual({
      code: '440304',
      province: '广东省',
      city: '深圳市',
      county: '福田区',
      current: true,
    });
  });

  it('keeps what still exists of an abolished county code (110103 崇文区, merged in 2010) and stays valid', () => {
    const result = check(idNumber('110103', '19800101', '001'));
    expect(result.valid).toBe(true);
    expect(result.region).toEqual({ code: '110103', province: '北京市', city: '北京市', current: false });
  });

  it('refuses an unknown province code with 地区码无效 and no region', () => {
    const result = check(idNumber('991234', '19900101', '001'));
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([{ code: 'region_unknown', message: '地区码无效' }]);
    expect(result.region).toBeUndefined();
  });

  it('knows Hong Kong, Macao and Taiwan residence-permit codes at province level only', () => {
    expect(check(idNumber('810000', '19900101', '001')).region).toEqual({
      code: '810000',
      province: '香港特别行政区',
      current: true,
    });
    expect(check(idNumber('820000', '19900101', '001')).region?.province).toBe('澳门特别行政区');
    expect(check(idNumber('830000', '19900101', '001')).region?.province).toBe('台湾省');
  });

  it('gives no county for a city without counties and no city for a county under the province', () => {
    expect(check(idNumber('441900', '19900101', '001')).region).toEqual({
      code: '441900',
      province: '广东省',
      city: '东莞市',
      current: true,
    });
    expect(check(idNumber('419001', '19900101', '001')).region).toEqual({
      code: '419001',
      province: '河南省',
      county: '济源市',
      current: true,
    });
  });

  it('lists every failed check, joined in reason', () => {
    const result = check('991234189912311230');
    expect(result.problems.map((problem) => problem.code)).toEqual(['checksum_mismatch', 'birth_date_invalid', 'region_unknown']);
    expect(result.reason).toBe('校验码错误；出生日期无效；地区码无效');
  });
});

describe('checkIdCard: malformed input throws InvalidArgumentError', () => {
  it.each([
    ['', 'id_card_missing'],
    ['   ', 'id_card_missing'],
    ['1101051949123100', 'id_card_length'],
    ['1101051949123100211', 'id_card_length'],
    ['1'.repeat(65), 'id_card_length'],
    ['1101051949123X002X', 'id_card_format'],
    ['11010549123100X', 'id_card_format'],
    ['１１０１０５１９４９１２３１００２Ｘ', 'id_card_format'],
  ])('%j → %s', (text, reason) => {
    expect(reasonOf(() => check(text))).toBe(reason);
  });

  it('has Chinese messages', () => {
    expect(() => check('123')).toThrow('身份证号长度应为15或18位');
    expect(() => check('')).toThrow('请输入身份证号');
  });
});
