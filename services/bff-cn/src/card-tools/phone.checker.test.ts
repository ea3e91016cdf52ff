import { InvalidArgumentError } from '@ipdata/common';
import { beforeAll, describe, expect, it } from 'vitest';

import { loadDivisionCatalogue } from './division.catalogue.js';
import { createPhonePrefixTable, loadPhonePrefixEntries, loadPhonePrefixTable } from './phone-prefix.table.js';
import { checkPhone, createPhoneRegionParser, type PhoneData } from './phone.checker.js';

let data: PhoneData;
beforeAll(async () => {
  const [divisions, carriers, geocodes] = await Promise.all([
    loadDivisionCatalogue(),
    loadPhonePrefixTable('carrier', 'zh'),
    loadPhonePrefixTable('geocodes', 'zh'),
  ]);
  data = { carriers, geocodes, regions: createPhoneRegionParser(divisions.provinceNames()) };
});

function check(text: string) {
  return checkPhone(data, text);
}

describe('checkPhone: input forms', () => {
  it.each([
    '13800138000',
    '+8613800138000',
    '+86 138 0013 8000',
    '+86-138-0013-8000',
    '008613800138000',
    '0086 138 0013 8000',
    '86 13800138000',
    '138-0013-8000',
    '138 0013 8000',
  ])('%j is +8613800138000, a China Mobile number in Beijing', (text) => {
    expect(check(text)).toEqual({
      valid: true,
      problems: [],
      e164: '+8613800138000',
      nationalNumber: '13800138000',
      type: 'mobile',
      typeName: '手机号码',
      carrier: '中国移动',
      region: { text: '北京市', province: '北京市', city: '北京市' },
    });
  });
});

describe('checkPhone: carriers from libphonenumber (zh)', () => {
  it.each([
    ['13812345678', '中国移动'],
    ['13012345678', '中国联通'],
    ['13312345678', '中国电信'],
    ['15512345678', '中国联通'], // 155 overrides the coarse "15" → 中国移动 of the table
    ['15012345678', '中国移动'],
    ['18912345678', '中国电信'],
    ['19212345678', '中国广电'],
    ['13400000000', '中国移动'],
  ])('%s → %s', (number, carrier) => {
    expect(check(number).carrier).toBe(carrier);
  });

  it('leaves the carrier out where the table has none (1349, the satellite segment)', () => {
    const result = check('13490001234');
    expect(result.valid).toBe(true);
    expect(result.type).toBe('mobile');
    expect(result.carrier).toBeUndefined();
  });
});

describe('checkPhone: regions from libphonenumber geocoding (zh)', () => {
  it('splits province and city, with the official name of an autonomous region', () => {
    expect(check('13300001111').region).toEqual({ text: '广西南宁市', province: '广西壮族自治区', city: '南宁市' });
    expect(check('13000000000').region).toEqual({ text: '山东省济南市', province: '山东省', city: '济南市' });
  });

  it('leaves the region out where the data has none (192, China Broadnet)', () => {
    const result = check('19212345678');
    expect(result.valid).toBe(true);
    expect(result.region).toBeUndefined();
  });

  it('answers fixed-line numbers with their area, without a carrier', () => {
    expect(check('010-6552 9988')).toEqual({
      valid: true,
      problems: [],
      e164: '+861065529988',
      nationalNumber: '1065529988',
      type: 'fixed_line',
      typeName: '固定电话',
      region: { text: '北京市', province: '北京市', city: '北京市' },
    });
    expect(check('+86 400 810 8888')).toMatchObject({ valid: true, type: 'shared_cost', typeName: '分摊付费电话' });
    expect(check('+86 400 810 8888').carrier).toBeUndefined();
  });
});

describe('checkPhone: invalid and malformed numbers', () => {
  it('answers valid=false with no type, carrier or region for an unallocated range', () => {
    expect(check('12345678901')).toEqual({
      valid: false,
      reason: '号码无效：不属于已分配的中国号段',
      problems: [{ code: 'number_invalid', message: '号码无效：不属于已分配的中国号段' }],
      e164: '+8612345678901',
      nationalNumber: '12345678901',
    });
  });

  it('answers valid=false for a length libphonenumber deems possible for some Chinese number', () => {
    // 12 digits fit fixed-line numbers of some areas, so this is an invalid number, not a typo in length.
    expect(check('+86 138 0013 8000 1')).toMatchObject({ valid: false, nationalNumber: '138001380001' });
  });

  it.each([
    ['', 'phone_missing'],
    ['  ', 'phone_missing'],
    ['abc', 'phone_format'],
    ['138a0013b8000', 'phone_format'],
    ['1380013800;drop', 'phone_format'],
    ['1'.repeat(41), 'phone_format'],
    ['+', 'phone_format'],
    ['+1 202 555 0123', 'phone_not_cn'],
    ['+852 6123 4567', 'phone_not_cn'],
    ['95588', 'phone_length'],
    ['1', 'phone_length'],
    ['138001380001234567', 'phone_length'],
  ])('%j throws InvalidArgumentError %s', (text, reason) => {
    let thrown: unknown;
    try {
      check(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as InvalidArgumentError).reason).toBe(reason);
    expect((thrown as InvalidArgumentError).message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('phone data', () => {
  it('the zh tables have every prefix of the en ones, so no English fallback is needed for +86', async () => {
    for (const kind of ['carrier', 'geocodes'] as const) {
      const [zh, en] = await Promise.all([loadPhonePrefixEntries(kind, 'zh'), loadPhonePrefixEntries(kind, 'en')]);
      expect(en.size).toBeGreaterThan(kind === 'carrier' ? 50 : 100_000);
      expect([...en.keys()].filter((prefix) => !zh.has(prefix))).toEqual([]);
    }
  });

  it('prefix tables answer the longest prefix', () => {
    const table = createPhonePrefixTable(
      new Map([
        ['15', 'A'],
        ['155', 'B'],
      ]),
    );
    expect(table.lookup('15512345678')).toBe('B');
    expect(table.lookup('15012345678')).toBe('A');
    expect(table.lookup('13012345678')).toBeUndefined();
  });

  it('region parser: short autonomous-region names, bare municipality names, unknown text', () => {
    const parser = createPhoneRegionParser(['天津市', '广东省', '内蒙古自治区', '新疆维吾尔自治区']);
    expect(parser.parse('内蒙古呼和浩特市')).toEqual({
      text: '内蒙古呼和浩特市',
      province: '内蒙古自治区',
      city: '呼和浩特市',
    });
    expect(parser.parse('新疆维吾尔自治区乌鲁木齐市')).toMatchObject({ province: '新疆维吾尔自治区', city: '乌鲁木齐市' });
    expect(parser.parse('天津')).toEqual({ text: '天津', province: '天津市', city: '天津市' });
    expect(parser.parse('广东省')).toEqual({ text: '广东省', province: '广东省' });
    expect(parser.parse('Atlantis')).toEqual({ text: 'Atlantis' });
  });
});
