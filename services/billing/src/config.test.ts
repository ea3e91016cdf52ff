import { describe, expect, it } from 'vitest';
import { ConfigError } from '@ipdata/common';
import { DEVELOPMENT_VALUES, loadBillingConfig } from './config.js';

const STRONG_SECRET = 'x'.repeat(24) + '-prod-key';
const SITES = 'https://ipdata.example,https://cn.ipdata.example';

function problemsOf(source: NodeJS.ProcessEnv): string[] {
  try {
    loadBillingConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('billing config', () => {
  it('refuses the sandbox provider in production, also with NODE_ENV=production or APP_ENV unset', () => {
    const base = { PAYMENT_SANDBOX_SECRET: STRONG_SECRET, CHECKOUT_RETURN_ORIGINS: SITES };
    for (const source of [
      { ...base, APP_ENV: 'production' },
      { ...base, APP_ENV: 'test', NODE_ENV: 'production' },
      { ...base, APP_ENV: 'development', NODE_ENV: 'production' },
      base,
    ]) {
      expect(problemsOf(source)).toEqual([expect.stringMatching(/^PAYMENT_PROVIDER: "sandbox" .* refused in production/)]);
    }
    expect(problemsOf({ ...base, APP_ENV: 'test' })).toEqual([]);
  });

  it('refuses secrets shorter than 32 characters', () => {
    const problems = problemsOf({ APP_ENV: 'test', PAYMENT_SANDBOX_SECRET: 'x'.repeat(31), CHECKOUT_RETURN_ORIGINS: SITES });
    expect(problems).toEqual(['PAYMENT_SANDBOX_SECRET: expected at least 32 characters']);
    expect(problemsOf({ APP_ENV: 'test', PAYMENT_SANDBOX_SECRET: 'x'.repeat(32), CHECKOUT_RETURN_ORIGINS: SITES })).toEqual([]);
  });

  it('refuses development secrets (current and retired) in production', () => {
    for (const secret of [DEVELOPMENT_VALUES.PAYMENT_SANDBOX_SECRET, 'sandbox-dev-secret']) {
      const problems = problemsOf({ APP_ENV: 'production', PAYMENT_SANDBOX_SECRET: secret, CHECKOUT_RETURN_ORIGINS: SITES });
      expect(problems).toContain('PAYMENT_SANDBOX_SECRET: a development value is refused in production (APP_ENV/NODE_ENV)');
    }
  });

  it('lists every problem at once and never echoes a secret', () => {
    const error = (() => {
      try {
        loadBillingConfig({
          APP_ENV: 'production',
          PAYMENT_SANDBOX_SECRET: 'short-secret-value',
          CHECKOUT_RETURN_ORIGINS: 'http://a.example',
        });
      } catch (caught) {
        return caught as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error.problems).toHaveLength(3);
    expect(error.message).not.toContain('short-secret-value');
  });

  it('fills development values only with APP_ENV=development, and binds the HTTP servers to loopback by default', () => {
    const config = loadBillingConfig({ APP_ENV: 'development' });
    expect(config.PAYMENT_SANDBOX_SECRET).toBe(DEVELOPMENT_VALUES.PAYMENT_SANDBOX_SECRET);
    expect(config.CHECKOUT_RETURN_ORIGINS).toBe('http://127.0.0.1:8081,http://127.0.0.1:8082');
    expect(config.SANDBOX_CHECKOUT_HOST).toBe('127.0.0.1');
    expect(config.WEBHOOK_HOST).toBe('127.0.0.1');
    const operatorSecret = 'set-by-operator-'.padEnd(40, 'x');
    expect(loadBillingConfig({ APP_ENV: 'development', PAYMENT_SANDBOX_SECRET: operatorSecret }).PAYMENT_SANDBOX_SECRET).toBe(
      operatorSecret,
    );
    expect(problemsOf({ APP_ENV: 'test' })).toEqual([
      expect.stringMatching(/^PAYMENT_SANDBOX_SECRET: missing/),
      expect.stringMatching(/^CHECKOUT_RETURN_ORIGINS: missing/),
    ]);
  });

  it('accepts only exact origins in CHECKOUT_RETURN_ORIGINS, and only https ones in production', () => {
    const test = { APP_ENV: 'test', PAYMENT_SANDBOX_SECRET: STRONG_SECRET };
    expect(problemsOf({ ...test, CHECKOUT_RETURN_ORIGINS: 'https://a.example/path,ftp://b.example,nonsense' })).toHaveLength(3);
    expect(problemsOf({ ...test, CHECKOUT_RETURN_ORIGINS: 'https://a.example/, http://127.0.0.1:8082' })).toEqual([]);
    expect(problemsOf({ ...test, NODE_ENV: 'production', CHECKOUT_RETURN_ORIGINS: 'http://a.example' })).toContain(
      'CHECKOUT_RETURN_ORIGINS: "http://a.example" is not https, refused in production',
    );
  });
});
