import { InvalidArgumentError } from '@ipdata/common';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { cardScheme, checkBankCard, luhnValid } from './bank-card.checker.js';
import { type BinTable, loadBinTable, parseBinTable } from './bin-table.js';

let bins: BinTable;
beforeAll(async () => {
  bins = await loadBinTable();
});

function check(text: string) {
  return checkBankCard(bins, text);
}

/** The Luhn check digit for `body`, so tests can build valid numbers on any BIN. */
function luhnDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit += 1) if (luhnValid(body + String(digit))) return String(digit);
  throw new Error('unreachable');
}

/** A Luhn-valid number of `length` digits starting with `prefix`. */
function cardNumber(prefix: string, length: number): string {
  const body = (prefix + '0123456789'.repeat(2)).slice(0, length - 1);
  return body + luhnDigit(body);
}

describe('luhnValid', () => {
  it.each([
    '4111111111111111', // Visa test number
    '4242424242424242',
    '5555555555554444', // Mastercard test numbers
    '2223003122003222',
    '378282246310005', // American Express test number
    '3566002020360505', // JCB test number
    '6200000000000005', // UnionPay test numbers
    '6205500000000000004',
    '79927398713', // the Luhn example of ISO/IEC 7812-1
  ])('accepts the public test number %s', (number) => {
    expect(luhnValid(number)).toBe(true);
  });

  it('refuses a changed last digit', () => {
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398710')).toBe(false);
  });

  it('property: the computed digit passes, and any single changed digit is caught', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{11,18}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const number = body + luhnDigit(body);
        const position = at % number.length;
        const changed = number.slice(0, position) + String((Number(number[position]) + delta) % 10) + number.slice(position + 1);
        expect(luhnValid(number)).toBe(true);
        expect(luhnValid(changed)).toBe(false);
      }),
    );
  });
});

describe('cardScheme', () => {
  it.each([
    ['6200000000000005', 'unionpay', '银联'],
    ['4111111111111111', 'visa', 'Visa'],
    ['5555555555554444', 'mastercard', '万事达'],
    ['5105105105105100', 'mastercard', '万事达'],
    ['2223003122003222', 'mastercard', '万事达'],
    ['2720990000000007', 'mastercard', '万事达'],
    ['3566002020360505', 'jcb', 'JCB'],
    ['3528000000000007', 'jcb', 'JCB'],
    ['378282246310005', 'amex', '美国运通'],
    ['340000000000009', 'amex', '美国运通'],
  ])('%s → %s', (number, code, name) => {
    expect(cardScheme(number)).toEqual({ code, name });
  });

  it.each([
    '2220990000000008',
    '2721000000000004',
    '3527000000000008',
    '3590000000000000',
    '5600000000000000',
    '9551000000000000',
  ])('no scheme for %s (outside every range)', (number) => {
    expect(cardScheme(number)).toBeUndefined();
  });
});

