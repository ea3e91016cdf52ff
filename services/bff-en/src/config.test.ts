import { describe, expect, it } from 'vitest';
import { loadBffEnConfig } from './config.js';

const production = { APP_ENV: 'production', VISITOR_ID_SECRET: 'v'.repeat(40) };

describe('bff-en config', () => {
  it('serves with quota and ledger by default', () => {
    expect(loadBffEnConfig({ APP_ENV: 'development' }).PUBLIC_API_ACCOUNTING).toBe('on');
  });

  it('takes the benchmarks-only accounting modes outside production and refuses each in production', () => {
    for (const mode of ['off', 'quota-only', 'ledger-only']) {
      expect(loadBffEnConfig({ APP_ENV: 'development', PUBLIC_API_ACCOUNTING: mode }).PUBLIC_API_ACCOUNTING).toBe(mode);
      expect(() => loadBffEnConfig({ ...production, PUBLIC_API_ACCOUNTING: mode })).toThrow(
        `PUBLIC_API_ACCOUNTING: "${mode}" serves lookups without quota or usage events and is refused in production`,
      );
    }
    expect(() => loadBffEnConfig({ ...production, PUBLIC_API_ACCOUNTING: 'on' })).not.toThrow(/PUBLIC_API_ACCOUNTING/);
    expect(() => loadBffEnConfig({ APP_ENV: 'development', PUBLIC_API_ACCOUNTING: 'half' })).toThrow(/PUBLIC_API_ACCOUNTING/);
  });
});
