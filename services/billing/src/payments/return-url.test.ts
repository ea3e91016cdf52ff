import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { ReturnUrlPolicy, parseOriginList } from './return-url.js';

describe('ReturnUrlPolicy', () => {
  const policy = ReturnUrlPolicy.fromList('http://127.0.0.1:8081, https://ipdata.example');

  it('allows URLs on the listed origins only', () => {
    expect(policy.allows('http://127.0.0.1:8081/vip/return?x=1')).toBe(true);
    expect(policy.allows('https://ipdata.example/billing/return')).toBe(true);
    for (const url of [
      'https://evil.example/billing/return',
      'http://ipdata.example/billing/return', // another scheme is another origin
      'http://127.0.0.1:8082/return', // another port
      'https://ipdata.example.evil.example/',
      'https://ipdata.example@evil.example/', // credentials disguising the host
      'https://user:pw@ipdata.example/',
      'javascript:alert(1)',
      '//evil.example/',
      '',
    ]) {
      expect(policy.allows(url), url).toBe(false);
    }
  });

  it('refuses a URL longer than 2,048 characters even on an allowed origin', () => {
    const long = `https://ipdata.example/${'a'.repeat(2048)}`;
    expect(policy.allows(long)).toBe(false);
    expect(() => policy.check(long)).toThrow(/longer than 2048/);
  });

  it('throws INVALID_ARGUMENT naming return_url', () => {
    let caught: unknown;
    try {
      policy.check('https://evil.example/');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect(caught).toMatchObject({ reason: 'return_url_not_allowed', details: { field: 'return_url' } });
  });

  it('parses exact origins and reports everything else', () => {
    expect(parseOriginList('https://a.example/, http://127.0.0.1:8081')).toEqual({
      origins: ['https://a.example', 'http://127.0.0.1:8081'],
      problems: [],
    });
    expect(parseOriginList('https://a.example/path,ftp://b.example').problems).toHaveLength(2);
    expect(parseOriginList(' , ').problems).toEqual(['no origin given']);
  });
});
