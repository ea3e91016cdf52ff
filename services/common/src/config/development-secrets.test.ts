import { describe, expect, it } from 'vitest';
import { isProductionEnv, weakSecretProblems, withDevelopmentValues } from './development-secrets.js';

const DEV = { SIGNING_SECRET: 'dev-only-signing-secret-not-for-production', ORIGINS: 'http://127.0.0.1:8081' };
const strong = 'k'.repeat(32);

describe('withDevelopmentValues', () => {
  it('fills unset and blank variables with APP_ENV=development', () => {
    const filled = withDevelopmentValues({ APP_ENV: 'development', ORIGINS: '  ' }, DEV);
    expect(filled).toEqual({ APP_ENV: 'development', SIGNING_SECRET: DEV.SIGNING_SECRET, ORIGINS: DEV.ORIGINS });
  });

  it('keeps values that are set', () => {
    expect(withDevelopmentValues({ APP_ENV: 'development', SIGNING_SECRET: strong }, DEV)['SIGNING_SECRET']).toBe(strong);
  });

  it.each([undefined, 'test', 'production', 'Development'])('fills nothing with APP_ENV=%s', (appEnv) => {
    const source = appEnv === undefined ? {} : { APP_ENV: appEnv };
    expect(withDevelopmentValues(source, DEV)).toEqual(source);
  });
});

describe('isProductionEnv', () => {
  it.each([
    [{}, true],
    [{ APP_ENV: 'production' }, true],
    [{ APP_ENV: 'staging' }, true],
    [{ APP_ENV: 'development' }, false],
    [{ APP_ENV: 'test' }, false],
    [{ APP_ENV: 'development', NODE_ENV: 'production' }, true],
    [{ APP_ENV: 'test', NODE_ENV: 'development' }, false],
  ])('%j → %s', (source, production) => {
    expect(isProductionEnv(source)).toBe(production);
  });
});

describe('weakSecretProblems', () => {
  const rules = { names: ['SIGNING_SECRET'], developmentValues: [DEV.SIGNING_SECRET, 'retired-dev-secret'] };

  it('accepts a long non-development secret in production', () => {
    expect(weakSecretProblems({ SIGNING_SECRET: strong }, { ...rules, production: true })).toEqual([]);
  });

  it('refuses a secret of 31 characters everywhere, without echoing it', () => {
    for (const production of [true, false]) {
      const problems = weakSecretProblems({ SIGNING_SECRET: 'x'.repeat(31) }, { ...rules, production });
      expect(problems).toEqual(['SIGNING_SECRET: expected at least 32 characters']);
    }
  });

  it('refuses development values (current and retired) in production only', () => {
    expect(weakSecretProblems({ SIGNING_SECRET: DEV.SIGNING_SECRET }, { ...rules, production: true })).toEqual([
      'SIGNING_SECRET: a development value is refused in production (APP_ENV/NODE_ENV)',
    ]);
    expect(weakSecretProblems({ SIGNING_SECRET: DEV.SIGNING_SECRET }, { ...rules, production: false })).toEqual([]);
    const retired = weakSecretProblems({ SIGNING_SECRET: 'retired-dev-secret' }, { ...rules, production: true });
    expect(retired).toHaveLength(2);
  });

  it('honours another minimum length and lists every secret', () => {
    const problems = weakSecretProblems(
      { A: 'short', B: 'y'.repeat(64) },
      { names: ['A', 'B', 'C'], developmentValues: [], minLength: 64, production: true },
    );
    expect(problems).toEqual(['A: expected at least 64 characters', 'C: missing, expected a secret of at least 64 characters']);
  });
});