describe('checkBankCard', () => {
  it('answers the Visa test number with its scheme and no issuer (not a Chinese BIN)', () => {
    expect(check('4111 1111 1111 1111')).toEqual({
      valid: true,
      problems: [],
      number: '4111111111111111',
      length: 16,
      bin: '411111',
      luhn: true,
      scheme: { code: 'visa', name: 'Visa' },
    });
  });

  it('answers issuer and card type of a BIN in the table (ICBC debit, 19 digits)', () => {
    const number = cardNumber('622202', 19);
    expect(check(number)).toEqual({
      valid: true,
      problems: [],
      number,
      length: 19,
      bin: '622202',
      luhn: true,
      scheme: { code: 'unionpay', name: '银联' },
      bank: { name: '中国工商银行', code: 'ICBC' },
      cardType: { code: 'DC', name: '储蓄卡' },
    });
  });

  it.each([
    ['622812', 16, 'PSBC', 'CC', '信用卡'],
    ['622210', 16, 'ICBC', 'SCC', '准贷记卡'],
    ['620054', 16, 'ICBC', 'PC', '预付费卡'],
    ['622700', 19, 'CCB', 'DC', '储蓄卡'],
    ['622588', 16, 'CMB', 'DC', '储蓄卡'],
    ['427010', 16, 'ICBC', 'CC', '信用卡'],
  ])('BIN %s (%i digits) → %s %s', (prefix, length, bankCode, typeCode, typeName) => {
    const result = check(cardNumber(prefix, length));
    expect(result.valid).toBe(true);
    expect(result.bank?.code).toBe(bankCode);
    expect(result.cardType).toEqual({ code: typeCode, name: typeName });
  });

  it('a Visa BIN of a Chinese bank has both the scheme and the issuer', () => {
    expect(check(cardNumber('427010', 16))).toMatchObject({
      scheme: { code: 'visa' },
      bank: { name: '中国工商银行', code: 'ICBC' },
    });
  });

  it('misses when the prefix is unknown or the length differs from the table entry', () => {
    const unknown = check(cardNumber('621234', 16));
    expect(unknown.valid).toBe(true);
    expect(unknown.scheme?.code).toBe('unionpay');
    expect(unknown.bank).toBeUndefined();
    expect(unknown.cardType).toBeUndefined();
    // 622202 is listed for 19-digit cards only.
    expect(check(cardNumber('622202', 16)).bank).toBeUndefined();
  });

  it('prefers the longest matching BIN, and the first table entry among equal ones', () => {
    expect(check(cardNumber('62249802', 19)).bank).toEqual({ name: '秦皇岛市商业银行', code: 'QHDCCB' });
    expect(check(cardNumber('62249812', 19)).bank).toEqual({ name: '河北银行', code: 'BHB' });
    // 622516 is listed twice (浦东发展银行, then 广发银行); the package answers the first.
    expect(check(cardNumber('622516', 16)).bank?.code).toBe('SPDB');
  });

  it('reports a Luhn failure as valid=false and still names the issuer', () => {
    const good = cardNumber('622202', 19);
    const bad = good.slice(0, 18) + String((Number(good[18]) + 1) % 10);
    expect(check(bad)).toMatchObject({
      valid: false,
      reason: '卡号校验位错误（Luhn校验未通过）',
      problems: [{ code: 'luhn_mismatch', message: '卡号校验位错误（Luhn校验未通过）' }],
      luhn: false,
      bank: { code: 'ICBC' },
    });
  });

  it('strips spaces and dashes', () => {
    expect(check('6200-0000 0000-0005').number).toBe('6200000000000005');
  });

  it.each([
    ['', 'bank_card_missing'],
    [' - ', 'bank_card_missing'],
    ['6200 0000 0000 000a', 'bank_card_format'],
    ['６２００００００００００００００５', 'bank_card_format'],
    ['62000000000', 'bank_card_length'],
    ['62000000000000000000', 'bank_card_length'],
    ['6'.repeat(65), 'bank_card_length'],
  ])('%j throws InvalidArgumentError %s', (text, reason) => {
    let thrown: unknown;
    try {
      check(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as InvalidArgumentError).reason).toBe(reason);
  });

  it('accepts the 12 and 19 digit limits', () => {
    expect(check(cardNumber('6', 12)).length).toBe(12);
    expect(check(cardNumber('6', 19)).length).toBe(19);
  });
});

describe('BIN table from bankcardinfo', () => {
  it('reads the whole installed table: every bank and pattern, some 1,800 prefixes', () => {
    // parseBinTable itself fails unless it read as many banks and patterns as the source has.
    expect(bins.size).toBeGreaterThan(1500);
  });

  it('parses the package format and answers by prefix and length', () => {
    const table = parseBinTable(`var bankcardList = [{
      bankName: "测试银行",
      bankCode: "TEST",
      patterns: [{
        reg: /^(123456|654321)\\d{10}$/g,
        cardType: "CC"
      }]
    }]
    function getBankNameByBankCode(bankcode) {}`);
    expect(table.size).toBe(2);
    expect(table.lookup('6543210000000000')).toEqual({ bankName: '测试银行', bankCode: 'TEST', cardType: 'CC', length: 16 });
    expect(table.lookup('65432100000000001')).toBeUndefined();
  });

  it('refuses a source whose table it cannot read completely', () => {
    expect(() => parseBinTable('module.exports = {}')).toThrow(/not found/);
    expect(() =>
      parseBinTable(`var bankcardList = [{
        bankName: "测试银行", bankCode: "TEST",
        patterns: [{ reg: /^(1234)\\d{10}$/g, cardType: "CC" }, { reg: /^62\\d+$/g, cardType: "DC" }]
      }]
      function getBankNameByBankCode() {}`),
    ).toThrow(/format changed/);
  });
});
