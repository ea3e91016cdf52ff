import { describe, expect, it } from 'vitest';
import { contentDisposition } from './file-answer.js';

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 6266 / 5987)', () => {
    expect(contentDisposition('IP报告-8.8.8.8-20261123.pdf')).toBe(
      `attachment; filename="IP__-8.8.8.8-20261123.pdf"; filename*=UTF-8''IP%E6%8A%A5%E5%91%8A-8.8.8.8-20261123.pdf`,
    );
  });

  it('cannot be broken out of: quotes, backslashes, line breaks and RFC 5987 specials are replaced or encoded', () => {
    const header = contentDisposition('a"b\\c\r\nx: y\'(1)*.xlsx');
    expect(header).toBe(
      `attachment; filename="a_b_c__x: y'(1)*.xlsx"; filename*=UTF-8''a%22b%5Cc%0D%0Ax%3A%20y%27%281%29%2A.xlsx`,
    );
    expect(header).not.toMatch(/[\r\n]/);
  });
});
